"""SQLite connections that run a client's SQL yet can never reach the host's files.

The simulated phone's databases live in memory, and a client (`adb shell sqlite3
...`, `content query --where ...`) may send them any SQL. Out of the box SQLite
would let that SQL open host files: `ATTACH '/host/file.db'` reads or creates one,
`VACUUM INTO '/host/file'` writes one, `load_extension()` loads a shared library,
`PRAGMA temp_store_directory` moves every temporary file, and temporary tables
and sorts spill into files under the host's temp folder. `confine()` closes all of
those on one connection:

* an authorizer refuses ATTACH of anything but `''` (SQLite's private scratch
  database, which plain `VACUUM` rebuilds through; a file name computed at run
  time is refused too), the `load_extension` and `fts3_tokenizer` functions, the
  `temp_store_directory`/`data_store_directory` pragmas and any change to
  `temp_store`;
* `PRAGMA temp_store = MEMORY` keeps temporary tables, sorts and the scratch
  database in memory;
* at most one database may be attached at once (the scratch one).

A refused statement fails with SQLite's own `not authorized` error before it runs,
so the data is left as it was. All of this is per connection and survives a
snapshot restore, which goes through `deserialize()` here.
"""

from __future__ import annotations

import sqlite3

#: functions that reach outside the database (a shared library; a C pointer)
DENIED_FUNCTIONS = frozenset({"load_extension", "fts3_tokenizer"})
#: pragmas that name host folders
DENIED_PRAGMAS = frozenset({"temp_store_directory", "data_store_directory"})


def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None,
               _source: str | None) -> int:
    """The authorizer: SQLITE_DENY for what could open a host file, SQLITE_OK otherwise."""
    if action == sqlite3.SQLITE_ATTACH:
        # '' is the private scratch database (in memory here); None: a name computed at run time
        return sqlite3.SQLITE_OK if arg1 == "" else sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION:
        return sqlite3.SQLITE_DENY if (arg2 or "").lower() in DENIED_FUNCTIONS else sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA:
        name = (arg1 or "").lower()
        if name in DENIED_PRAGMAS or (name == "temp_store" and arg2 is not None):
            return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def confine(db: sqlite3.Connection) -> sqlite3.Connection:
    """Make `db` unable to touch a host file whatever SQL it is given; returns it."""
    db.execute("PRAGMA temp_store = MEMORY")  # before the authorizer, which refuses changing it
    db.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 1)
    db.set_authorizer(_authorize)
    return db


def deserialize(db: sqlite3.Connection, data: bytes) -> None:
    """`db.deserialize(data)` on a confined connection: SQLite implements it as an
    `ATTACH x AS main` of its own (the bytes, not a file), which the authorizer cannot
    tell from a client's `ATTACH x` (a file named x), so it is lifted for this call only."""
    db.set_authorizer(None)
    try:
        db.deserialize(data)
    finally:
        db.set_authorizer(_authorize)


def memory_db(**kwargs: object) -> sqlite3.Connection:
    """A new in-memory database, confined (`kwargs` go to `sqlite3.connect`)."""
    return confine(sqlite3.connect(":memory:", **kwargs))  # type: ignore[arg-type]
