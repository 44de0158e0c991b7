"""The view node of the simulated phone's toolkit.

A view tree is *derived* state: apps rebuild it from their own (picklable)
state whenever the phone's revision changes, so views may hold closures and are
never snapshotted. One class with a `kind` tag keeps building and hit-testing
cheap; the painter draws by `kind`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from antrap_gym.device.elements import BoundingBox, UIElement

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1

ANDROID_CLASS = {
    "frame": "android.widget.FrameLayout",
    "linear": "android.widget.LinearLayout",
    "text": "android.widget.TextView",
    "button": "android.widget.Button",
    "icon_button": "android.widget.ImageButton",
    "image": "android.widget.ImageView",
    "edit": "android.widget.EditText",
    "switch": "android.widget.Switch",
    "checkbox": "android.widget.CheckBox",
    "radio": "android.widget.RadioButton",
    "slider": "android.widget.SeekBar",
    "spinner": "android.widget.Spinner",
    "list": "androidx.recyclerview.widget.RecyclerView",
    "hscroll": "android.widget.HorizontalScrollView",
    "chip": "com.google.android.material.chip.Chip",
    "tab": "android.widget.TextView",
    "row": "android.widget.LinearLayout",
    "toolbar": "android.view.ViewGroup",
    "dialog": "android.widget.FrameLayout",
    "menu": "android.widget.ListView",
    "fab": "android.widget.ImageButton",
    "key": "android.view.View",
    "scrim": "android.view.View",
    "card": "android.widget.FrameLayout",
    "clock_face": "com.google.android.material.timepicker.ClockFaceView",
    "tint_check": "android.widget.ImageView",
}


class View:
    """A node: geometry, accessibility flags, behaviour callbacks, paint hints."""

    __slots__ = (
        "checkable",
        "checked",
        "children",
        "clickable",
        "clip",
        "cls",
        "desc",
        "editable",
        "enabled",
        "field",
        "focusable",
        "focused",
        "hint",
        "icon",
        "kind",
        "long_clickable",
        "on_click",
        "on_drag",
        "on_gesture",
        "on_long_click",
        "on_scroll",
        "on_swipe",
        "package",
        "rect",
        "rid",
        "scroll_axis",
        "scrollable",
        "selected",
        "style",
        "text",
        "value",
    )

    def __init__(
        self,
        kind: str,
        rect: Rect,
        *,
        text: str | None = None,
        desc: str | None = None,
        rid: str | None = None,
        hint: str | None = None,
        icon: str | None = None,
        style: str = "",
        clickable: bool = False,
        long_clickable: bool = False,
        checkable: bool = False,
        checked: bool = False,
        enabled: bool = True,
        selected: bool = False,
        on_click: Callable[[], Any] | None = None,
        on_long_click: Callable[[], Any] | None = None,
        cls: str | None = None,
    ) -> None:
        self.kind = kind
        self.rect = rect
        self.clip = rect
        self.text = text
        self.desc = desc
        self.rid = rid
        self.hint = hint
        self.icon = icon
        self.style = style
        self.cls = cls or ANDROID_CLASS.get(kind, "android.view.View")
        self.children: list[View] = []
        self.clickable = clickable or on_click is not None
        self.long_clickable = long_clickable or on_long_click is not None
        self.checkable = checkable
        self.checked = checked
        self.enabled = enabled
        self.selected = selected
        self.focusable = self.clickable
        self.focused = False
        self.scrollable = False
        self.editable = False
        self.scroll_axis = ""
        self.on_click = on_click
        self.on_long_click = on_long_click
        self.on_scroll: Callable[[int], bool] | None = None
        self.on_drag: Callable[[int, int], Any] | None = None
        self.on_swipe: Callable[[str], bool] | None = None
        #: a view that reads a touch itself (a map that pans, a canvas drawn on): called with
        #: the gesture's start and end points, (x, y, x, y) for a tap
        self.on_gesture: Callable[[int, int, int, int], bool] | None = None
        self.field: str | None = None
        self.value: Any = None
        self.package: str | None = None

    def add(self, child: View) -> View:
        self.children.append(child)
        return child

    def walk(self) -> Iterator[View]:
        """Pre-order traversal (document order), without recursion."""
        stack = [self]
        while stack:
            v = stack.pop()
            yield v
            if v.children:
                stack.extend(reversed(v.children))

    @property
    def center(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.clip
        return (x0 + x1) // 2, (y0 + y1) // 2

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.clip
        return x0 <= x < x1 and y0 <= y < y1

    def to_element(self, package: str | None) -> UIElement:
        x0, y0, x1, y1 = self.clip
        # positional: this runs for every visible node on every state change
        return UIElement(
            self.text or None, self.desc or None, self.cls, BoundingBox(x0, x1, y0, y1),
            self.hint or None, self.checked, self.checkable, self.clickable, self.editable,
            self.enabled, self.focused, self.focusable, self.long_clickable, self.scrollable,
            self.selected, True, self.package or package, self.rid,
        )

    @property
    def meaningful(self) -> bool:
        """Exposed in the compact element list (text, description or interactive)."""
        return bool(
            self.kind == "menu"  # a popup menu's list: agents must see a menu is open
            or self.text
            or self.desc
            or self.clickable
            or self.long_clickable
            or self.editable
            or self.scrollable
            or self.checkable
        )

    def __repr__(self) -> str:
        label = self.text or self.desc or self.rid or ""
        return f"View({self.kind}, {label!r}, {self.clip})"


def intersect(a: Rect, b: Rect) -> Rect | None:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1)


def hit_test(view: View, x: float, y: float, want: str = "click") -> View | None:
    """The deepest, topmost view under (x, y) that handles `want`.

    `want` is one of click, long, scroll_v, scroll_h, drag, swipe, gesture. Disabled
    views are still returned (they eat the touch); callers check `enabled`.
    """
    if not view.contains(x, y):
        return None
    for child in reversed(view.children):
        hit = hit_test(child, x, y, want)
        if hit is not None:
            return hit
    return view if _handles(view, want) else None


def _handles(v: View, want: str) -> bool:
    if want == "click":
        return v.clickable or v.editable or v.on_gesture is not None
    if want == "long":
        return v.long_clickable or v.clickable or v.editable
    if want == "scroll_v":
        return v.on_scroll is not None and v.scroll_axis == "v"
    if want == "scroll_h":
        return v.on_scroll is not None and v.scroll_axis == "h"
    if want == "drag":
        return v.on_drag is not None
    if want == "swipe":
        return v.on_swipe is not None
    if want == "gesture":
        return v.on_gesture is not None
    return False
