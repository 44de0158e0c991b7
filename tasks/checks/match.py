"""Matchers: how one column of a row (or one answer-like value) is compared.

A matcher is a small dataclass whose `__call__(value) -> bool` says whether a value
read from the phone is the one a template expects; its fields take {param}
placeholders like any declared object. A plain value in a row pattern means `Eq`.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

Matcher = Callable[[Any], bool]


def squash(s: str) -> str:
    """Single spaces, no surrounding whitespace, casefolded."""
    return " ".join(str(s).split()).casefold()


def digits(s: str) -> str:
    return re.sub(r"\D", "", s or "")


def same_phone(a: str, b: str) -> bool:
    """Equal digits, or equal national numbers (with or without the +1)."""
    da, db = digits(a), digits(b)
    return bool(da) and (da == db or (len(da) >= 10 and len(db) >= 10 and da[-10:] == db[-10:]))


def fuzzy_ratio(a: str, b: str) -> float:
    """AndroidWorld's fuzzy_match ratio: difflib on the casefolded strings. Short ones
    (names, titles) are memoised: a check compares the same few on every step."""
    return _short_ratio(a, b) if len(a) + len(b) <= 512 else _ratio(a, b)


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio()


_short_ratio = lru_cache(maxsize=16384)(_ratio)


@dataclasses.dataclass(frozen=True)
class Eq:
    """Exactly `value`; a number read as text (or text read as a number) compares as text."""

    value: Any

    def __call__(self, v: Any) -> bool:
        if v == self.value:
            return True
        scalar = (str, int, float)
        return isinstance(v, scalar) and isinstance(self.value, scalar) and str(v) == str(self.value)


@dataclasses.dataclass(frozen=True)
class Text:
    """The same text, ignoring case and runs of whitespace."""

    value: str

    def __call__(self, v: Any) -> bool:
        return isinstance(v, str) and squash(v) == squash(self.value)


@dataclasses.dataclass(frozen=True)
class Phone:
    """The same phone number, compared by digits (a missing +1 is fine)."""

    value: str

    def __call__(self, v: Any) -> bool:
        return isinstance(v, str) and same_phone(v, self.value)


@dataclasses.dataclass(frozen=True)
class Fuzzy:
    """Text whose difflib ratio to `value` (casefolded) is at least `threshold`;
    only where a template says it wants fuzzy matching."""

    value: str
    threshold: float

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"fuzzy threshold {self.threshold} is not in (0, 1]")

    def __call__(self, v: Any) -> bool:
        return isinstance(v, str) and fuzzy_ratio(v, self.value) >= self.threshold


@dataclasses.dataclass(frozen=True)
class Near:
    """A number within `tolerance` of `value` (strictly: a coordinate, a map point's
    latitude); text that reads as a number counts."""

    value: float
    tolerance: float

    def __call__(self, v: Any) -> bool:
        try:
            return abs(float(v) - float(self.value)) < self.tolerance
        except (TypeError, ValueError):
            return False


@dataclasses.dataclass(frozen=True)
class AnyItem:
    """A list column (a contact's phones) with some item matching."""

    item: Matcher

    def __call__(self, v: Any) -> bool:
        return isinstance(v, (list, tuple)) and any(as_matcher(self.item)(x) for x in v)


@dataclasses.dataclass(frozen=True)
class OnlyItem:
    """A list column holding exactly one item, and it matches."""

    item: Matcher

    def __call__(self, v: Any) -> bool:
        return isinstance(v, (list, tuple)) and len(v) == 1 and as_matcher(self.item)(v[0])


def as_matcher(m: Any) -> Matcher:
    """A matcher as it is; any other value means equality."""
    return m if callable(m) else Eq(m)


def row_matches(row: dict[str, Any], pattern: dict[str, Any]) -> bool:
    """Every column the pattern names is present in the row and matches."""
    return all(col in row and as_matcher(m)(row[col]) for col, m in pattern.items())
