"""`episodes.jsonl`: one line per finished episode, appended and flushed.

A run killed at any moment (SIGKILL included) loses at most the episodes in
flight: every finished episode is a complete line on disk, and a half-written
last line is cut off when the file is opened again.

`drop(ids)` takes records out (to run those episodes again, as `--resume` does
for infrastructure errors): the file is rewritten atomically without them and
the dropped lines are appended to `retried.jsonl` beside it, so nothing is lost.

A complete line that is JSON but not an episode record (an object with the keys
the harness and its summary read) is not a torn write: it is refused with a
`BadRecord` naming the file and line, never dropped or left to fail later.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

#: what the runner and the summary read of every record (`antrap_gym.eval.metrics`)
REQUIRED_KEYS = ("id", "agent", "task", "variant", "setting", "success", "steps")


class BadRecord(ValueError):
    """A line of an episodes file is JSON but not an episode record."""


def check_record(rec: Any, path: Path, line: int) -> dict[str, Any]:
    """`rec` if it is an episode record, else a BadRecord naming `path` and `line`."""
    where = f"{path}, line {line}"
    if not isinstance(rec, dict):
        raise BadRecord(f"{where}: not an episode record (a JSON object), but {type(rec).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in rec]
    if missing:
        raise BadRecord(f"{where}: an episode record without {', '.join(missing)}")
    for key in ("success", "steps"):
        if isinstance(rec[key], bool) or not isinstance(rec[key], int | float):
            raise BadRecord(f"{where}: {key} must be a number, got {rec[key]!r}")
    return rec


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
        for number, line in enumerate(data[:keep].splitlines(keepends=True), start=1):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn line in the middle (from an older crash): drop it
            self.records.append(check_record(rec, self.path, number))
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
    """Read `episodes.jsonl` (a directory or the file), skipping a torn last line; a
    BadRecord for a line that is JSON but not an episode record."""
    p = Path(path)
    if p.is_dir():
        p = p / "episodes.jsonl"
    out = []
    with p.open("rb") as f:
        for number, line in enumerate(f, start=1):
            if not line.endswith(b"\n"):
                break
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            out.append(check_record(rec, p, number))
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
