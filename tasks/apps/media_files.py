"""Media files a phone's players open, made for set-up: MP3 songs with ID3 tags, and MP4
videos whose frames show text, both small enough to push through the shell.

An MP3 is an ID3v2.3 tag (title, artist, album, TLEN: the length in ms), a first MPEG-1
Layer III frame carrying a Xing header that counts the frames of the whole song, and a
few silent frames: a music scanner (Android's MediaExtractor, mutagen) reads the length
from the Xing count, so a 4-minute song is about a kilobyte. An MP4 is an ISO base media
file with one video track of JPEG samples ('jpeg', Motion JPEG), one sample per message
lasting its display time, the frames drawn with Pillow: VLC plays it, and each sample
opens with Pillow. Both are pure functions of their arguments (the same bytes every time).
"""

from __future__ import annotations

import io
import struct
from functools import lru_cache
from pathlib import Path

from mutagen.id3 import ID3, TALB, TIT2, TLEN, TPE1
from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).resolve().parents[2] / "antrap_gym/device/sim/render/fonts/DejaVuSans.ttf"

# --- MP3 -------------------------------------------------------------------------------------

#: MPEG-1 Layer III, no CRC, 32 kbit/s, 44.1 kHz, mono: 104-byte frames of 1152 samples
_MP3_HEADER = bytes((0xFF, 0xFB, 0x10, 0xC0))
_MP3_FRAME = 104
_MP3_SIDE_INFO = 17
_SAMPLES_PER_FRAME = 1152
_SAMPLE_RATE = 44100
#: silent frames after the Xing frame (a quarter of a second)
_SILENT_FRAMES = 10


def _mp3_frame(payload: bytes = b"") -> bytes:
    """One frame: header, all-zero side info (silence), then `payload` (a Xing header)."""
    body = _MP3_HEADER + bytes(_MP3_SIDE_INFO) + payload
    return body + bytes(_MP3_FRAME - len(body))


def mp3_frames(duration_ms: int) -> int:
    """How many frames `duration_ms` of audio takes (what the Xing header says)."""
    return max(0, round(duration_ms * _SAMPLE_RATE / (1000 * _SAMPLES_PER_FRAME)))


@lru_cache(maxsize=256)
def mp3(title: str, artist: str, album: str, duration_ms: int) -> bytes:
    """An MP3 file of `duration_ms` (as its Xing header and TLEN tag say) tagged with the
    title, artist and album."""
    n = mp3_frames(duration_ms)
    xing = b"Xing" + struct.pack(">III", 0x3, n, n * _MP3_FRAME)  # frames and bytes present
    buf = io.BytesIO(_mp3_frame(xing) + _mp3_frame() * _SILENT_FRAMES)
    tag = ID3()
    tag.add(TIT2(encoding=1, text=title))
    tag.add(TPE1(encoding=1, text=artist))
    tag.add(TALB(encoding=1, text=album))
    tag.add(TLEN(encoding=1, text=str(int(duration_ms))))
    tag.save(buf, v2_version=3, padding=lambda info: 0)
    return buf.getvalue()


# --- MP4 -------------------------------------------------------------------------------------

#: AndroidWorld's video frames: 320 x 240, the message in yellow at (50, middle)
WIDTH, HEIGHT = 320, 240
_TIMESCALE = 1000  # ms
_BACKGROUND = (24, 28, 40)
_TEXT = (255, 255, 0)


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


@lru_cache(maxsize=128)
def text_frame(text: str, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """A JPEG frame showing `text` (yellow on a dark background, from x = 50 at mid-height)."""
    img = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = _font(26)
    top = height // 2 - 16
    draw.text((50, top), text, fill=_TEXT, font=font)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return out.getvalue()


def _box(kind: bytes, *parts: bytes) -> bytes:
    body = b"".join(parts)
    return struct.pack(">I", 8 + len(body)) + kind + body


def _full(kind: bytes, version: int, flags: int, *parts: bytes) -> bytes:
    return _box(kind, struct.pack(">I", (version << 24) | flags), *parts)


_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def _moov(sizes: list[int], durations: list[int], width: int, height: int, first: int) -> bytes:
    total = sum(durations)
    offsets, at = [], first
    for s in sizes:
        offsets.append(at)
        at += s
    mvhd = _full(b"mvhd", 0, 0, struct.pack(">IIII", 0, 0, _TIMESCALE, total),
                 struct.pack(">IH", 0x10000, 0x100), bytes(10), _MATRIX, bytes(24),
                 struct.pack(">I", 2))
    tkhd = _full(b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, total), bytes(8),
                 struct.pack(">hhhH", 0, 0, 0, 0), _MATRIX,
                 struct.pack(">II", width << 16, height << 16))
    mdhd = _full(b"mdhd", 0, 0, struct.pack(">IIII", 0, 0, _TIMESCALE, total),
                 struct.pack(">HH", 0x55C4, 0))  # language "und"
    hdlr = _full(b"hdlr", 0, 0, struct.pack(">I", 0), b"vide", bytes(12), b"VideoHandler\0")
    vmhd = _full(b"vmhd", 0, 1, bytes(8))
    dinf = _box(b"dinf", _full(b"dref", 0, 0, struct.pack(">I", 1), _full(b"url ", 0, 1)))
    name = b"Photo - JPEG"
    entry = _box(b"jpeg", bytes(6), struct.pack(">H", 1), bytes(16),
                 struct.pack(">HHIIIH", width, height, 0x480000, 0x480000, 0, 1),
                 bytes((len(name),)) + name + bytes(31 - len(name)),
                 struct.pack(">Hh", 0x18, -1))
    stsd = _full(b"stsd", 0, 0, struct.pack(">I", 1), entry)
    stts = _full(b"stts", 0, 0, struct.pack(">I", len(durations)),
                 *(struct.pack(">II", 1, d) for d in durations))
    stsc = _full(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, 1, 1))
    stsz = _full(b"stsz", 0, 0, struct.pack(">II", 0, len(sizes)),
                 *(struct.pack(">I", s) for s in sizes))
    stco = _full(b"stco", 0, 0, struct.pack(">I", len(offsets)),
                 *(struct.pack(">I", o) for o in offsets))
    stbl = _box(b"stbl", stsd, stts, stsc, stsz, stco)
    minf = _box(b"minf", vmhd, dinf, stbl)
    trak = _box(b"trak", tkhd, _box(b"mdia", mdhd, hdlr, minf))
    return _box(b"moov", mvhd, trak)


def mp4(frames: list[tuple[bytes, int]], width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """An MP4 file of JPEG `frames`, each (jpeg bytes, how long it shows in ms), in order."""
    ftyp = _box(b"ftyp", b"isom", struct.pack(">I", 0x200), b"isomiso2mp41")
    sizes = [len(f) for f, _ in frames]
    durations = [max(1, int(d)) for _, d in frames]
    probe = _moov(sizes, durations, width, height, 0)
    first = len(ftyp) + len(probe) + 8  # the samples start after mdat's header
    moov = _moov(sizes, durations, width, height, first)
    return ftyp + moov + _box(b"mdat", *(f for f, _ in frames))


@lru_cache(maxsize=64)
def text_video(messages: tuple[str, ...], display_s: int) -> bytes:
    """A video showing each message for `display_s` seconds, one after the other
    (AndroidWorld's write_video_file_to_device: one text per stretch of frames)."""
    return mp4([(text_frame(m), display_s * 1000) for m in messages])
