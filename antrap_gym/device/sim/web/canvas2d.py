"""A page canvas on screen: its RGBA pixels (rasterised by the page's 2D context, see
prelude.js) over the page's white, as a PNG the painter's picture view shows.

`CanvasPicture` is what a canvas view carries: the painter asks it for the bytes only
when a screenshot is taken, and it compares by its key (the page engine, the canvas and
its drawing version), so the damage tracker repaints a canvas only after it was drawn
on, and a canvas's pixels are read from the page once per drawing version.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image

#: canvases' PNGs by picture key, newest last: a key names one picture for the process's
#: life (the engine's serial, the canvas, its drawing version, the size), and a canvas
#: not drawn on is shown again and again (every window build makes a new picture view)
PNG_CACHE_SIZE = 64
_PNGS: OrderedDict[Hashable, bytes] = OrderedDict()


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

    __slots__ = ("_read", "key")

    def __init__(self, key: Hashable, read: Callable[[], bytes]) -> None:
        self.key = key
        self._read = read

    def picture(self) -> bytes:
        png = _PNGS.get(self.key)
        if png is None:
            png = _PNGS[self.key] = self._read()
            while len(_PNGS) > PNG_CACHE_SIZE:
                _PNGS.popitem(last=False)
        else:
            _PNGS.move_to_end(self.key)
        return png

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CanvasPicture) and other.key == self.key
