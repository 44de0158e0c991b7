"""`episodes.jsonl.gz`: one JSON line per finished episode, compressed as it is written.

Each record is appended to one gzip stream and sync-flushed, so everything written so
far can be read back at any moment: a run killed at any moment (SIGKILL included) loses
at most the episodes in flight, and a torn end (a half-written record or flush) is cut
off when the file is opened again. The per-step detail repeats itself from episode to
episode (the same task's parameters in every setting, the same screens' actions), so
the stream is ~20x smaller than the plain lines: `zcat episodes.jsonl.gz | jq` reads it.

A run folder of an older version holds a plain `episodes.jsonl`; it is read, resumed
and merged as it is (`episodes_file` finds whichever a folder has).

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
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

#: what the runner and the summary read of every record (`antrap_gym.eval.metrics`)
REQUIRED_KEYS = ("id", "agent", "task", "variant", "setting", "success", "steps")
#: a run folder's episode records, and the plain file older runs wrote
EPISODES_FILE = "episodes.jsonl.gz"
PLAIN_EPISODES_FILE = "episodes.jsonl"
_GZIP = 31  # zlib's wbits for a gzip stream
_LEVEL = 6
_CHUNK = 1 << 16  # compressed bytes inflated at a time


class BadRecord(ValueError):
    """A line of an episodes file is JSON but not an episode record."""


def episodes_file(run_dir: str | Path) -> Path:
    """The episodes file of a run folder: the compressed one, or an older run's plain
    `episodes.jsonl` when that is what the folder has (the compressed one for a new run)."""
    d = Path(run_dir)
    if not (d / EPISODES_FILE).exists() and (d / PLAIN_EPISODES_FILE).exists():
        return d / PLAIN_EPISODES_FILE
    return d / EPISODES_FILE


def _compressed(path: Path) -> bool:
    return path.suffix == ".gz"


def inflate(data: bytes) -> tuple[bytes, bool]:
    """The bytes a gzip file's members hold, as far as they can be read, and whether the
    file ended cleanly (every member finished, nothing after them). A file cut off
    mid-write gives what its last sync flush made readable; bytes that are no deflate
    data end the reading where they start, keeping everything before them."""
    out: list[bytes] = []
    while data:
        d = zlib.decompressobj(_GZIP)
        for at in range(0, len(data), _CHUNK):
            saved = d.copy()
            try:
                out.append(d.decompress(data[at:at + _CHUNK]))
            except zlib.error:  # find the bad byte: keep what the bytes before it held
                for b in range(at, min(at + _CHUNK, len(data))):
                    try:
                        out.append(saved.decompress(data[b:b + 1]))
                    except zlib.error:
                        return b"".join(out), False
                return b"".join(out), False
            if d.eof:
                break
        if not d.eof:
            return b"".join(out), False
        data = d.unused_data
    return b"".join(out), True


def _read_lines(path: Path) -> tuple[bytes, bool]:
    """The file's text as bytes (inflated if compressed), and whether it is intact."""
    raw = path.read_bytes()
    if _compressed(path):
        return inflate(raw)
    return raw, True


def _records(text: bytes, path: Path) -> tuple[list[dict[str, Any]], bytes]:
    """The records of the whole lines in `text` (a torn last line and unparsable lines
    are dropped), and the bytes of the lines kept."""
    keep = text.rfind(b"\n") + 1  # everything after the last newline is a torn write
    records: list[dict[str, Any]] = []
    good = bytearray()
    for number, line in enumerate(text[:keep].splitlines(keepends=True), start=1):
        try:
            rec = json.loads(line)
        except ValueError:  # not JSON, or not even text
            continue  # a torn line in the middle (from an older crash): drop it
        records.append(check_record(rec, path, number))
        good += line
    return records, bytes(good)


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


def write_records(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write `records` to `path` (compressed if it ends in .gz) atomically: a reader sees
    the old file or the new one, never half of it."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    data = "".join(_line(r) for r in records).encode("utf-8")
    if _compressed(path):
        z = zlib.compressobj(_LEVEL, zlib.DEFLATED, _GZIP)
        data = z.compress(data) + z.flush()
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class EpisodeStore:
    """The episodes file of a run being written: its records so far, and `append`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.records: list[dict[str, Any]] = []
        self._repair_and_load()
        self._f: BinaryIO = self.path.open("ab")
        self._z: Any = None  # the gzip stream being appended (started on the first record)

    def _repair_and_load(self) -> None:
        if not self.path.exists():
            return
        text, intact = _read_lines(self.path)
        self.records, good = _records(text, self.path)
        if len(good) != len(text) or not intact:
            write_records(self.path, self.records)

    @property
    def done(self) -> set[str]:
        return {r["id"] for r in self.records}

    def drop(self, ids: set[str]) -> list[dict[str, Any]]:
        """Take the records with these ids out of the file (atomically); returns them.
        They are kept in `retried.jsonl` next to the episodes file."""
        gone = [r for r in self.records if r["id"] in ids]
        if not gone:
            return []
        keep = [r for r in self.records if r["id"] not in ids]
        self.close()
        with (self.path.parent / "retried.jsonl").open("a", encoding="utf-8") as f:
            for r in gone:
                f.write(_line(r))
        write_records(self.path, keep)
        self.records = keep
        self._f = self.path.open("ab")
        return gone

    def append(self, record: dict[str, Any]) -> None:
        data = _line(record).encode("utf-8")
        if _compressed(self.path):
            if self._z is None:
                self._z = zlib.compressobj(_LEVEL, zlib.DEFLATED, _GZIP)
            data = self._z.compress(data) + self._z.flush(zlib.Z_SYNC_FLUSH)
        self._f.write(data)
        self._f.flush()
        self.records.append(record)

    def close(self) -> None:
        """End the gzip member being written (if any) and close the file."""
        if self._z is not None:
            self._f.write(self._z.flush())
            self._z = None
        self._f.close()


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Read a run's episodes (a run folder, or its `episodes.jsonl.gz` or older plain
    `episodes.jsonl`), skipping a torn end; a BadRecord for a line that is JSON but not
    an episode record."""
    p = Path(path)
    if p.is_dir():
        p = episodes_file(p)
    text, _ = _read_lines(p)
    return _records(text, p)[0]


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
