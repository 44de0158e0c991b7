"""What changed on screen between two frames: the display list and its damage.

Each painted view becomes one entry, ``(chain, box)``: `chain` hashes everything that
decides the view's pixels (kind, geometry, text, state, style) together with its
ancestors' chain, its place among its siblings and its window's background, and `box`
is the screen area its drawing can touch (its rect with a margin, inside the clip it is
painted under). Two frames with the same entries at the same boxes have the same pixels
there, so the region to repaint is the union of the boxes that are in one frame's list
and not in the other's. The painter repaints only those boxes (`painter.render`); the
frame-by-frame equality with a full paint is tested over every template's oracle run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.toolkit.views import View

if TYPE_CHECKING:
    from antrap_gym.device.sim.wm import Window

Rect = tuple[int, int, int, int]
#: the kinds whose children are painted inside their clip (the painter's rule)
CLIPPING_KINDS = frozenset(("list", "hscroll", "dialog", "menu", "card"))
#: more damage rectangles than this are merged into their bounding box
MAX_RECTS = 4
#: a damaged area above this share of the screen is repainted whole
FULL_SHARE = 0.55


class DisplayList:
    """The entries of one frame, and the boxes the painter uses to skip subtrees."""

    __slots__ = ("entries", "own", "subtree")

    def __init__(self) -> None:
        self.entries: set[tuple[int, Rect]] = set()
        #: id(view) -> the box its own drawing touches / its subtree's union of boxes
        self.own: dict[int, Rect] = {}
        self.subtree: dict[int, Rect] = {}


def _union(a: Rect | None, b: Rect) -> Rect:
    if a is None:
        return b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def meet(a: Rect | None, b: Rect | None) -> Rect | None:
    """The intersection of two clips, None meaning unclipped (it may come out empty)."""
    if a is None:
        return b
    if b is None:
        return a
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _signature(v: View) -> int:
    value = v.value
    try:
        hash(value)
    except TypeError:
        value = object()  # not comparable: always damaged
    return hash((v.kind, v.rect, v.clip, v.text, v.desc, v.icon, v.style, v.hint, v.checked,
                 v.checkable, v.enabled, v.selected, v.focused, value))


def build(windows: list[tuple[Window, tuple]], extras: list[tuple[tuple, Rect]],
          screen: Rect, margin: int) -> DisplayList:
    """The display list of `windows` (each with its paint context: background, on-dark
    text, window fill) and of `extras` (the toast), boxes clipped to `screen`."""
    dl = DisplayList()
    entries, own, subtree = dl.entries, dl.own, dl.subtree
    for wi, (win, ctx) in enumerate(windows):
        # the window's paint context (background, fill) is in every one of its views'
        # chains; the root's box covers the fill
        _walk(win.root, hash(("window", wi, win.name, ctx)), 0, None, screen, margin, entries,
              own, subtree)
    for key, box in extras:
        entries.add((hash(key), meet(box, screen)))
    return dl


def _walk(v: View, parent_chain: int, index: int, clip: Rect | None, screen: Rect, margin: int,
          entries: set, own: dict, subtree: dict) -> Rect:
    chain = hash((parent_chain, index, _signature(v)))
    x0, y0, x1, y1 = v.rect
    box = meet((x0 - margin, y0 - margin, x1 + margin, y1 + margin), screen)
    if v.kind != "scrim":  # a scrim dims its whole rect, whatever the clip
        box = meet(box, clip)
    entries.add((chain, box))
    own[id(v)] = box
    sub = box
    if v.children:
        child_clip = v.clip if v.kind in CLIPPING_KINDS else clip
        for i, c in enumerate(v.children):
            sub = _union(sub, _walk(c, chain, i, child_clip, screen, margin, entries, own,
                                    subtree))
    subtree[id(v)] = sub
    return sub


def _area(r: Rect) -> int:
    return max(0, r[2] - r[0]) * max(0, r[3] - r[1])


def damage(old: DisplayList, new: DisplayList, screen: Rect) -> list[Rect] | None:
    """The rectangles to repaint to turn `old`'s pixels into `new`'s; None: repaint
    the whole screen (too much changed for a partial repaint to pay)."""
    changed = old.entries ^ new.entries
    rects: list[Rect] = []
    for _, box in changed:
        if box[2] > box[0] and box[3] > box[1]:
            rects.append(box)
    if not rects:
        return []
    rects = _merge(rects)
    if len(rects) > MAX_RECTS:
        whole = rects[0]
        for r in rects[1:]:
            whole = _union(whole, r)
        rects = [whole]
    if sum(_area(r) for r in rects) > FULL_SHARE * _area(screen):
        return None
    return rects


def _merge(rects: list[Rect]) -> list[Rect]:
    """Overlapping or touching rectangles merged until none overlap."""
    rects = sorted(set(rects))
    merged = True
    while merged and len(rects) > 1:
        merged = False
        out: list[Rect] = []
        for r in rects:
            for i, o in enumerate(out):
                if r[0] <= o[2] and o[0] <= r[2] and r[1] <= o[3] and o[1] <= r[3]:
                    out[i] = _union(o, r)
                    merged = True
                    break
            else:
                out.append(r)
        rects = out
    return rects
