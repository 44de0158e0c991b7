"""Row-set checks with integrity, over any row source (a content provider's rows, an
app database's table, an app adapter's view of its data).

"Before" is what the source held right after set-up (`prepare`); a row is followed
across reads by its key column. Adding checks AndroidWorld's addition integrity
(each expected row is a new row, count = before + n, no earlier row changed);
removing and changing check the same for their target rows.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Protocol

from antrap_gym.tasks.checks.base import Check, NotPrepared
from antrap_gym.tasks.checks.match import row_matches

if TYPE_CHECKING:
    from antrap_gym.device import Device

Row = dict[str, Any]


class RowSource(Protocol):
    """Where rows come from; `key` names the column that identifies a row."""

    key: str

    def rows(self, device: Device) -> list[Row]: ...


def _by_key(rows: list[Row], key: str) -> dict[Any, Row]:
    return {r.get(key): r for r in rows}


def _assign(patterns: list[dict[str, Any]], rows: list[Row]) -> bool:
    """Each pattern matches a different row (a small bipartite search)."""
    if not patterns:
        return True
    first, rest = patterns[0], patterns[1:]
    return any(row_matches(r, first) and _assign(rest, rows[:i] + rows[i + 1:])
               for i, r in enumerate(rows))


@dataclasses.dataclass
class _Integrity(Check):
    source: RowSource
    before: list[Row] | None = dataclasses.field(default=None, init=False, repr=False)

    def prepare(self, device: Device) -> None:
        self.before = self.source.rows(device)

    def _before(self) -> list[Row]:
        if self.before is None:
            raise NotPrepared(f"{type(self).__name__}: set up the task first (prepare)")
        return self.before

    def _unchanged(self, rows: list[Row], now: dict[Any, Row]) -> bool:
        key = self.source.key
        return all(now.get(r.get(key)) == r for r in rows)


@dataclasses.dataclass
class RowsExist(Check):
    """Each pattern matches a different row now (no integrity)."""

    source: RowSource
    expected: tuple[dict[str, Any], ...]

    def score(self, device: Device, answer: str | None) -> float:
        return float(_assign(list(self.expected), self.source.rows(device)))


@dataclasses.dataclass
class Added(_Integrity):
    """Each expected row is a new row, the count is before + n (n = the number of
    patterns unless given), and every row that was there is there unchanged."""

    expected: tuple[dict[str, Any], ...] = ()
    n: int | None = None

    def score(self, device: Device, answer: str | None) -> float:
        before = self._before()
        rows = self.source.rows(device)
        n = len(self.expected) if self.n is None else self.n
        if len(rows) != len(before) + n:
            return 0.0
        now, old = _by_key(rows, self.source.key), _by_key(before, self.source.key)
        new = [r for k, r in now.items() if k not in old]
        return float(self._unchanged(before, now) and _assign(list(self.expected), new))


@dataclasses.dataclass
class Removed(_Integrity):
    """The rows that matched `target` after set-up (at least one) are gone, and every
    other row is there unchanged, with nothing added."""

    target: dict[str, Any] = dataclasses.field(default_factory=dict)

    def score(self, device: Device, answer: str | None) -> float:
        before = self._before()
        targets = [r for r in before if row_matches(r, self.target)]
        others = [r for r in before if not row_matches(r, self.target)]
        rows = self.source.rows(device)
        if not targets or len(rows) != len(others):
            return 0.0
        return float(self._unchanged(others, _by_key(rows, self.source.key)))


@dataclasses.dataclass
class Changed(_Integrity):
    """The rows that matched `target` after set-up (at least one) now match `to`, their
    other columns as they were; every other row unchanged, none added or removed."""

    target: dict[str, Any] = dataclasses.field(default_factory=dict)
    to: dict[str, Any] = dataclasses.field(default_factory=dict)

    def score(self, device: Device, answer: str | None) -> float:
        before = self._before()
        targets = [r for r in before if row_matches(r, self.target)]
        rows = self.source.rows(device)
        if not targets or len(rows) != len(before):
            return 0.0
        now = _by_key(rows, self.source.key)
        for r in targets:
            got = now.get(r.get(self.source.key))
            if got is None or not row_matches(got, self.to):
                return 0.0
            if any(got.get(c) != v for c, v in r.items() if c not in self.to):
                return 0.0
        others = [r for r in before if not row_matches(r, self.target)]
        return float(self._unchanged(others, now))


@dataclasses.dataclass
class Unchanged(_Integrity):
    """Every row as it was after set-up, none added or removed."""

    def score(self, device: Device, answer: str | None) -> float:
        before = self._before()
        rows = self.source.rows(device)
        return float(len(rows) == len(before) and self._unchanged(before, _by_key(rows, self.source.key)))
