"""A digest of what a snapshot holds, for telling phone states apart: the oracle's
distance is remembered by state (`traps.solvability`), and an eval paints a state's
screen once (`eval.worker`)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

#: byte strings this long are digested once per object (see `_bytes_digest`)
_BIG = 4096
_BYTES_CACHE_SIZE = 1024
_bytes_digests: OrderedDict[int, tuple[bytes, bytes]] = OrderedDict()


def _bytes_digest(data: bytes) -> bytes:
    """The digest of a large, immutable byte string, remembered by the object: a snapshot
    hands back the very image a database last dumped while it is unchanged, so the
    databases an episode does not touch are hashed once, not at every step. The entry
    holds the object, so its id cannot be reused while it is cached."""
    hit = _bytes_digests.get(id(data))
    if hit is not None and hit[0] is data:
        _bytes_digests.move_to_end(id(data))
        return hit[1]
    d = hashlib.blake2b(data, digest_size=16).digest()
    _bytes_digests[id(data)] = (data, d)
    if len(_bytes_digests) > _BYTES_CACHE_SIZE:
        _bytes_digests.popitem(last=False)
    return d


def payload_digest(payload: Any, h: Any = None) -> bytes:
    """A digest of a snapshot's payload, opaque as the Device protocol leaves it: bytes,
    strings, numbers and containers of them (dicts in key order); anything else by repr."""
    top = h is None
    h = hashlib.blake2b(digest_size=16) if top else h
    if type(payload) is bytes and len(payload) >= _BIG:
        h.update(b"B")
        h.update(_bytes_digest(payload))
    elif isinstance(payload, bytes | bytearray | memoryview):
        h.update(b"b%d:" % len(payload))
        h.update(payload)
    elif isinstance(payload, dict):
        h.update(b"d%d:" % len(payload))
        for k in sorted(payload, key=repr):
            payload_digest(k, h)
            payload_digest(payload[k], h)
    elif isinstance(payload, list | tuple):
        h.update(b"l%d:" % len(payload))
        for v in payload:
            payload_digest(v, h)
    else:
        r = repr(payload).encode()
        h.update(b"r%d:" % len(r))
        h.update(r)
    return h.digest() if top else b""
