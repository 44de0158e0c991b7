"""A laid-out page -> the toolkit's views for one frame: device pixels, scrolling,
clipping, the accessibility tree Chrome gives a page, and the touch callbacks.

Chrome's accessibility on Android, as far as the task pages go: every text node is a
TextView with its (whitespace-collapsed) text; a button, a link and any element with
a click listener is a clickable node, whose text is its own text when it holds only
text (Chrome prunes those children); form controls are EditText, CheckBox,
RadioButton, Spinner and SeekBar named by their label; an element's id is its
resource-id; hidden elements (display: none, `hidden`, visibility: hidden) are not
there. The page itself is a scrolling WebView; an overflow box with a fixed height
scrolls on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.views import View
from antrap_gym.device.sim.web.canvas2d import CanvasPicture
from antrap_gym.device.sim.web.layout import TEXT_INPUTS, Box, Layout, TextFrag
from antrap_gym.device.sim.web.style import Style

Rect = tuple[int, int, int, int]
PASSWORD_DOT = "\u2022"

CLASSES = {"button": "android.widget.Button", "a": "android.view.View",
           "ul": "android.widget.ListView", "ol": "android.widget.ListView",
           "canvas": "android.view.View", "select": "android.widget.Spinner",
           "textarea": "android.widget.EditText"}
INPUT_CLASSES = {"checkbox": "android.widget.CheckBox", "radio": "android.widget.RadioButton",
                 "range": "android.widget.SeekBar", "button": "android.widget.Button",
                 "submit": "android.widget.Button", "reset": "android.widget.Button"}


class Canvases(Protocol):
    """Where a page's canvas pixels come from (its engine): `canvas_png(nid, w, h)` is the
    same picture while (`serial`, canvas, drawing version) are."""

    serial: int

    def canvas_png(self, nid: int, width: int, height: int) -> bytes: ...


class Host(Protocol):
    """What the views call back into (the browser's tab)."""

    def field_key(self, nid: int) -> str: ...
    def tap(self, nid: int, x: float, y: float) -> None: ...
    def pointer_stroke(self, nid: int, points: list[tuple[float, float]]) -> None: ...
    def open_select(self, nid: int, options: list[str], index: int) -> None: ...
    def set_range(self, nid: int, value: float) -> None: ...
    def scroll(self, key: str, delta: int, max_off: int) -> bool: ...


@dataclass(slots=True)
class Frame:
    """One presentation of a page: the viewport's root view, and what a touch needs."""

    root: View
    #: every element box drawn: (clip rect, nid, ancestor nids) in document order
    hits: list[tuple[Rect, int, frozenset[int], Rect]] = field(default_factory=list)


@dataclass(slots=True)
class _Ctx:
    layout: Layout
    rect: Rect  # the viewport on screen
    dpr: float
    scroll: dict[str, int]
    host: Host
    fields: dict[str, str]
    focus: str | None
    ime: bool
    canvases: Canvases
    frame: Frame
    package: str


def present(layout: Layout, rect: Rect, dpr: float, scroll: dict[str, int], host: Host,
            fields: dict[str, str], focus: str | None, ime: bool,
            canvases: Canvases, package: str) -> Frame:
    """The views of `layout` shown in `rect`, scrolled by `scroll` ("page" and one key per
    scrolling box, device px); its canvases' pixels read from `canvases`."""
    x0, y0, x1, y1 = rect
    page_h = round(layout.height * dpr)
    max_off = max(0, page_h - (y1 - y0))
    off = min(scroll.get("page", 0), max_off)
    root = View("list", rect, cls="android.webkit.WebView")  # a list: it clips what it holds
    bg = View("web", rect)
    bg.value = _paint_bg(layout.background)
    root.children.append(bg)
    root.scroll_axis = "v"
    root.scrollable = max_off > 0
    root.on_scroll = lambda delta: host.scroll("page", delta, max_off)
    root.desc = layout.title or None
    frame = Frame(root)
    ctx = _Ctx(layout, rect, dpr, scroll, host, fields, focus, ime, canvases, frame, package)
    if layout.root is not None:
        _emit(ctx, layout.root, root, (x0, y0 - off), rect, frozenset(), layout.focus)
    return frame


def _paint_bg(c: tuple[int, int, int, int]) -> tuple:
    return ((c[0], c[1], c[2]) if c[3] else None, (0, 0, 0, 0), (), 0, ())


def _dev(ctx: _Ctx, origin: tuple[int, int], r: tuple[float, float, float, float]) -> Rect:
    d = ctx.dpr
    return (origin[0] + round(r[0] * d), origin[1] + round(r[1] * d),
            origin[0] + round(r[2] * d), origin[1] + round(r[3] * d))


def _meet(a: Rect, b: Rect) -> Rect | None:
    r = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return r if r[2] > r[0] and r[3] > r[1] else None


def _mk(kind: str, rect: Rect, clip: Rect, parent: View, **kw) -> View | None:
    c = _meet(rect, clip)
    if c is None:
        return None
    v = View(kind, rect, **kw)
    v.clip = c
    parent.children.append(v)
    return v


def _collapsed(s: str, st: Style) -> str:
    if st.white_space in ("pre", "pre-wrap"):
        return s.strip("\n")
    return " ".join(s.split())


def _text_lines(ctx: _Ctx, frags: list[TextFrag], origin: tuple[int, int], at: Rect) -> tuple:
    """Paint lines relative to `at`'s top-left: (text, dx, dy, size, rgb, bold, underline)."""
    out = []
    d = ctx.dpr
    for f in frags:
        st = f.style
        if not st.visible:
            continue
        size = max(1, round(st.font_px * d))
        rgb = st.color[:3]
        for ln in f.lines:
            if not ln.text.strip():
                continue
            x = origin[0] + round(ln.x * d) - at[0]
            y = origin[1] + round(ln.y * d) - at[1] + max(0, round((st.line_px - st.font_px * 1.17) * d / 2))
            out.append((ln.text, x, y, size, rgb, st.bold, st.underline, round(ln.w * d)))
    return tuple(out)


def _frags_of(b: Box) -> list[TextFrag]:
    out: list[TextFrag] = []
    stack: list[Box | TextFrag] = list(reversed(b.kids))
    while stack:
        k = stack.pop()
        if isinstance(k, TextFrag):
            out.append(k)
        else:
            stack.extend(reversed(k.kids))
    return out


def _clickable(b: Box) -> bool:
    p = b.props
    return bool(p.get("click")) or b.tag == "button" or (b.tag == "a" and "href" in b.attrs) or (
        b.tag == "label" and bool(p.get("control"))) or (
        b.tag == "input" and b.type in ("button", "submit", "reset"))


def _text_only(b: Box) -> bool:
    """Holds only text and inline elements without semantics of their own."""
    for k in b.kids:
        if isinstance(k, TextFrag):
            continue
        if (_clickable(k) or k.tag in ("input", "select", "textarea", "canvas")
                or not k.inline_level or not _text_only(k)):
            return False
    return True


def _box_paint(ctx: _Ctx, b: Box, rect: Rect) -> tuple:
    st = b.style
    d = ctx.dpr
    bg = st.background[:3] if st.background[3] else None
    if st.background[3] and st.background[3] < 255:
        a = st.background[3] / 255  # translucent over the page's white (approximation)
        bg = tuple(round(c * a + 255 * (1 - a)) for c in st.background[:3])
    widths = tuple(max(1, round(w * d)) if w > 0 else 0 for w in st.border)
    colors = tuple(c[:3] for c in st.border_color)
    radius = round(min(st.radius, b.w / 2, b.h / 2) * d) if st.radius else 0
    return (bg, widths, colors, radius, ())


def _emit(ctx: _Ctx, b: Box, parent: View, origin: tuple[int, int], clip: Rect,
          path: frozenset[int], focus_nid: int) -> None:
    st = b.style
    rect = _dev(ctx, origin, (b.x, b.y, b.x + b.w, b.y + b.h))
    shown = st.visible and st.opacity > 0
    inner_path = path | {b.nid}
    c = _meet(rect, clip)
    if c is not None and shown:
        ctx.frame.hits.append((c, b.nid, inner_path, rect))
    kind = _control_kind(b)
    if kind is not None:
        if shown:
            _control(ctx, b, kind, rect, clip, parent, focus_nid)
        return
    clickable = _clickable(b)
    leaf = clickable and _text_only(b)
    paint = _box_paint(ctx, b, rect)
    needs_view = shown and (clickable or paint[0] is not None or any(paint[1]))
    view = None
    if needs_view or (shown and b.display == "list-item"):
        view = _mk("web", rect, clip, parent, rid=b.attrs.get("id") or None,
                   cls=CLASSES.get(b.tag, "android.view.View"))
        if view is not None:
            text = _collapsed("".join(f.text for f in _frags_of(b)), st) if leaf else None
            lines = _text_lines(ctx, _frags_of(b), origin, rect) if leaf else ()
            marker = _marker(ctx, b, origin, rect) if b.display == "list-item" else ()
            view.value = (paint[0], paint[1], paint[2], paint[3], lines + marker)
            view.text = text or None
            if clickable:
                label = b.attrs.get("aria-label") or b.attrs.get("title")
                if not text and label:
                    view.desc = label
                view.clickable = view.focusable = True
                view.enabled = not b.props.get("disabled")
                nid = b.nid
                view.on_gesture = lambda x0, y0, x1, y1, nid=nid: _gesture(ctx, nid, x0, y0, x1, y1)
            elif b.attrs.get("aria-label") and not b.kids:
                view.desc = b.attrs["aria-label"]
    if leaf and view is not None:
        return
    # scrolling and clipping boxes
    if st.overflow in ("auto", "scroll", "hidden") and shown:
        bw = st.border
        d = ctx.dpr
        inner = (rect[0] + round(bw[3] * d), rect[1] + round(bw[0] * d),
                 rect[2] - round(bw[1] * d), rect[3] - round(bw[2] * d))
        view_h = inner[3] - inner[1]
        content_bottom = max([_bottom(k) for k in b.kids] + [b.y + b.h])
        key = f"s{b.nid}"
        max_off = max(0, round((content_bottom - (b.y + b.h - bw[2])) * d) + round(b.padding[2] * d))
        max_off = max(0, min(max_off, max(0, round(content_bottom * d) - view_h)))
        off = min(ctx.scroll.get(key, 0), max_off) if st.overflow != "hidden" else 0
        box = _mk("list", inner, clip, parent, rid=None if view is not None else b.attrs.get("id") or None,
                  cls="android.widget.ScrollView" if st.overflow != "hidden" else "android.view.View")
        if box is None:
            return
        if st.overflow != "hidden":
            box.scroll_axis = "v"
            box.scrollable = max_off > 0
            box.value = (off, max_off)
            host = ctx.host
            box.on_scroll = lambda delta, key=key, m=max_off: host.scroll(key, delta, m)
        parent, clip, origin = box, box.clip, (origin[0], origin[1] - off)
    for k in b.kids:
        if isinstance(k, TextFrag):
            if shown or k.style.visible:
                _text(ctx, k, parent, origin, clip)
        else:
            _emit(ctx, k, parent, origin, clip, inner_path, focus_nid)


def _bottom(k: Box | TextFrag) -> float:
    if isinstance(k, TextFrag):
        return k.rect()[3]
    return k.y + k.h + k.margin[2]


def _marker(ctx: _Ctx, b: Box, origin: tuple[int, int], rect: Rect) -> tuple:
    st = b.style
    if st.list_style == "none":
        return ()
    parent_index = b.attrs.get("__index", "")
    text = "\u2022" if st.list_style in ("disc", "circle", "square") else f"{parent_index}."
    if not parent_index and text.endswith("."):
        text = "\u2022"
    size = max(1, round(st.font_px * ctx.dpr))
    w = txt.text_width(text + " ", size)
    x = rect[0] + round(b.padding[3] * ctx.dpr) - w
    return ((text, x - rect[0], round(b.padding[0] * ctx.dpr), size, st.color[:3], False, False, w),)


def _text(ctx: _Ctx, f: TextFrag, parent: View, origin: tuple[int, int], clip: Rect) -> None:
    if not f.style.visible or not f.lines:
        return
    text = _collapsed(f.text, f.style)
    if not text:
        return
    r = _dev(ctx, origin, f.rect())
    v = _mk("web", r, clip, parent, text=text, cls="android.widget.TextView")
    if v is not None:
        v.value = (None, (0, 0, 0, 0), (), 0, _text_lines(ctx, [f], origin, r))


def _gesture(ctx: _Ctx, nid: int, x0: int, y0: int, x1: int, y1: int) -> bool:
    if (x0, y0) != (x1, y1):
        return False  # a swipe over a button scrolls the page
    target, local = _target(ctx, nid, x0, y0)
    ctx.host.tap(target, local[0], local[1])
    return True


def _target(ctx: _Ctx, nid: int, x: int, y: int) -> tuple[int, tuple[float, float]]:
    """The deepest element under (x, y) inside element `nid` (a click's target), and
    the point in its CSS px."""
    for c, hid, path, rect in reversed(ctx.frame.hits):
        if nid in path and c[0] <= x < c[2] and c[1] <= y < c[3]:
            return hid, ((x - rect[0]) / ctx.dpr, (y - rect[1]) / ctx.dpr)
    return nid, (0.0, 0.0)


# --- form controls and canvas ------------------------------------------------------------


def _control_kind(b: Box) -> str | None:
    if b.tag == "input":
        t = b.type
        if t in ("checkbox", "radio"):
            return t
        if t == "range":
            return "slider"
        if t in ("button", "submit", "reset"):
            return "input_button"
        if t in TEXT_INPUTS or t == "":
            return "edit"
        return None
    if b.tag == "textarea":
        return "edit"
    if b.tag == "select":
        return "spinner"
    if b.tag == "canvas":
        return "canvas"
    return None


def _label(b: Box) -> str | None:
    return (b.attrs.get("aria-label") or str(b.props.get("label") or "") or b.attrs.get("title")
            or None)


def _control(ctx: _Ctx, b: Box, kind: str, rect: Rect, clip: Rect, parent: View,
             focus_nid: int) -> None:
    nid = b.nid
    host = ctx.host
    rid = b.attrs.get("id") or None
    enabled = not b.props.get("disabled")
    if kind in ("checkbox", "radio"):
        v = _mk(kind, rect, clip, parent, text=_label(b), rid=rid, checkable=True,
                checked=bool(b.props.get("checked")), enabled=enabled,
                cls=INPUT_CLASSES[kind])
        if v is not None:
            v.clickable = v.focusable = True
            v.on_gesture = lambda x0, y0, x1, y1: _gesture(ctx, nid, x0, y0, x1, y1)
        return
    if kind == "input_button":
        label = str(b.props.get("value") or "")
        v = _mk("web", rect, clip, parent, text=label or None, rid=rid, enabled=enabled,
                cls="android.widget.Button")
        if v is not None:
            paint = _box_paint(ctx, b, rect)
            v.value = (paint[0], paint[1], paint[2], paint[3], _control_text(ctx, b, rect, label, ""))
            v.clickable = v.focusable = True
            v.on_gesture = lambda x0, y0, x1, y1: _gesture(ctx, nid, x0, y0, x1, y1)
        return
    if kind == "slider":
        value = float(b.props.get("value") or 0)
        lo, hi = _num(b.attrs.get("min"), 0.0), _num(b.attrs.get("max"), 100.0)
        v = _mk("slider", rect, clip, parent, desc=_label(b), rid=rid, enabled=enabled)
        if v is not None:
            v.value = (value, lo, max(hi, lo))
            v.focusable = v.clickable = True
            x0, x1 = rect[0], rect[2]

            def drag(_start: int, end: int) -> None:
                frac = min(1.0, max(0.0, (end - x0) / max(1, x1 - x0)))
                host.set_range(nid, lo + frac * (max(hi, lo) - lo))

            v.on_drag = drag
        return
    if kind == "spinner":
        opts = [str(o) for o in b.props.get("options") or []]
        index = int(b.props.get("index", -1))
        shown = opts[index] if 0 <= index < len(opts) else ""
        v = _mk("web", rect, clip, parent, text=shown, desc=_label(b), rid=rid, enabled=enabled,
                cls="android.widget.Spinner")
        if v is not None:
            paint = _box_paint(ctx, b, rect)
            v.value = (paint[0], paint[1], paint[2], paint[3],
                       _control_text(ctx, b, rect, shown, "\u25be"))
            v.on_click = lambda: host.open_select(nid, opts, index)
            v.clickable = v.focusable = True
        return
    if kind == "canvas":
        w, h = int(b.props.get("cw", 300)), int(b.props.get("ch", 150))
        version = int(b.props.get("version", 0))
        v = _mk("web", rect, clip, parent, desc=b.attrs.get("aria-label") or None, rid=rid)
        if v is not None:
            src = ctx.canvases
            # keyed by the engine too: another page's canvas (a phone restored to another
            # state, another episode's page) can have the same node and drawing version
            pic = CanvasPicture((src.serial, nid, version, w, h), lambda: src.canvas_png(nid, w, h))
            paint = _box_paint(ctx, b, rect)
            v.value = (None, paint[1], paint[2], 0, (), pic)
            listens = bool(b.props.get("click") or b.props.get("move"))
            if listens:
                v.clickable = True

                def gesture(gx0: int, gy0: int, gx1: int, gy1: int) -> bool:
                    p0 = ((gx0 - rect[0]) / ctx.dpr, (gy0 - rect[1]) / ctx.dpr)
                    p1 = ((gx1 - rect[0]) / ctx.dpr, (gy1 - rect[1]) / ctx.dpr)
                    if p0 == p1:
                        host.tap(nid, *p0)
                    else:
                        host.pointer_stroke(nid, _stroke_points(p0, p1))
                    return True

                v.on_gesture = gesture
        return
    # text fields
    key = host.field_key(nid)
    multiline = b.tag == "textarea"
    value = ctx.fields.get(key, "")
    shown_text = PASSWORD_DOT * len(value) if b.type == "password" else value
    v = _mk("edit", rect, clip, parent, text=shown_text, hint=b.attrs.get("placeholder") or None,
            rid=rid, enabled=enabled, cls="android.widget.EditText")
    if v is not None:
        v.editable = v.focusable = v.clickable = True
        v.long_clickable = True
        v.field = key
        v.focused = ctx.focus == key and ctx.ime
        v.value = (multiline, None)
        if b.attrs.get("aria-label") or b.props.get("label"):
            v.desc = _label(b)


def _control_text(ctx: _Ctx, b: Box, rect: Rect, text: str, arrow: str) -> tuple:
    """A button's or select's one line of text (and a select's arrow at the right)."""
    st = b.style
    size = max(1, round(st.font_px * ctx.dpr))
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    dy = (h - round(size * 1.17)) // 2
    pad = round((b.padding[3] + st.border[3]) * ctx.dpr) or round(4 * ctx.dpr)
    out = []
    if arrow:
        aw = txt.text_width(arrow, size)
        out.append((arrow, w - aw - pad, dy, size, st.color[:3], False, False, aw))
        avail = w - aw - 2 * pad
        shown = txt.ellipsize(text, size, max(1, avail)) if text else ""
        if shown:
            out.insert(0, (shown, pad, dy, size, st.color[:3], st.bold, False, txt.text_width(shown, size)))
    elif text:
        tw = txt.text_width(text, size)
        out.append((text, (w - tw) // 2, dy, size, st.color[:3], st.bold, False, tw))
    return tuple(out)


def _stroke_points(p0: tuple[float, float], p1: tuple[float, float]) -> list[tuple[float, float]]:
    """The pointer positions a swipe passes through (every 8 CSS px or so, as touch
    events come at the screen's rate)."""
    dist = max(abs(p1[0] - p0[0]), abs(p1[1] - p0[1]))
    n = max(1, min(200, int(dist // 8)))
    return [(round(p0[0] + (p1[0] - p0[0]) * i / n, 2), round(p0[1] + (p1[1] - p0[1]) * i / n, 2))
            for i in range(n + 1)]


def _num(v: object, default: float) -> float:
    try:
        return float(str(v))
    except (TypeError, ValueError):
        return default
