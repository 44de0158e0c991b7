"""What a browser task page shows now, as conditions the plans' steps are `done` by.

A plan step that may already have happened (a deviated tap that pressed the button, a
toggle already on, the maze's X already past a cell) carries one of these as its `done`,
so whoever grounds the plan re-reads the page before each step instead of counting its
own taps. A condition reads only what a person sees: the accessibility elements
(`ui_elements()`) and, for a canvas, the screen's pixels (`screenshot()`). It takes
anything with those two methods: a Device (the simulated phone, an emulator) or the
headless Chromium driver of the tests; boxes are in screen pixels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from antrap_gym.tasks.steps import Target

if TYPE_CHECKING:
    from antrap_gym.device.elements import UIElement


class Screen(Protocol):
    def ui_elements(self) -> list[UIElement]: ...

    def screenshot(self) -> np.ndarray: ...


@dataclass(frozen=True)
class Shown:
    """A condition on the page as shown; `done=` of a plan step."""

    def __call__(self, screen: Screen) -> bool:
        return self.holds(screen.ui_elements(), screen)

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class CountAtLeast(Shown):
    """An element's whole text matches `pattern` and its first group, a number, is at
    least `n` (the tap counter's "Taps: 3", the progress "2 / 3")."""

    pattern: str
    n: int

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        rx = re.compile(self.pattern)
        for el in els:
            m = rx.fullmatch((el.text or "").strip())
            if m is not None:
                return int(m.group(1)) >= self.n
        return False


@dataclass(frozen=True)
class Showing(Shown):
    """The target is on the page (a toggle's row showing On, the brush's name)."""

    target: Target

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        return self.target.find(els) is not None


@dataclass(frozen=True)
class Holding(Shown):
    """The field `target` holds `text`: as it is, or as a password field shows it (one
    dot per character), which is all a password field tells."""

    target: Target
    text: str

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        el = self.target.find(els)
        shown = (el.text or "") if el is not None else None
        return shown is not None and shown in (self.text, "\u2022" * len(self.text))


@dataclass(frozen=True)
class Gone(Shown):
    """The page (an element showing `page`, its heading) is shown and no element shows
    `text` any more (a dismissed card's title). Off the page it does not hold: an
    absence elsewhere says nothing."""

    page: str
    text: str

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        texts = {el.text for el in els}
        return self.page in texts and self.text not in texts


@dataclass(frozen=True)
class AnyOf(Shown):
    parts: tuple[Shown, ...]

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        return any(p.holds(els, screen) for p in self.parts)


#: the maze page's geometry in CSS px (maze.html): cell, wall, the board's side, the
#: gap between the board and the Up button, the gap between the pad's buttons
MAZE_CELL, MAZE_WALL, MAZE_GAP, PAD_GAP = 56, 6, 16, 8


def maze_position(els: list[UIElement], size: int) -> tuple[int, int] | None:
    """The (row, column) of the maze's X, from where it is drawn relative to the pad's
    Up and Down buttons (the board sits centred right above the pad); None off the page.
    The scale (screen px per CSS px) comes from the pad itself: Up and Down are two
    button heights and two gaps apart, whatever the buttons' borders add."""
    def first(text: str) -> UIElement | None:
        return next((e for e in els if e.text == text and e.bbox_pixels is not None), None)

    x, up, down = first("X"), first("Up"), first("Down")
    if x is None or up is None or down is None:
        return None
    u = up.bbox_pixels
    gap = (down.bbox_pixels.y_min - u.y_min) / 2 - u.height
    if gap <= 0:
        return None
    s = gap / PAD_GAP
    pitch = (MAZE_CELL + MAZE_WALL) * s
    side = (size * (MAZE_CELL + MAZE_WALL) + MAZE_WALL) * s
    left = (u.x_min + u.x_max) / 2 - side / 2
    top = u.y_min - MAZE_GAP * s - side
    first_centre = (MAZE_WALL + MAZE_CELL / 2) * s
    cx, cy = x.center
    col, row = round((cx - left - first_centre) / pitch), round((cy - top - first_centre) / pitch)
    return (row, col) if 0 <= row < size and 0 <= col < size else None


@dataclass(frozen=True)
class MazeLeft(Shown):
    """The maze shows its X somewhere other than `cell`."""

    cell: tuple[int, int]
    size: int

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        at = maze_position(els, self.size)
        return at is not None and at != tuple(self.cell)


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[1:3], 16), int(hex_[3:5], 16), int(hex_[5:7], 16)


def colour_at(frame: np.ndarray, el: UIElement) -> tuple[int, int, int] | None:
    """The colour at the centre of `el` in the screenshot `frame` (None off the frame)."""
    x, y = el.center
    if not (0 <= y < frame.shape[0] and 0 <= x < frame.shape[1]):
        return None
    r, g, b = (int(v) for v in frame[y, x, :3])
    return r, g, b


def same_colour(a: tuple[int, int, int] | None, hex_: str, tolerance: int = 6) -> bool:
    return a is not None and all(abs(p - q) <= tolerance for p, q in zip(a, _rgb(hex_)))


@dataclass(frozen=True)
class Drawn(Shown):
    """The canvas `target` shows at least `pixels` screen pixels of `colour` (#rrggbb)."""

    target: Target
    colour: str
    pixels: int = 200

    def holds(self, els: list[UIElement], screen: Screen) -> bool:
        el = self.target.find(els)
        if el is None or el.bbox_pixels is None:
            return False
        b = el.bbox_pixels
        frame = np.asarray(screen.screenshot())
        area = frame[max(b.y_min, 0):max(b.y_max, 0), max(b.x_min, 0):max(b.x_max, 0), :3]
        if area.size == 0:
            return False
        # |pixel - colour| <= 6 in every channel, as bounds on each channel's bytes: no wider
        # copy, no reduction over the 3-wide channel axis (each cost more than the test, and
        # comparing the whole array at once is 2.7x slower than channel by channel)
        near = None
        for c, v in enumerate(_rgb(self.colour)):
            ch = area[..., c]
            ok = (ch >= max(v - 6, 0)) & (ch <= min(v + 6, 255))
            near = ok if near is None else near & ok
        return int(np.count_nonzero(near)) >= self.pixels


def elements_painted(screen: Any, els: list[UIElement], colour: str) -> list[UIElement]:
    """The unlabelled clickable elements whose centre is painted `colour`, in reading order."""
    frame = np.asarray(screen.screenshot())
    hits = [e for e in els if e.is_clickable and not e.text and not e.content_description
            and e.bbox_pixels is not None and e.bbox_pixels.width > 0
            and same_colour(colour_at(frame, e), colour)]
    return sorted(hits, key=lambda e: (e.bbox_pixels.y_min, e.bbox_pixels.x_min))


__all__ = ["AnyOf", "CountAtLeast", "Drawn", "Gone", "Holding", "MazeLeft", "Screen", "Showing", "Shown",
           "colour_at", "elements_painted", "maze_position", "same_colour"]
