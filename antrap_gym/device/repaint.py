"""Drawing on a copy of a screenshot in the simulated phone's own style, for any backend.

What a trap shows that is not there -- a label swapped for another, a switch or
checkbox in the other state, an icon button redrawn, a pop-up -- is drawn by
the simulated phone's painter, so it looks like the real thing. It needs only
the pixels and the elements' bounds, so one `Repainter` serves every backend
(`Device.repainter()`). Every method draws into the array it is given: pass a copy.
"""

from __future__ import annotations

import numpy as np

from antrap_gym.device.elements import BoundingBox
from antrap_gym.device.overlay import Overlay
from antrap_gym.device.sim.render import canvas as cv
from antrap_gym.device.sim.render.painter import DARK, LIGHT, Painter
from antrap_gym.device.sim.toolkit.views import View

Color = tuple[int, int, int]
#: the view kind that draws each checkable
CHECKABLE_KINDS = ("switch", "checkbox", "radio")


class Repainter:
    """Draws over a `screen_size` screenshot at the density the phone paints it."""

    def __init__(self, screen_size: tuple[int, int]) -> None:
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        self.density = self.screen_size[0] / 1080 * 2.625

    def relabel(self, img: np.ndarray, bounds: BoundingBox, text: str) -> None:
        """Paint over a text element and write `text` in its place, in its colours."""
        b = bounds
        bg = background_of(img, b)
        ink = ink_of(img, b, bg)
        cv.fill(img, (b.x_min, b.y_min, b.x_max, b.y_max), bg)
        size = max(8, min(round(16 * self.density), int(b.height * 0.6)))
        m = cv.text_mask(text, size)
        y = b.y_min + (b.height - m.shape[0]) // 2
        cv.text(img, text, b.x_min, y, size, ink, (b.x_min, b.y_min, b.x_max, b.y_max), bg=bg)

    def checkable(self, img: np.ndarray, bounds: BoundingBox, kind: str, checked: bool,
                  dark: bool | None = None) -> None:
        """Draw a `kind` (switch, checkbox, radio) in the given state over its bounds;
        `dark`: the dark theme (None: judged from the picture)."""
        if kind not in CHECKABLE_KINDS:
            raise ValueError(f"not a checkable kind: {kind!r} (one of {', '.join(CHECKABLE_KINDS)})")
        self._view(img, bounds, View(kind, _rect(bounds), checkable=True, checked=checked), dark)

    def icon_button(self, img: np.ndarray, bounds: BoundingBox, icon: str, checkable: bool = False,
                    checked: bool = False, dark: bool | None = None) -> None:
        """Draw an icon button (its icon, in its state's colour) over its bounds."""
        self._view(img, bounds, View("icon_button", _rect(bounds), icon=icon, checkable=checkable,
                                     checked=checked), dark)

    def overlay(self, img: np.ndarray, overlay: Overlay, dark: bool = False) -> None:
        """Draw a pop-up (and its scrim) over the picture, laid out as the phone shows it."""
        from antrap_gym.device.virtual import VirtualOverlays

        shown = VirtualOverlays(self.screen_size)
        shown.show(overlay, dark=dark)
        np.copyto(img, shown.composite(img))

    def _view(self, img: np.ndarray, bounds: BoundingBox, v: View, dark: bool | None) -> None:
        """Paint `v` alone over its bounds, on what lay behind them."""
        dark = is_dark(img) if dark is None else dark
        bg = background_of(img, bounds)
        cv.fill(img, v.rect, bg)
        Painter(img, DARK if dark else LIGHT, self.density, {}).draw(v, None, bg)


def _rect(b: BoundingBox) -> tuple[int, int, int, int]:
    return (b.x_min, b.y_min, b.x_max, b.y_max)


def is_dark(img: np.ndarray) -> bool:
    """Whether a screenshot is of the dark theme (its mean brightness)."""
    return float(img[::16, ::16].mean()) < 100


def background_of(img: np.ndarray, b: BoundingBox) -> Color:
    """The most common colour on a box's border (what lies behind its content)."""
    h, w = img.shape[:2]
    x0, x1 = max(0, b.x_min), min(w, b.x_max)
    y0, y1 = max(0, b.y_min), min(h, b.y_max)
    if x1 <= x0 or y1 <= y0:
        return (255, 255, 255)
    ring = np.concatenate([img[y0, x0:x1], img[y1 - 1, x0:x1], img[y0:y1, x0], img[y0:y1, x1 - 1]])
    colors, counts = np.unique(ring.reshape(-1, 3), axis=0, return_counts=True)
    return tuple(int(c) for c in colors[int(np.argmax(counts))])


def ink_of(img: np.ndarray, b: BoundingBox, bg: Color) -> Color:
    """The colour farthest from the background inside a box (the text's colour)."""
    region = img[max(0, b.y_min):b.y_max, max(0, b.x_min):b.x_max].reshape(-1, 3).astype(int)
    if region.size == 0:
        return (0, 0, 0)
    d = np.abs(region - np.array(bg)).sum(axis=1)
    return tuple(int(c) for c in region[int(np.argmax(d))])
