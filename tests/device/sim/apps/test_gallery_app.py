"""Simple Gallery Pro on the simulated phone: folders and pictures read from /sdcard,
the viewer's pixels and paging, Copy to, and the adapter's pictures (drawn, pushed
through the shell, restored) -- all through the public device interface."""

from __future__ import annotations

import base64
import io
import shlex

import numpy as np
import pytest
from PIL import Image

from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import gallery as gl
from tests.screen import find_all, need, tap

PKG = "com.simplemobiletools.gallery.pro"
RID = PKG + ":id/"
MAIN = PKG + "/com.simplemobiletools.gallery.pro.activities.MainActivity"
RED, BLUE, GREEN = (220, 20, 20), (20, 40, 220), (20, 200, 60)


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


def png(color: tuple[int, int, int], size: tuple[int, int] = (200, 100)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return buf.getvalue()


def push(dev: SimDevice, path: str, data: bytes, when: str | None = None) -> None:
    cmd = (f"mkdir -p {shlex.quote(path.rsplit('/', 1)[0])} && "
           f"echo {base64.b64encode(data).decode()} | base64 -d > {shlex.quote(path)}")
    if when:
        cmd += f" && touch -d {shlex.quote(when)} {shlex.quote(path)}"
    assert dev.shell(cmd).exit_code == 0


def title(dev: SimDevice) -> str:
    return need(dev, rid=RID + "toolbar_title").text


def texts_of(dev: SimDevice, rid: str) -> list[str]:
    return [e.text for e in find_all(dev, rid=RID + rid)]


def open_gallery(dev: SimDevice) -> None:
    assert dev.launch(PKG).ok


def pixel(dev: SimDevice, el: UIElement) -> tuple[int, int, int]:
    x, y = el.center
    return tuple(int(c) for c in dev.screenshot()[int(y), int(x)])


def seed_three(dev: SimDevice) -> None:
    push(dev, "/sdcard/DCIM/old.png", png(RED), "2023-10-01 10:00:00")
    push(dev, "/sdcard/DCIM/new.png", png(BLUE), "2023-10-10 10:00:00")
    push(dev, "/sdcard/DCIM/mid.png", png(GREEN), "2023-10-05 10:00:00")


# --- the folder grid ---------------------------------------------------------------------------


def test_folders_are_those_holding_pictures_with_their_counts_newest_first(dev):
    seed_three(dev)
    push(dev, "/sdcard/Pictures/Trips/a.jpg", gl.render_lines(["Lisbon"]), "2023-10-12 09:00:00")
    push(dev, "/sdcard/Download/notes.txt", b"not a picture")
    push(dev, "/sdcard/Pictures/.hidden/b.png", png(RED))
    open_gallery(dev)
    assert texts_of(dev, "dir_name") == ["Trips", "DCIM"]
    assert texts_of(dev, "photo_cnt") == ["1", "3"]


def test_no_pictures_shows_the_empty_message_and_a_pushed_one_appears(dev):
    open_gallery(dev)
    assert find_all(dev, text="No media files have been found")
    push(dev, "/sdcard/Download/receipt.png", png(RED))
    assert texts_of(dev, "dir_name") == ["Download"]


def test_folder_thumbnail_shows_its_newest_picture(dev):
    seed_three(dev)
    open_gallery(dev)
    assert pixel(dev, need(dev, rid=RID + "dir_holder")) == BLUE


# --- a folder's pictures -----------------------------------------------------------------------


def test_folder_lists_its_pictures_by_name_as_content_desc_newest_first(dev):
    seed_three(dev)
    open_gallery(dev)
    tap(dev, text="DCIM")
    assert title(dev) == "DCIM"
    thumbs = find_all(dev, rid=RID + "medium_thumbnail")
    assert [e.content_description for e in thumbs] == ["new.png", "mid.png", "old.png"]
    assert pixel(dev, thumbs[2]) == RED


# --- the viewer --------------------------------------------------------------------------------


def test_viewer_shows_the_picture_and_pages_with_swipes(dev):
    seed_three(dev)
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="mid.png")
    assert title(dev) == "mid.png"
    view = need(dev, rid=RID + "gestures_view")
    assert view.content_description == "mid.png" and view.class_name == "android.widget.ImageView"
    assert pixel(dev, view) == GREEN
    x, y = view.center
    dev.swipe(x + 300, y, x - 300, y)  # left: the next (older) one
    assert title(dev) == "old.png"
    assert pixel(dev, view) == RED
    dev.swipe(x + 300, y, x - 300, y)  # the last one: stays
    assert title(dev) == "old.png"
    dev.swipe(x - 300, y, x + 300, y)
    dev.swipe(x - 300, y, x + 300, y)
    assert title(dev) == "new.png"


def test_viewer_letterboxes_a_wide_picture_in_black(dev):
    push(dev, "/sdcard/DCIM/wide.png", png(RED, (400, 100)))
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="wide.png")
    view = need(dev, rid=RID + "gestures_view")
    shot = dev.screenshot()
    b = view.bbox_pixels
    assert tuple(shot[int(b.y_min) + 5, int(b.x_min) + 5]) == (0, 0, 0)
    assert tuple(int(c) for c in shot[int((b.y_min + b.y_max) / 2), int(b.x_min) + 5]) == RED


def test_a_file_that_is_no_image_is_drawn_grey_without_failing(dev):
    push(dev, "/sdcard/DCIM/broken.jpg", b"\xff\xd8 not really a jpeg")
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="broken.jpg")
    view = need(dev, rid=RID + "gestures_view")
    assert pixel(dev, view) == (189, 189, 189)


def test_copy_to_download_writes_the_same_bytes(dev):
    data = gl.render_lines(["Tech Gadgets Inc.", "2023-05-01, Webcam, $31.50"], "jpeg")
    push(dev, "/sdcard/DCIM/receipt_x.jpg", data)
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="receipt_x.jpg")
    tap(dev, desc="More options")
    tap(dev, text="Copy to")
    tap(dev, text="Download")
    assert dev.pull("/sdcard/Download/receipt_x.jpg") == data
    assert dev.pull("/sdcard/DCIM/receipt_x.jpg") == data


def test_copy_to_on_a_full_phone_keeps_its_title_and_scrolls_to_every_folder(dev):
    """Forty folders: the list is taller than the screen, so it scrolls under a title and
    a Cancel that stay on screen (a dialog that grew past the screen hid its title, and the
    last folders could not be reached)."""
    folders = [f"Folder{i:02d}" for i in range(40)]
    assert dev.shell("mkdir -p " + " ".join(f"/sdcard/{f}" for f in folders)).exit_code == 0
    push(dev, "/sdcard/DCIM/receipt_x.jpg", png(RED))
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="receipt_x.jpg")
    tap(dev, desc="More options")
    tap(dev, text="Copy to")
    height = dev.screen_size[1]
    title_el = find_all(dev, text="Select a folder")
    assert title_el and title_el[0].bbox_pixels.y_min >= 0, [e.text for e in dev.ui_elements()]
    assert need(dev, text="Cancel").bbox_pixels.y_max <= height
    lists = [e for e in dev.ui_elements() if e.is_scrollable]
    assert len(lists) == 1
    box = lists[0].bbox_pixels
    for _ in range(30):
        if find_all(dev, text="Folder39"):
            break
        dev.swipe(box.center[0], box.y_max - 20, box.center[0], box.y_min + 20)
    tap(dev, text="Folder39")
    assert dev.pull("/sdcard/Folder39/receipt_x.jpg") == png(RED)


def test_deleted_picture_leaves_the_viewer_on_the_next_one(dev):
    seed_three(dev)
    open_gallery(dev)
    tap(dev, text="DCIM")
    tap(dev, desc="new.png")
    assert dev.shell("rm /sdcard/DCIM/new.png").exit_code == 0
    assert title(dev) == "mid.png"


# --- the adapter's pictures ----------------------------------------------------------------------


def test_render_lines_is_deterministic_and_decodes_at_its_width():
    a = gl.render_lines(["Date, Item, Amount", "2023-01-02, Webcam, $20.00"], "png")
    assert a == gl.render_lines(["Date, Item, Amount", "2023-01-02, Webcam, $20.00"], "png")
    assert a != gl.render_lines(["Date, Item, Amount", "2023-01-02, Webcam, $20.01"], "png")
    img = Image.open(io.BytesIO(a))
    assert img.format == "PNG" and img.size[0] == gl.WIDTH
    dark = np.asarray(img.convert("L")) < 128
    assert dark.any() and not dark.all()  # text drawn on white
    assert Image.open(io.BytesIO(gl.render_lines(["x"], "jpeg"))).format == "JPEG"


def test_seed_images_pushes_in_chunks_and_restores_what_was_there(dev):
    big = gl.wrap_lines(" ".join(f"word{i}" for i in range(2500)))
    assert len(base64.b64encode(gl.render_lines(big))) > gl.CHUNK  # the chunked path
    push(dev, "/sdcard/DCIM/keep.jpg", b"old bytes")
    recipe = gl.SeedImages({"/sdcard/DCIM/keep.jpg": ["new"], "/sdcard/Pictures/Set/big.jpg": big})
    recipe.apply(dev)
    assert dev.pull("/sdcard/DCIM/keep.jpg") == gl.render_lines(["new"])
    assert dev.pull("/sdcard/Pictures/Set/big.jpg") == gl.render_lines(big)
    assert dev.shell("ls /sdcard/Pictures/Set").stdout.split() == ["big.jpg"]  # no temp file
    recipe.undo(dev)
    assert dev.pull("/sdcard/DCIM/keep.jpg") == b"old bytes"
    assert dev.shell("test -e /sdcard/Pictures/Set").exit_code != 0


def test_receipt_draw_follows_the_reference_shape():
    rng = np.random.default_rng(7)
    r = gl.receipt(rng, 4)
    assert r["company"] in gl.COMPANIES and len(r["rows"]) == 4
    for date, item, amount in r["rows"]:
        assert "2023-01-01" <= date < "2023-10-15"
        lo, hi = dict(gl.RECEIPT_ITEMS)[item]
        assert amount.startswith("$") and lo <= float(amount[1:]) <= hi
    csv = gl.receipt_csv(r["rows"]).split("\n")
    assert csv[0] == "Date, Item, Amount" and len(csv) == 5
