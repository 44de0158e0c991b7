"""Fonts and text metrics shared by layout, the IME cursor and the painter.

The package ships DejaVu Sans (Latin, Greek, Cyrillic, symbols) and uses it
everywhere, so screenshots are identical on every machine whatever fonts the
system has; Pillow's bundled font is the fallback if the file is missing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).resolve().parent.parent / "render" / "fonts" / "DejaVuSans.ttf"


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Bold is drawn with a 1 px stroke by the painter (the bundled font has one weight)."""
    if FONT_FILE.is_file():
        return ImageFont.truetype(str(FONT_FILE), size=size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=8192)
def text_width(s: str, size: int) -> int:
    return int(font(size).getlength(s))


@lru_cache(maxsize=4096)
def prefix_widths(s: str, size: int) -> tuple[int, ...]:
    """Width of s[:i] for i in 0..len(s): used to place a cursor under a tap."""
    f = font(size)
    return tuple(int(f.getlength(s[:i])) for i in range(len(s) + 1))


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
            if text_width(s[start:end], size) <= width:
                lines.append((start, end))
                break
            # longest prefix that fits
            lo, hi = start + 1, end
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if text_width(s[start:mid], size) <= width:
                    lo = mid
                else:
                    hi = mid - 1
            cut = lo
            space = s.rfind(" ", start, cut)
            if space > start:
                cut = space + 1
            lines.append((start, cut))
            start = cut
        pos = end + 1
    return tuple(lines)


def line_height(size: int) -> int:
    return int(size * 1.35)
