"""Reading a video file's pictures: the MP4 sample table of its video track.

VLC decodes any codec; the simulated player shows Motion JPEG tracks (the `jpeg` /
`mjpa` / `mjpb` sample entries), whose samples are JPEG pictures the painter decodes,
and knows the length of any MP4 (`mvhd`). A sample's time span comes from `stts`, its
bytes from `stsz`, `stsc` and `stco` / `co64`. Anything else reads as a video of unknown
length with no picture. Parsing is memoised per file content.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import lru_cache

#: sample entries whose samples are JPEG pictures
JPEG_CODECS = (b"jpeg", b"mjpa", b"mjpb")
_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}


@dataclass(frozen=True, slots=True)
class Video:
    """What the player needs of a file: its length and, for Motion JPEG, each picture's
    (start ms, end ms, offset, size)."""

    duration: int  # ms, 0 when unknown
    frames: tuple[tuple[int, int, int, int], ...] = ()

    def frame_at(self, ms: int) -> tuple[int, int] | None:
        """(offset, size) of the picture shown at `ms` (the last one past the end)."""
        if not self.frames:
            return None
        for start, end, off, size in self.frames:
            if start <= ms < end:
                return off, size
        return self.frames[-1][2:] if ms >= self.frames[-1][1] else self.frames[0][2:]


def _boxes(data: bytes, start: int, end: int):
    """(type, payload start, payload end) of the boxes in data[start:end]."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack_from(">I4s", data, at)
        head = 8
        if size == 1 and at + 16 <= end:
            size = struct.unpack_from(">Q", data, at + 8)[0]
            head = 16
        elif size == 0:
            size = end - at
        if size < head or at + size > end:
            return
        yield kind, at + head, at + size
        at += size


def _tracks(data: bytes) -> tuple[int, list[dict[bytes, tuple[int, int]]]]:
    """The movie's length in ms and, per track, where each box of interest lies."""
    duration = 0
    tracks: list[dict[bytes, tuple[int, int]]] = []

    def walk(start: int, end: int, track: dict | None) -> None:
        nonlocal duration
        for kind, s, e in _boxes(data, start, end):
            if kind == b"mvhd" and e - s >= 20:
                version = data[s]
                if version == 1 and e - s >= 32:
                    scale, length = struct.unpack_from(">IQ", data, s + 20)
                else:
                    scale, length = struct.unpack_from(">II", data, s + 12)
                duration = round(length * 1000 / scale) if scale else 0
            elif kind == b"trak":
                t: dict[bytes, tuple[int, int]] = {}
                tracks.append(t)
                walk(s, e, t)
            elif kind in _CONTAINERS:
                walk(s, e, track)
            elif track is not None:
                track[kind] = (s, e)

    walk(0, len(data), None)
    return duration, tracks


def _jpeg_frames(data: bytes, t: dict[bytes, tuple[int, int]]) -> tuple:
    s, _ = t[b"mdhd"]
    version = data[s]
    scale = struct.unpack_from(">I", data, s + (20 if version == 1 else 12))[0] or 1
    s, _ = t[b"stts"]
    deltas: list[int] = []
    for i in range(struct.unpack_from(">I", data, s + 4)[0]):
        count, delta = struct.unpack_from(">II", data, s + 8 + 8 * i)
        deltas += [delta] * count
    s, _ = t[b"stsz"]
    fixed, n = struct.unpack_from(">II", data, s + 4)
    sizes = [fixed] * n if fixed else list(struct.unpack_from(f">{n}I", data, s + 12))
    s, _ = t[b"stsc"]
    runs = [struct.unpack_from(">III", data, s + 8 + 12 * i)
            for i in range(struct.unpack_from(">I", data, s + 4)[0])]
    if b"stco" in t:
        s, _ = t[b"stco"]
        m = struct.unpack_from(">I", data, s + 4)[0]
        chunks = list(struct.unpack_from(f">{m}I", data, s + 8))
    else:
        s, _ = t[b"co64"]
        m = struct.unpack_from(">I", data, s + 4)[0]
        chunks = list(struct.unpack_from(f">{m}Q", data, s + 8))
    offsets: list[int] = []
    for c, chunk_offset in enumerate(chunks, start=1):
        per = next((r[1] for r in reversed(runs) if r[0] <= c), 1)
        at = chunk_offset
        for _ in range(per):
            if len(offsets) == len(sizes):
                break
            offsets.append(at)
            at += sizes[len(offsets) - 1]
    frames, t_ms = [], 0.0
    for off, size, delta in zip(offsets, sizes, deltas):
        start = round(t_ms)
        t_ms += delta * 1000 / scale
        if off + size <= len(data):
            frames.append((start, round(t_ms), off, size))
    return tuple(frames)


@lru_cache(maxsize=256)
def _parse(digest: str, data: bytes) -> Video:
    try:
        duration, tracks = _tracks(data)
        for t in tracks:
            hdlr, stsd = t.get(b"hdlr"), t.get(b"stsd")
            if hdlr is None or stsd is None or data[hdlr[0] + 8:hdlr[0] + 12] != b"vide":
                continue
            if data[stsd[0] + 12:stsd[0] + 16] in JPEG_CODECS:
                return Video(duration, _jpeg_frames(data, t))
        return Video(duration)
    except (struct.error, KeyError, IndexError, ZeroDivisionError, ValueError, OverflowError,
            MemoryError):  # any file named .mp4 may be pushed: what does not parse has no picture
        return Video(0)


def read_video(data: bytes) -> Video:
    """The file's length and pictures (memoised per content)."""
    return _parse(hashlib.blake2b(data, digest_size=16).hexdigest(), data)


def fmt_time(ms: int) -> str:
    """m:ss (h:mm:ss from an hour), as the player's clock shows it."""
    s = max(0, ms) // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
