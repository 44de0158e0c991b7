"""A small in-memory file system with Android's shared-storage layout.

`/sdcard`, `/storage/emulated/0` and `/data/media/0` (the folder behind them, which a
root shell reaches) name the same place, as on a phone.
Everything outside the writable roots is read-only. Files another store makes
(an app's SQLite database at `/data/data/<package>/databases/<name>`) are
*mounted*: read-only, their bytes asked for when read (see `Mounts`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

SDCARD = "/sdcard"
_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard", "/data/media/0")
WRITABLE_ROOTS = (SDCARD, "/data/local/tmp")
DEFAULT_DIRS = (
    "/",
    "/sdcard",
    "/sdcard/Alarms",
    "/sdcard/Audiobooks",
    "/sdcard/DCIM",
    "/sdcard/Documents",
    "/sdcard/Download",
    "/sdcard/Movies",
    "/sdcard/Music",
    "/sdcard/Notifications",
    "/sdcard/Pictures",
    "/sdcard/Podcasts",
    "/sdcard/Recordings",
    "/sdcard/Ringtones",
    "/data",
    "/data/local",
    "/data/local/tmp",
    "/system",
    "/storage",
    "/storage/emulated",
)


class FsError(Exception):
    """An errno-style failure; the message is what toybox would print."""


@dataclass(slots=True)
class FileEntry:
    data: bytes
    mtime: int  # seconds since the epoch (device clock)


def normalize(path: str, cwd: str = "/") -> str:
    if not path.startswith("/"):
        path = posixpath.join(cwd, path)
    path = posixpath.normpath(path)
    if path.startswith("//"):
        path = path[1:]
    for alias in _ALIASES:
        if path == alias or path.startswith(alias + "/"):
            return SDCARD + path[len(alias) :]
    return path


class Mounts:
    """Read-only files whose bytes another store makes when they are read.

    They belong to the phone, not to its saved state: a `FileSystem` is pickled
    without them and the phone mounts them again after a restore (the stores
    restore their own contents).
    """

    def __init__(self) -> None:
        self.files: dict[str, Callable[[], bytes]] = {}
        self.mtimes: dict[str, int] = {}
        #: the folders above mounted files that the file system itself lacks
        self.dirs: dict[str, int] = {}
        #: bumped by each mount: a listing made before it is stale
        self.version = 0

    def add(self, path: str, read: Callable[[], bytes], mtime: int) -> None:
        p = normalize(path)
        self.version += 1
        self.files[p] = read
        self.mtimes[p] = mtime
        parent = posixpath.dirname(p)
        while parent not in self.dirs and parent != "/":
            self.dirs[parent] = mtime
            parent = posixpath.dirname(parent)

    def __contains__(self, p: str) -> bool:
        return p in self.files or p in self.dirs


class FileSystem:
    def __init__(self, now: int = 0) -> None:
        self.files: dict[str, FileEntry] = {}
        self.dirs: dict[str, int] = {d: now for d in DEFAULT_DIRS}
        self.mounts = Mounts()
        self._drop_index()

    def _drop_index(self) -> None:
        #: folder -> the names in it, made when first listed (`_index`), kept up to date by
        #: the changes below and made afresh after a move or a folder removed whole
        self._kids: dict[str, set[str]] | None = None
        self._kids_mounts = -1

    def _index(self) -> dict[str, set[str]]:
        """Each folder's entries: `find` lists a tree folder by folder, and a listing that
        scanned every path of the phone made one `find` cost as many scans as folders."""
        if self._kids is None or self._kids_mounts != self.mounts.version:
            kids: dict[str, set[str]] = {}
            for coll in (self.dirs, self.files, self.mounts.dirs, self.mounts.files):
                for q in coll:
                    if q != "/":
                        parent, _, name = q.rpartition("/")
                        kids.setdefault(parent or "/", set()).add(name)
            self._kids, self._kids_mounts = kids, self.mounts.version
        return self._kids

    def _indexed(self, p: str) -> None:
        """`p` was just made (a file or a folder)."""
        if self._kids is not None:
            parent, _, name = p.rpartition("/")
            self._kids.setdefault(parent or "/", set()).add(name)

    def __getstate__(self) -> dict:
        return {"files": self.files, "dirs": self.dirs}

    def __setstate__(self, state: dict) -> None:
        self.files = state["files"]
        self.dirs = state["dirs"]
        self.mounts = Mounts()
        self._drop_index()

    # --- queries ---------------------------------------------------------
    def exists(self, path: str) -> bool:
        p = normalize(path)
        return p in self.files or p in self.dirs or p in self.mounts

    def isdir(self, path: str) -> bool:
        p = normalize(path)
        return p in self.dirs or p in self.mounts.dirs

    def isfile(self, path: str) -> bool:
        p = normalize(path)
        return p in self.files or p in self.mounts.files

    def listdir(self, path: str) -> list[str]:
        p = normalize(path)
        if p in self.files or p in self.mounts.files:
            return [posixpath.basename(p)]
        if p not in self.dirs and p not in self.mounts.dirs:
            raise FsError(f"{path}: No such file or directory")
        return sorted(self._index().get(p, ()))

    def read(self, path: str) -> bytes:
        p = normalize(path)
        if p in self.dirs or p in self.mounts.dirs:
            raise FsError(f"{path}: Is a directory")
        entry = self.files.get(p)
        if entry is None:
            mounted = self.mounts.files.get(p)
            if mounted is not None:
                return mounted()
            raise FsError(f"{path}: No such file or directory")
        return entry.data

    def read_text(self, path: str) -> str:
        return self.read(path).decode("utf-8", "replace")

    def mtime(self, path: str) -> int:
        p = normalize(path)
        if p in self.files:
            return self.files[p].mtime
        if p in self.dirs:
            return self.dirs[p]
        mounts = self.mounts
        if p in mounts.files:
            return mounts.mtimes[p]
        if p in mounts.dirs:
            return mounts.dirs[p]
        raise FsError(f"{path}: No such file or directory")

    # --- changes ---------------------------------------------------------
    def _check_writable(self, p: str, shown: str) -> None:
        if p in self.mounts or not any(p == r or p.startswith(r + "/") for r in WRITABLE_ROOTS):
            raise FsError(f"{shown}: Read-only file system")

    def _check_parent(self, p: str, shown: str) -> None:
        parent = posixpath.dirname(p)
        if parent not in self.dirs:
            raise FsError(f"{shown}: No such file or directory")

    def write(self, path: str, data: bytes, now: int, append: bool = False) -> None:
        p = normalize(path)
        self._check_writable(p, path)
        if p in self.dirs:
            raise FsError(f"{path}: Is a directory")
        self._check_parent(p, path)
        if append and p in self.files:
            data = self.files[p].data + data
        elif p not in self.files:
            self._indexed(p)
        self.files[p] = FileEntry(data, now)

    def write_text(self, path: str, text: str, now: int) -> None:
        self.write(path, text.encode("utf-8"), now)

    def touch(self, path: str, now: int) -> None:
        p = normalize(path)
        if p in self.files:
            self.files[p].mtime = now
        elif p in self.dirs:
            self.dirs[p] = now
        else:
            self.write(path, b"", now)

    def mkdir(self, path: str, now: int, parents: bool = False) -> None:
        p = normalize(path)
        self._check_writable(p, path)
        if p in self.files:
            raise FsError(f"{path}: File exists")
        if p in self.dirs:
            if parents:
                return
            raise FsError(f"{path}: File exists")
        parent = posixpath.dirname(p)
        if parent not in self.dirs:
            if not parents:
                raise FsError(f"{path}: No such file or directory")
            self.mkdir(parent, now, parents=True)
        self.dirs[p] = now
        self._indexed(p)

    def remove(self, path: str, recursive: bool = False) -> None:
        p = normalize(path)
        self._check_writable(p, path)
        if p in WRITABLE_ROOTS:
            raise FsError(f"{path}: Permission denied")
        if p in self.files:
            del self.files[p]
            if self._kids is not None and p not in self.dirs and p not in self.mounts:
                parent, _, name = p.rpartition("/")
                self._kids.get(parent or "/", set()).discard(name)
            return
        if p not in self.dirs:
            raise FsError(f"{path}: No such file or directory")
        prefix = p + "/"
        children = [q for q in list(self.files) + list(self.dirs) if q.startswith(prefix)]
        if children and not recursive:
            raise FsError(f"{path}: Directory not empty")
        for q in children:
            self.files.pop(q, None)
            self.dirs.pop(q, None)
        del self.dirs[p]
        self._drop_index()

    def rmdir(self, path: str) -> None:
        p = normalize(path)
        if p not in self.dirs:
            raise FsError(f"{path}: No such file or directory")
        self.remove(path, recursive=False)

    def move(self, src: str, dst: str, now: int) -> None:
        s, d = normalize(src), normalize(dst)
        self._check_writable(s, src)
        self._check_writable(d, dst)
        if s not in self.files and s not in self.dirs:
            raise FsError(f"{src}: No such file or directory")
        if d in self.dirs:
            d = posixpath.join(d, posixpath.basename(s))
        self._check_parent(d, dst)
        self._drop_index()
        if s in self.files:
            self.files[d] = self.files.pop(s)
            return
        if d == s or d.startswith(s + "/"):
            raise FsError(f"{dst}: Invalid argument")
        prefix = s + "/"
        for coll in (self.files, self.dirs):
            for q in [q for q in coll if q == s or q.startswith(prefix)]:
                coll[d + q[len(s) :]] = coll.pop(q)

    def copy(self, src: str, dst: str, now: int) -> None:
        s = normalize(src)
        d = normalize(dst)
        if d in self.dirs:
            d = posixpath.join(d, posixpath.basename(s))
        self.write(d, self.read(src), now)
