"""App-database rows, read as AndroidWorld reads them on an emulator: pull the SQLite
file (`Device.pull`) and query it with Python's sqlite3 on this machine.

A database in WAL mode keeps its latest writes in `<db>-wal` until a checkpoint; both
files are pulled and opened together, so the rows are the ones the app sees.
"""

from __future__ import annotations

import collections
import dataclasses
import sqlite3
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from antrap_gym.device import DeviceError, DeviceLostError

if TYPE_CHECKING:
    from antrap_gym.device import Device


class DatabaseError(RuntimeError):
    """The database could not be pulled or read."""


def _pull(device: Device, path: str, required: bool) -> bytes | None:
    """The file's bytes; a file the phone does not have is an error only if `required`
    (a lost phone always is: it must not read as "no WAL, the main file is current")."""
    try:
        data = device.pull(path)
    except DeviceLostError:
        raise
    except DeviceError as e:  # DeviceFileError: no such file, a folder, refused
        if required:
            raise DatabaseError(f"cannot pull {path}: {e}") from e
        return None
    return data if data or required else None


def read_rows(device: Device, path: str, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
    """The rows `sql` selects from the database at `path` on the phone, as dicts."""
    main = _pull(device, path, required=True)
    wal = _pull(device, path + "-wal", required=False)
    if not wal and main and main[18:20] != b"\x02\x02":
        return _query_image(main, path, sql, params)
    with tempfile.TemporaryDirectory(prefix="antrap-db-") as tmp:
        local = Path(tmp) / Path(path).name
        local.write_bytes(main or b"")
        if wal:
            Path(str(local) + "-wal").write_bytes(wal)
        try:
            con = sqlite3.connect(local)
            try:
                con.row_factory = sqlite3.Row
                return [dict(r) for r in con.execute(sql, params).fetchall()]
            finally:
                con.close()
        except sqlite3.Error as e:
            raise DatabaseError(f"{path}: {sql}: {e}") from e


#: the last few (image, query) -> rows: the oracle checks after every step, and most steps
#: leave the database as it was (an image's bytes hash once; equal images hit)
_RECENT: collections.OrderedDict[tuple[bytes, str, tuple], list[dict[str, Any]]] = collections.OrderedDict()
_RECENT_SIZE = 8


def _query_image(main: bytes, path: str, sql: str, params: tuple) -> list[dict[str, Any]]:
    """A rollback-journal database read from its bytes in memory (no temporary file:
    checks run every step, and a folder per read costs milliseconds on a slow disk)."""
    key = (main, sql, params)
    try:
        hit = _RECENT.get(key)
    except TypeError:  # unhashable parameters: no memo
        return _query_fresh(main, path, sql, params)
    if hit is not None:
        _RECENT.move_to_end(key)
        return [dict(r) for r in hit]
    rows = _query_fresh(main, path, sql, params)
    _RECENT[key] = rows
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return [dict(r) for r in rows]


def _query_fresh(main: bytes, path: str, sql: str, params: tuple) -> list[dict[str, Any]]:
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(main)
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute(sql, params).fetchall()]
    except sqlite3.Error as e:
        raise DatabaseError(f"{path}: {sql}: {e}") from e
    finally:
        con.close()


@dataclasses.dataclass(frozen=True)
class DatabaseTable:
    """A row source: a table (or view) of an app's database on the phone."""

    path: str
    table: str
    columns: tuple[str, ...] = ()
    where: str | None = None
    key: str = "_id"

    def sql(self) -> str:
        cols = ", ".join(f'"{c}"' for c in self.columns) if self.columns else "*"
        where = f" WHERE {self.where}" if self.where else ""
        return f'SELECT {cols} FROM "{self.table}"{where} ORDER BY "{self.key}"'

    def rows(self, device: Device) -> list[dict[str, Any]]:
        return read_rows(device, self.path, self.sql())


@dataclasses.dataclass(frozen=True)
class DatabaseQuery:
    """A row source: what a SELECT (joins and all) returns from an app's database."""

    path: str
    sql: str = dataclasses.field(metadata={"literal": True})
    key: str = "_id"

    def rows(self, device: Device) -> list[dict[str, Any]]:
        return read_rows(device, self.path, self.sql)
