"""Simple Draw Pro on the simulated phone, driven as a user drives it: swipes draw
strokes and a tap a dot (seen in the screenshot), colour, eraser, undo and redo, and
Save as PNG, JPG or SVG into Pictures or another folder; the saved files are pulled
through the device and opened with Pillow (or parsed as SVG)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from tests.screen import find_all, need, tap

PKG = "com.simplemobiletools.draw.pro"
RID = PKG + ":id/"
WHITE, BLACK, RED = (255, 255, 255), (0, 0, 0), (229, 57, 53)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    assert d.launch(PKG).ok
    return d


def canvas(dev: SimDevice) -> UIElement:
    return need(dev, rid=RID + "my_canvas")


def pixel(dev: SimDevice, x: int, y: int) -> tuple[int, int, int]:
    return tuple(int(c) for c in dev.screenshot()[y, x])


def save(dev: SimDevice, name: str, ext: str | None = None, folder: str | None = None) -> None:
    tap(dev, desc="Save")
    field = need(dev, rid=RID + "save_image_filename")
    dev.tap(*field.center)
    dev.shell("input keyevent KEYCODE_MOVE_END")
    for _ in range(len(field.text or "")):
        dev.shell("input keyevent KEYCODE_DEL")
    if name:
        dev.type_text(name)
    if ext:
        tap(dev, rid=RID + "save_image_radio_" + ext)
    if folder:
        tap(dev, rid=RID + "save_image_path")
        tap(dev, text=folder)
    tap(dev, text="OK")


def picture(dev: SimDevice, path: str) -> Image.Image:
    return Image.open(io.BytesIO(dev.pull(path)))


def test_a_swipe_draws_a_stroke_and_a_tap_a_dot(dev):
    c = canvas(dev).bbox_pixels
    y = c.y_min + 300
    assert pixel(dev, 500, y) == WHITE
    dev.swipe(200, y, 800, y)
    assert pixel(dev, 500, y) == BLACK and pixel(dev, 500, y + 40) == WHITE
    dev.tap(500, y + 200)
    assert pixel(dev, 500, y + 200) == BLACK


def test_undo_redo_and_clear(dev):
    y = canvas(dev).bbox_pixels.y_min + 300
    dev.swipe(200, y, 800, y)
    tap(dev, desc="Undo")
    assert pixel(dev, 500, y) == WHITE
    tap(dev, desc="Redo")
    assert pixel(dev, 500, y) == BLACK
    tap(dev, desc="More options")
    tap(dev, text="Clear")
    assert pixel(dev, 500, y) == WHITE


def test_the_colour_and_the_eraser(dev):
    y = canvas(dev).bbox_pixels.y_min + 300
    tap(dev, desc="Color: Black")
    tap(dev, text="Red")
    assert find_all(dev, desc="Color: Red")
    dev.swipe(200, y, 800, y)
    assert pixel(dev, 500, y) == RED
    tap(dev, desc="Eraser")
    dev.swipe(500, y - 100, 500, y + 100)
    assert pixel(dev, 500, y) == WHITE and pixel(dev, 300, y) == RED


def test_the_brush_size_widens_the_stroke(dev):
    y = canvas(dev).bbox_pixels.y_min + 300
    dev.swipe(200, y, 800, y)
    assert pixel(dev, 500, y + 25) == WHITE  # the default brush: 13 px
    bar = need(dev, rid=RID + "stroke_width_bar").bbox_pixels
    dev.tap(bar.x_max - 2, (bar.y_min + bar.y_max) // 2)  # the widest brush: 66 px
    dev.swipe(200, y + 200, 800, y + 200)
    assert pixel(dev, 500, y + 225) == BLACK


def test_save_writes_a_png_of_the_canvas_in_pictures_by_default(dev):
    c = canvas(dev).bbox_pixels
    dev.swipe(200, c.y_min + 300, 800, c.y_min + 300)
    tap(dev, desc="Save")
    assert find_all(dev, text="Save as") and find_all(dev, text="Internal storage/Pictures")
    assert need(dev, rid=RID + "save_image_radio_png").is_checked
    tap(dev, text="Cancel")
    save(dev, "sketch")
    img = picture(dev, "/sdcard/Pictures/sketch.png")
    assert img.format == "PNG" and img.size == (c.x_max - c.x_min, c.y_max - c.y_min)
    assert img.convert("RGB").getpixel((500 - c.x_min, 300)) == BLACK
    assert img.convert("RGB").getpixel((500 - c.x_min, 600)) == WHITE
    assert not find_all(dev, text="Save as")  # the dialog closed


def test_save_as_jpg_and_svg(dev):
    y = canvas(dev).bbox_pixels.y_min + 300
    dev.swipe(200, y, 800, y)
    dev.tap(300, y + 300)
    save(dev, "photo", "jpg")
    assert picture(dev, "/sdcard/Pictures/photo.jpg").format == "JPEG"
    save(dev, "vector", "svg")
    root = ET.fromstring(dev.pull("/sdcard/Pictures/vector.svg"))
    assert root.tag == SVG + "svg"
    assert [p.get("stroke") for p in root.iter(SVG + "path")] == ["#000000", "#000000"]


def test_the_app_adds_the_extension_to_the_name_typed(dev):
    save(dev, "already.png")
    assert dev.shell("ls /sdcard/Pictures").stdout.split() == ["already.png.png"]


def test_another_folder_can_be_chosen(dev):
    save(dev, "elsewhere", folder="Internal storage/Download")
    assert dev.shell("test -f /sdcard/Download/elsewhere.png").ok


def test_an_empty_or_bad_name_is_refused_and_the_dialog_stays(dev):
    for bad in ("", "a/b"):
        save(dev, bad)
        assert find_all(dev, text="Save as")
        tap(dev, text="Cancel")
    assert dev.shell("ls /sdcard/Pictures").stdout.split() == []


def test_the_keyboard_does_not_shrink_the_saved_drawing(dev):
    c = canvas(dev).bbox_pixels
    tap(dev, desc="Save")
    dev.tap(*need(dev, rid=RID + "save_image_filename").center)  # the keyboard is up
    dev.type_text("x")
    tap(dev, text="OK")
    (path,) = dev.shell("ls /sdcard/Pictures/*").stdout.split()
    img = picture(dev, path)
    assert img.size == (c.x_max - c.x_min, c.y_max - c.y_min)
