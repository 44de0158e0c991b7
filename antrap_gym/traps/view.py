"""What the agent is shown, as the trap stack builds it up.

Traps that change the picture or the elements work on the observation the
inner traps produced, not on the phone's own elements, so stacked traps
compose in either order: the serialized `ui_elements` are read back line by
line (each line keeps its index, so an element an inner trap removed stays
removed and an index still means what the phone means by it), and the parts of
the screenshot an inner trap covered are noted per step, so an outer trap does
not paint a crisp label over a blur.
"""

from __future__ import annotations

import re
import weakref
from typing import Any, NamedTuple

from antrap_gym.device.elements import BoundingBox, UIElement, element_line, parse_element_lines

Rect = tuple[int, int, int, int]
_INDEX = re.compile(r"^\[(\d+)\]")


class Entry(NamedTuple):
    index: int  # the element's index on the phone (what `click index=` means)
    element: UIElement
    line: str


def entries(text: str) -> list[Entry]:
    """The serialized elements read back, one entry per line, in order."""
    out = []
    for line in text.splitlines():
        m = _INDEX.match(line)
        if m is None:
            continue
        els = parse_element_lines(line)
        if els:
            out.append(Entry(int(m.group(1)), els[0], line))
    return out


def render(items: list[Entry]) -> str:
    return "\n".join(e.line for e in items)


def replaced(items: list[Entry], index: int, element: UIElement) -> list[Entry]:
    """The entries with element `index` (its line) replaced."""
    return [Entry(e.index, element, element_line(e.index, element)) if e.index == index else e
            for e in items]


# --- covered parts of the screenshot, per step ------------------------------------------------
#: base env -> (agent step, rectangles an inner trap blurred or covered at that step)
_COVERS: weakref.WeakKeyDictionary[Any, tuple[int, list[Rect]]] = weakref.WeakKeyDictionary()


def add_cover(base: Any, step: int, rect: Rect) -> None:
    prev = _COVERS.get(base)
    rects = list(prev[1]) if prev is not None and prev[0] == step else []
    _COVERS[base] = (step, [*rects, rect])


def covers(base: Any, step: int) -> list[Rect]:
    prev = _COVERS.get(base)
    return list(prev[1]) if prev is not None and prev[0] == step else []


def clear_covers(base: Any) -> None:
    _COVERS.pop(base, None)


def overlaps(b: BoundingBox | None, rect: Rect) -> bool:
    if b is None:
        return False
    return min(b.x_max, rect[2]) > max(b.x_min, rect[0]) and \
        min(b.y_max, rect[3]) > max(b.y_min, rect[1])
