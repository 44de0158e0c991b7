"""Simple Gallery Pro (`com.simplemobiletools.gallery.pro`) for tasks: pictures are image
files under /sdcard (AndroidWorld pushes its generated images to DCIM), so set-up draws
text into an image (PIL, the phone's fixed font, no timestamps: the same bytes for the
same lines) and writes it through the shell as a real device takes it (`base64 -d`,
fed in chunks), removing it at tear-down; plus the app's screens for solutions.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as _dt
import io
import posixpath
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from antrap_gym.device.protocol import DeviceFileError
from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.simplemobiletools.gallery.pro"
APP_NAME = "Simple Gallery Pro"
MAIN = "com.simplemobiletools.gallery.pro.activities.MainActivity"
MEDIA = "com.simplemobiletools.gallery.pro.activities.MediaActivity"
VIEWER = "com.simplemobiletools.gallery.pro.activities.ViewPagerActivity"
#: AndroidWorld's GALLERY_DATA and DOWNLOAD_DATA
DCIM = "/sdcard/DCIM"
DOWNLOAD = "/sdcard/Download"
FONT = Path(__file__).resolve().parents[2] / "antrap_gym/device/sim/render/fonts/DejaVuSans.ttf"
WIDTH = 720
#: base64 characters per `printf >>` call (a real `adb shell` line stays well under its limit)
CHUNK = 48_000


# --- drawing text into pictures --------------------------------------------------------------


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def wrap_lines(text: str, width: int = 60) -> list[str]:
    """`text`'s lines, each wrapped at `width` characters (AndroidWorld's wrap_width)."""
    out: list[str] = []
    for line in text.split("\n"):
        out.extend(textwrap.wrap(line, width) or [""])
    return out


@lru_cache(maxsize=64)
def _render(lines: tuple[str, ...], fmt: str, width: int, size: int) -> bytes:
    font = _font(size)
    pad, lh = size, round(size * 1.5)
    widest = max((font.getlength(s) for s in lines), default=0)
    width = max(width, int(widest) + 2 * pad + 1)  # a long line widens the picture
    # greyscale: black text needs no colour, and the file is a third smaller
    img = Image.new("L", (width, max(2 * pad + lh * len(lines), 4 * pad)), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((pad, pad + i * lh), line, fill=0, font=font)
    buf = io.BytesIO()
    if fmt == "png":
        img.save(buf, "PNG", optimize=False)
    else:
        img.save(buf, "JPEG", quality=85)
    return buf.getvalue()


def render_lines(lines: list[str] | tuple[str, ...], fmt: str = "jpeg", width: int = WIDTH,
                 size: int = 24) -> bytes:
    """Black text lines on white, `width` px wide (wider if a line needs it), as JPEG
    ("jpeg") or PNG ("png") bytes: a pure function of its arguments (no timestamp or
    metadata in the file)."""
    return _render(tuple(str(s) for s in lines), fmt, width, size)


def image_format(path: str) -> str:
    return "png" if path.lower().endswith(".png") else "jpeg"


# --- the shell side --------------------------------------------------------------------------


def write_file_commands(path: str, data: bytes) -> list[str]:
    """Shell commands that leave `data` at `path` (each under CHUNK characters): base64
    appended to a temporary file in pieces, decoded, the temporary file removed."""
    b64 = base64.b64encode(data).decode()
    tmp = path + ".b64"
    folder = posixpath.dirname(path)
    if len(b64) <= CHUNK:
        return [f"mkdir -p {q(folder)} && echo {b64} | base64 -d > {q(path)}"]
    cmds = [f"mkdir -p {q(folder)} && rm -f {q(tmp)}"]
    cmds += [f"printf '%s' {b64[i:i + CHUNK]} >> {q(tmp)}" for i in range(0, len(b64), CHUNK)]
    cmds.append(f"base64 -d {q(tmp)} > {q(path)} && rm -f {q(tmp)}")
    return cmds


def _ancestors_to_make(device: Device, path: str) -> list[str]:
    """The folders above `path` that do not exist yet, outermost first."""
    missing = []
    folder = posixpath.dirname(path)
    while folder not in ("/sdcard", "/", ""):
        if device.shell(f"test -d {q(folder)}").exit_code == 0:
            break
        missing.append(folder)
        folder = posixpath.dirname(folder)
    return missing[::-1]


@dataclasses.dataclass
class SeedImages(Recipe):
    """Pictures at the given paths: `images` maps a path to the text lines drawn into it
    (`render_lines`; PNG for a .png name, else JPEG). The gallery is force-stopped
    first (AndroidWorld closes it after pushing). Tear-down puts back each file that
    was there before and removes the rest, with any folder set-up made."""

    images: Any

    def _items(self) -> dict[str, list[str]]:
        return {str(p): list(lines) for p, lines in dict(self.images or {}).items()}

    def save(self, device: Device) -> Any:
        saved: dict[str, Any] = {"files": {}, "dirs": []}
        for path in self._items():
            for d in _ancestors_to_make(device, path):
                if d not in saved["dirs"]:
                    saved["dirs"].append(d)
            try:
                saved["files"][path] = device.pull(path)
            except DeviceFileError:  # no file there: removed at tear-down
                saved["files"][path] = None
        return saved

    def run(self, device: Device) -> None:
        cmds = [f"am force-stop {PKG}"]
        first: dict[bytes, str] = {}  # a picture drawn twice is pushed once, then copied
        for path, lines in self._items().items():
            data = render_lines(lines, image_format(path))
            if data in first:
                cmds.append(f"cp {q(first[data])} {q(path)}")
            else:
                first[data] = path
                cmds += write_file_commands(path, data)
        _run_batched(device, cmds)

    def restore(self, device: Device, saved: Any) -> None:
        cmds = [f"am force-stop {PKG}"]
        for path, data in saved["files"].items():
            cmds += [f"rm -f {q(path)}"] if data is None else write_file_commands(path, data)
        cmds += [f"rm -rf {q(d)}" for d in reversed(saved["dirs"])]
        _run_batched(device, cmds)


@dataclasses.dataclass
class Absent(Recipe):
    """No file at `path` (what a task will make there, e.g. a copy): removed at set-up,
    and at tear-down removed again or, if one was there before, put back."""

    path: str

    def save(self, device: Device) -> Any:
        try:
            return device.pull(self.path)
        except DeviceFileError:
            return None

    def run(self, device: Device) -> None:
        sh(device, f"rm -f {q(self.path)}")

    def restore(self, device: Device, saved: Any) -> None:
        cmds = [f"rm -f {q(self.path)}"] + ([] if saved is None else write_file_commands(self.path, saved))
        _run_batched(device, cmds)


def _run_batched(device: Device, cmds: list[str]) -> None:
    """Run commands joined with && in as few shell calls as keep each under CHUNK + slack."""
    batch: list[str] = []
    size = 0
    for c in cmds:
        if batch and size + len(c) > CHUNK + 4096:
            sh(device, " && ".join(batch))
            batch, size = [], 0
        batch.append(c)
        size += len(c) + 4
    if batch:
        sh(device, " && ".join(batch))


def state(device: Device) -> dict[str, bytes | None]:
    """What the contract compares before set-up and after tear-down: the picture folders."""
    out: dict[str, bytes | None] = {}
    for root in (DCIM, "/sdcard/Pictures"):
        out.update(read_tree(device, root) or {})
    return out


# --- solution steps ------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)


def titled(text: str) -> Target:
    return Target(rid="toolbar_title", text=text)


def view_image_steps(folder: str, name: str, done: Any = None) -> list[Step]:
    """From the gallery's folders: open `folder`, then the picture `name` full screen."""
    return [Tap(screen=MAIN, target=Target(rid="dir_name", text=folder), done=done),
            Tap(screen=MEDIA, target=Target(desc=name), requires=titled(folder), done=done)]


# --- receipts (AndroidWorld's receipt_generator shape, our own pools) ----------------------------

RECEIPT_ITEMS = (("USB-C Cable", (5, 20)), ("Wireless Mouse", (10, 50)),
                 ("Bluetooth Keyboard", (30, 100)), ("External Hard Drive", (50, 150)),
                 ("Webcam", (20, 70)), ("Monitor Stand", (15, 60)))
COMPANIES = ("Tech Gadgets Inc.", "Innovate Solutions Ltd.", "Future Tech LLC", "Gadget Gurus Co.")
SLOGANS = ("Innovating the Future", "Technology for Tomorrow", "Bringing Ideas to Life",
           "Innovation and Excellence")
RECEIPT_HEADER = "Date, Item, Amount"
RECEIPT_FOOTER = ("Thank you for your purchase!", "Visit us at: www.tech-gadgets.com")
#: days from 2023-01-01 before the device date (2023-10-15)
_RECEIPT_DAYS = 287


def receipt(rng: Any, n: int) -> dict[str, Any]:
    """A receipt of n transactions: {company, slogan, rows: [[date, item, amount]]},
    dates in 2023 before the device date, amounts in the item's price range."""
    start = _dt.date(2023, 1, 1)
    rows = []
    for _ in range(n):
        item, (lo, hi) = RECEIPT_ITEMS[int(rng.integers(len(RECEIPT_ITEMS)))]
        day = start + _dt.timedelta(days=int(rng.integers(_RECEIPT_DAYS)))
        rows.append([day.isoformat(), item, f"${float(rng.uniform(lo, hi)):.2f}"])
    return {"company": COMPANIES[int(rng.integers(len(COMPANIES)))],
            "slogan": SLOGANS[int(rng.integers(len(SLOGANS)))], "rows": rows}


def receipt_csv(rows: list[list[str]]) -> str:
    """The transactions as the goal asks for them: the header, then one line each."""
    return "\n".join([RECEIPT_HEADER, *(", ".join(r) for r in rows)])


def receipt_lines(company: str, slogan: str, rows: list[list[str]]) -> list[str]:
    """What the receipt picture shows (the reference draws no column header)."""
    return [company, slogan, "", *(", ".join(r) for r in rows), "", *RECEIPT_FOOTER]
