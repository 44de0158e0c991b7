"""`episodes.jsonl`: one line per finished episode, appended and flushed.

A run killed at any moment (SIGKILL included) loses at most the episodes in
flight: every finished episode is a complete line on disk, and a half-written
last line is cut off when the file is opened again.

`drop(ids)` takes records out (to run those episodes again, as `--resume` does
for infrastructure errors): the file is rewritten atomically without them and
the dropped lines are appended to `retried.jsonl` beside it, so nothing is lost.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any


class EpisodeStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.records: list[dict[str, Any]] = []
        self._repair_and_load()
        self._f = self.path.open("a", encoding="utf-8")

    def _repair_and_load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        keep = data.rfind(b"\n") + 1  # everything after the last newline is a torn write
        good = bytearray()
        for line in data[:keep].splitlines(keepends=True):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn line in the middle (from an older crash): drop it
            if isinstance(rec, dict) and "id" in rec:
                self.records.append(rec)
                good += line
        if len(good) != len(data):
            tmp = self.path.with_suffix(".jsonl.tmp")
            tmp.write_bytes(bytes(good))
            os.replace(tmp, self.path)

    @property
    def done(self) -> set[str]:
        return {r["id"] for r in self.records}

    def drop(self, ids: set[str]) -> list[dict[str, Any]]:
        """Take the records with these ids out of the file (atomically); returns them.
        They are kept in `retried.jsonl` next to `episodes.jsonl`."""
        gone = [r for r in self.records if r["id"] in ids]
        if not gone:
            return []
        keep = [r for r in self.records if r["id"] not in ids]
        self._f.close()
        with (self.path.parent / "retried.jsonl").open("a", encoding="utf-8") as f:
            for r in gone:
                f.write(_line(r))
        tmp = self.path.with_suffix(".jsonl.tmp")
        with tmp.open("w", encoding="utf-8") as f:
            for r in keep:
                f.write(_line(r))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self.records = keep
        self._f = self.path.open("a", encoding="utf-8")
        return gone

    def append(self, record: dict[str, Any]) -> None:
        self._f.write(_line(record))
        self._f.flush()
        self.records.append(record)

    def close(self) -> None:
        self._f.close()


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Read `episodes.jsonl` (a directory or the file), skipping a torn last line."""
    p = Path(path)
    if p.is_dir():
        p = p / "episodes.jsonl"
    out = []
    with p.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, default=_jsonable) + "\n"


def _jsonable(o: Any) -> Any:
    try:
        import numpy as np

        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(o, tuple | set):
        return list(o)
    return str(o)


def fresh_run_dir(kind: str, root: str | Path = "runs") -> Path:
    """A new `runs/<kind>-<time>` directory name, never an existing one (`-2`, `-3`, ...
    when two runs start in the same second): where eval, report and play write when no
    `--out` is given (.gitignore keeps `runs/` out of the working tree's status)."""
    base = Path(root) / f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path
