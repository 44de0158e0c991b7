"""The music library Retro Music shows: the audio files on shared storage and their tags.

On a phone the app reads MediaStore, which the media scanner fills from each file's
tags; here every MP3 under /sdcard (none hidden, none under Android/) is read on demand
with mutagen: title (the file name without its extension when untagged), artist, album,
and the length in ms from the TLEN tag, else from the audio stream (a Xing header's frame
count). Parsing is memoised per file content, so a screen rebuilt every step costs a
dictionary lookup per song. A song's id is stable for its path, like a MediaStore row id.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from mutagen.mp3 import MP3

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

SDCARD = "/sdcard"
AUDIO_EXTS = (".mp3",)
UNKNOWN = "<unknown>"


@dataclass(frozen=True, slots=True)
class Song:
    """One audio file as MediaStore describes it."""

    id: int
    path: str  # /storage/emulated/0/... as MediaStore's _data column holds it
    title: str
    artist: str
    album: str
    duration: int  # ms
    date_modified: int  # s
    size: int

    @property
    def album_id(self) -> int:
        return _stable_id(self.album)

    @property
    def artist_id(self) -> int:
        return _stable_id(self.artist)


def _stable_id(text: str) -> int:
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


@lru_cache(maxsize=512)
def _tags(digest: str, data: bytes) -> tuple[str | None, str | None, str | None, int]:
    """(title, artist, album, duration ms) of an MP3 file's bytes; Nones and 0 where it
    says nothing (or is no MP3 at all)."""
    try:
        f = MP3(io.BytesIO(data))
    except Exception:  # any file named .mp3 may be pushed: one mutagen cannot read is untagged
        return None, None, None, 0
    tags = f.tags

    def text(key: str) -> str | None:
        frame = tags.get(key) if tags is not None else None
        return str(frame.text[0]) if frame is not None and frame.text else None

    length = text("TLEN")
    try:
        ms = int(length) if length is not None else round(f.info.length * 1000)
    except ValueError:
        ms = round(f.info.length * 1000)
    return text("TIT2"), text("TPE1"), text("TALB"), max(0, ms)


def read_song(phone: PhoneContext, path: str) -> Song:
    data = phone.fs.read(path)
    title, artist, album, ms = _tags(hashlib.blake2b(data, digest_size=16).hexdigest(), data)
    name = posixpath.basename(path)
    return Song(id=_stable_id(path), path="/storage/emulated/0" + path[len(SDCARD):],
                title=title or posixpath.splitext(name)[0], artist=artist or UNKNOWN,
                album=album or posixpath.basename(posixpath.dirname(path)), duration=ms,
                date_modified=phone.fs.mtime(path), size=len(data))


def audio_paths(phone: PhoneContext) -> list[str]:
    """Every audio file on shared storage (none hidden, none under Android/)."""
    out = []
    for path in phone.fs.files:
        if (path.startswith(SDCARD + "/") and "/." not in path
                and not path.startswith(SDCARD + "/Android/") and path.lower().endswith(AUDIO_EXTS)):
            out.append(path)
    return out


def songs(phone: PhoneContext) -> list[Song]:
    """The library, by title (the Songs tab's default order, A to Z), then path."""
    return sorted((read_song(phone, p) for p in audio_paths(phone)),
                  key=lambda s: (s.title.casefold(), s.path))


def by_id(phone: PhoneContext) -> dict[int, Song]:
    return {s.id: s for s in songs(phone)}


def fmt_duration(ms: int) -> str:
    """m:ss (h:mm:ss from an hour), as the app shows a length."""
    s = ms // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
