"""Content providers over in-memory SQLite, and Android's `content` output format.

A provider owns one SQLite database; the phone snapshots it with
`sqlite3.Connection.serialize()` (microseconds), so provider data is part of
every snapshot without pickling rows.
"""

from __future__ import annotations

import sqlite3
from typing import Any


class ContentError(Exception):
    """A provider-side failure; the message is what `content` prints to stderr."""


class ContentProvider:
    """Base: a SQLite database exposed under `content://<authority>/<path>`."""

    authority: str = ""
    schema: str = ""
    #: path -> (table or view to read from, base table to write to or None)
    paths: dict[str, tuple[str, str | None]] = {}

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.db.executescript(self.schema)
        self.revision = 0

    # --- snapshot -------------------------------------------------------
    def dump(self) -> bytes:
        return self.db.serialize()

    def load(self, data: bytes) -> None:
        self.db.deserialize(data)
        self.revision += 1

    # --- CRUD as `content` sees it --------------------------------------
    def _resolve(self, path: str) -> tuple[str, str | None]:
        try:
            return self.paths[path.strip("/")]
        except KeyError:
            raise ContentError(f"Unknown URI content://{self.authority}/{path}") from None

    def query(
        self,
        path: str,
        projection: list[str] | None = None,
        where: str | None = None,
        sort: str | None = None,
        args: list[str] | None = None,
    ) -> tuple[list[str], list[tuple]]:
        source, _ = self._resolve(path)
        cols = ", ".join(_ident(c) for c in projection) if projection else "*"
        sql = f"SELECT {cols} FROM {source}"
        if where:
            sql += f" WHERE ({where})"
        if sort:
            sql += f" ORDER BY {sort}"
        try:
            cur = self.db.execute(sql, args or [])
            rows = cur.fetchall()
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(f"Error while accessing provider:{self.authority}\n{e}") from None
        return [d[0] for d in cur.description], rows

    def insert(self, path: str, values: dict[str, Any]) -> int:
        _, table = self._resolve(path)
        if table is None:
            raise ContentError(f"Insert not supported for content://{self.authority}/{path}")
        return self._insert(table, values)

    def _insert(self, table: str, values: dict[str, Any]) -> int:
        cols = ", ".join(_ident(c) for c in values)
        marks = ", ".join("?" for _ in values)
        sql = (f"INSERT INTO {table} ({cols}) VALUES ({marks})" if values
               else f"INSERT INTO {table} DEFAULT VALUES")
        try:
            cur = self.db.execute(sql, list(values.values()))
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(str(e)) from None
        self.revision += 1
        return int(cur.lastrowid or 0)

    def update(self, path: str, values: dict[str, Any], where: str | None = None) -> int:
        _, table = self._resolve(path)
        if table is None:
            raise ContentError(f"Update not supported for content://{self.authority}/{path}")
        if not values:
            raise ContentError("Empty values")
        sets = ", ".join(f"{_ident(c)} = ?" for c in values)
        sql = f"UPDATE {table} SET {sets}" + (f" WHERE ({where})" if where else "")
        try:
            n = self.db.execute(sql, list(values.values())).rowcount
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(str(e)) from None
        self.revision += 1
        return n

    def delete(self, path: str, where: str | None = None) -> int:
        _, table = self._resolve(path)
        if table is None:
            raise ContentError(f"Delete not supported for content://{self.authority}/{path}")
        sql = f"DELETE FROM {table}" + (f" WHERE ({where})" if where else "")
        try:
            n = self.db.execute(sql).rowcount
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(str(e)) from None
        self.revision += 1
        return n

    def sql(self, statement: str) -> list[tuple]:
        """Run raw SQL (the `sqlite3 DB "SQL"` path); several statements allowed."""
        try:
            if sqlite3.complete_statement(statement) and statement.count(";") > 1:
                self.db.executescript(statement)
                self.revision += 1
                return []
            cur = self.db.execute(statement)
            rows = cur.fetchall()
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(str(e)) from None
        self.revision += 1
        return rows


def _ident(name: str) -> str:
    name = name.strip()
    if not name or not all(ch.isalnum() or ch == "_" for ch in name):
        raise ContentError(f"Invalid column {name!r}")
    return name


def format_rows(columns: list[str], rows: list[tuple]) -> str:
    """Android's `content query` output: `Row: 0 _id=1, name=value` or `No result found.`"""
    if not rows:
        return "No result found.\n"
    out = []
    for i, row in enumerate(rows):
        cells = ", ".join(f"{c}={_cell(v)}" for c, v in zip(columns, row))
        out.append(f"Row: {i} {cells}")
    return "\n".join(out) + "\n"


def _cell(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, float) and v.is_integer():
        return str(v)
    if isinstance(v, bytes):
        return "BLOB"
    return str(v)


BIND_TYPES = {"s", "i", "l", "f", "d", "b", "n"}


def parse_bind(spec: str) -> tuple[str, Any]:
    """`name:type:value` as `content --bind` takes it."""
    name, sep, rest = spec.partition(":")
    if not sep:
        raise ContentError(f"Invalid binding {spec!r}")
    typ, sep2, value = rest.partition(":")
    if typ not in BIND_TYPES or (not sep2 and typ != "n"):
        raise ContentError(f"Invalid binding {spec!r}")
    if typ == "s":
        return name, value
    if typ == "n":
        return name, None
    if typ == "b":
        return name, 1 if value.lower() in ("true", "1") else 0
    try:
        return name, int(value) if typ in ("i", "l") else float(value)
    except ValueError:
        raise ContentError(f"Invalid binding {spec!r}") from None
