"""What Files shows and does, over the phone's shared storage (/sdcard): its roots, a
folder's documents sorted and described as the app lists them, and the operations on
them (copy, move, rename, delete, new folder) with Android's naming of duplicates.

Read from the file system on every build, so a file the shell pushes shows at once.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING

from antrap_gym.device.sim.intents import mime_type
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.storage.props import prop

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.storage.files import FileSystem

PKG = "com.google.android.documentsui"
RID = PKG + ":id/"
SDCARD = "/sdcard"
DOWNLOAD = "/sdcard/Download"
#: the internal storage's size the roots list counts free space against
CAPACITY = 6_000_000_000

# --- roots -------------------------------------------------------------------------------

RECENT, IMAGES, VIDEOS, AUDIO, DOCUMENTS, DOWNLOADS, STORAGE = (
    "recent", "images", "videos", "audio", "documents", "downloads", "storage")
#: the roots the drawer lists, in its order: (key, title, icon); the storage root's
#: title is the device's name
ROOTS = ((RECENT, "Recent", "schedule"), (IMAGES, "Images", "image"), (VIDEOS, "Videos", "video"),
         (AUDIO, "Audio", "audio"), (DOCUMENTS, "Documents", "file"),
         (DOWNLOADS, "Downloads", "download"), (STORAGE, "", "phone"))
#: roots that are folders (browsable, writable); the others list files by kind
FOLDER_ROOTS = {DOWNLOADS: DOWNLOAD, STORAGE: SDCARD}
DOCUMENT_TYPES = ("text/", "application/pdf", "application/msword", "application/vnd.",
                  "application/rtf", "application/epub+zip")


def device_name(phone: PhoneContext) -> str:
    """The internal storage's title: the device's name (Settings > About phone)."""
    return phone.settings.get("global", "device_name") or prop(phone, "ro.product.model")


def root_title(phone: PhoneContext, key: str) -> str:
    return device_name(phone) if key == STORAGE else next(t for k, t, _ in ROOTS if k == key)


def free_space(phone: PhoneContext) -> str:
    """The storage root's summary: "5.99 GB free"."""
    used = sum(len(e.data) for p, e in phone.fs.files.items() if p.startswith(SDCARD + "/"))
    return f"{format_size(max(0, CAPACITY - used))} free"


# --- documents ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Doc:
    path: str
    is_dir: bool
    size: int
    mtime: int

    @property
    def name(self) -> str:
        return posixpath.basename(self.path)

    @property
    def mime(self) -> str:
        return "vnd.android.document/directory" if self.is_dir else mime_type(self.name)


def doc(fs: FileSystem, path: str) -> Doc:
    is_dir = fs.isdir(path)
    return Doc(path, is_dir, 0 if is_dir else len(fs.read(path)), fs.mtime(path))


def list_folder(fs: FileSystem, path: str) -> list[Doc]:
    """A folder's documents; hidden ones (a leading dot) are not shown."""
    try:
        names = fs.listdir(path)
    except FsError:
        return []
    return [doc(fs, posixpath.join(path, n)) for n in names if not n.startswith(".")]


def _in_category(key: str, mime: str) -> bool:
    if key == RECENT:
        return True
    if key == DOCUMENTS:
        return mime.startswith(DOCUMENT_TYPES)
    return mime.startswith({IMAGES: "image/", VIDEOS: "video/", AUDIO: "audio/"}[key])


def category_docs(fs: FileSystem, key: str, limit: int = 64) -> list[Doc]:
    """A root of files by kind (Recent: every file), newest first: the files on shared
    storage outside hidden folders and Android/."""
    found = []
    for path in fs.files:
        if not path.startswith(SDCARD + "/") or "/." in path or path.startswith(SDCARD + "/Android/"):
            continue
        if _in_category(key, mime_type(path)):
            found.append(doc(fs, path))
    found.sort(key=lambda d: (-d.mtime, d.name.lower()))
    return found[:limit]


#: the sort dialog's choices: (label, dimension, descending)
SORTS = (("Name (A to Z)", "name", False), ("Name (Z to A)", "name", True),
         ("Type (A to Z)", "type", False), ("Type (Z to A)", "type", True),
         ("Size (smallest first)", "size", False), ("Size (largest first)", "size", True),
         ("Modified (oldest first)", "date", False), ("Modified (newest first)", "date", True))


def sort_docs(docs: list[Doc], dim: str, desc: bool) -> list[Doc]:
    """Folders first (as Files lists them), then by the dimension; names break ties."""
    def key(d: Doc):
        if dim == "size":
            return d.size
        if dim == "date":
            return d.mtime
        if dim == "type":
            return d.mime
        return d.name.lower()

    by_name = sorted(docs, key=lambda d: d.name.lower())
    ordered = sorted(by_name, key=key, reverse=desc)
    return [d for d in ordered if d.is_dir] + [d for d in ordered if not d.is_dir]


# --- how a document is described ------------------------------------------------------------


def format_size(n: int) -> str:
    """As Android's Formatter: 900 B, 1.2 kB, 34 MB (units of 1000)."""
    value, unit = float(n), "B"
    for u in ("kB", "MB", "GB", "TB"):
        if value < 900:
            break
        value, unit = value / 1000, u
    if unit == "B":
        return f"{n} B"
    text = f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"
    return f"{text.rstrip('0').rstrip('.') if '.' in text else text} {unit}"


def format_date(phone: PhoneContext, mtime: int) -> str:
    """The time for a document of today, else the date (with the year when not this one)."""
    when = dt.datetime.fromtimestamp(mtime, dt.UTC)
    now = dt.datetime.fromtimestamp(phone.now, dt.UTC)
    if when.date() == now.date():
        if phone.settings.get("system", "time_12_24") == "24":
            return when.strftime("%H:%M")
        return when.strftime("%I:%M %p").lstrip("0")
    day = f"{when.strftime('%b')} {when.day}"
    return day if when.year == now.year else f"{day}, {when.year}"


# --- operations -----------------------------------------------------------------------------


def unique_name(fs: FileSystem, folder: str, name: str) -> str:
    """`name`, or "name (1).ext", "name (2).ext"... when the folder holds it already."""
    if not fs.exists(posixpath.join(folder, name)):
        return name
    base, dot, ext = name.rpartition(".")
    if not dot or not base:
        base, dot, ext = name, "", ""
    n = 1
    while fs.exists(posixpath.join(folder, f"{base} ({n}){dot}{ext}")):
        n += 1
    return f"{base} ({n}){dot}{ext}"


def copy_into(fs: FileSystem, src: str, folder: str, now: int) -> str:
    """Copy a file or a folder tree into `folder` (a free name); returns the new path."""
    dst = posixpath.join(folder, unique_name(fs, folder, posixpath.basename(src)))
    _copy_tree(fs, src, dst, now)
    return dst


def _copy_tree(fs: FileSystem, src: str, dst: str, now: int) -> None:
    if fs.isdir(src):
        fs.mkdir(dst, now)
        for n in fs.listdir(src):
            _copy_tree(fs, posixpath.join(src, n), posixpath.join(dst, n), now)
    else:
        fs.write(dst, fs.read(src), now)


def move_into(fs: FileSystem, src: str, folder: str, now: int) -> str:
    dst = posixpath.join(folder, unique_name(fs, folder, posixpath.basename(src)))
    fs.move(src, dst, now)
    return dst


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or under it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")
