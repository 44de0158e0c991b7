"""What a model's reply is made of, shared by the prompt side (`policy`) and the readers
(`parsers`): the coordinate space it speaks (`CoordSpace`: absolute pixels of the image
resized by Qwen-VL's `smart_resize`, or relative 0–1000), the tool it calls, and the error
for a reply that cannot be read. Kept apart so that neither side imports the other."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from antrap_gym.device.elements import BoundingBox

TOOL_NAME = "mobile_use"
QWEN25_FACTOR = 28  # Qwen2.5-VL: 14 px patches merged 2x2
QWEN3_FACTOR = 32  # Qwen3-VL: 16 px patches merged 2x2
MIN_PIXELS = 4 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28
MAX_ASPECT_RATIO = 200
RELATIVE_SCALE = 1000
COORD_MODES = ("absolute", "relative")


class ParseError(ValueError):
    """A model's output could not be turned into a valid action (the message says why)."""


# --- coordinates -----------------------------------------------------------------------


def smart_resize(height: int, width: int, factor: int = QWEN25_FACTOR, min_pixels: int = MIN_PIXELS,
                 max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """Qwen-VL's image resize rule: `(height, width)` rounded to multiples of
    `factor`, scaled (aspect ratio kept) into `[min_pixels, max_pixels]`.

    Returns `(new_height, new_width)` in Qwen's order. A model with absolute
    coordinates sees — and answers in — pixels of this size.
    """
    if height <= 0 or width <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    if factor <= 0 or min_pixels > max_pixels:
        raise ValueError("need factor > 0 and min_pixels <= max_pixels")
    if max(height, width) / min(height, width) > MAX_ASPECT_RATIO:
        raise ValueError(f"aspect ratio of {width}x{height} exceeds {MAX_ASPECT_RATIO}")
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return h, w


@dataclass(frozen=True)
class CoordSpace:
    """The coordinates a model speaks, and the map to device pixels.

    `mode="absolute"`: pixels of the image the model is shown (`image_size`);
    `mode="relative"`: 0–1000 on each axis, whatever the image size.
    Sizes are `(width, height)`.
    """

    device_size: tuple[int, int]
    image_size: tuple[int, int]
    mode: str = "absolute"

    def __post_init__(self) -> None:
        if self.mode not in COORD_MODES:
            raise ValueError(f"coordinate mode must be one of {COORD_MODES}, got {self.mode!r}")
        if min(*self.device_size, *self.image_size) <= 0:
            raise ValueError("sizes must be positive")

    @classmethod
    def for_screen(cls, screen_size: tuple[int, int], mode: str = "absolute", *,
                   factor: int = QWEN25_FACTOR, min_pixels: int = MIN_PIXELS,
                   max_pixels: int = MAX_PIXELS) -> CoordSpace:
        """The space for a device screen `(W, H)`, the image smart-resized."""
        w, h = int(screen_size[0]), int(screen_size[1])
        rh, rw = smart_resize(h, w, factor, min_pixels, max_pixels)
        return cls((w, h), (rw, rh), mode)

    @classmethod
    def identity(cls, screen_size: tuple[int, int]) -> CoordSpace:
        """Device pixels in, device pixels out."""
        size = (int(screen_size[0]), int(screen_size[1]))
        return cls(size, size, "absolute")

    @property
    def resolution(self) -> tuple[int, int]:
        """The `(width, height)` the prompt declares: the image, or 1000x1000."""
        return self.image_size if self.mode == "absolute" else (RELATIVE_SCALE, RELATIVE_SCALE)

    def to_model(self, x: float, y: float) -> tuple[int, int]:
        """Device pixels to model coordinates (rounded, clamped to the range)."""
        (dw, dh), (rw, rh) = self.device_size, self.resolution
        mx = min(rw, max(0, round(float(x) * rw / dw)))
        my = min(rh, max(0, round(float(y) * rh / dh)))
        return mx, my

    def box_to_model(self, box: BoundingBox) -> BoundingBox:
        x0, y0 = self.to_model(box.x_min, box.y_min)
        x1, y1 = self.to_model(box.x_max, box.y_max)
        return BoundingBox(x0, x1, y0, y1)

    def to_device(self, x: Any, y: Any) -> tuple[int, int]:
        """Model coordinates to device pixels; `ParseError` outside the range."""
        for v in (x, y):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ParseError(f"coordinates must be finite numbers, got ({x!r:.20}, {y!r:.20})")
        (dw, dh), (rw, rh) = self.device_size, self.resolution
        if not (0 <= x <= rw and 0 <= y <= rh):
            where = (f"the {rw}x{rh} image" if self.mode == "absolute"
                     else f"the relative 0-{RELATIVE_SCALE} range")
            raise ParseError(f"coordinates ({x:g}, {y:g}) are outside {where}")
        return (min(dw - 1, round(x * dw / rw)), min(dh - 1, round(y * dh / rh)))


def map_to_device(space: CoordSpace | None, x: Any, y: Any) -> tuple[int, int]:
    """`space.to_device`, or (with no space) device pixels checked for sanity."""
    if space is not None:
        return space.to_device(x, y)
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ParseError(f"coordinates must be finite numbers, got ({x!r:.20}, {y!r:.20})")
    if x < 0 or y < 0:
        raise ParseError(f"coordinates ({x:g}, {y:g}) are outside the screen")
    return round(x), round(y)


def model_point(space: CoordSpace | None, x: float, y: float) -> tuple[int, int]:
    """A device point in `space`'s coordinates (without a space: rounded device pixels)."""
    return space.to_model(x, y) if space is not None else (round(x), round(y))
