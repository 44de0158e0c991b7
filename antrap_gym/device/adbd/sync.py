"""The `sync:` service: file transfer requests over the simulated phone's file system.

Sans-IO: `SyncSession.feed(bytes)` takes whatever the host sent (requests may be
cut anywhere, or several may arrive at once) and returns the reply bytes. The
caller holds the phone's lock around `feed`.

Requests (4-byte id, 4-byte little-endian length, payload): STAT/LIST/RECV
(v1), STA2/LST2/LIS2 (v2 stat and list, used by adb 29's CLI), SEND
(`path,mode`, then DATA chunks and DONE carrying the mtime), QUIT.
"""

from __future__ import annotations

import posixpath
import stat as st
import zlib
from typing import TYPE_CHECKING

from antrap_gym.device.adbd.protocol import (
    MAX_DATA,
    SYNC_DATA_MAX,
    SYNC_DENT_V1,
    SYNC_DENT_V2,
    SYNC_MAX_PATH,
    SYNC_REQUEST,
    SYNC_STAT_V1,
    SYNC_STAT_V2,
    sync_fail,
    sync_header,
)
from antrap_gym.device.sim.storage.files import WRITABLE_ROOTS, FsError, normalize

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone

#: what `ls -l` on the phone shows: drwxrwx--x and -rw-rw----
DIR_MODE = st.S_IFDIR | 0o771
FILE_MODE = st.S_IFREG | 0o660
DIR_SIZE = 3452
ENOENT = 2
#: refuse pushes bigger than this (the phone keeps files in memory)
MAX_PUSH_BYTES = 512 * 1024 * 1024
AID_ROOT, AID_SDCARD_RW, AID_SHELL = 0, 1015, 2000

_PATH_REQUESTS = {b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2", b"RECV", b"SEND"}


class SyncSession:
    """One `sync:` stream's state: a request parser and, during SEND, the file being received."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.finished = False  # QUIT or a fatal error: the server closes the stream
        self._buf = bytearray()
        self._send_path: str | None = None  # a SEND in progress
        self._send_data = bytearray()
        self._send_error: str | None = None

    # --- input ----------------------------------------------------------------------
    def feed(self, data: bytes) -> bytes:
        """Consume host bytes; return the replies they call for (may be empty)."""
        self._buf += data
        out = bytearray()
        while not self.finished and len(self._buf) >= SYNC_REQUEST.size:
            ident, value = SYNC_REQUEST.unpack_from(self._buf)
            if self._send_path is not None:
                if not self._take_send_part(ident, value, out):
                    break
                continue
            if ident == b"QUIT":
                del self._buf[:SYNC_REQUEST.size]
                self.finished = True
                break
            if ident not in _PATH_REQUESTS:
                out += sync_fail(f"unknown sync command {ident!r}")
                self.finished = True
                break
            if value > SYNC_MAX_PATH:
                out += sync_fail(f"path too long ({value} bytes)")
                self.finished = True
                break
            end = SYNC_REQUEST.size + value
            if len(self._buf) < end:
                break
            path = bytes(self._buf[SYNC_REQUEST.size:end]).decode("utf-8", "surrogateescape")
            del self._buf[:end]
            out += self._request(ident, path)
        return bytes(out)

    def _take_send_part(self, ident: bytes, value: int, out: bytearray) -> bool:
        """Consume one DATA or DONE of a SEND; False when more bytes are needed."""
        if ident == b"DATA":
            if value > MAX_DATA:
                out += sync_fail(f"data chunk too large ({value} bytes)")
                self.finished = True
                return True
            end = SYNC_REQUEST.size + value
            if len(self._buf) < end:
                return False
            if self._send_error is None:
                if len(self._send_data) + value > MAX_PUSH_BYTES:
                    self._send_error = "No space left on device"
                    self._send_data = bytearray()
                else:
                    self._send_data += self._buf[SYNC_REQUEST.size:end]
            del self._buf[:end]
            return True
        del self._buf[:SYNC_REQUEST.size]
        if ident == b"DONE":
            out += self._finish_send(mtime=value)
            return True
        out += sync_fail(f"expected DATA or DONE, got {ident!r}")
        self.finished = True
        return True

    # --- requests -------------------------------------------------------------------
    def _request(self, ident: bytes, path: str) -> bytes:
        if ident == b"STAT":
            found = self._stat(path)
            mode, size, mtime = found if found else (0, 0, 0)
            return b"STAT" + SYNC_STAT_V1.pack(mode, size & 0xFFFFFFFF, mtime & 0xFFFFFFFF)
        if ident in (b"STA2", b"LST2"):
            return ident + self._stat_v2(path)
        if ident == b"LIST":
            return self._list(path, v2=False)
        if ident == b"LIS2":
            return self._list(path, v2=True)
        if ident == b"RECV":
            return self._recv(path)
        return self._start_send(path)  # SEND

    def _stat(self, path: str) -> tuple[int, int, int] | None:
        fs = self.phone.fs
        p = normalize(path)
        if fs.isdir(p):
            return DIR_MODE, DIR_SIZE, fs.mtime(p)
        if fs.isfile(p):
            return FILE_MODE, len(fs.read(p)), fs.mtime(p)
        return None

    def _stat_v2(self, path: str) -> bytes:
        found = self._stat(path)
        if found is None:
            return SYNC_STAT_V2.pack(ENOENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        mode, size, mtime = found
        p = normalize(path)
        uid, gid = (AID_SHELL, AID_SHELL) if p.startswith("/data/local/tmp") else (AID_ROOT, AID_SDCARD_RW)
        return SYNC_STAT_V2.pack(0, 0xFD00, zlib.crc32(p.encode()), mode, 2 if st.S_ISDIR(mode) else 1,
                                 uid, gid, size, mtime, mtime, mtime)

    def _list(self, path: str, v2: bool) -> bytes:
        fs = self.phone.fs
        p = normalize(path)
        out = bytearray()
        if fs.isdir(p):
            names = [".", "..", *fs.listdir(p)]
            for name in names:
                child = {".": p, "..": posixpath.dirname(p)}.get(name) or posixpath.join(p, name)
                raw = name.encode("utf-8", "surrogateescape")
                if v2:
                    out += b"DNT2" + self._stat_v2(child) + len(raw).to_bytes(4, "little") + raw
                else:
                    mode, size, mtime = self._stat(child) or (0, 0, 0)
                    out += b"DENT" + SYNC_DENT_V1.pack(mode, size & 0xFFFFFFFF, mtime & 0xFFFFFFFF,
                                                       len(raw)) + raw
        # a missing path or a file lists as nothing, as opendir() failing does on a phone
        out += b"DONE" + bytes(SYNC_DENT_V2.size if v2 else SYNC_DENT_V1.size)
        return bytes(out)

    def _recv(self, path: str) -> bytes:
        fs = self.phone.fs
        try:
            data = fs.read(path)
        except FsError as e:
            return sync_fail(f"open failed: {_reason(e)}")
        out = bytearray()
        for i in range(0, len(data), SYNC_DATA_MAX):
            chunk = data[i:i + SYNC_DATA_MAX]
            out += sync_header(b"DATA", len(chunk)) + chunk
        out += sync_header(b"DONE", 0)
        return bytes(out)

    # --- SEND -----------------------------------------------------------------------
    def _start_send(self, spec: str) -> bytes:
        path, comma, mode_text = spec.rpartition(",")
        if not comma:
            path, mode_text = spec, str(FILE_MODE)
        self._send_path = path
        self._send_data = bytearray()
        self._send_error = None
        try:
            mode = int(mode_text)
        except ValueError:
            self._send_error = f"bad mode {mode_text!r}"
            return b""
        if st.S_ISLNK(mode):
            self._send_error = "symlinks are not supported"
        elif st.S_ISDIR(mode):
            self._send_error = f"{path}: Is a directory"
        return b""

    def _finish_send(self, mtime: int) -> bytes:
        path, data, error = self._send_path or "", bytes(self._send_data), self._send_error
        self._send_path, self._send_data, self._send_error = None, bytearray(), None
        if error is not None:
            return sync_fail(f"couldn't create file: {error}")
        fs = self.phone.fs
        p = normalize(path)
        try:
            if fs.isdir(p):
                raise FsError(f"{path}: Is a directory")
            parent = posixpath.dirname(p)
            # fixed_push_mkdir: the device makes missing parent directories
            if not fs.isdir(parent) and any(parent == r or parent.startswith(r + "/")
                                            for r in WRITABLE_ROOTS):
                fs.mkdir(parent, self.phone.now, parents=True)
            fs.write(p, data, mtime or self.phone.now)
        except FsError as e:
            return sync_fail(f"couldn't create file: {_reason(e)}")
        self.phone.changed()
        return b"OKAY" + bytes(4)


def _reason(e: FsError) -> str:
    return str(e).rsplit(": ", 1)[-1]
