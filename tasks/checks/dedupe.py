"""Deduplication with integrity: of the rows that were copies of one another after
set-up, exactly one is left (any one), and every other row is as it was, none added.

AndroidWorld's DeleteDuplicateRows (expenses, recipes) accepts removing either copy
of a duplicated row; `Removed` would demand both gone.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.checks.match import row_matches
from antrap_gym.tasks.checks.rows import _by_key, _Integrity

if TYPE_CHECKING:
    from antrap_gym.device import Device


@dataclasses.dataclass
class Deduplicated(_Integrity):
    """The rows matching `target` after set-up (two or more): `keep` of them remain,
    unchanged; every other row unchanged; nothing added."""

    target: dict[str, Any] = dataclasses.field(default_factory=dict)
    keep: int = 1

    def score(self, device: Device, answer: str | None) -> float:
        before = self._before()
        copies = [r for r in before if row_matches(r, self.target)]
        others = [r for r in before if not row_matches(r, self.target)]
        rows = self.source.rows(device)
        if len(copies) <= self.keep or len(rows) != len(others) + self.keep:
            return 0.0
        now = _by_key(rows, self.source.key)
        kept = [r for r in copies if now.get(r.get(self.source.key)) == r]
        return float(len(kept) == self.keep and self._unchanged(others, now))
