"""Drawing on a copy of an observation that needs no phone's style: blur, cover.

What must look like the phone's own drawing (a relabelled element, a switch in
the other state, a pop-up) is the device's to draw: `Device.repainter()`.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter


def blur(img: np.ndarray, rect: tuple[int, int, int, int], radius: float = 15) -> None:
    x0, y0, x1, y1 = _clamp(img, rect)
    if x1 <= x0 or y1 <= y0:
        return
    patch = Image.fromarray(np.ascontiguousarray(img[y0:y1, x0:x1]))
    img[y0:y1, x0:x1] = np.asarray(patch.filter(ImageFilter.GaussianBlur(radius)))


def cover(img: np.ndarray, rect: tuple[int, int, int, int], color: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = _clamp(img, rect)
    if x1 > x0 and y1 > y0:
        img[y0:y1, x0:x1] = color


def _clamp(img: np.ndarray, rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = rect
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)
