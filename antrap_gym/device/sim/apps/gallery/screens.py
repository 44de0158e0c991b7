"""Simple Gallery Pro's screens: folders of pictures, a folder's pictures, one picture.

Like the real app (which reads MediaStore), it shows the image files on shared
storage: every folder under /sdcard directly holding one (DCIM, Pictures,
Download...), read from the file system on every build, so a picture pushed with
the shell shows up at once. Folders and pictures are sorted by date modified,
newest first (the app's default), then by name.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.gallery.firstrun import AllFilesAsk
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.simplemobiletools.gallery.pro"
RID = PKG + ":id/"
SDCARD = "/sdcard"
IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".heic")
#: the default column counts in portrait (folders, media)
DIR_COLUMNS = 2
MEDIA_COLUMNS = 3
NO_MEDIA = "No media files have been found"


def is_image(name: str) -> bool:
    return name.lower().endswith(IMAGE_EXTS) and not name.startswith(".")


def media_by_folder(phone: PhoneContext) -> dict[str, list[str]]:
    """Folder path -> its image files' names, newest first; folders under /sdcard only,
    none hidden (a dot in the path) and not Android/."""
    fs = phone.fs
    found: dict[str, list[tuple[int, str]]] = {}
    for path, entry in fs.files.items():
        if not path.startswith(SDCARD + "/") or "/." in path or path.startswith(SDCARD + "/Android/"):
            continue
        folder, name = posixpath.split(path)
        if folder == SDCARD or not is_image(name):
            continue
        found.setdefault(folder, []).append((entry.mtime, name))
    return {f: [n for _, n in sorted(items, key=lambda t: (-t[0], t[1]))]
            for f, items in found.items()}


def sorted_folders(phone: PhoneContext) -> list[tuple[str, list[str]]]:
    """(folder, media) pairs, the folder with the newest picture first, then by name."""
    fs = phone.fs
    media = media_by_folder(phone)

    def newest(folder: str) -> int:
        return fs.mtime(posixpath.join(folder, media[folder][0]))

    return sorted(media.items(), key=lambda kv: (-newest(kv[0]), posixpath.basename(kv[0]).lower()))


def folder_media(phone: PhoneContext, folder: str) -> list[str]:
    return media_by_folder(phone).get(folder, [])


class GalleryActivity(Activity):
    package = PKG

    def _grid(self, ui: UI, key: str, n: int, columns: int, label_h: int, cell) -> None:
        """`n` square tiles in `columns` columns in a scrolling list; `cell(i, rect)` makes
        tile i in its square (plus `label_h` px under it)."""
        gap = ui.dp(2)
        x0, x1 = ui.rect[0], ui.rect[2]
        side = (x1 - x0 - gap * (columns + 1)) // columns
        row_h = side + label_h + gap
        with ui.scroll(key, rid=RID + ("directories_grid" if key == "dirs" else "media_grid")):
            top = ui.y
            rows = (n + columns - 1) // columns
            for i in range(n):
                r, c = divmod(i, columns)
                tx = x0 + gap + c * (side + gap)
                ty = top + gap + r * row_h
                rect = (tx, ty, tx + side, ty + side + label_h)
                if not ui.culled(rect):
                    cell(i, rect, side)
            ui.set_y(top + gap + rows * row_h)


# --- the folders -----------------------------------------------------------------


class MainActivity(AllFilesAsk, GalleryActivity):
    """The folder grid: each folder's newest picture, its name and how many it holds (the
    access question first while it has no all files access: `firstrun`)."""

    name = "com.simplemobiletools.gallery.pro.activities.MainActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Simple Gallery"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        self.access_note(phone)
        ui.toolbar("Simple Gallery", rid=RID + "main_toolbar")
        folders = sorted_folders(phone)
        if not folders:
            ui.empty(NO_MEDIA)
            return
        label_h = ui.dp(48)

        def cell(i: int, rect, side: int) -> None:
            folder, media = folders[i]
            name = posixpath.basename(folder)
            tile = ui.mk("linear", rect, desc=None, rid=RID + "dir_holder",
                         on_click=lambda f=folder: phone.start_activity(MediaActivity(f)))
            ui.image(posixpath.join(folder, media[0]), rect=(rect[0], rect[1], rect[2], rect[1] + side),
                     crop=True, desc="", rid=RID + "dir_thumbnail")
            mid = rect[1] + side + label_h // 2
            pad = ui.dp(8)
            ui.mk("text", (rect[0] + pad, rect[1] + side, rect[2] - pad, mid + ui.dp(2)), tile,
                  text=name, style="row_title", rid=RID + "dir_name")
            ui.mk("text", (rect[0] + pad, mid + ui.dp(2), rect[2] - pad, rect[3]), tile,
                  text=str(len(media)), style="summary", rid=RID + "photo_cnt")

        self._grid(ui, "dirs", len(folders), DIR_COLUMNS, label_h, cell)


# --- one folder --------------------------------------------------------------------


class MediaActivity(GalleryActivity):
    """One folder's pictures as square thumbnails (the file name is each one's
    content-desc)."""

    name = "com.simplemobiletools.gallery.pro.activities.MediaActivity"

    def __init__(self, folder: str = SDCARD + "/DCIM") -> None:
        super().__init__()
        self.folder = folder

    def title(self, phone: PhoneContext) -> str:
        return posixpath.basename(self.folder)

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(posixpath.basename(self.folder), back=True, rid=RID + "media_toolbar")
        media = folder_media(phone, self.folder)
        if not media:
            ui.empty(NO_MEDIA)
            return

        def cell(i: int, rect, side: int) -> None:
            name = media[i]
            ui.image(posixpath.join(self.folder, name), rect=rect, crop=True, desc=name,
                     rid=RID + "medium_thumbnail",
                     on_click=lambda n=name: phone.start_activity(ViewPagerActivity(self.folder, n)))

        self._grid(ui, "media", len(media), MEDIA_COLUMNS, 0, cell)


# --- one picture -------------------------------------------------------------------


class ViewPagerActivity(GalleryActivity):
    """A picture full screen, scaled to fit; swipe left for the next one in the folder,
    right for the previous; the overflow menu copies it to another folder."""

    name = "com.simplemobiletools.gallery.pro.activities.ViewPagerActivity"

    def __init__(self, folder: str = SDCARD + "/DCIM", file: str = "") -> None:
        super().__init__()
        self.folder = folder
        self.file = file

    def title(self, phone: PhoneContext) -> str:
        return self.file

    def _current(self, phone: PhoneContext) -> tuple[list[str], int]:
        """The folder's media and the shown one's index (the nearest one left when the
        shown file is gone)."""
        media = folder_media(phone, self.folder)
        if self.file in media:
            return media, media.index(self.file)
        if media:
            self.file = media[0]
            return media, 0
        return media, -1

    def build(self, ui: UI, phone: PhoneContext) -> None:
        media, i = self._current(phone)
        ui.toolbar(self.file if i >= 0 else "", back=True, rid=RID + "medium_viewer_toolbar",
                   menu=[Choice("Copy to", "ask_copy"), Choice("Properties", "show_properties")]
                   if i >= 0 else None)
        if i < 0:
            ui.empty(NO_MEDIA)
            return
        pic = ui.image(posixpath.join(self.folder, self.file), rid=RID + "gestures_view")
        pic.on_swipe = lambda direction: self.page(phone, media, i, direction)

    def page(self, phone: PhoneContext, media: list[str], i: int, direction: str) -> bool:
        j = i + 1 if direction == "left" else i - 1 if direction == "right" else i
        if j == i or not 0 <= j < len(media):
            return False
        self.file = media[j]
        return True

    # --- overflow menu ------------------------------------------------------------
    def ask_copy(self, phone: PhoneContext) -> None:
        """Copy to: the folders of shared storage (the one shown first), one tap copies."""
        fs = phone.fs
        dirs = [n for n in fs.listdir(SDCARD) if not n.startswith(".") and n != "Android"
                and fs.isdir(posixpath.join(SDCARD, n))]
        phone.open_popup(self, Dialog("Select a folder", choices=[
            Choice(n, "copy_to", (posixpath.join(SDCARD, n),)) for n in dirs],
            buttons=[Choice("Cancel", "cancel")]))

    def cancel(self, phone: PhoneContext) -> None:
        """Close the dialog."""

    def copy_to(self, phone: PhoneContext, folder: str) -> None:
        src = posixpath.join(self.folder, self.file)
        if folder == self.folder:
            phone.toast("Source and destination cannot be the same")
            return
        if not phone.fs.isfile(src):
            return
        phone.fs.copy(src, posixpath.join(folder, self.file), phone.now)
        phone.toast("Files copied successfully")

    def show_properties(self, phone: PhoneContext) -> None:
        path = posixpath.join(self.folder, self.file)
        size = len(phone.fs.read(path)) if phone.fs.isfile(path) else 0
        phone.open_popup(self, Dialog("Properties",
                                      f"Name: {self.file}\nPath: {path}\nSize: {size} B",
                                      buttons=[Choice("OK", "cancel")]))
