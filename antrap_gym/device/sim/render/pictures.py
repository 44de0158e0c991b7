"""Image files as pixels for the painter: decoded once per content, scaled per box.

A picture view carries its file's bytes; the painter asks here for an RGB array of
the box's size. Both the decoded image (by content hash) and each scaled copy (by
hash, size, mode) are memoised, so a screenshot of a gallery costs a few copies.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict

import numpy as np
from PIL import Image, UnidentifiedImageError

#: letterbox around a fitted picture (the viewer's black), and a broken image's grey
LETTERBOX = (0, 0, 0)
BROKEN = (189, 189, 189)
_DECODED: OrderedDict[str, Image.Image | None] = OrderedDict()
_SCALED: OrderedDict[tuple, np.ndarray] = OrderedDict()
_MAX_DECODED = 24
_MAX_SCALED = 96


def _remember(cache: OrderedDict, key, value, cap: int) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > cap:
        cache.popitem(last=False)


def content_key(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def decode(data: bytes) -> Image.Image | None:
    """The image in `data` as RGB, or None when it is no image PIL reads."""
    key = content_key(data)
    if key in _DECODED:
        _DECODED.move_to_end(key)
        return _DECODED[key]
    try:
        with Image.open(io.BytesIO(data)) as im:
            img: Image.Image | None = im.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        img = None
    _remember(_DECODED, key, img, _MAX_DECODED)
    return img


def scaled(data: bytes, w: int, h: int, crop: bool) -> np.ndarray:
    """An (h, w, 3) uint8 array: the picture scaled to fit the box (letterboxed) or,
    with `crop`, scaled to fill it and cut to the centre; a grey box if undecodable."""
    key = (content_key(data), w, h, crop)
    hit = _SCALED.get(key)
    if hit is not None:
        _SCALED.move_to_end(key)
        return hit
    img = decode(data) if data else None
    if img is None or w <= 0 or h <= 0:
        out = np.empty((max(h, 0), max(w, 0), 3), np.uint8)
        out[:] = BROKEN
    else:
        iw, ih = img.size
        s = max(w / iw, h / ih) if crop else min(w / iw, h / ih)
        sw, sh = max(1, round(iw * s)), max(1, round(ih * s))
        if not crop:
            sw, sh = min(sw, w), min(sh, h)
        pix = np.asarray(img.resize((sw, sh), Image.Resampling.BILINEAR), np.uint8)
        if crop:
            x, y = (sw - w) // 2, (sh - h) // 2
            out = np.ascontiguousarray(pix[y:y + h, x:x + w])
        else:
            out = np.empty((h, w, 3), np.uint8)
            out[:] = LETTERBOX
            x, y = (w - sw) // 2, (h - sh) // 2
            out[y:y + sh, x:x + sw] = pix[:h, :w]
    out.flags.writeable = False
    _remember(_SCALED, key, out, _MAX_SCALED)
    return out


def paste(frame: np.ndarray, data: bytes, rect: tuple[int, int, int, int],
          clip: tuple[int, int, int, int] | None, crop: bool) -> None:
    """Draw the picture into `frame` at `rect`, only inside `clip` (and the frame)."""
    x0, y0, x1, y1 = rect
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
    if clip is not None:
        cx0, cy0 = max(cx0, clip[0]), max(cy0, clip[1])
        cx1, cy1 = min(cx1, clip[2]), min(cy1, clip[3])
    if cx1 <= cx0 or cy1 <= cy0:
        return
    pix = scaled(data, x1 - x0, y1 - y0, crop)
    frame[cy0:cy1, cx0:cx1] = pix[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
