"""Screenshots as a model sees them: resized to its coordinate space, and sent or read
back as data URLs."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

import numpy as np

from antrap_gym.agents.coords import (
    CoordSpace,
)

if TYPE_CHECKING:
    from PIL import Image as PILImage

def resize_screenshot(image: np.ndarray | PILImage.Image, space: CoordSpace) -> PILImage.Image:
    """The screenshot as the model sees it: an RGB PIL image of `space.image_size`."""
    from PIL import Image

    img = image if isinstance(image, Image.Image) else Image.fromarray(np.asarray(image, dtype=np.uint8))
    if img.mode != "RGB":
        img = img.convert("RGB")
    if img.size != tuple(space.image_size):
        img = img.resize(tuple(space.image_size), Image.Resampling.BICUBIC)
    return img


def image_to_data_url(image: PILImage.Image, fmt: str = "PNG") -> str:
    """A `data:image/png;base64,...` URL (fast PNG compression: it is sent every step)."""
    buf = io.BytesIO()
    if fmt.upper() == "PNG":
        image.save(buf, format="PNG", compress_level=1)
    else:
        image.save(buf, format=fmt.upper(), quality=90)
    mime = "jpeg" if fmt.upper() in ("JPG", "JPEG") else fmt.lower()
    return f"data:image/{mime};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def decode_data_url(url: str) -> PILImage.Image:
    """The image inside a `data:image/...;base64,` URL."""
    from PIL import Image

    head, sep, data = url.partition(",")
    if not sep or not head.startswith("data:image/") or ";base64" not in head:
        raise ValueError("not a base64 image data URL")
    img = Image.open(io.BytesIO(base64.b64decode(data)))
    img.load()
    return img
