"""CSS text -> rules and declarations, and the value types the layout reads (px, %, colours).

Only parsing lives here: which rules match an element is decided on the JavaScript
side (the same selector engine serves `querySelector`), and the cascade's result is
applied by `style.py`. Shorthands (margin, padding, border, background, flex, gap)
are expanded here, so the cascade only ever sees longhands.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from PIL import ImageColor

Decl = tuple[str, str, bool]  # property, value, !important
Color = tuple[int, int, int, int]  # RGBA, alpha 0-255

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SIDES = ("top", "right", "bottom", "left")


@lru_cache(maxsize=256)
def parse_sheet(text: str) -> tuple[tuple[str, tuple[Decl, ...]], ...]:
    """A stylesheet's style rules as (selector text, declarations), in source order.
    At-rules (`@media`, `@keyframes`, ...) are skipped whole."""
    text = _COMMENT.sub("", text)
    rules: list[tuple[str, tuple[Decl, ...]]] = []
    i, n = 0, len(text)
    while i < n:
        open_ = text.find("{", i)
        if open_ < 0:
            break
        prelude = text[i:open_].strip()
        # the matching close brace (at-rules nest blocks)
        depth, j = 1, open_ + 1
        while j < n and depth:
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            j += 1
        body = text[open_ + 1 : j - 1]
        if prelude and not prelude.startswith("@"):
            rules.append((" ".join(prelude.split()), parse_declarations(body)))
        i = j
    return tuple(rules)


@lru_cache(maxsize=4096)
def parse_declarations(text: str) -> tuple[Decl, ...]:
    """`a: b; c: d !important` -> longhand declarations (shorthands expanded)."""
    out: list[Decl] = []
    for part in text.split(";"):
        prop, colon, value = part.partition(":")
        if not colon:
            continue
        prop = prop.strip().lower()
        value = value.strip()
        important = False
        low = value.lower()
        if low.endswith("!important"):
            value, important = value[: -len("!important")].strip(), True
        if prop and value:
            out.extend((p, v, important) for p, v in expand(prop, value))
    return tuple(out)


def _box(prop: str, value: str) -> list[tuple[str, str]]:
    parts = value.split()
    if not 1 <= len(parts) <= 4:
        return []
    t = parts[0]
    r = parts[1] if len(parts) > 1 else t
    b = parts[2] if len(parts) > 2 else t
    left = parts[3] if len(parts) > 3 else r
    return [(f"{prop}-{s}", v) for s, v in zip(_SIDES, (t, r, b, left), strict=True)]


def _border(value: str) -> tuple[str, str, str]:
    """(width, style, colour) of a `border` value, defaults filled in."""
    width, style, color = "medium", "none", "currentcolor"
    for tok in _tokens(value):
        low = tok.lower()
        if low in ("none", "hidden", "solid", "dashed", "dotted", "double", "groove", "ridge",
                   "inset", "outset"):
            style = low
        elif low in ("thin", "medium", "thick") or low[:1].isdigit() or low[:1] == ".":
            width = low
        else:
            color = tok
    return width, style, color


def _tokens(value: str) -> list[str]:
    """Space-separated tokens, keeping `rgb(1, 2, 3)` whole."""
    return re.findall(r"[\w#.%-]+\([^)]*\)|[^\s]+", value)


def expand(prop: str, value: str) -> list[tuple[str, str]]:
    """One declaration as longhands."""
    if prop in ("margin", "padding"):
        return _box(prop, value)
    if prop == "border":
        w, s, c = _border(value)
        return [(f"border-{side}-{k}", v) for side in _SIDES
                for k, v in (("width", w), ("style", s), ("color", c))]
    if prop in ("border-top", "border-right", "border-bottom", "border-left"):
        w, s, c = _border(value)
        return [(f"{prop}-width", w), (f"{prop}-style", s), (f"{prop}-color", c)]
    if prop in ("border-width", "border-style", "border-color"):
        kind = prop.split("-")[1]
        return [(f"border-{side}-{kind}", v) for (_, v), side
                in zip(_box("x", value), _SIDES, strict=False)]
    if prop == "background":
        # a colour is all a page may give (gradients and images are not drawn)
        for tok in _tokens(value):
            if parse_color(tok) is not None:
                return [("background-color", tok)]
        return [("background-color", "transparent")] if value.strip() == "none" else []
    if prop == "gap" or prop == "grid-gap":
        parts = value.split()
        return [("row-gap", parts[0]), ("column-gap", parts[-1])]
    if prop == "flex":
        parts = value.split()
        if parts == ["none"]:
            return [("flex-grow", "0"), ("flex-shrink", "0"), ("flex-basis", "auto")]
        if parts == ["auto"]:
            return [("flex-grow", "1"), ("flex-shrink", "1"), ("flex-basis", "auto")]
        out = [("flex-grow", parts[0])]
        if len(parts) > 1 and _is_number(parts[1]):
            out.append(("flex-shrink", parts[1]))
        basis = next((p for p in parts[1:] if not _is_number(p)), "0%")
        return [*out, ("flex-basis", basis)]
    if prop == "flex-flow":
        out = []
        for p in value.split():
            out.append(("flex-wrap" if "wrap" in p else "flex-direction", p))
        return out
    return [(prop, value)]


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def parse_color(value: str) -> Color | None:
    """A CSS colour (#rgb, #rrggbb, rgb(), rgba(), hsl(), a named colour, transparent) as
    RGBA; None when it is none of them."""
    return _color(value.strip().lower())


@lru_cache(maxsize=1024)
def _color(v: str) -> Color | None:
    if v == "transparent":
        return (0, 0, 0, 0)
    if v.startswith(("rgb(", "rgba(")) and "/" not in v:
        nums = re.findall(r"-?[\d.]+%?", v)
        if len(nums) in (3, 4):
            try:
                rgb = [_channel(x) for x in nums[:3]]
                a = 255 if len(nums) == 3 else round(255 * max(0.0, min(1.0, _alpha(nums[3]))))
            except ValueError:
                return None
            return (*rgb, a)  # type: ignore[return-value]
    try:
        c = ImageColor.getrgb(v)
    except ValueError:
        return None
    return (c[0], c[1], c[2], c[3] if len(c) > 3 else 255)  # type: ignore[misc]


def _channel(x: str) -> int:
    f = float(x[:-1]) * 2.55 if x.endswith("%") else float(x)
    return max(0, min(255, round(f)))


def _alpha(x: str) -> float:
    return float(x[:-1]) / 100 if x.endswith("%") else float(x)


_LENGTH = re.compile(r"^(-?(?:\d+\.?\d*|\.\d+))(px|%|em|rem|vw|vh|pt)?$")


@lru_cache(maxsize=4096)
def _number_unit(value: str) -> tuple[float, str | None] | None:
    """`12.5px` -> (12.5, "px"); None when it is no number with a length unit (a page's
    layout asks for the same few strings millions of times)."""
    m = _LENGTH.match(value.strip().lower())
    return None if m is None else (float(m.group(1)), m.group(2))


def parse_length(value: str, percent_of: float | None, font_px: float,
                 viewport: tuple[float, float] = (412.0, 915.0)) -> float | None:
    """A length in CSS px; None for `auto`, a percentage with nothing to take it of, or
    what is no length."""
    parsed = _number_unit(value)
    if parsed is None:
        return None
    n, unit = parsed
    if unit in (None, "px"):
        return n if unit == "px" or n == 0 else None
    if unit == "%":
        return None if percent_of is None else n * percent_of / 100
    if unit == "em":
        return n * font_px
    if unit == "rem":
        return n * 16
    if unit == "pt":
        return n * 4 / 3
    return n * (viewport[0] if unit == "vw" else viewport[1]) / 100


def sheets_json(texts: list[str]) -> str:
    """The selectors of every rule of these sheets, for the selector engine."""
    return json.dumps([[sel for sel, _ in parse_sheet(t)] for t in texts])
