"""Vector drawings as pixels for the painter: a map's roads, a canvas's strokes.

A vector view (`UI.vector`) carries its shapes as a tuple of plain tuples in view
coordinates (pixels from the view's top left), so the value hashes (the damage
list compares it) and snapshots nothing. Each drawing is rasterised once per
(shapes, size) with Pillow and memoised; a screenshot pastes the part in view.

Shapes:

- ``("rect", x0, y0, x1, y1, color)``: a filled rectangle;
- ``("line", points, color, width)``: a polyline, round-joined (one point: a dot);
- ``("polygon", points, color)``: a filled polygon;
- ``("dot", x, y, r, color)``: a filled circle;
- ``("ring", x, y, r, color, width)``: a circle's outline.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

Shape = tuple[Any, ...]
Shapes = tuple[Shape, ...]
_RENDERED: OrderedDict[tuple, np.ndarray] = OrderedDict()
_MAX_RENDERED = 8


def _draw(d: ImageDraw.ImageDraw, shape: Shape) -> None:
    kind = shape[0]
    if kind == "rect":
        _, x0, y0, x1, y1, color = shape
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=tuple(color))
    elif kind == "line":
        _, points, color, width = shape
        pts = [tuple(p) for p in points]
        w = max(1, int(width))
        if len(pts) == 1 or all(p == pts[0] for p in pts):
            x, y = pts[0]
            r = w / 2
            d.ellipse((x - r, y - r, x + r, y + r), fill=tuple(color))
        else:
            d.line(pts, fill=tuple(color), width=w, joint="curve")
            r = w / 2
            for x, y in (pts[0], pts[-1]):  # round caps
                d.ellipse((x - r, y - r, x + r, y + r), fill=tuple(color))
    elif kind == "polygon":
        _, points, color = shape
        if len(points) >= 3:
            d.polygon([tuple(p) for p in points], fill=tuple(color))
    elif kind == "dot":
        _, x, y, r, color = shape
        d.ellipse((x - r, y - r, x + r, y + r), fill=tuple(color))
    elif kind == "ring":
        _, x, y, r, color, width = shape
        d.ellipse((x - r, y - r, x + r, y + r), outline=tuple(color), width=max(1, int(width)))


def rasterize(shapes: Shapes, w: int, h: int, background: tuple[int, int, int] = (255, 255, 255)
              ) -> np.ndarray:
    """An (h, w, 3) uint8 array of the shapes drawn in order over `background`
    (memoised: read-only)."""
    key = (shapes, w, h, background)
    hit = _RENDERED.get(key)
    if hit is not None:
        _RENDERED.move_to_end(key)
        return hit
    img = Image.new("RGB", (max(1, w), max(1, h)), background)
    d = ImageDraw.Draw(img)
    for shape in shapes:
        _draw(d, shape)
    out = np.asarray(img, np.uint8)
    out.flags.writeable = False
    _RENDERED[key] = out
    while len(_RENDERED) > _MAX_RENDERED:
        _RENDERED.popitem(last=False)
    return out


def image(shapes: Shapes, w: int, h: int, background: tuple[int, int, int] = (255, 255, 255)
          ) -> Image.Image:
    """The drawing as a Pillow image (what an app saves as a PNG or JPEG)."""
    return Image.fromarray(np.array(rasterize(shapes, w, h, background)))


def paste(frame: np.ndarray, shapes: Shapes, rect: tuple[int, int, int, int],
          clip: tuple[int, int, int, int] | None, background: tuple[int, int, int]) -> None:
    """Draw the shapes into `frame` at `rect`, only inside `clip` (and the frame)."""
    x0, y0, x1, y1 = rect
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
    if clip is not None:
        cx0, cy0 = max(cx0, clip[0]), max(cy0, clip[1])
        cx1, cy1 = min(cx1, clip[2]), min(cy1, clip[3])
    if cx1 <= cx0 or cy1 <= cy0:
        return
    pix = rasterize(shapes, x1 - x0, y1 - y0, background)
    frame[cy0:cy1, cx0:cx1] = pix[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
