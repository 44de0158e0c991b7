"""Computed style: the cascade's declarations for an element, over Chrome's defaults and
what its parent passes down, resolved into the values the layout reads.

The selector matching happens on the JavaScript side; each element of the dump names
the rules it matched in cascade order and carries its inline style. Here those
declarations are applied in that order (important ones after the rest), over the
user-agent style sheet's values for the tag and the inherited properties.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from functools import lru_cache

from antrap_gym.device.sim.web import css

Color = tuple[int, int, int, int]

BLACK: Color = (0, 0, 0, 255)
NONE: Color = (0, 0, 0, 0)
#: Chrome's form-control colours (buttonface, field borders, link blue)
BUTTON_FACE: Color = (239, 239, 239, 255)
CONTROL_BORDER: Color = (118, 118, 118, 255)
LINK: Color = (0, 0, 238, 255)
CONTROL_FONT = 13.333

BLOCK = frozenset(("html", "body", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
                   "li", "hr", "form", "section", "header", "footer", "main", "nav", "article",
                   "aside", "fieldset", "pre", "blockquote", "dl", "dt", "dd", "figure",
                   "figcaption", "table", "tbody", "thead", "tfoot", "tr", "details", "summary",
                   "address", "legend", "center"))
INLINE_BLOCK = frozenset(("button", "input", "select", "textarea", "canvas", "img", "td", "th",
                          "meter", "progress"))
NOT_RENDERED = frozenset(("head", "script", "style", "title", "meta", "link", "template",
                          "option", "optgroup", "datalist", "noscript", "base"))
HEADINGS = {"h1": (2.0, 0.67), "h2": (1.5, 0.83), "h3": (1.17, 1.0), "h4": (1.0, 1.33),
            "h5": (0.83, 1.67), "h6": (0.67, 2.33)}
BOLD_TAGS = frozenset(("b", "strong", "th", "h1", "h2", "h3", "h4", "h5", "h6", "legend"))


@dataclass(slots=True, eq=False)
class Style:
    """The computed values of one element (lengths still as written where they depend
    on the containing block: `width`, `height`, `max_width`... are resolved in layout).
    Compared by identity: memoised styles are shared, and a parent's style is part of
    its children's cache key."""

    display: str = "inline"
    visible: bool = True
    color: Color = BLACK
    background: Color = NONE
    font_px: float = 16.0
    bold: bool = False
    italic: bool = False
    align: str = "left"
    underline: bool = False
    line_height: float | None = None  # px; None: normal
    white_space: str = "normal"
    list_style: str = "disc"
    text_transform: str = "none"
    width: str = "auto"
    height: str = "auto"
    min_width: str = "0"
    min_height: str = "0"
    max_width: str = "none"
    max_height: str = "none"
    margin: tuple[str, str, str, str] = ("0", "0", "0", "0")
    padding: tuple[str, str, str, str] = ("0", "0", "0", "0")
    border: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    border_color: tuple[Color, Color, Color, Color] = (BLACK, BLACK, BLACK, BLACK)
    radius: float = 0.0
    box_sizing: str = "content-box"
    flex_direction: str = "row"
    flex_wrap: bool = False
    justify: str = "flex-start"
    align_items: str = "stretch"
    align_self: str = "auto"
    row_gap: str = "0"
    column_gap: str = "0"
    flex_grow: float = 0.0
    flex_shrink: float = 1.0
    flex_basis: str = "auto"
    order: int = 0
    overflow: str = "visible"
    opacity: float = 1.0
    extra: dict = field(default_factory=dict)

    @property
    def line_px(self) -> float:
        return self.line_height if self.line_height is not None else round(self.font_px * 1.2, 2)


_INHERITED = ("visible", "color", "font_px", "bold", "italic", "align", "underline",
              "line_height", "white_space", "list_style", "text_transform")


def _ua(tag: str, parent: Style, attrs: dict, type_: str) -> Style:
    """Chrome's user-agent style for `tag`, under `parent`."""
    s = Style(**{k: getattr(parent, k) for k in _INHERITED})
    if tag in NOT_RENDERED:
        s.display = "none"
    elif tag in BLOCK:
        s.display = "block"
    elif tag in INLINE_BLOCK:
        s.display = "inline-block"
    if "hidden" in attrs or (tag == "input" and type_ == "hidden"):
        s.display = "none"
    if tag == "li":
        s.display = "list-item"
    f = parent.font_px
    if tag == "body":
        s.margin = ("8px",) * 4
    elif tag == "p" or tag == "dl":
        s.margin = ("1em", "0", "1em", "0")
    elif tag in HEADINGS:
        scale, m = HEADINGS[tag]
        s.font_px = round(f * scale, 3)
        s.margin = (f"{m}em", "0", f"{m}em", "0")
    elif tag in ("ul", "ol"):
        s.margin = ("1em", "0", "1em", "0")
        s.padding = ("0", "0", "0", "40px")
        s.list_style = "decimal" if tag == "ol" else "disc"
    elif tag in ("blockquote", "figure"):
        s.margin = ("1em", "40px", "1em", "40px")
    elif tag == "dd":
        s.margin = ("0", "0", "0", "40px")
    elif tag == "hr":
        s.margin = ("0.5em", "auto", "0.5em", "auto")
        s.border = (1.0, 1.0, 1.0, 1.0)
        s.border_color = ((128, 128, 128, 255),) * 4
    elif tag == "fieldset":
        s.margin = ("0", "2px", "0", "2px")
        s.padding = ("0.35em", "0.75em", "0.625em", "0.75em")
        s.border = (2.0,) * 4
        s.border_color = ((192, 192, 192, 255),) * 4
    elif tag == "a" and "href" in attrs:
        s.color, s.underline = LINK, True
    elif tag == "small":
        s.font_px = round(f * 0.833, 3)
    elif tag in ("i", "em"):
        s.italic = True
    elif tag == "u":
        s.underline = True
    if tag in BOLD_TAGS:
        s.bold = True
    if tag in ("button", "input", "select", "textarea"):
        s.font_px = CONTROL_FONT
        s.bold = False
        s.align = "left"
        s.underline = False
        if tag != "textarea" and not (tag == "input" and type_ in ("text", "password", "number",
                                                                   "email", "tel", "search", "url", "")):
            s.box_sizing = "border-box"  # Chrome's buttons, selects, checkboxes and ranges
        if tag == "button" or (tag == "input" and type_ in ("button", "submit", "reset")):
            s.align = "center"
            s.padding = ("1px", "6px", "1px", "6px")
            s.border = (2.0,) * 4
            s.border_color = (CONTROL_BORDER,) * 4
            s.background = BUTTON_FACE
            s.radius = 2.0
        elif tag == "input" and type_ in ("checkbox", "radio"):
            s.margin = ("3px", "3px", "3px", "4px") if type_ == "checkbox" else ("3px", "3px", "0", "5px")
        elif tag == "input" and type_ == "range":
            s.margin = ("2px",) * 4
        elif tag == "select":
            s.border = (1.0,) * 4
            s.border_color = (CONTROL_BORDER,) * 4
            s.background = (255, 255, 255, 255)
            s.radius = 2.0
        else:  # text fields and textarea
            s.padding = ("1px", "2px", "1px", "2px")
            s.border = (2.0,) * 4
            s.border_color = (CONTROL_BORDER,) * 4
            s.background = (255, 255, 255, 255)
            s.white_space = "pre-wrap" if tag == "textarea" else "pre"
    return s


def compute(tag: str, attrs: dict, type_: str, decls: tuple[css.Decl, ...], parent: Style) -> Style:
    """The computed style of an element: user-agent style, then `decls` (in cascade
    order, important ones last)."""
    s = _ua(tag, parent, attrs, type_)
    author_display = False
    for important in (False, True):
        for prop, value, imp in decls:
            if imp is important:
                if prop == "display":
                    author_display = True
                _apply(s, prop, value.strip(), parent)
    if "hidden" in attrs and not author_display:
        s.display = "none"
    return s


def _px(value: str, font: float, parent_font: float | None = None) -> float | None:
    return css.parse_length(value, None, font if parent_font is None else parent_font)


def _apply(s: Style, prop: str, v: str, parent: Style) -> None:
    low = v.lower()
    if low in ("inherit", "unset") and prop in ("color", "font-size", "font-weight", "text-align",
                                                "visibility"):
        return  # already inherited
    if prop == "display":
        if low in ("block", "inline", "inline-block", "flex", "inline-flex", "none", "list-item",
                   "grid", "inline-grid", "table", "table-row", "table-cell", "contents"):
            s.display = {"grid": "block", "inline-grid": "inline-block", "table": "block",
                         "table-row": "block", "table-cell": "inline-block",
                         "contents": "block"}.get(low, low)
    elif prop == "visibility":
        s.visible = low not in ("hidden", "collapse")
    elif prop == "color":
        c = css.parse_color(v)
        if c is not None:
            s.color = c
    elif prop == "background-color":
        c = css.parse_color(v)
        if c is not None:
            s.background = c
    elif prop == "font-size":
        named = {"xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18,
                 "x-large": 24, "xx-large": 32, "larger": parent.font_px * 1.2,
                 "smaller": parent.font_px / 1.2}
        px = named.get(low) if low in named else css.parse_length(v, parent.font_px, parent.font_px)
        if px is not None and px >= 0:
            s.font_px = float(px)
    elif prop == "font-weight":
        s.bold = low in ("bold", "bolder") or (low.isdigit() and int(low) >= 600)
    elif prop == "font-style":
        s.italic = low in ("italic", "oblique")
    elif prop == "font":
        for tok in v.split():
            px = css.parse_length(tok.split("/")[0], parent.font_px, parent.font_px)
            if px is not None and tok[:1].isdigit():
                s.font_px = px
            elif tok.lower() in ("bold", "bolder") or (tok.isdigit() and int(tok) >= 600):
                s.bold = True
    elif prop == "text-align":
        if low in ("left", "right", "center", "justify", "start", "end"):
            s.align = {"start": "left", "end": "right", "justify": "left"}.get(low, low)
    elif prop in ("text-decoration", "text-decoration-line"):
        s.underline = "underline" in low
    elif prop == "line-height":
        if low == "normal":
            s.line_height = None
        else:
            try:
                s.line_height = float(low) * s.font_px
            except ValueError:
                px = css.parse_length(v, s.font_px, s.font_px)
                if px is not None:
                    s.line_height = px
    elif prop == "white-space":
        s.white_space = low
    elif prop in ("list-style", "list-style-type"):
        s.list_style = low.split()[0] if low else s.list_style
    elif prop == "text-transform":
        s.text_transform = low
    elif prop in ("width", "height", "min-width", "min-height", "max-width", "max-height",
                  "flex-basis", "row-gap", "column-gap"):
        setattr(s, prop.replace("-", "_"), low)
    elif prop.startswith(("margin-", "padding-")) and prop.count("-") == 1:
        kind, side = prop.split("-")
        sides = ("top", "right", "bottom", "left")
        i = sides.index(side) if side in sides else -1
        if i >= 0:
            vals = list(getattr(s, kind))
            vals[i] = low
            setattr(s, kind, tuple(vals))
    elif prop.startswith("border-") and prop.endswith(("-width", "-color", "-style")):
        parts = prop.split("-")
        if len(parts) == 3 and parts[1] in ("top", "right", "bottom", "left"):
            i = ("top", "right", "bottom", "left").index(parts[1])
            if parts[2] == "width":
                w = {"thin": 1.0, "medium": 3.0, "thick": 5.0}.get(low)
                w = w if w is not None else css.parse_length(v, None, s.font_px)
                if w is not None:
                    b = list(s.border)
                    b[i] = max(0.0, w)
                    s.border = tuple(b)  # type: ignore[assignment]
            elif parts[2] == "color":
                c = s.color if low == "currentcolor" else css.parse_color(v)
                if c is not None:
                    bc = list(s.border_color)
                    bc[i] = c
                    s.border_color = tuple(bc)  # type: ignore[assignment]
            elif parts[2] == "style":
                styles = s.extra.setdefault("border_style", {})
                styles[i] = low
    elif prop == "border-radius":
        px = css.parse_length(v.split()[0].split("/")[0], None, s.font_px)
        if px is None and v.strip().endswith("%"):
            px = 10**4  # a pill or a circle: clamped to the box in layout
        if px is not None:
            s.radius = px
    elif prop == "box-sizing":
        s.box_sizing = low
    elif prop == "flex-direction":
        s.flex_direction = low
    elif prop == "flex-wrap":
        s.flex_wrap = low in ("wrap", "wrap-reverse")
    elif prop == "justify-content":
        s.justify = {"start": "flex-start", "end": "flex-end", "left": "flex-start",
                     "right": "flex-end", "normal": "flex-start"}.get(low, low)
    elif prop == "align-items":
        s.align_items = {"start": "flex-start", "end": "flex-end", "normal": "stretch",
                         "self-start": "flex-start", "self-end": "flex-end"}.get(low, low)
    elif prop == "align-self":
        s.align_self = {"start": "flex-start", "end": "flex-end"}.get(low, low)
    elif prop in ("flex-grow", "flex-shrink"):
        with contextlib.suppress(ValueError):
            setattr(s, prop.replace("-", "_"), max(0.0, float(low)))
    elif prop == "order":
        with contextlib.suppress(ValueError):
            s.order = int(low)
    elif prop in ("overflow", "overflow-y", "overflow-x"):
        if low in ("auto", "scroll", "hidden", "clip", "visible") and (
                prop != "overflow-x" or s.overflow == "visible"):
            s.overflow = "hidden" if low == "clip" else low
    elif prop == "opacity":
        with contextlib.suppress(ValueError):
            s.opacity = float(low)


def finish(s: Style) -> Style:
    """Borders whose style is none (or never set) are no borders."""
    styles = s.extra.get("border_style", {})
    if styles:
        b = list(s.border)
        for i, st in styles.items():
            if st in ("none", "hidden"):
                b[i] = 0.0
        s.border = tuple(b)  # type: ignore[assignment]
    return s


@lru_cache(maxsize=8192)
def cascade(tag: str, attrs_key: tuple, type_: str, rules_key: tuple, sheets_key: tuple,
            inline: str, parent: Style) -> Style:
    """Memoised `compute`: the same element under the same parent style computes once."""
    decls: list[css.Decl] = []
    if rules_key:
        all_rules = [r for text in sheets_key for r in css.parse_sheet(text)]
        for i in rules_key:
            if 0 <= i < len(all_rules):
                decls.extend(all_rules[i][1])
    if inline:
        decls.extend(css.parse_declarations(inline))
    s = compute(tag, dict(attrs_key), type_, tuple(decls), parent)
    return finish(s)


ROOT = Style(display="block")


def root_style() -> Style:
    return replace(ROOT)
