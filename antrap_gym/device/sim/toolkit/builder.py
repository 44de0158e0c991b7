"""A small layout builder: apps describe a screen top to bottom, it places views.

Apps call `ui.toolbar(...)`, `with ui.scroll("list"): ui.row(...)`, `ui.edit(...)`.
The builder keeps a vertical cursor, applies scroll offsets kept in the
activity's state, clips to viewports, and wires callbacks to the phone.
Sizes are Material metrics in dp, scaled by the screen's density.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit import textmenu
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.toolkit.views import Rect, View, intersect

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen

Callback = Callable[[], Any]

# text sizes in sp
SP_TITLE = 22
SP_BODY = 16
SP_SMALL = 14
SP_CAPTION = 12


#: the layout bottom inside a scrolling list (its content has no end)
SCROLLING = 10**9


@dataclass
class BarAction:
    """An icon action in the app bar; `checked` makes it a toggle (e.g. a star)."""

    icon: str
    desc: str
    on_click: Callback
    checked: bool | None = None
    rid: str | None = None


@lru_cache(maxsize=8)
def _scaler(density: float) -> Callable[[float], int]:
    """dp -> px for one density, memoised (layout calls it tens of thousands of times)."""

    @lru_cache(maxsize=1024)
    def scale(v: float) -> int:
        return round(v * density)

    return scale


class UI:
    """Builds one window's view tree for an activity (or a system window)."""

    def __init__(self, phone: PhoneContext, activity: Screen | None, rect: Rect, package: str) -> None:
        self.phone = phone
        self.activity = activity
        self.density = phone.density
        self.dp = self.sp = _scaler(phone.density)  # type: ignore[method-assign]
        self.package = package
        self.root = View("frame", rect)
        self.root.package = package
        self.rect = rect
        self._parent = self.root
        self._x0, self._x1 = rect[0], rect[2]
        self._y = rect[1]
        self._bottom = rect[3]
        self._clip: Rect = rect
        self._floating: list[View] = []

    # --- units & placement ------------------------------------------------
    def dp(self, v: float) -> int:
        return round(v * self.density)

    sp = dp  # text scales like layout on the simulated phone (font scale 1.0)

    @property
    def y(self) -> int:
        return self._y

    @property
    def remaining(self) -> int:
        return self._bottom - self._y

    def mk(self, kind: str, rect: Rect, parent: View | None = None, **kw: Any) -> View:
        """Create a view, clip it to the current viewport, attach it if visible."""
        v = View(kind, rect, **kw)
        # the clip by hand: comparisons are several times cheaper than max()/min() calls,
        # and this runs for every view of every rebuild
        c = self._clip
        rx0, ry0, rx1, ry1 = rect
        cx0, cy0, cx1, cy1 = c
        x0 = rx0 if rx0 > cx0 else cx0
        y0 = ry0 if ry0 > cy0 else cy0
        x1 = rx1 if rx1 < cx1 else cx1
        y1 = ry1 if ry1 < cy1 else cy1
        if x1 > x0 and y1 > y0:
            if x0 != rx0 or y0 != ry0 or x1 != rx1 or y1 != ry1:
                v.clip = (x0, y0, x1, y1)  # else View's own: the rect
            (parent or self._parent).children.append(v)
        else:
            v.clip = (rx0, ry0, rx0, ry0)
        return v

    def _take(self, h: int) -> Rect:
        r = (self._x0, self._y, self._x1, self._y + h)
        self._y += h
        return r

    def set_y(self, y: int) -> None:
        """Move the cursor (after placing views by hand, e.g. a grid)."""
        self._y = y

    def spacer(self, dp: float) -> None:
        self._y += self.dp(dp)

    def finish(self) -> View:
        for f in self._floating:
            self.root.children.append(f)
        self._floating.clear()
        return self.root

    # --- containers -------------------------------------------------------
    @contextmanager
    def scroll(self, key: str, height: int | None = None, rid: str | None = None) -> Iterator[View]:
        """A vertical scrolling list filling the rest of the window (or `height` px)."""
        act = self.activity
        top = self._y
        bottom = self._bottom if height is None else min(self._bottom, top + height)
        lst = self.mk("list", (self._x0, top, self._x1, bottom), rid=rid)
        offset = act.scroll.get(key, 0) if act is not None else 0
        saved = (self._parent, self._y, self._clip, self._bottom)
        self._parent, self._y, self._bottom = lst, top - offset, SCROLLING
        self._clip = intersect(lst.rect, saved[2]) or (0, 0, 0, 0)
        try:
            yield lst
        finally:
            content_h = self._y + offset - top
            self._parent, _, self._clip, self._bottom = saved
            self._y = bottom
        max_off = max(0, content_h - (bottom - top))
        if offset > max_off and act is not None:
            # content shrank under a scrolled list: clamp and lay out again
            act.scroll[key] = max_off
            self.phone.request_relayout()
        lst.scrollable = max_off > 0
        lst.scroll_axis = "v"
        lst.value = (offset, max_off)
        if act is not None:
            phone = self.phone
            lst.on_scroll = lambda delta: phone.scroll_state(act, key, delta, max_off)

    def chips(
        self,
        key: str,
        labels: list[str],
        selected: int,
        on_select: Callable[[int], Any],
        rid: str | None = None,
    ) -> View:
        """A horizontal row of filter chips that scrolls sideways when it overflows."""
        act = self.activity
        h = self.dp(56)
        r = self._take(h)
        row = self.mk("hscroll", r, rid=rid)
        offset = act.scroll.get(key, 0) if act is not None else 0
        pad, gap, size = self.dp(16), self.dp(8), self.sp(SP_SMALL)
        x = r[0] + pad - offset
        cy0, cy1 = r[1] + self.dp(12), r[3] - self.dp(12)
        saved = self._clip
        self._clip = intersect(r, saved) or (0, 0, 0, 0)
        for i, label in enumerate(labels):
            w = txt.text_width(label, size) + self.dp(32)
            self.mk(
                "chip",
                (x, cy0, x + w, cy1),
                row,
                text=label,
                checkable=True,
                checked=i == selected,
                selected=i == selected,
                on_click=(lambda i=i: on_select(i)),
            )
            x += w + gap
        self._clip = saved
        content_w = x + offset - gap + pad - r[0]
        max_off = max(0, content_w - (r[2] - r[0]))
        row.scrollable = max_off > 0
        row.scroll_axis = "h"
        row.value = (offset, max_off)
        if act is not None:
            phone = self.phone
            row.on_scroll = lambda delta: phone.scroll_state(act, key, delta, max_off)
        return row

    # --- widgets ----------------------------------------------------------
    def toolbar(
        self,
        title: str,
        *,
        back: bool | Callback = False,
        actions: list[tuple[str, str, Callback] | BarAction] | None = None,
        menu: list[Choice] | None = None,
        button: tuple[str, Callback] | None = None,
        rid: str | None = None,
        nav: BarAction | None = None,
    ) -> View:
        """The app bar: Up, title, icon actions, a text button (e.g. Save), overflow menu.
        `nav` is another navigation button in Up's place (a drawer's hamburger, an action
        mode's close)."""
        h = self.dp(64)
        r = self._take(h)
        bar = self.mk("toolbar", r, rid=rid)
        x = r[0] + self.dp(16)
        icon = self.dp(48)
        cy0 = r[1] + (h - icon) // 2
        if nav is not None:
            self.mk("icon_button", (r[0] + self.dp(4), cy0, r[0] + self.dp(4) + icon, cy0 + icon),
                    bar, desc=nav.desc, icon=nav.icon, on_click=nav.on_click, rid=nav.rid)
            x = r[0] + self.dp(60)
        elif back:
            cb = back if callable(back) else self._up
            self.mk(
                "icon_button",
                (r[0] + self.dp(4), cy0, r[0] + self.dp(4) + icon, cy0 + icon),
                bar,
                desc="Navigate up",
                icon="arrow_back",
                on_click=cb,
            )
            x = r[0] + self.dp(60)
        right = r[2] - self.dp(4)
        if menu:
            act, phone = self.activity, self.phone
            right -= icon
            mx = right + icon // 2
            self.mk(
                "icon_button",
                (right, cy0, right + icon, cy0 + icon),
                bar,
                desc="More options",
                icon="more_vert",
                on_click=lambda: phone.open_popup(act, Menu(list(menu), (mx, r[3]))),
            )
        if button is not None:
            label, cb = button
            w = txt.text_width(label, self.sp(SP_SMALL)) + self.dp(48)
            self.mk("button", (right - w, r[1] + self.dp(12), right, r[3] - self.dp(12)), bar,
                    text=label, style="filled", on_click=cb)
            right -= w + self.dp(8)
        for a in reversed(actions or []):
            a = a if isinstance(a, BarAction) else BarAction(*a)
            right -= icon
            v = self.mk("icon_button", (right, cy0, right + icon, cy0 + icon), bar, desc=a.desc,
                        icon=a.icon, on_click=a.on_click, rid=a.rid)
            if a.checked is not None:
                v.checkable, v.checked = True, a.checked
        self.mk(
            "text",
            (x, r[1], right - self.dp(8), r[3]),
            bar,
            text=title,  # the full title: ellipsis is only how it is drawn
            style="title",
            rid=f"{self.package}:id/toolbar_title",
        )
        return bar

    def _up(self) -> None:
        if self.activity is not None:
            self.phone.finish_activity(self.activity)

    def culled(self, r: Rect) -> bool:
        """Whether a rect lies wholly outside the current viewport."""
        c = self._clip
        return r[3] <= c[1] or r[1] >= c[3] or r[2] <= c[0] or r[0] >= c[2]

    def header(self, text: str) -> View:
        r = self._take(self.dp(48))
        return self.mk("text", (r[0] + self.dp(16), r[1], r[2] - self.dp(16), r[3]), text=text,
                       style="header")

    def text(self, s: str, *, style: str = "body", rid: str | None = None, pad: float = 16) -> View:
        size = self.sp({"body": SP_BODY, "title": SP_TITLE, "small": SP_SMALL,
                        "caption": SP_CAPTION}.get(style, SP_BODY))
        w = self._x1 - self._x0 - 2 * self.dp(pad)
        lines = txt.wrap(s, size, max(w, 1)) if s else ((0, 0),)
        h = len(lines) * txt.line_height(size) + self.dp(12)
        r = self._take(h)
        if self.culled(r):
            return View("text", r, text=s)
        return self.mk("text", (r[0] + self.dp(pad), r[1], r[2] - self.dp(pad), r[3]), text=s,
                       style=style, rid=rid)

    def row(
        self,
        title: str,
        summary: str | None = None,
        *,
        icon: str | None = None,
        on_click: Callback | None = None,
        on_long_click: Callback | None = None,
        trailing: tuple | None = None,
        rid: str | None = None,
        selected: bool = False,
        enabled: bool = True,
        avatar: str | None = None,
    ) -> View:
        """A list item: optional icon/avatar, title, summary, optional trailing widget.

        trailing: ("switch", checked, cb) | ("checkbox", checked, cb) |
        ("radio", checked) | ("star", on, cb, desc) | ("text", value) |
        ("menu", None, cb, desc, rid) (an overflow button of the row's own)
        """
        h = self.dp(72 if summary else 56)
        r = self._take(h)
        if self.culled(r):  # scrolled out of view: keep the layout, skip the views
            return View("row", r)
        kind_cb = trailing[2] if trailing and len(trailing) > 2 else None
        click = on_click or kind_cb
        row = self.mk("row", r, on_click=click, on_long_click=on_long_click, rid=rid,
                      selected=selected, enabled=enabled)
        x = r[0] + self.dp(16)
        if icon or avatar:
            s = self.dp(40)
            iy = r[1] + (h - s) // 2
            if avatar is not None:
                self.mk("image", (x, iy, x + s, iy + s), row, icon="avatar", style=avatar)
            else:
                self.mk("image", (x, iy, x + s, iy + s), row, icon=icon)
            x += s + self.dp(16)
        right = r[2] - self.dp(16)
        if trailing:
            right = self._trailing(row, trailing, r, right)
        if summary:
            mid = r[1] + h // 2
            self.mk("text", (x, r[1] + self.dp(10), right, mid + self.dp(2)), row,
                    text=title, style="row_title")
            self.mk("text", (x, mid + self.dp(2), right, r[3] - self.dp(10)), row,
                    text=summary, style="summary")
        else:
            self.mk("text", (x, r[1], right, r[3]), row, text=title, style="row_title")
        return row

    def _trailing(self, row: View, trailing: tuple, r: Rect, right: int) -> int:
        kind = trailing[0]
        h = r[3] - r[1]
        if kind == "switch":
            w, sh = self.dp(52), self.dp(32)
            y0 = r[1] + (h - sh) // 2
            self.mk("switch", (right - w, y0, right, y0 + sh), row, checkable=True,
                    checked=bool(trailing[1]), on_click=trailing[2])
            return right - w - self.dp(16)
        if kind in ("checkbox", "radio"):
            s = self.dp(40)
            y0 = r[1] + (h - s) // 2
            cb = trailing[2] if len(trailing) > 2 else None
            self.mk(kind, (right - s, y0, right, y0 + s), row, checkable=True,
                    checked=bool(trailing[1]), on_click=cb)
            return right - s - self.dp(16)
        if kind == "star":
            s = self.dp(48)
            y0 = r[1] + (h - s) // 2
            self.mk("icon_button", (right - s, y0, right, y0 + s), row,
                    icon="star" if trailing[1] else "star_border",
                    desc=trailing[3] if len(trailing) > 3 else "Favourite",
                    checkable=True, checked=bool(trailing[1]), on_click=trailing[2])
            return right - s - self.dp(8)
        if kind == "menu":  # a row's own overflow button (a song's, a video's)
            s = self.dp(48)
            y0 = r[1] + (h - s) // 2
            self.mk("icon_button", (right - s, y0, right, y0 + s), row, icon="more_vert",
                    desc=trailing[3] if len(trailing) > 3 else "More options",
                    rid=trailing[4] if len(trailing) > 4 else None, on_click=trailing[2])
            return right - s - self.dp(8)
        if kind == "text":
            size = self.sp(SP_SMALL)
            w = txt.text_width(str(trailing[1]), size) + self.dp(4)
            self.mk("text", (right - w, r[1], right, r[3]), row, text=str(trailing[1]),
                    style="summary")
            return right - w - self.dp(16)
        raise ValueError(f"unknown trailing widget {kind!r}")

    def switch_row(self, title: str, checked: bool, on_toggle: Callback, summary: str | None = None,
                   rid: str | None = None) -> View:
        return self.row(title, summary, trailing=("switch", checked, on_toggle), rid=rid)

    def slider(
        self,
        label: str,
        value: float,
        lo: float,
        hi: float,
        on_change: Callable[[float], Any],
        *,
        value_text: str | None = None,
        rid: str | None = None,
        step: float = 1,
    ) -> View:
        """A labelled SeekBar; dragging or tapping on the track sets the value."""
        self.mk("text", self._pad(self._take(self.dp(40))), text=label, style="row_title")
        if value_text is not None:
            self.mk("text", self._pad(self._take(self.dp(28))), text=value_text, style="summary")
        r = self._take(self.dp(56))
        track = (r[0] + self.dp(24), r[1], r[2] - self.dp(24), r[3])
        sl = self.mk("slider", track, desc=label, rid=rid)
        sl.value = (value, lo, hi)
        sl.focusable = True
        sl.scrollable = False

        def set_from_x(x: int) -> None:
            frac = min(1.0, max(0.0, (x - track[0]) / max(1, track[2] - track[0])))
            v = lo + frac * (hi - lo)
            on_change(round(v / step) * step if step else v)

        sl.on_drag = lambda x0, x1: set_from_x(x1)
        sl.on_click = lambda: None  # taps are routed through on_drag with the tap x
        sl.clickable = True
        return sl

    def _pad(self, r: Rect, dp: float = 16) -> Rect:
        return (r[0] + self.dp(dp), r[1], r[2] - self.dp(dp), r[3])

    def edit(
        self,
        field: str,
        hint: str = "",
        *,
        label: str | None = None,
        multiline: bool = False,
        height: int | None = None,
        rid: str | None = None,
        style: str = "outlined",
    ) -> View:
        """An EditText bound to `activity.fields[field]`; the IME edits it in place."""
        act = self.activity
        value = act.fields.get(field, "") if act is not None else ""
        if label:
            self.mk("text", self._pad(self._take(self.dp(32))), text=label, style="caption")
        if multiline and height is not None:
            h = height
        elif multiline and self._bottom < SCROLLING:
            h = self.remaining - self.dp(8)  # fill the window below
        elif multiline:
            # in a scrolling form there is no "below": grow with the text, 3 lines at least
            size = self.sp(SP_BODY)
            # the text's width: the box's 16 dp margins, then the painter's 16 dp left
            # and 12 dp right padding inside it
            width = self._x1 - self._x0 - self.dp(16 + 16 + 16 + 12)
            lines = max(3, len(txt.wrap(value, size, max(1, width))))
            h = lines * txt.line_height(size) + self.dp(24)
        else:
            h = self.dp(56)
        r = self._take(h + self.dp(8))
        box = (r[0] + self.dp(16), r[1] + self.dp(4), r[2] - self.dp(16), r[1] + self.dp(4) + h)
        v = self.mk("edit", box, text=value, hint=hint or None, rid=rid, style=style)
        v.editable = True
        v.focusable = True
        v.clickable = True
        v.long_clickable = True
        v.field = field
        v.focused = act is not None and act.focus == field and self.phone.ime_shown
        v.value = (multiline, act.cursors.get(field, len(value)) if v.focused else None)
        if act is not None:
            phone = self.phone
            v.on_long_click = lambda: textmenu.long_press(phone, act, field, (box[0] + box[2]) // 2,
                                                          box[1])
        return v

    def spinner(self, value: str, on_click: Callback, *, desc: str | None = None,
                rid: str | None = None, width: float | None = None) -> View:
        """A Spinner (drop-down): shows the chosen `value`; a tap calls `on_click`, which
        usually opens the choices as a single-choice Dialog. `width` (dp) makes it a
        compact one at the left, as under a form field; else it spans the row."""
        r = self._take(self.dp(56))
        x0 = r[0] + self.dp(16)
        x1 = x0 + self.dp(width) if width else r[2] - self.dp(16)
        return self.mk("spinner", (x0, r[1] + self.dp(4), x1, r[3] - self.dp(4)), text=value,
                       desc=desc, rid=rid, on_click=on_click)

    def search(self, field: str, hint: str = "Search", rid: str | None = None) -> View:
        return self.edit(field, hint, rid=rid, style="search")

    def button(self, text: str, on_click: Callback, *, style: str = "filled",
               rid: str | None = None, enabled: bool = True) -> View:
        r = self._take(self.dp(64))
        w = txt.text_width(text, self.sp(SP_SMALL)) + self.dp(48)
        x1 = r[2] - self.dp(16)
        return self.mk("button", (x1 - w, r[1] + self.dp(8), x1, r[3] - self.dp(8)), text=text,
                       style=style, on_click=on_click, rid=rid, enabled=enabled)

    def button_bar(self, buttons: list[tuple[str, Callback, str]]) -> list[View]:
        """Buttons right-aligned on one line (dialog style)."""
        r = self._take(self.dp(64))
        x1 = r[2] - self.dp(16)
        out = []
        for label, cb, style in reversed(buttons):
            w = txt.text_width(label, self.sp(SP_SMALL)) + self.dp(40)
            out.append(self.mk("button", (x1 - w, r[1] + self.dp(8), x1, r[3] - self.dp(8)),
                               text=label, style=style, on_click=cb))
            x1 -= w + self.dp(8)
        return out[::-1]

    def tabs(self, labels: list[str], selected: int, on_select: Callable[[int], Any]) -> View:
        r = self._take(self.dp(48))
        bar = self.mk("linear", r)
        w = (r[2] - r[0]) // max(1, len(labels))
        for i, label in enumerate(labels):
            self.mk("tab", (r[0] + i * w, r[1], r[0] + (i + 1) * w, r[3]), bar, text=label,
                    selected=i == selected, on_click=(lambda i=i: on_select(i)))
        return bar

    def image(self, path: str, *, rect: Rect | None = None, height: int | None = None,
              crop: bool = False, desc: str | None = None, on_click: Callback | None = None,
              on_long_click: Callback | None = None, rid: str | None = None) -> View:
        """An ImageView showing an image file's pixels (a photo, a receipt): placed at
        `rect`, or taking `height` px (default: the rest of the window) from the cursor.
        The painter decodes the file's bytes; `crop` fills the box (a thumbnail), else the
        picture is scaled to fit. Its content-desc is the file name unless `desc` is given."""
        if rect is None:
            rect = self._take(self.remaining if height is None else height)
        name = desc if desc is not None else path.rsplit("/", 1)[-1]
        if self.culled(rect):  # out of view: no element, no read
            return View("picture", rect, desc=name)
        v = self.mk("picture", rect, desc=name, rid=rid, on_click=on_click,
                    on_long_click=on_long_click, cls="android.widget.ImageView",
                    style="crop" if crop else "fit")
        try:
            v.value = self.phone.fs.read(path)
        except Exception:  # gone or unreadable: drawn as a broken image
            v.value = b""
        return v

    def vector(self, shapes: tuple, *, background: tuple[int, int, int] = (255, 255, 255),
               rect: Rect | None = None, height: int | None = None, desc: str | None = None,
               rid: str | None = None, cls: str = "android.view.View",
               on_gesture: Callable[[int, int, int, int], bool] | None = None) -> View:
        """A drawing (a map's roads, a canvas's strokes): `shapes` in the view's own pixels
        (`render/vector.py` lists them; tuples only, so the value hashes), painted over
        `background`; placed at `rect`, or taking `height` px (default: the rest of the
        window). `on_gesture(x0, y0, x1, y1)` gets the touches that start on it, a tap as
        a gesture of no length, and says whether it used one."""
        if rect is None:
            rect = self._take(self.remaining if height is None else height)
        v = self.mk("vector", rect, desc=desc, rid=rid, cls=cls)
        v.value = (tuple(background), tuple(shapes))
        v.on_gesture = on_gesture
        v.clickable = v.focusable = on_gesture is not None
        return v

    def divider(self) -> None:
        r = self._take(self.dp(1))
        self.mk("divider", r)

    def empty(self, message: str) -> View:
        r = (self._x0, self._y, self._x1, self._bottom)
        return self.mk("text", r, text=message, style="empty")

    def bubble(self, text: str, outgoing: bool, *, on_long_click: Callback | None = None,
               rid: str | None = None) -> View:
        """A chat message: its text wrapped in a rounded box at most 3/4 of the row wide,
        at the right when `outgoing`, else at the left (a messaging app's thread)."""
        size, pad, vpad = self.sp(SP_BODY), self.dp(12), self.dp(10)
        avail = max(1, (self._x1 - self._x0) * 3 // 4 - 2 * pad)
        lines = txt.wrap(text, size, avail) if text else ((0, 0),)
        w = max(txt.text_width(text[a:b], size) for a, b in lines) + 2 * pad
        h = len(lines) * txt.line_height(size) + 2 * vpad
        r = self._take(h + self.dp(8))
        if self.culled(r):
            return View("bubble", r, text=text)
        x0 = self._x1 - self.dp(16) - w if outgoing else self._x0 + self.dp(16)
        box = (x0, r[1] + self.dp(4), x0 + w, r[1] + self.dp(4) + h)
        return self.mk("bubble", box, text=text, rid=rid, on_long_click=on_long_click,
                       style="outgoing" if outgoing else "incoming", cls="android.widget.TextView")

    def fab(self, icon: str, desc: str, on_click: Callback, *, text: str | None = None,
            rid: str | None = None) -> View:
        """A floating action button at the bottom right of the window."""
        s = self.dp(56)
        w = s if not text else txt.text_width(text, self.sp(SP_SMALL)) + self.dp(72)
        x1, y1 = self.rect[2] - self.dp(16), self.rect[3] - self.dp(16)
        v = View("fab", (x1 - w, y1 - s, x1, y1), desc=desc, icon=icon, text=text,
                 on_click=on_click, rid=rid)
        self._floating.append(v)
        return v


# --- popups (a window of their own) ----------------------------------------------


def build_popup(phone: PhoneContext, activity: Screen, popup: Dialog | Menu, screen: Rect,
                package: str) -> View:
    """The window for an activity's dialog or menu: a scrim plus the card."""
    ui = UI(phone, activity, screen, package)
    scrim = ui.mk("scrim", screen, style="dim" if isinstance(popup, Dialog) else "clear")
    cancel = getattr(popup, "cancelable", True)
    scrim.on_click = (lambda: phone.close_popup(activity)) if cancel else (lambda: None)
    scrim.clickable = False  # a touch outside is not an accessible action
    if hasattr(popup, "build_card"):  # a popup that lays out its own card (toolkit/pickers.py)
        popup.build_card(ui, screen)
    elif isinstance(popup, Menu):
        _menu_card(ui, popup, screen)
    else:
        _dialog_card(ui, popup, screen)
    return ui.finish()


def _menu_card(ui: UI, menu: Menu, screen: Rect) -> None:
    item_h = ui.dp(48)
    size = ui.sp(SP_BODY)
    w = max([txt.text_width(c.label, size) for c in menu.items] + [ui.dp(112)]) + ui.dp(48)
    w = min(w, screen[2] - screen[0] - ui.dp(32))
    h = item_h * len(menu.items) + ui.dp(16) + (item_h if menu.title else 0)
    ax, ay = menu.anchor
    x0 = min(max(screen[0] + ui.dp(8), ax - w // 2), screen[2] - w - ui.dp(8))
    y0 = min(max(screen[1] + ui.dp(8), ay), screen[3] - h - ui.dp(8))
    card = ui.mk("menu", (x0, y0, x0 + w, y0 + h))
    y = y0 + ui.dp(8)
    if menu.title:
        ui.mk("text", (x0 + ui.dp(16), y, x0 + w - ui.dp(16), y + item_h), card, text=menu.title,
              style="caption", rid="android:id/title")
        y += item_h
    phone, act = ui.phone, ui.activity
    for c in menu.items:
        ui.mk("text", (x0, y, x0 + w, y + item_h), card, text=c.label, style="menu_item",
              on_click=(lambda c=c: phone.choose(act, c)))
        y += item_h


def _choice_rows(ui: UI, dlg: Dialog, x0: int, w: int) -> None:
    """A dialog's single-choice rows, from the cursor down (culled when scrolled away)."""
    phone, act = ui.phone, ui.activity
    for i, c in enumerate(dlg.choices):
        r = (x0, ui._y, x0 + w, ui._y + ui.dp(56))
        ui._y += ui.dp(56)
        if ui.culled(r):
            continue
        row = ui.mk("row", r, on_click=(lambda c=c: phone.choose(act, c)))
        ui.mk("radio", (x0 + ui.dp(16), r[1] + ui.dp(8), x0 + ui.dp(56), r[3] - ui.dp(8)), row,
              checkable=True, checked=i == dlg.checked)
        ui.mk("text", (x0 + ui.dp(72), r[1], r[2] - ui.dp(16), r[3]), row, text=c.label,
              style="row_title")


def _dialog_card(ui: UI, dlg: Dialog, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    w = screen[2] - screen[0] - ui.dp(48)
    x0 = screen[0] + ui.dp(24)
    inner = w - ui.dp(48)
    tsize, bsize = ui.sp(SP_TITLE), ui.sp(SP_BODY)
    title_h = (len(txt.wrap(dlg.title, tsize, inner)) * txt.line_height(tsize) + ui.dp(24)
               if dlg.title else 0)  # an untitled dialog: its message comes first
    msg_h = (len(txt.wrap(dlg.message, bsize, inner)) * txt.line_height(bsize) + ui.dp(16)
             if dlg.message else 0)
    choices_h = len(dlg.choices) * ui.dp(56)
    field_h = ui.dp(72) if dlg.field_name else 0
    buttons_h = ui.dp(72) if dlg.buttons else ui.dp(16)
    h = ui.dp(24) + title_h + msg_h + choices_h + field_h + buttons_h
    # Taller than the screen allows (a folder list on a full phone): as AlertDialog does,
    # the title and buttons stay put and the choice list scrolls between them.
    overflow = max(0, h - (screen[3] - screen[1] - ui.dp(48)))
    overflow = min(overflow, max(0, choices_h - ui.dp(56)))
    h -= overflow
    y0 = screen[1] + (screen[3] - screen[1] - h) // 2
    card = ui.mk("dialog", (x0, y0, x0 + w, y0 + h))
    ui._parent = card
    ui._x0, ui._x1 = x0, x0 + w
    ui._y = y0 + ui.dp(24)
    if dlg.title:
        ui.mk("text", (x0 + ui.dp(24), ui._y, x0 + w - ui.dp(24), ui._y + title_h), text=dlg.title,
              style="dialog_title", rid="android:id/alertTitle")
    ui._y += title_h
    if dlg.message:
        ui.mk("text", (x0 + ui.dp(24), ui._y, x0 + w - ui.dp(24), ui._y + msg_h),
              text=dlg.message, style="body", rid="android:id/message")
        ui._y += msg_h
    if overflow:
        with ui.scroll("dialog:" + dlg.title, height=choices_h - overflow):
            _choice_rows(ui, dlg, x0, w)
    else:
        _choice_rows(ui, dlg, x0, w)
    if dlg.field_name:
        ui._x0, ui._x1 = x0 + ui.dp(8), x0 + w - ui.dp(8)
        ui.edit(dlg.field_name, dlg.field_hint, rid="android:id/edit")
        ui._x0, ui._x1 = x0, x0 + w
    if dlg.buttons:
        ui.button_bar([(c.label, (lambda c=c: phone.choose(act, c)), "text") for c in dlg.buttons])
