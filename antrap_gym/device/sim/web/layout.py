"""Layout: the DOM dump -> a tree of boxes placed in CSS px (document coordinates).

The subset of CSS the task pages use: block flow with sibling margin collapsing,
inline flow (words wrapped greedily, inline-blocks and controls as atoms,
text-align), flexbox (direction, wrap, gap, justify-content, align-items, grow and
shrink), widths and heights in px or %, min/max, box-sizing, borders, padding,
margins with `auto` centring, list markers, and overflow boxes (clipped or scrolling,
laid out unscrolled). Text is measured with the phone's font at device pixels and
converted back, so what wraps on screen is what wraps here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.web import css
from antrap_gym.device.sim.web.style import CONTROL_FONT, Style, cascade, root_style

INF = 1e9
TEXT_INPUTS = frozenset(("text", "password", "number", "email", "tel", "search", "url", "date",
                         "time", "color"))
BUTTON_INPUTS = frozenset(("button", "submit", "reset"))


@dataclass(slots=True)
class Line:
    """One line of a text node: its text and where it starts (CSS px, document)."""

    text: str
    x: float
    y: float
    w: float


@dataclass(slots=True, eq=False)
class TextFrag:
    """A text node as laid out: its whole text (what the accessibility tree shows) and
    its lines."""

    text: str
    style: Style
    key: str
    lines: list[Line] = field(default_factory=list)

    def rect(self) -> tuple[float, float, float, float]:
        if not self.lines:
            return (0.0, 0.0, 0.0, 0.0)
        lh = self.style.line_px
        return (min(ln.x for ln in self.lines), min(ln.y for ln in self.lines),
                max(ln.x + ln.w for ln in self.lines), max(ln.y for ln in self.lines) + lh)

    def shift(self, dx: float, dy: float) -> None:
        for ln in self.lines:
            ln.x += dx
            ln.y += dy


@dataclass(slots=True, eq=False)
class Box:
    """An element's box: its border box (x, y, w, h) once laid out, and its content
    (child boxes and text fragments, in document order)."""

    nid: int
    tag: str
    style: Style
    attrs: dict
    props: dict
    kids: list[Box | TextFrag] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    #: content height (an overflow box's scroll range is this less its own height)
    content_h: float = 0.0
    marker: str = ""
    marker_at: tuple[float, float] = (0.0, 0.0)
    margin: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    padding: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    @property
    def display(self) -> str:
        return self.style.display

    @property
    def inline_level(self) -> bool:
        return self.style.display in ("inline", "inline-block", "inline-flex")

    @property
    def atomic(self) -> bool:
        return self.style.display in ("inline-block", "inline-flex") or self.tag in (
            "input", "select", "textarea", "canvas", "button", "img")

    @property
    def type(self) -> str:
        return str(self.props.get("type", ""))

    def content_origin(self) -> tuple[float, float]:
        b, p = self.style.border, self.padding
        return self.x + b[3] + p[3], self.y + b[0] + p[0]

    def shift(self, dx: float, dy: float) -> None:
        if not dx and not dy:
            return
        stack: list[Box | TextFrag] = [self]
        while stack:
            n = stack.pop()
            if isinstance(n, TextFrag):
                n.shift(dx, dy)
                continue
            n.x += dx
            n.y += dy
            n.marker_at = (n.marker_at[0] + dx, n.marker_at[1] + dy)
            stack.extend(n.kids)


@dataclass(slots=True)
class Layout:
    root: Box | None
    height: float
    width: float
    title: str
    focus: int
    background: tuple[int, int, int, int]


# --- building the box tree ----------------------------------------------------------------


def build(dump: dict, viewport_w: float) -> Layout:
    """Lay out a `__dump` of the page for a viewport `viewport_w` CSS px wide."""
    sheets = tuple(dump.get("sheets") or ())
    html = dump.get("html")
    root = root_style()
    if html is not None:
        root = cascade("html", (), "", tuple(html[1] or ()), sheets, html[2] or "", root)
    body = dump.get("body")
    box = _box(body, root, sheets, [0]) if body is not None else None
    if box is not None and dump.get("docClick"):
        box.props["click"] = 1  # a listener on the document or window hears taps anywhere
    height = 0.0
    bg = root.background if root.background[3] else (255, 255, 255, 255)
    if box is not None:
        if not root.background[3] and box.style.background[3]:
            bg = box.style.background  # the body's background paints the canvas
        _layout_block(box, 0.0, 0.0, viewport_w, viewport_w)
        m = box.margin
        height = box.y + box.h + m[2]
    return Layout(box, height, viewport_w, str(dump.get("title") or ""), int(dump.get("focus") or 0), bg)


def _box(node: list, parent: Style, sheets: tuple, counter: list[int]) -> Box | None:
    nid, tag, attrs, rules, inline, kids, props = node
    style = cascade(tag, tuple(sorted(attrs.items())), str(props.get("type", "")),
                    tuple(rules or ()), sheets, inline, parent)
    if style.display == "none":
        return None
    b = Box(nid, tag, style, attrs, props)
    for i, k in enumerate(kids):
        if isinstance(k, str):
            text = _transform(k, style)
            if text:
                b.kids.append(TextFrag(text, style, f"{nid}.{i}"))
        else:
            child = _box(k, style, sheets, counter)
            if child is not None:
                b.kids.append(child)
    if tag == "ol":  # the items' numbers, for their markers
        n = 0
        for k in b.kids:
            if isinstance(k, Box) and k.display == "list-item":
                n += 1
                k.attrs["__index"] = str(n)
    return b


def _transform(s: str, style: Style) -> str:
    if style.text_transform == "uppercase":
        return s.upper()
    if style.text_transform == "lowercase":
        return s.lower()
    return s


# --- lengths ---------------------------------------------------------------------------------


def _len(v: str, of: float | None, font: float) -> float | None:
    if v in ("auto", "none", ""):
        return None
    return css.parse_length(v, of, font)


@lru_cache(maxsize=8192)
def _edges(vals: tuple[str, str, str, str], cb_w: float, font: float) -> tuple[float, ...]:
    """Margins, borders or paddings in px (memoised: a page's boxes share a few of them)."""
    return tuple(_len(v, cb_w, font) or 0.0 for v in vals)


def _text_width(s: str, font_px: float, bold: bool = False) -> float:
    """Width in CSS px of `s` in the phone's font at `font_px` CSS px."""
    size = max(1, round(font_px * DPR))
    return txt.text_width(s, size) / DPR


#: device pixels per CSS px (a Pixel 6 at Chrome's default zoom); set by the page
DPR = 2.625


# --- intrinsic widths (shrink-to-fit) -----------------------------------------------------


def _control_size(b: Box) -> tuple[float, float] | None:
    """A form control's or canvas's intrinsic content size (CSS px), None if not one."""
    t, s = b.tag, b.style
    if t == "canvas":
        return float(b.props.get("cw", 300)), float(b.props.get("ch", 150))
    if t == "input":
        ty = b.type
        if ty in ("checkbox", "radio"):
            return 13.0, 13.0
        if ty == "range":
            return 129.0, 16.0
        if ty in BUTTON_INPUTS:
            label = str(b.props.get("value") or ("Submit" if ty == "submit" else ""))
            return _text_width(label, s.font_px), round(s.font_px * 1.2)
        return 149.0 * s.font_px / CONTROL_FONT, round(s.font_px * 1.2)
    if t == "select":
        opts = b.props.get("options") or [""]
        return max(_text_width(o, s.font_px) for o in opts) + 24.0, round(s.font_px * 1.2) + 2
    if t == "textarea":
        cols = _int(b.attrs.get("cols"), 20)
        rows = _int(b.attrs.get("rows"), 2)
        return cols * s.font_px * 0.55, rows * round(s.font_px * 1.2)
    return None


def _int(v: object, default: int) -> int:
    try:
        n = int(str(v))
    except (TypeError, ValueError):
        return default
    return n if n > 0 else default


def _outer_extra(b: Box, cb_w: float) -> float:
    s = b.style
    m = _edges(s.margin, cb_w, s.font_px)
    p = _edges(s.padding, cb_w, s.font_px)
    return m[1] + m[3] + p[1] + p[3] + s.border[1] + s.border[3]


def intrinsic(b: Box, cb_w: float, mode: str) -> float:
    """The max-content (`mode`="max") or min-content ("min") border-box width plus
    margins."""
    s = b.style
    extra = _outer_extra(b, cb_w)
    w = _len(s.width, cb_w if cb_w < INF else None, s.font_px)
    if w is not None:
        if s.box_sizing == "border-box":
            p = _edges(s.padding, cb_w, s.font_px)
            w = max(w - p[1] - p[3] - s.border[1] - s.border[3], 0.0)
        return _clamp_w(b, w, cb_w) + extra
    size = _control_size(b)
    if size is not None and b.tag != "button":
        return size[0] + extra
    return _content_intrinsic(b, cb_w, mode) + extra


def _clamp_w(b: Box, w: float, cb_w: float) -> float:
    s = b.style
    of = cb_w if cb_w < INF else None
    mx = _len(s.max_width, of, s.font_px)
    mn = _len(s.min_width, of, s.font_px)
    if mx is not None:
        w = min(w, mx)
    if mn is not None:
        w = max(w, mn)
    return w


def _content_intrinsic(b: Box, cb_w: float, mode: str) -> float:
    s = b.style
    if s.display in ("flex", "inline-flex"):
        kids = [k for k in b.kids if isinstance(k, Box) or k.text.strip()]
        widths = [intrinsic(k, INF, mode) if isinstance(k, Box) else _text_intrinsic(k, mode)
                  for k in kids]
        if not widths:
            return 0.0
        if s.flex_direction.startswith("row") and (mode == "max" or not s.flex_wrap):
            gap = _len(s.column_gap, None, s.font_px) or 0.0
            return sum(widths) + gap * (len(widths) - 1)
        return max(widths)
    best, line = 0.0, 0.0
    for k in b.kids:
        if isinstance(k, TextFrag):
            if mode == "max":
                for i, part in enumerate(_pre_lines(k)):
                    if i:
                        best, line = max(best, line), 0.0
                    line += _text_width(part, k.style.font_px, k.style.bold)
            else:
                best = max(best, _text_intrinsic(k, "min"))
        elif k.inline_level:
            if k.tag == "br":
                best, line = max(best, line), 0.0
            elif k.atomic:
                w = intrinsic(k, INF, mode)
                if mode == "max":
                    line += w
                else:
                    best = max(best, w)
            else:
                w = _content_intrinsic(k, INF, mode) + _outer_extra(k, INF)
                if mode == "max":
                    line += w
                else:
                    best = max(best, w)
        else:
            best, line = max(best, line, intrinsic(k, INF, mode)), 0.0
    return max(best, line)


def _pre_lines(t: TextFrag) -> list[str]:
    if t.style.white_space in ("pre", "pre-wrap", "pre-line"):
        return t.text.split("\n")
    return [" ".join(t.text.split())]


def _text_intrinsic(t: TextFrag, mode: str) -> float:
    if mode == "max":
        return max(_text_width(p, t.style.font_px, t.style.bold) for p in _pre_lines(t))
    words = t.text.split()
    return max((_text_width(w, t.style.font_px, t.style.bold) for w in words), default=0.0)


# --- block layout -------------------------------------------------------------------------


def _resolve_width(b: Box, avail: float, cb_w: float, shrink: bool) -> None:
    """Set b.w (border box), b.margin, b.padding for a box given `avail` width."""
    s = b.style
    font = s.font_px
    p = _edges(s.padding, cb_w, font)
    bd = s.border
    m_raw = s.margin
    m = [(_len(v, cb_w, font) or 0.0) for v in m_raw]
    horiz = p[1] + p[3] + bd[1] + bd[3]
    w = _len(s.width, cb_w, font)
    if w is not None and s.box_sizing == "border-box":
        w = max(0.0, w - horiz)
    if w is None:
        size = _control_size(b) if b.tag != "button" else None
        if size is not None:
            w = size[0]
        elif shrink:
            w = min(max(_content_intrinsic(b, cb_w, "min"), avail - m[1] - m[3] - horiz),
                    _content_intrinsic(b, cb_w, "max"))
        else:
            w = avail - m[1] - m[3] - horiz
    w = max(0.0, _clamp_w(b, w, cb_w))
    if not shrink and not b.inline_level:
        free = avail - (w + horiz + m[1] + m[3])
        auto_l, auto_r = m_raw[3] == "auto", m_raw[1] == "auto"
        if auto_l and auto_r:
            m[3] = m[1] = max(0.0, free / 2)
        elif auto_l:
            m[3] = max(0.0, free + m[3])
    b.margin = (m[0], m[1], m[2], m[3])
    b.padding = p
    b.w = w + horiz


def _resolve_height(b: Box, content_h: float, cb_h: float | None) -> None:
    s = b.style
    p, bd = b.padding, s.border
    vert = p[0] + p[2] + bd[0] + bd[2]
    h = _len(s.height, cb_h, s.font_px)
    if h is not None and s.box_sizing == "border-box":
        h = max(0.0, h - vert)
    if h is None:
        size = _control_size(b) if b.tag != "button" else None
        h = size[1] if size is not None else content_h
    mx = _len(s.max_height, cb_h, s.font_px)
    mn = _len(s.min_height, cb_h, s.font_px)
    if mx is not None:
        h = min(h, mx)
    if mn is not None:
        h = max(h, mn)
    b.content_h = content_h
    b.h = max(0.0, h) + vert


def _layout_block(b: Box, x: float, y: float, avail: float, cb_w: float,
                  shrink: bool = False, cb_h: float | None = None,
                  fixed_w: float | None = None) -> None:
    """Lay out `b` with its margin box's top-left at (x, y), in `avail` px of width;
    `fixed_w` forces the border-box width (a flex item)."""
    _resolve_width(b, avail, cb_w, shrink)
    if fixed_w is not None:
        b.w = max(fixed_w, b.style.border[1] + b.style.border[3] + b.padding[1] + b.padding[3])
    m = b.margin
    b.x, b.y = x + m[3], y + m[0]
    cx, cy = b.content_origin()
    inner_w = b.w - b.style.border[1] - b.style.border[3] - b.padding[1] - b.padding[3]
    own_h = _len(b.style.height, cb_h, b.style.font_px)
    if b.style.display in ("flex", "inline-flex"):
        content_h = _layout_flex(b, cx, cy, inner_w, own_h)
    elif b.tag == "button" or not _is_replaced(b):
        content_h = _layout_flow(b, cx, cy, inner_w, own_h)
    else:
        content_h = 0.0
    _resolve_height(b, content_h, cb_h)
    if b.style.display == "list-item":
        b.marker_at = (cx - 4, cy)


def _is_replaced(b: Box) -> bool:
    return b.tag in ("input", "select", "textarea", "canvas", "img")


def _layout_flow(b: Box, cx: float, cy: float, inner_w: float, own_h: float | None) -> float:
    """Block flow of `b`'s children (inline runs become line boxes); returns the
    content height."""
    y = cy
    prev_margin = 0.0
    run: list[Box | TextFrag] = []
    first = True

    def flush() -> None:
        nonlocal y, prev_margin, first
        if run and any(isinstance(k, Box) or k.text.strip() or _preserves(k) for k in run):
            y += prev_margin
            y += _layout_inline(run, cx, y, inner_w, b.style)
            prev_margin = 0.0
            first = False
        run.clear()

    for k in b.kids:
        if isinstance(k, TextFrag) or k.inline_level:
            run.append(k)
            continue
        flush()
        _layout_block(k, cx, 0.0, inner_w, inner_w, cb_h=own_h)
        gap = k.margin[0] if first else _collapse(prev_margin, k.margin[0])
        k.shift(0.0, y + gap - k.y)
        y = k.y + k.h
        prev_margin = k.margin[2]
        first = False
    flush()
    return y + prev_margin - cy


def _collapse(a: float, b: float) -> float:
    if a >= 0 and b >= 0:
        return max(a, b)
    if a < 0 and b < 0:
        return min(a, b)
    return a + b


def _preserves(t: TextFrag) -> bool:
    return t.style.white_space in ("pre", "pre-wrap", "pre-line") and bool(t.text)


# --- inline layout --------------------------------------------------------------------------


@dataclass(slots=True)
class _Piece:
    kind: str  # word | space | atom | br
    w: float
    h: float
    frag: TextFrag | None = None
    text: str = ""
    box: Box | None = None
    opens: list[Box] = field(default_factory=list)  # inline elements starting here
    closes: list[Box] = field(default_factory=list)


def _pieces(items: list[Box | TextFrag], out: list[_Piece], parents: list[Box]) -> None:
    for k in items:
        if isinstance(k, TextFrag):
            st = k.style
            pre = st.white_space in ("pre", "pre-wrap")
            nowrap = st.white_space in ("nowrap", "pre")
            if pre or st.white_space == "pre-line":
                parts = k.text.split("\n")
                for i, line in enumerate(parts):
                    if i:
                        out.append(_Piece("br", 0.0, st.line_px))
                    if line:
                        seg = line if pre else " ".join(line.split())
                        out.append(_Piece("word", _text_width(seg, st.font_px, st.bold), st.line_px,
                                          k, seg))
                continue
            text = k.text.replace("\u00a0", "\x00")
            words = text.split()
            lead = text[:1].isspace()
            trail = text[-1:].isspace()
            if lead:
                out.append(_Piece("space", _text_width(" ", st.font_px), st.line_px, k, " "))
            for i, w in enumerate(words):
                w = w.replace("\x00", "\u00a0")
                if i:
                    out.append(_Piece("space" if not nowrap else "word", _text_width(" ", st.font_px),
                                      st.line_px, k, " "))
                out.append(_Piece("word", _text_width(w, st.font_px, st.bold), st.line_px, k, w))
            if trail and words:
                out.append(_Piece("space", _text_width(" ", st.font_px), st.line_px, k, " "))
            continue
        if k.tag == "br":
            out.append(_Piece("br", 0.0, k.style.line_px, box=k))
            continue
        if k.atomic:
            out.append(_Piece("atom", 0.0, 0.0, box=k))
            continue
        # a non-atomic inline element: its contents flow; it opens and closes around them
        s = k.style
        f = s.font_px
        left = (_len(s.padding[3], None, f) or 0.0) + s.border[3] + (_len(s.margin[3], None, f) or 0.0)
        right = (_len(s.padding[1], None, f) or 0.0) + s.border[1] + (_len(s.margin[1], None, f) or 0.0)
        out.append(_Piece("word", left, 0.0))
        out[-1].opens.append(k)
        _pieces(k.kids, out, [*parents, k])
        out.append(_Piece("word", right, 0.0))
        out[-1].closes.append(k)
        k.padding = (0.0, 0.0, 0.0, 0.0)


def _layout_inline(items: list[Box | TextFrag], x0: float, y0: float, width: float,
                   block: Style) -> float:
    """Line boxes for an inline run; returns their total height."""
    pieces: list[_Piece] = []
    _pieces(items, pieces, [])
    for p in pieces:  # atoms are laid out first: their sizes decide the lines
        if p.kind == "atom" and p.box is not None:
            bx = p.box
            _layout_block(bx, 0.0, 0.0, width, width, shrink=True)
            m = bx.margin
            p.w = bx.w + m[1] + m[3]
            p.h = bx.h + m[0] + m[2]
    lines = _break_lines(pieces, width, block.white_space in ("nowrap", "pre"))
    y = y0
    strut = block.line_px
    frag_lines: dict[int, Line] = {}
    spans: dict[int, list[float]] = {}  # inline element -> its union rect so far
    span_box: dict[int, Box] = {}
    active: list[Box] = []
    for line in lines:
        content = [p for p in line if p.kind != "br"]
        if not content and not line:
            continue
        texts = [p.h for p in content if p.frag is not None]
        atoms = [p.h for p in content if p.kind == "atom"]
        lh = max([strut if texts or not atoms else 0.0, *texts, *atoms])
        used = sum(p.w for p in content)
        shift = {"center": (width - used) / 2, "right": width - used}.get(block.align, 0.0)
        x = x0 + max(0.0, shift)
        for p in line:
            for ob in p.opens:
                active.append(ob)
                span_box[id(ob)] = ob
            if p.kind == "atom" and p.box is not None:
                bx = p.box
                top = y + lh - p.h
                bx.shift(x + bx.margin[3] - bx.x, top + bx.margin[0] - bx.y)
                piece_rect = (x, top, x + p.w, top + p.h)
            else:
                th = p.frag.style.line_px if p.frag is not None else strut
                top = y + lh - th
                piece_rect = (x, top, x + p.w, top + th)
                if p.frag is not None and p.kind in ("word", "space"):
                    ln = frag_lines.get(id(p.frag))
                    if p.kind == "space" and (ln is None or ln.y != top):
                        ln = None  # a line of a text node never starts with its space
                    elif ln is None or ln.y != top:
                        ln = Line("", x, top, 0.0)
                        p.frag.lines.append(ln)
                        frag_lines[id(p.frag)] = ln
                    if ln is not None:
                        ln.text += p.text
                        ln.w = x + p.w - ln.x
            for ob in active:
                r = spans.setdefault(id(ob), [INF, INF, -INF, -INF])
                r[0], r[1] = min(r[0], piece_rect[0]), min(r[1], piece_rect[1])
                r[2], r[3] = max(r[2], piece_rect[2]), max(r[3], piece_rect[3])
            x += p.w
            for cb in p.closes:
                if cb in active:
                    active.remove(cb)
        y += lh
    for key, r in spans.items():
        ob = span_box[key]
        ob.x, ob.y, ob.w, ob.h = r[0], r[1], max(0.0, r[2] - r[0]), max(0.0, r[3] - r[1])
    for p in pieces:
        if p.frag is not None:
            for ln in p.frag.lines:
                ln.text = ln.text.strip(" ") or ln.text
    return y - y0


def _break_lines(pieces: list[_Piece], width: float, nowrap: bool) -> list[list[_Piece]]:
    """Greedy line breaking at spaces (and between atoms); a <br> ends its line. A final
    empty line (after a trailing <br>) is dropped."""
    lines: list[list[_Piece]] = [[]]
    x = 0.0
    for p in pieces:
        cur = lines[-1]
        if p.kind == "br":
            cur.append(p)
            lines.append([])
            x = 0.0
            continue
        if p.kind == "space" and (not cur or cur[-1].kind in ("space", "br")
                                  or not any(q.kind in ("word", "atom") and q.w for q in cur)):
            if not any(q.kind == "atom" or (q.kind == "word" and q.frag is not None) for q in cur):
                continue  # collapsible space at a line start
            if cur[-1].kind == "space":
                continue
        breakable = p.kind == "atom" or (p.kind == "word" and p.frag is not None and p.w > 0)
        if (breakable and not nowrap and x + p.w > width + 0.01
                and any(q.kind == "atom" or (q.kind == "word" and q.frag is not None) for q in cur)
                and _can_break_before(cur)):
            while cur and cur[-1].kind == "space":
                x -= cur.pop().w
            lines.append([])
            cur = lines[-1]
            x = 0.0
        cur.append(p)
        x += p.w
    for line in lines:
        while line and line[-1].kind == "space":
            line.pop()
    if len(lines) > 1 and not lines[-1]:
        lines.pop()
    return lines


def _can_break_before(cur: list[_Piece]) -> bool:
    """A break needs a space before the piece, or an atom either side (CSS's soft wrap
    opportunities around replaced elements)."""
    for q in reversed(cur):
        if q.kind == "space" or q.kind == "atom":
            return True
        if q.kind == "word" and q.frag is not None:
            return False
    return True


# --- flex layout -------------------------------------------------------------------------------


def _layout_flex(b: Box, cx: float, cy: float, inner_w: float, own_h: float | None) -> float:
    s = b.style
    row = s.flex_direction.startswith("row")
    items: list[Box] = []
    for k in b.kids:
        if isinstance(k, TextFrag):
            if k.text.strip():
                anon = Box(0, "#anon", _anon_style(s), {}, {}, [k])
                items.append(anon)
            continue
        items.append(k)
    items.sort(key=lambda k: k.style.order)
    if s.flex_direction.endswith("reverse"):
        items.reverse()
    gap_main = _len(s.column_gap if row else s.row_gap, inner_w, s.font_px) or 0.0
    gap_cross = _len(s.row_gap if row else s.column_gap, inner_w, s.font_px) or 0.0
    if row:
        return _flex_row(b, items, cx, cy, inner_w, own_h, gap_main, gap_cross)
    return _flex_column(b, items, cx, cy, inner_w, own_h, gap_main)


def _anon_style(parent: Style) -> Style:
    return replace(parent, display="block", margin=("0",) * 4, padding=("0",) * 4,
                   border=(0.0,) * 4, background=(0, 0, 0, 0), width="auto", height="auto",
                   min_width="0", min_height="0", max_width="none", max_height="none",
                   flex_grow=0.0, flex_shrink=1.0, flex_basis="auto", radius=0.0, extra={})


def _flex_row(b: Box, items: list[Box], cx: float, cy: float, inner_w: float,
              own_h: float | None, gap: float, gap_cross: float) -> float:
    s = b.style
    # hypothetical main sizes (outer, with margins)
    bases: list[float] = []
    for it in items:
        st = it.style
        basis = _len(st.flex_basis, inner_w, st.font_px)
        if basis is not None:
            if st.box_sizing != "border-box":
                p = _edges(st.padding, inner_w, st.font_px)
                basis += p[1] + p[3] + st.border[1] + st.border[3]
            m = _edges(st.margin, inner_w, st.font_px)
            bases.append(basis + m[1] + m[3])
        else:
            bases.append(min(intrinsic(it, inner_w, "max"), max(inner_w, intrinsic(it, inner_w, "min")))
                         if _len(st.width, inner_w, st.font_px) is None else intrinsic(it, inner_w, "max"))
    lines: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(bases):
        if s.flex_wrap and lines[-1] and used + gap + w > inner_w + 0.01:
            lines.append([])
            used = 0.0
        used += (gap if lines[-1] else 0.0) + w
        lines[-1].append(i)
    y = cy
    for li, line in enumerate(lines):
        sizes = [bases[i] for i in line]
        free = inner_w - sum(sizes) - gap * (len(line) - 1)
        grow = sum(items[i].style.flex_grow for i in line)
        if free > 0 and grow > 0:
            sizes = [sz + free * items[i].style.flex_grow / grow for sz, i in zip(sizes, line, strict=True)]
            free = 0.0
        elif free < 0:
            weights = [items[i].style.flex_shrink * bases[i] for i in line]
            total = sum(weights)
            if total > 0:
                mins = [intrinsic(items[i], inner_w, "min") for i in line]
                sizes = [max(mn, sz + free * wt / total)
                         for sz, wt, mn in zip(sizes, weights, mins, strict=True)]
                free = inner_w - sum(sizes) - gap * (len(line) - 1)
        # lay each item out at its size
        heights = []
        for sz, i in zip(sizes, line, strict=True):
            it = items[i]
            m = _edges(it.style.margin, inner_w, it.style.font_px)
            _layout_block(it, 0.0, 0.0, sz, inner_w, fixed_w=max(0.0, sz - m[1] - m[3]), cb_h=own_h)
            heights.append(it.h + it.margin[0] + it.margin[2])
        cross = max(heights, default=0.0)
        if own_h is not None and len(lines) == 1:
            cross = max(cross, own_h)
        # main-axis placement
        n = len(line)
        start, between = 0.0, gap
        jc = s.justify
        if free > 0:
            if jc in ("flex-end", "end", "right"):
                start = free
            elif jc == "center":
                start = free / 2
            elif jc == "space-between" and n > 1:
                between = gap + free / (n - 1)
            elif jc == "space-around":
                start, between = free / (2 * n), gap + free / n
            elif jc == "space-evenly":
                start, between = free / (n + 1), gap + free / (n + 1)
        x = cx + start
        for sz, i, hh in zip(sizes, line, heights, strict=True):
            it = items[i]
            al = it.style.align_self if it.style.align_self != "auto" else s.align_items
            top = y
            if al == "stretch" and _len(it.style.height, None, it.style.font_px) is None:
                it.h = max(it.h, cross - it.margin[0] - it.margin[2])
            elif al in ("center",):
                top = y + (cross - hh) / 2
            elif al in ("flex-end", "end"):
                top = y + cross - hh
            it.shift(x + it.margin[3] - it.x, top + it.margin[0] - it.y)
            x += sz + between
        y += cross + (gap_cross if li < len(lines) - 1 else 0.0)
    return y - cy


def _flex_column(b: Box, items: list[Box], cx: float, cy: float, inner_w: float,
                 own_h: float | None, gap: float) -> float:
    s = b.style
    heights = []
    for it in items:
        al = it.style.align_self if it.style.align_self != "auto" else s.align_items
        stretch = al == "stretch" and _len(it.style.width, inner_w, it.style.font_px) is None
        _layout_block(it, 0.0, 0.0, inner_w, inner_w, shrink=not stretch, cb_h=None)
        heights.append(it.h + it.margin[0] + it.margin[2])
    total = sum(heights) + gap * max(0, len(items) - 1)
    free = (own_h - total) if own_h is not None else 0.0
    grow = sum(it.style.flex_grow for it in items)
    if free > 0 and grow > 0:
        for i, it in enumerate(items):
            extra = free * it.style.flex_grow / grow
            it.h += extra
            heights[i] += extra
        free = 0.0
    n = len(items)
    start, between = 0.0, gap
    if free > 0:
        jc = s.justify
        if jc in ("flex-end", "end"):
            start = free
        elif jc == "center":
            start = free / 2
        elif jc == "space-between" and n > 1:
            between = gap + free / (n - 1)
        elif jc == "space-around":
            start, between = free / (2 * n), gap + free / n
        elif jc == "space-evenly":
            start, between = free / (n + 1), gap + free / (n + 1)
    y = cy + start
    for it, hh in zip(items, heights, strict=True):
        al = it.style.align_self if it.style.align_self != "auto" else s.align_items
        outer_w = it.w + it.margin[1] + it.margin[3]
        x = cx
        if al == "center":
            x = cx + (inner_w - outer_w) / 2
        elif al in ("flex-end", "end"):
            x = cx + inner_w - outer_w
        it.shift(x + it.margin[3] - it.x, y + it.margin[0] - it.y)
        y += hh + between
    return (y - between if items else y) - cy
