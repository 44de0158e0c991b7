"""A Unicode text space for actions and text observations.

`gymnasium.spaces.Text` rejects characters outside a fixed charset, and text
on a phone is any Unicode. This space accepts any `str` up to `max_length`
characters and works in sync and async vector envs (shared memory included:
a fixed-size UTF-8 buffer per env).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

_SAMPLE_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"{}[]()-_=+/\\@#$%&*"
    "éüñçßøåæœ€£¥漢字かなカナ한글Ωπ→✓😀"
)


class UnicodeText(spaces.Space[str]):
    def __init__(self, max_length: int = 1 << 16, seed: int | np.random.Generator | None = None):
        super().__init__(shape=None, dtype=None, seed=seed)
        self.max_length = int(max_length)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        n = int(self.np_random.integers(0, min(self.max_length, 64) + 1))
        idx = self.np_random.integers(0, len(_SAMPLE_ALPHABET), size=n)
        return "".join(_SAMPLE_ALPHABET[i] for i in idx)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash(("UnicodeText", self.max_length))

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def to_jsonable(self, sample_n: Any) -> list[str]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[str]) -> list[str]:
        return list(sample_n)

    @property
    def max_bytes(self) -> int:
        return 4 * self.max_length + 4


@create_shared_memory.register(UnicodeText)
def _create(space: UnicodeText, n: int = 1, ctx=mp):
    return ctx.Array("B", n * space.max_bytes)


class SharedStrings(Sequence):
    """The strings of a batch, decoded from shared memory when read.

    AsyncVectorEnv reads its shared buffers once and then hands out that same
    object (a deep copy of it by default): this view stays current, and a deep
    copy freezes it into a plain tuple of strings.
    """

    def __init__(self, space: UnicodeText, shared_memory, n: int) -> None:
        self._buf = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8).reshape(n, space.max_bytes)

    def __len__(self) -> int:
        return self._buf.shape[0]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        row = self._buf[i]
        size = int.from_bytes(row[:4].tobytes(), "little")
        return row[4 : 4 + size].tobytes().decode("utf-8", "replace")

    def __deepcopy__(self, memo) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, list, SharedStrings)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return repr(tuple(self))


@read_from_shared_memory.register(UnicodeText)
def _read(space: UnicodeText, shared_memory, n: int = 1) -> SharedStrings:
    return SharedStrings(space, shared_memory, n)


@write_to_shared_memory.register(UnicodeText)
def _write(space: UnicodeText, index: int, value: str, shared_memory) -> None:
    data = value.encode("utf-8", "surrogatepass")[: space.max_bytes - 4]
    buf = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8)
    start = index * space.max_bytes
    buf[start : start + 4] = np.frombuffer(len(data).to_bytes(4, "little"), np.uint8)
    buf[start + 4 : start + 4 + len(data)] = np.frombuffer(data, np.uint8)
