"""MPEG-4 files (ISO base media format) the simulated phone's recorders write.

A recording is a real, small container that media tools parse: an `ftyp` box, the
samples in `mdat`, and a `moov` describing one track (`mvhd`, `tkhd`, `mdhd`, `hdlr`,
the sample table). Audio is AAC-LC, mono, 44.1 kHz, every frame a silent one (1024
samples each); video is Motion JPEG (the QuickTime `jpeg` sample entry), one picture
per frame. Both are pure functions of their arguments: the same recording gives the
same bytes.
"""

from __future__ import annotations

import struct

AAC_RATE = 44100
AAC_FRAME = 1024  # samples per AAC frame
#: one AAC-LC raw data block of silence for one channel: a single channel element with
#: global gain 160 and no scale factor bands, then the END element
SILENT_AAC_FRAME = bytes((0x01, 0x40, 0x20, 0x07))
#: AudioSpecificConfig: object type 2 (AAC LC), 44100 Hz (index 4), 1 channel
_AUDIO_CONFIG = bytes((0x12, 0x08))
_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
#: seconds from 1904-01-01 (MP4 time) to 1970-01-01
_EPOCH_1904 = 2082844800


def box(kind: bytes, *parts: bytes) -> bytes:
    payload = b"".join(parts)
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind: bytes, version: int, flags: int, *parts: bytes) -> bytes:
    return box(kind, struct.pack(">I", (version << 24) | flags), *parts)


def _descriptor(tag: int, payload: bytes) -> bytes:
    return bytes((tag, len(payload))) + payload


def _mvhd(when: int, timescale: int, duration: int) -> bytes:
    return full_box(b"mvhd", 0, 0, struct.pack(">IIII", when, when, timescale, duration),
                    struct.pack(">IH", 0x10000, 0x100), b"\0" * 10, _MATRIX, b"\0" * 24,
                    struct.pack(">I", 2))


def _tkhd(when: int, duration: int, audio: bool, width: int, height: int) -> bytes:
    return full_box(b"tkhd", 0, 3, struct.pack(">IIIII", when, when, 1, 0, duration),
                    b"\0" * 8, struct.pack(">HHHH", 0, 0, 0x100 if audio else 0, 0), _MATRIX,
                    struct.pack(">II", width << 16, height << 16))


def _mdhd(when: int, timescale: int, duration: int) -> bytes:
    return full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", when, when, timescale, duration,
                                               0x55C4, 0))  # language "und"


def _hdlr(handler: bytes, name: str) -> bytes:
    return full_box(b"hdlr", 0, 0, b"\0" * 4, handler, b"\0" * 12, name.encode() + b"\0")


def _dinf() -> bytes:
    return box(b"dinf", full_box(b"dref", 0, 0, struct.pack(">I", 1), full_box(b"url ", 0, 1)))


def _sample_table(entry: bytes, sizes: list[int], delta: int, chunk_offset: int) -> bytes:
    n = len(sizes)
    return box(b"stbl",
               full_box(b"stsd", 0, 0, struct.pack(">I", 1), entry),
               full_box(b"stts", 0, 0, struct.pack(">III", 1, n, delta)),
               full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, n, 1)),
               full_box(b"stsz", 0, 0, struct.pack(">II", 0, n), struct.pack(f">{n}I", *sizes)),
               full_box(b"stco", 0, 0, struct.pack(">II", 1, chunk_offset)))


def _mp4a_entry() -> bytes:
    decoder = _descriptor(0x04, bytes((0x40, 0x15)) + b"\0\0\0" + struct.pack(">II", 128000, 128000)
                          + _descriptor(0x05, _AUDIO_CONFIG))
    es = _descriptor(0x03, struct.pack(">HB", 1, 0) + decoder + _descriptor(0x06, b"\x02"))
    return box(b"mp4a", b"\0" * 6, struct.pack(">H", 1), b"\0" * 8,
               struct.pack(">HHHHI", 1, 16, 0, 0, AAC_RATE << 16), full_box(b"esds", 0, 0, es))


def _jpeg_entry(width: int, height: int) -> bytes:
    name = b"Photo - JPEG"
    return box(b"jpeg", b"\0" * 6, struct.pack(">H", 1), b"\0" * 16,
               struct.pack(">HHIIIH", width, height, 0x480000, 0x480000, 0, 1),
               bytes((len(name),)) + name.ljust(31, b"\0"), struct.pack(">Hh", 0x18, -1))


def _file(brand: bytes, compatible: tuple[bytes, ...], samples: list[bytes], track: bytes) -> bytes:
    """ftyp, mdat (the samples, in one chunk), then moov; `track` holds a placeholder
    chunk offset of 0 that is set once the offset is known."""
    ftyp = box(b"ftyp", brand, struct.pack(">I", 0), *compatible)
    mdat = box(b"mdat", *samples)
    offset = len(ftyp) + 8
    marker = b"stco" + struct.pack(">III", 0, 1, 0)
    assert track.count(marker) == 1
    track = track.replace(marker, b"stco" + struct.pack(">III", 0, 1, offset))
    return ftyp + mdat + track


def m4a_silence(duration_ms: int, created_s: int) -> bytes:
    """An .m4a of `duration_ms` of silence (at least one frame), created at `created_s`
    (seconds since 1970)."""
    frames = max(1, round(duration_ms * AAC_RATE / 1000 / AAC_FRAME))
    when = created_s + _EPOCH_1904
    samples = [SILENT_AAC_FRAME] * frames
    media_len = frames * AAC_FRAME
    movie_len = media_len * 1000 // AAC_RATE
    stbl = _sample_table(_mp4a_entry(), [len(s) for s in samples], AAC_FRAME, 0)
    minf = box(b"minf", full_box(b"smhd", 0, 0, b"\0" * 4), _dinf(), stbl)
    mdia = box(b"mdia", _mdhd(when, AAC_RATE, media_len), _hdlr(b"soun", "SoundHandle"), minf)
    moov = box(b"moov", _mvhd(when, 1000, movie_len),
               box(b"trak", _tkhd(when, movie_len, True, 0, 0), mdia))
    return _file(b"M4A ", (b"M4A ", b"mp42", b"isom"), samples, moov)


def mp4_mjpeg(frames: list[bytes], width: int, height: int, frame_ms: int, created_s: int) -> bytes:
    """An .mp4 of JPEG pictures `frames`, each shown `frame_ms`, `width` x `height`."""
    if not frames:
        raise ValueError("a video needs at least one frame")
    when = created_s + _EPOCH_1904
    duration = frame_ms * len(frames)
    stbl = _sample_table(_jpeg_entry(width, height), [len(f) for f in frames], frame_ms, 0)
    minf = box(b"minf", full_box(b"vmhd", 0, 1, b"\0" * 8), _dinf(), stbl)
    mdia = box(b"mdia", _mdhd(when, 1000, duration), _hdlr(b"vide", "VideoHandle"), minf)
    moov = box(b"moov", _mvhd(when, 1000, duration),
               box(b"trak", _tkhd(when, duration, False, width, height), mdia))
    return _file(b"isom", (b"isom", b"iso2", b"mp41"), frames, moov)


def boxes(data: bytes, start: int = 0, end: int | None = None) -> list[tuple[bytes, int, int]]:
    """The boxes in `data[start:end]`: (type, payload start, payload end) each; a size
    that runs past the end is an error."""
    end = len(data) if end is None else end
    out = []
    i = start
    while i < end:
        if end - i < 8:
            raise ValueError(f"truncated box header at {i}")
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        if size < 8 or i + size > end:
            raise ValueError(f"box {kind!r} at {i} has a bad size {size}")
        out.append((kind, i + 8, i + size))
        i += size
    return out
