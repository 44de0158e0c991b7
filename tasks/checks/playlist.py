"""Checks on media players' playlists and queues, over rows a player's database gives
(`DatabaseQuery` with the columns each check names), as AndroidWorld reads them.

- `PlaylistMatches`: AndroidWorld's verify_playlist. Rows are (playlist_name,
  media_file_name, order_in_playlist); the rows whose playlist name matches the wanted
  one (case ignored, difflib ratio >= 0.9) must be exactly as many as the wanted files,
  and file i must be among them at place i (the file name compared exactly).
- `PlaylistLength`: every row (of every playlist) is in the named playlist, and their
  durations (`duration_ms`) add up to between `low` and `high` ms.
- `InOrder`: one column of the rows, in row order, is exactly the wanted list (a
  playing queue's titles).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.match import fuzzy_ratio

if TYPE_CHECKING:
    from antrap_gym.device import Device

#: AndroidWorld's fuzzy_match threshold
FUZZY = 0.9


def same_name(a: Any, b: str) -> bool:
    return a is not None and fuzzy_ratio(str(a), b) >= FUZZY


@dataclasses.dataclass
class PlaylistMatches(Check):
    """The playlist named `name` holds `files`, in order, and nothing else."""

    source: Any
    name: str
    files: Any

    def score(self, device: Device, answer: str | None) -> float:
        files = [str(f) for f in self.files]
        mine = [r for r in self.source.rows(device) if same_name(r["playlist_name"], self.name)]
        if len(mine) != len(files):
            return 0.0
        return float(all(any(r["media_file_name"] == f and r["order_in_playlist"] == i for r in mine)
                         for i, f in enumerate(files)))


@dataclasses.dataclass
class PlaylistLength(Check):
    """Every playlist row is in the playlist named `name` (exactly), and the rows'
    `duration_ms` add up to `low`..`high` ms."""

    source: Any
    name: str
    low: int
    high: int

    def score(self, device: Device, answer: str | None) -> float:
        rows = self.source.rows(device)
        if any(r["playlist_name"] != self.name for r in rows):
            return 0.0
        total = sum(int(r["duration_ms"] or 0) for r in rows)
        return float(self.low <= total <= self.high)


@dataclasses.dataclass
class InOrder(Check):
    """The rows' `column`, in row order, equals `values` exactly."""

    source: Any
    column: str
    values: Any

    def score(self, device: Device, answer: str | None) -> float:
        got = [r[self.column] for r in self.source.rows(device)]
        return float(got == [str(v) for v in self.values])
