"""An app's SQLite database, in memory, at the path and with the schema it has on Android.

Each app declares its databases (`App.storage`); the phone makes one of each,
serves its bytes as the file `path` (`adb pull`, `Device.pull`, `cat`), runs
`sqlite3 PATH "SQL"` on it, and snapshots it with `sqlite3.Connection.serialize()`
(microseconds), so app data is part of every snapshot without pickling rows.
A database file pulled from the simulated phone opens with Python's `sqlite3`
as one pulled from a device does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import ClassVar, TypeVar

from antrap_gym.device.sim.storage.confine import deserialize, memory_db

T = TypeVar("T")


class SqlError(Exception):
    """A statement SQLite refused; the message is what the `sqlite3` tool prints."""


def split_statements(script: str) -> list[str]:
    """The statements of `script`, each whole (SQLite's own tokenizer decides where a
    statement ends, so a `;` in a literal or a trigger body stays inside); empty ones
    dropped; a last statement without its `;` kept."""
    out: list[str] = []
    buf = ""
    for part in script.split(";"):
        buf += part + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\r\n;"):
                out.append(buf)
            buf = ""
    rest = buf[:-1]
    if rest.strip(" \t\r\n"):
        out.append(rest)
    return out


class SqliteStore:
    """One database file: `path` (`/data/data/<package>/databases/<name>`) and `schema`."""

    #: where the file lives on Android
    path: ClassVar[str] = ""
    #: the tables, indexes and triggers the app creates (an `executescript` script)
    schema: ClassVar[str] = ""
    #: `PRAGMA user_version`: the app's database version
    version: ClassVar[int] = 1
    _fresh: ClassVar[bytes | None] = None
    #: Android's SQLiteDatabase adds this table (one row, the locale) to every database
    ANDROID_METADATA = ("CREATE TABLE android_metadata (locale TEXT);"
                        "INSERT INTO android_metadata VALUES ('en_US');")

    def __init__(self) -> None:
        # clients run their own SQL on it (`sqlite3`, `content --where`): confined to memory
        self.db = memory_db(check_same_thread=False, isolation_level=None)
        self.db.executescript(self.ANDROID_METADATA + self.schema
                              + f"PRAGMA user_version = {int(self.version)};")
        #: counts writes (every change to the data bumps it)
        self.revision = 0
        #: (what the data was at, the file bytes it equals): the last image dumped or loaded
        self._image: tuple[tuple[int, int], bytes] | None = None
        #: what `cached` computed, and the data version it was computed at
        self._memo: dict[object, object] = {}
        self._memo_at: tuple[int, int] | None = None

    # --- snapshot and file bytes -------------------------------------------------------
    def _version(self) -> tuple[int, int]:
        """Changes whenever the data may have: our own statements bump `revision`, and
        SQLite counts every row any statement on the connection changed."""
        return self.revision, self.db.total_changes

    def cached(self, key: object, compute: Callable[[], T]) -> T:
        """`compute()`, remembered until the data changes: screens rebuilt on every step
        read the same rows again and again. The result is shared: do not mutate it."""
        at = self._version()
        if self._memo_at != at:
            self._memo.clear()
            self._memo_at = at
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[return-value]

    def dump(self) -> bytes:
        """The database file's bytes, exactly what a pulled copy of it holds. An unchanged
        database hands back the image it last dumped or loaded, so a snapshot costs
        nothing for the apps an episode never touched."""
        if self._image is not None and self._image[0] == self._version():
            return self._image[1]
        data = self.db.serialize()
        self._image = (self._version(), data)
        return data

    def load(self, data: bytes) -> None:
        """Become the database `data` holds. Loading the image the database already
        equals is skipped, so restoring a snapshot costs nothing for the apps the
        episode never touched (reset does not grow with the apps installed)."""
        if self._image is not None and self._image[1] is data and self._image[0] == self._version():
            return
        deserialize(self.db, data)
        self.revision += 1
        self._image = (self._version(), data)

    def reset(self) -> None:
        """Back to a fresh install's database (`pm clear`)."""
        cls = type(self)
        fresh = cls.__dict__.get("_fresh")
        if fresh is None:
            fresh = cls._fresh = cls().dump()
        self.load(fresh)

    # --- the `sqlite3 DB "SQL"` path -------------------------------------------------
    def sql(self, statement: str) -> list[tuple]:
        """Run raw SQL, one statement or several, and return the rows every statement
        gave, in order, as the `sqlite3` tool prints them (`;` inside string literals
        does not split a statement)."""
        rows: list[tuple] = []
        try:
            for one in split_statements(statement):
                rows.extend(self.db.execute(one).fetchall())
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise SqlError(str(e)) from None
        finally:
            self.revision += 1
        return rows
