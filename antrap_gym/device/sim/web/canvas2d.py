"""A page canvas on screen: its RGBA pixels (rasterised by the page's 2D context, see
prelude.js) over the page's white, as a PNG the painter's picture view shows.

`CanvasPicture` is what a canvas view carries: the painter asks it for the bytes only
when a screenshot is taken, and it compares by canvas and drawing version, so the
damage tracker repaints a canvas only after it was drawn on.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image


def png_of(width: int, height: int, rgba: bytes) -> bytes:
    """RGBA pixels (straight alpha) composited over white, as PNG bytes; a broken
    image (empty bytes) when the pixels do not fill the size."""
    if width <= 0 or height <= 0 or len(rgba) != width * height * 4:
        return b""
    img = Image.frombytes("RGBA", (width, height), rgba)
    white = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    out = io.BytesIO()
    Image.alpha_composite(white, img).convert("RGB").save(out, "PNG", compress_level=1)
    return out.getvalue()


class CanvasPicture:
    """A canvas's picture, read lazily: `picture()` gives the PNG bytes."""

    __slots__ = ("_png", "_read", "key")

    def __init__(self, key: tuple, read: Callable[[], bytes]) -> None:
        self.key = key
        self._read = read
        self._png: bytes | None = None

    def picture(self) -> bytes:
        if self._png is None:
            self._png = self._read()
        return self._png

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CanvasPicture) and other.key == self.key
