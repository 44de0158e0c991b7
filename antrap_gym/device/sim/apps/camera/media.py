"""What the simulated camera sees and saves: a synthetic scene (sky, sun, hills, a
house; the light drifts with the phone's clock so consecutive shots differ), JPEG
photos drawn with Pillow, and Motion-JPEG videos in an MPEG-4 container.

File names follow the stock camera: `IMG_20231015_153400.jpg` / `VID_20231015_153400.mp4`
from the phone's clock (UTC), `_1`, `_2` ... when the name is taken.
"""

from __future__ import annotations

import io
import posixpath
import time as _time
from functools import lru_cache

from PIL import Image, ImageDraw

from antrap_gym.device.sim.storage.mp4 import mp4_mjpeg

PHOTO_SIZE = (640, 480)
VIDEO_SIZE = (320, 240)
PREVIEW_SIZE = (360, 480)  # portrait, as the viewfinder shows it


@lru_cache(maxsize=64)
def scene(width: int, height: int, phase: int) -> Image.Image:
    """The view through the lens at `phase` (0..59: the second of the minute)."""
    img = Image.new("RGB", (width, height))
    d = ImageDraw.Draw(img)
    horizon = height * 3 // 5
    for y in range(horizon):  # the sky, lighter towards the horizon
        t = y / max(1, horizon)
        d.line([(0, y), (width, y)], fill=(int(70 + 120 * t), int(140 + 80 * t), 235))
    r = min(width, height) // 10
    sx = width // 6 + (width * 2 // 3) * phase // 59
    d.ellipse([sx - r, height // 6 - r, sx + r, height // 6 + r], fill=(255, 214, 90))
    d.polygon([(0, horizon), (width // 3, horizon - height // 6), (width * 2 // 3, horizon),
               (width, horizon - height // 10), (width, height), (0, height)], fill=(76, 145, 72))
    d.rectangle([0, horizon + height // 8, width, height], fill=(98, 160, 84))
    hx, hy, hw = width // 2, horizon + height // 12, width // 5
    d.rectangle([hx, hy, hx + hw, hy + hw * 3 // 4], fill=(236, 226, 206))
    d.polygon([(hx - hw // 8, hy), (hx + hw // 2, hy - hw // 2), (hx + hw + hw // 8, hy)],
              fill=(170, 62, 48))
    d.rectangle([hx + hw * 2 // 5, hy + hw * 3 // 8, hx + hw * 3 // 5, hy + hw * 3 // 4],
                fill=(110, 72, 40))
    return img


def jpeg(img: Image.Image, quality: int = 85) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


@lru_cache(maxsize=64)
def preview(phase: int) -> bytes:
    """The viewfinder's picture at `phase`, as JPEG bytes (the picture view decodes them)."""
    return jpeg(scene(*PREVIEW_SIZE, phase), quality=70)


def photo(now_s: int) -> bytes:
    return jpeg(scene(*PHOTO_SIZE, now_s % 60))


def video(start_ms: int, stop_ms: int, now_s: int) -> bytes:
    """A clip from `start_ms` to `stop_ms` on the phone's clock: one frame a second (at
    least one), each the scene at its second."""
    seconds = max(1, (stop_ms - start_ms + 999) // 1000)
    frames = [jpeg(scene(*VIDEO_SIZE, (start_ms // 1000 + i) % 60), quality=60)
              for i in range(seconds)]
    return mp4_mjpeg(frames, *VIDEO_SIZE, 1000, now_s)


def file_name(prefix: str, ext: str, now_s: int, taken: set[str]) -> str:
    """IMG_yyyyMMdd_HHmmss.jpg, with _1, _2 ... when that name is taken."""
    stem = f"{prefix}_" + _time.strftime("%Y%m%d_%H%M%S", _time.gmtime(now_s))
    name, n = stem + ext, 0
    while name in taken:
        n += 1
        name = f"{stem}_{n}{ext}"
    return name


def save(fs, folder: str, prefix: str, ext: str, data: bytes, now_s: int) -> str:
    """Write `data` as a new capture in `folder`; returns its path."""
    fs.mkdir(folder, now_s, parents=True)
    name = file_name(prefix, ext, now_s, set(fs.listdir(folder)))
    path = posixpath.join(folder, name)
    fs.write(path, data, now_s)
    return path
