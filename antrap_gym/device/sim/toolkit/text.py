"""Fonts and text metrics shared by layout, the IME cursor and the painter.

The package ships DejaVu Sans (Latin, Greek, Cyrillic, symbols) and uses it
everywhere, so screenshots are identical on every machine whatever fonts the
system has; Pillow's bundled font is the fallback if the file is missing.

Any string can be measured and drawn: a run handed to Pillow never holds a
paragraph separator (see `shapeable`), and the searches over a long string
measure O(log n) prefixes, not every one, so 10,000 characters lay out fast.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).resolve().parent.parent / "render" / "fonts" / "DejaVuSans.ttf"

#: paragraph separators (Unicode bidi class B): Pillow's raqm layout refuses a run that
#: holds one ("raqm_layout() failed"), so a run is measured and drawn without them
_SEPARATORS = re.compile("[\n\r\x1c-\x1e\x85\u2029]")
#: how one line shows them, one character for one (indices into the text stay valid):
#: a newline as a space and a carriage return as nothing, as Android's
#: SingleLineTransformationMethod does; the rarer ones as nothing too
_ONE_LINE = {"\n": " "}
_INVISIBLE = "\ufeff"  # ZERO WIDTH NO-BREAK SPACE: shaped to no width, drawn as nothing


def shapeable(s: str) -> str:
    """`s` as one line of glyphs Pillow can lay out, character for character."""
    if _SEPARATORS.search(s) is None:
        return s
    return _SEPARATORS.sub(lambda m: _ONE_LINE.get(m.group(), _INVISIBLE), s)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Bold is drawn with a 1 px stroke by the painter (the bundled font has one weight)."""
    if FONT_FILE.is_file():
        return ImageFont.truetype(str(FONT_FILE), size=size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=8192)
def text_width(s: str, size: int) -> int:
    return int(font(size).getlength(shapeable(s)))


def _first_reaching(s: str, size: int, target: float) -> int:
    """The first i in 0..len(s) with s[:i] at least `target` pixels wide (len(s) + 1 when
    none is): prefix widths only grow, so a binary search of O(log n) measurements."""
    lo, hi = 0, len(s) + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if text_width(s[:mid], size) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def index_at(s: str, size: int, x: float) -> int:
    """The index in 0..len(s) whose prefix is closest to `x` pixels wide (the first of
    equals): where a tap at x puts the cursor."""
    after = _first_reaching(s, size, x)
    if after == 0:
        return 0
    below = text_width(s[: after - 1], size)
    if after <= len(s) and text_width(s[:after], size) - x < x - below:
        return after
    return _first_reaching(s, size, below)  # the first index of that width (zero-width marks)


def span_between(s: str, size: int, left: float, right: float) -> tuple[int, int]:
    """(a, b): the whole characters s[a:b] that cover `left` to `right` pixels of s, so a
    line far wider than its box draws only what shows."""
    a = max(0, _first_reaching(s, size, left) - 1)
    return a, min(len(s), _first_reaching(s, size, right))


def ellipsize(s: str, size: int, width: int) -> str:
    """Cut s to fit `width` pixels, ending with an ellipsis when cut."""
    if text_width(s, size) <= width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid] + "…", size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo] + "…"


#: characters up to which `wrap` first tries the rest of a paragraph whole
WHOLE_FIRST = 512


def _longest_fit(s: str, start: int, end: int, size: int, width: int) -> int:
    """The largest cut in start+1..end with s[start:cut] within `width` (start+1 when
    none is). The probe doubles from one character until it overflows, then a binary
    search narrows it: a line costs measurements of about its own length, so wrapping
    stays O(n log n) however long the paragraph."""
    fits, step = start + 1, 1
    while True:
        probe = min(end, start + 1 + step)
        if probe <= fits:
            return fits
        if text_width(s[start:probe], size) > width:
            break
        fits, step = probe, step * 2
        if probe == end:
            return end
    lo, hi = fits, probe - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(s[start:mid], size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


@lru_cache(maxsize=1024)
def wrap(s: str, size: int, width: int) -> tuple[tuple[int, int], ...]:
    """Split s into visual lines (start, end) that fit `width`, breaking at
    newlines, then spaces, then anywhere. Line spans exclude the newline."""
    lines: list[tuple[int, int]] = []
    pos = 0
    for para in s.split("\n"):
        start = pos
        end = pos + len(para)
        while True:
            # the rest of a short paragraph in one measurement (the usual case), else a search
            if end == start or (end - start <= WHOLE_FIRST and text_width(s[start:end], size) <= width):
                lines.append((start, end))
                break
            cut = _longest_fit(s, start, end, size, width)
            if cut == end and text_width(s[start:end], size) <= width:
                lines.append((start, end))
                break
            space = s.rfind(" ", start, cut)
            if space > start:
                cut = space + 1
            lines.append((start, cut))
            start = cut
        pos = end + 1
    return tuple(lines)


def line_height(size: int) -> int:
    return int(size * 1.35)
