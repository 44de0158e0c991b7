"""Wire formats of the ADB device protocol, written from its public description.

Three layers travel over one TCP connection:

* transport messages: a 24-byte little-endian header (command, arg0, arg1,
  data length, data checksum, magic = command ^ 0xffffffff) and the data;
* shell protocol v2 packets inside a shell stream: 1-byte id, 4-byte length, data;
* sync requests inside a `sync:` stream: 4-byte id, 4-byte length or value, data.

Only encoding and decoding live here; the server decides what to do with them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass


def _cmd(name: bytes) -> int:
    return struct.unpack("<I", name)[0]


A_SYNC = _cmd(b"SYNC")
A_CNXN = _cmd(b"CNXN")
A_AUTH = _cmd(b"AUTH")
A_OPEN = _cmd(b"OPEN")
A_OKAY = _cmd(b"OKAY")
A_CLSE = _cmd(b"CLSE")
A_WRTE = _cmd(b"WRTE")
A_STLS = _cmd(b"STLS")

COMMAND_NAMES = {A_SYNC: "SYNC", A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN", A_OKAY: "OKAY",
                 A_CLSE: "CLSE", A_WRTE: "WRTE", A_STLS: "STLS"}

#: the protocol version adb 29 speaks (checksums optional from this one on)
VERSION = 0x01000001
#: the largest data a message may carry; smaller than an OPEN's service string
#: would crash the adb server, so advertise what a modern adbd does
MAX_DATA = 1024 * 1024
#: refuse (close the connection on) anything claiming more than this
MAX_ACCEPTED_DATA = 16 * MAX_DATA

HEADER = struct.Struct("<6I")
HEADER_SIZE = HEADER.size  # 24

FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")


class ProtocolError(Exception):
    """The peer sent something that cannot be an ADB message (the stream is out of sync)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One transport message."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    @property
    def name(self) -> str:
        return COMMAND_NAMES.get(self.command, f"0x{self.command:08x}")

    def __repr__(self) -> str:
        more = "…" if len(self.data) > 40 else ""
        return f"Message({self.name}, {self.arg0}, {self.arg1}, {self.data[:40]!r}{more})"


def checksum(data: bytes) -> int:
    """The old-style data check: the byte sum (hosts from version 0x01000001 on ignore it)."""
    return sum(data) & 0xFFFFFFFF


def encode(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    """A whole message: header and data, ready to write."""
    return HEADER.pack(command, arg0 & 0xFFFFFFFF, arg1 & 0xFFFFFFFF, len(data), checksum(data),
                       command ^ 0xFFFFFFFF) + data


@dataclass(frozen=True, slots=True)
class Header:
    command: int
    arg0: int
    arg1: int
    length: int
    check: int
    magic: int


def decode_header(raw: bytes) -> Header:
    """Parse a 24-byte header. A bad magic or an absurd length means the byte stream is
    out of sync; a bad checksum is never an error (hosts send 0)."""
    if len(raw) != HEADER_SIZE:
        raise ProtocolError(f"short header ({len(raw)} bytes)")
    h = Header(*HEADER.unpack(raw))
    if h.magic != h.command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic 0x{h.magic:08x} for command 0x{h.command:08x}")
    if h.length > MAX_ACCEPTED_DATA:
        raise ProtocolError(f"data length {h.length} too large")
    return h


def device_banner(product: str = "oriole", model: str = "Pixel 6", device: str = "oriole",
                  features: tuple[str, ...] = FEATURES) -> bytes:
    """The CNXN banner a device sends: system type, properties, features."""
    return (f"device::ro.product.name={product};ro.product.model={model};"
            f"ro.product.device={device};features={','.join(features)}").encode()


def parse_banner(data: bytes) -> tuple[str, dict[str, str]]:
    """(system type, properties) from a CNXN banner like `host::features=a,b`."""
    text = data.rstrip(b"\x00").decode("utf-8", "replace")
    kind, _, rest = text.partition(":")
    _serial, _, props_text = rest.partition(":")
    props: dict[str, str] = {}
    for item in props_text.split(";"):
        key, eq, value = item.partition("=")
        if eq:
            props[key] = value
    return kind, props


# --- shell protocol v2 ---------------------------------------------------------------

SHELL_STDIN = 0
SHELL_STDOUT = 1
SHELL_STDERR = 2
SHELL_EXIT = 3
SHELL_CLOSE_STDIN = 4
SHELL_WINDOW_SIZE = 5
SHELL_HEADER = struct.Struct("<BI")
#: keep each packet well inside the host's shell buffer
SHELL_MAX_PACKET_DATA = 32 * 1024 - SHELL_HEADER.size


def shell_packet(kind: int, data: bytes) -> bytes:
    """One shell v2 packet (the caller keeps `data` under SHELL_MAX_PACKET_DATA)."""
    return SHELL_HEADER.pack(kind, len(data)) + data


def shell_packets(kind: int, data: bytes) -> bytes:
    """`data` as as many packets of `kind` as it takes (nothing for empty data)."""
    step = SHELL_MAX_PACKET_DATA
    return b"".join(shell_packet(kind, data[i:i + step]) for i in range(0, len(data), step))


class ShellPacketParser:
    """Reassemble shell v2 packets from a byte stream cut at arbitrary places."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self._buf += data
        out: list[tuple[int, bytes]] = []
        while len(self._buf) >= SHELL_HEADER.size:
            kind, length = SHELL_HEADER.unpack_from(self._buf)
            end = SHELL_HEADER.size + length
            if len(self._buf) < end:
                break
            out.append((kind, bytes(self._buf[SHELL_HEADER.size:end])))
            del self._buf[:end]
        return out


# --- sync protocol -------------------------------------------------------------------

SYNC_DATA_MAX = 64 * 1024
SYNC_MAX_PATH = 1024
SYNC_REQUEST = struct.Struct("<4sI")
#: v1 STAT reply after the id: mode, size, mtime
SYNC_STAT_V1 = struct.Struct("<III")
#: v1 DENT after the id: mode, size, mtime, name length
SYNC_DENT_V1 = struct.Struct("<IIII")
#: v2 stat after the id: error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime
SYNC_STAT_V2 = struct.Struct("<IQQIIIIQqqq")
#: v2 DNT2 after the id: the v2 stat and a name length
SYNC_DENT_V2 = struct.Struct("<IQQIIIIQqqqI")


def sync_header(ident: bytes, value: int) -> bytes:
    return SYNC_REQUEST.pack(ident, value)


def sync_fail(message: str) -> bytes:
    raw = message.encode("utf-8", "replace")
    return sync_header(b"FAIL", len(raw)) + raw
