"""A Unicode text space for actions and text observations.

`gymnasium.spaces.Text` rejects characters outside a fixed charset, and text
on a phone is any Unicode (and long: a screen's elements run to 2^18
characters). Subclassing `Text` would not help: its charset, sampling,
flattening and shared memory all index into that fixed charset. So this space
accepts any `str` up to `max_length` characters, and registers itself with
every Gymnasium space utility that dispatches on the space type, the way
Gymnasium handles its own `Text`:

- `create_zero_array`, `create_empty_array`: the empty string (FrameStack padding).
- `batch_space`, `batch_differing_spaces`: a `Tuple` of copies; `concatenate`:
  a tuple of the strings; `is_space_dtype_shape_equiv`: the same `max_length`.
- shared memory (async vector envs): a fixed-size UTF-8 buffer per env.
- `flatdim`, `flatten`, `unflatten`, `flatten_space` (and the private
  `_flat_dtype`): raise `ValueError` saying why and what to use instead.
- `iterate` is deliberately not registered (as for `Text`): a `UnicodeText` is
  never a batched space, and registering it would make `iterate` over a batched
  `Tuple` of them walk each string's characters instead of the strings.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from types import ModuleType
from typing import Any, NoReturn

import numpy as np
from gymnasium import spaces
from gymnasium.spaces import utils as space_utils
from gymnasium.vector.utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from gymnasium.wrappers.utils import create_zero_array

_SAMPLE_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"{}[]()-_=+/\\@#$%&*"
    "éüñçßøåæœ€£¥漢字かなカナ한글Ωπ→✓😀"
)
_SAMPLE_MAX_LENGTH = 64


class UnicodeText(spaces.Space[str]):
    """Any `str` of at most `max_length` characters (code points)."""

    def __init__(self, max_length: int = 1 << 16, seed: int | np.random.Generator | None = None):
        if not np.issubdtype(type(max_length), np.integer) or max_length < 0:
            raise ValueError(f"max_length must be a non-negative integer, got {max_length!r}")
        super().__init__(shape=None, dtype=None, seed=seed)
        self.max_length = int(max_length)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: tuple[int | None, None] | None = None,
               probability: tuple[int | None, None] | None = None) -> str:
        """A random string from a mixed-script alphabet (emoji included), seeded by `seed()`.

        Its length is random up to min(max_length, 64) (short, so samples stay cheap);
        `mask` or `probability` may fix it as `(length, None)`, the length part of
        `Text`'s masks. There is no charset, so a character mask is refused."""
        if mask is not None and probability is not None:
            raise ValueError("only one of `mask` or `probability` can be given")
        length: int | None = None
        given = mask if mask is not None else probability
        if given is not None:
            if not isinstance(given, tuple) or len(given) != 2:
                raise ValueError(f"a UnicodeText mask is a (length, None) tuple, got {given!r}")
            length, chars = given
            if chars is not None:
                raise ValueError("UnicodeText has no fixed charset, so it takes no character "
                                 "mask; pass (length, None)")
            if length is not None and (not np.issubdtype(type(length), np.integer)
                                       or not 0 <= length <= self.max_length):
                raise ValueError(f"sample length must be an integer in [0, {self.max_length}], "
                                 f"got {length!r}")
        if length is None:
            length = int(self.np_random.integers(0, min(self.max_length, _SAMPLE_MAX_LENGTH) + 1))
        idx = self.np_random.integers(0, len(_SAMPLE_ALPHABET), size=int(length))
        return "".join(_SAMPLE_ALPHABET[i] for i in idx)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash(("UnicodeText", self.max_length))

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def to_jsonable(self, sample_n: Iterable[str]) -> list[str]:
        return [str(s) for s in sample_n]

    def from_jsonable(self, sample_n: list[str]) -> list[str]:
        return [str(s) for s in sample_n]

    @property
    def max_bytes(self) -> int:
        """A shared-memory slot: a 4-byte length, then up to 4 UTF-8 bytes a character."""
        return 4 * self.max_length + 4


# --- padding and batching: as Gymnasium does for `Text` ------------------------------------

@create_zero_array.register(UnicodeText)
def _zero(space: UnicodeText) -> str:
    return ""


@create_empty_array.register(UnicodeText)
def _empty(space: UnicodeText, n: int = 1, fn: Callable = np.zeros) -> tuple[str, ...]:
    return ("",) * n


@batch_space.register(UnicodeText)
def _batch(space: UnicodeText, n: int = 1) -> spaces.Tuple:
    """n copies, each seeded apart (a shared generator would sample the same strings)."""
    batched = spaces.Tuple(tuple(deepcopy(space) for _ in range(n)), seed=deepcopy(space.np_random))
    batched.seed([int(s) for s in deepcopy(space.np_random).integers(0, int(1e8), n)])
    return batched


@batch_differing_spaces.register(UnicodeText)
def _batch_differing(spaces_: Sequence[UnicodeText]) -> spaces.Tuple:
    return spaces.Tuple([deepcopy(s) for s in spaces_], seed=deepcopy(spaces_[0].np_random))


@concatenate.register(UnicodeText)
def _concatenate(space: UnicodeText, items: Iterable[str], out: Any) -> tuple[str, ...]:
    return tuple(items)


@space_utils.is_space_dtype_shape_equiv.register(UnicodeText)
def _equiv(space_1: UnicodeText, space_2: Any) -> bool:
    return isinstance(space_2, UnicodeText) and space_1.max_length == space_2.max_length


# --- flattening: refused, with the reason ----------------------------------------------------

def _not_flattenable(space: UnicodeText, *_: Any) -> NoReturn:
    """Gymnasium flattens `Text` to one charset index a character; arbitrary Unicode has
    no charset, and code points padded to `max_length` (2^18 for `ui_elements`) are no
    input a network can learn from. Turn text into numbers yourself, or drop it."""
    raise ValueError(
        f"{space} cannot be flattened to a numpy array: it holds arbitrary Unicode text, "
        "which has no fixed-size numeric encoding. Tokenize the text first (e.g. "
        "gymnasium.wrappers.TransformObservation with your tokenizer and a Box space), or "
        "drop the text keys (gymnasium.wrappers.FilterObservation(env, ['screenshot'])) "
        "before flattening."
    )


for _dispatcher in (space_utils.flatdim, space_utils.flatten, space_utils.unflatten,
                    space_utils.flatten_space, getattr(space_utils, "_flat_dtype", None)):
    if _dispatcher is not None:  # `_flat_dtype` is private: absent in some versions
        _dispatcher.register(UnicodeText)(_not_flattenable)


# --- shared memory (AsyncVectorEnv): a UTF-8 buffer per env ----------------------------------

@create_shared_memory.register(UnicodeText)
def _create(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> Any:
    return ctx.Array("B", n * space.max_bytes)


class SharedStrings(Sequence):
    """The strings of a batch, decoded from shared memory when read.

    AsyncVectorEnv reads its shared buffers once and then hands out that same
    object (a deep copy of it by default): this view stays current, and a deep
    copy freezes it into a plain tuple of strings.
    """

    def __init__(self, space: UnicodeText, shared_memory: Any, n: int) -> None:
        self._buf = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8).reshape(n, space.max_bytes)

    def __len__(self) -> int:
        return self._buf.shape[0]

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        row = self._buf[i]
        size = int.from_bytes(row[:4].tobytes(), "little")
        return row[4 : 4 + size].tobytes().decode("utf-8", "surrogatepass")

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, list, SharedStrings)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return repr(tuple(self))


@read_from_shared_memory.register(UnicodeText)
def _read(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedStrings:
    return SharedStrings(space, shared_memory, n)


@write_to_shared_memory.register(UnicodeText)
def _write(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    """Text beyond max_length (outside the space) is cut there, on a character boundary,
    so the slot always holds whole characters."""
    data = value[: space.max_length].encode("utf-8", "surrogatepass")
    buf = np.frombuffer(shared_memory.get_obj(), dtype=np.uint8)
    start = index * space.max_bytes
    buf[start : start + 4] = np.frombuffer(len(data).to_bytes(4, "little"), np.uint8)
    buf[start + 4 : start + 4 + len(data)] = np.frombuffer(data, np.uint8)
