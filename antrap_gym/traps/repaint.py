"""Drawing on a copy of an observation: relabel, flip a switch, blur, cover, composite.

Works on any backend's screenshot (it only needs the pixels and element
bounds), using the simulated phone's painter for the drawing itself.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter

from antrap_gym.device.elements import BoundingBox
from antrap_gym.device.sim.render import canvas as cv
from antrap_gym.device.sim.render.painter import DARK, LIGHT, Painter
from antrap_gym.device.sim.toolkit.views import View


def background_of(img: np.ndarray, b: BoundingBox) -> tuple[int, int, int]:
    """The most common colour on a box's border (what lies behind its content)."""
    h, w = img.shape[:2]
    x0, x1 = max(0, b.x_min), min(w, b.x_max)
    y0, y1 = max(0, b.y_min), min(h, b.y_max)
    if x1 <= x0 or y1 <= y0:
        return (255, 255, 255)
    ring = np.concatenate([img[y0, x0:x1], img[y1 - 1, x0:x1], img[y0:y1, x0], img[y0:y1, x1 - 1]])
    colors, counts = np.unique(ring.reshape(-1, 3), axis=0, return_counts=True)
    return tuple(int(c) for c in colors[int(np.argmax(counts))])


def ink_of(img: np.ndarray, b: BoundingBox, bg: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour farthest from the background inside a box (the text's colour)."""
    region = img[max(0, b.y_min):b.y_max, max(0, b.x_min):b.x_max].reshape(-1, 3).astype(int)
    if region.size == 0:
        return (0, 0, 0)
    d = np.abs(region - np.array(bg)).sum(axis=1)
    return tuple(int(c) for c in region[int(np.argmax(d))])


def relabel(img: np.ndarray, b: BoundingBox, text: str, density: float) -> None:
    """Paint over a text element and write `text` in its place, in its colours."""
    bg = background_of(img, b)
    ink = ink_of(img, b, bg)
    cv.fill(img, (b.x_min, b.y_min, b.x_max, b.y_max), bg)
    size = max(8, min(round(16 * density), int(b.height * 0.6)))
    m = cv.text_mask(text, size)
    y = b.y_min + (b.height - m.shape[0]) // 2
    cv.text(img, text, b.x_min, y, size, ink, (b.x_min, b.y_min, b.x_max, b.y_max), bg=bg)


def flip_checkable(img: np.ndarray, b: BoundingBox, kind: str, checked: bool, dark: bool,
                   density: float) -> None:
    """Draw a switch / checkbox / radio in the given state over its bounds."""
    bg = background_of(img, b)
    cv.fill(img, (b.x_min, b.y_min, b.x_max, b.y_max), bg)
    p = Painter(img, DARK if dark else LIGHT, density, {})
    v = View(kind, (b.x_min, b.y_min, b.x_max, b.y_max), checkable=True, checked=checked)
    p.draw(v, None, bg)


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


def is_dark(img: np.ndarray) -> bool:
    return float(img[::16, ::16].mean()) < 100


def _clamp(img: np.ndarray, rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = rect
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def reicon(img: np.ndarray, b: BoundingBox, icon: str, checkable: bool, checked: bool,
           dark: bool, density: float) -> None:
    """Draw an icon button (its icon, in its state's colour) over its bounds."""
    bg = background_of(img, b)
    cv.fill(img, (b.x_min, b.y_min, b.x_max, b.y_max), bg)
    p = Painter(img, DARK if dark else LIGHT, density, {})
    v = View("icon_button", (b.x_min, b.y_min, b.x_max, b.y_max), icon=icon, checkable=checkable,
             checked=checked)
    p.draw(v, None, bg)
