"""Content providers over an app's SQLite database, and Android's `content` output format.

A provider is one of an app's databases (`SqliteStore`: its file, its snapshot)
that also answers `content query|insert|update|delete --uri
content://<authority>/<path>`; each path names what it reads and where it
writes (`Table`), as a provider's URI matcher maps URIs onto tables and views.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from antrap_gym.device.sim.storage.sqlite import SqliteStore

P = TypeVar("P", bound="ContentProvider")


class Providers(Protocol):
    """Anything that holds providers by authority (the phone)."""

    providers: Mapping[str, ContentProvider]


class ContentError(Exception):
    """A provider-side failure; the message is what `content` prints to stderr."""


class Table(NamedTuple):
    """What a URI path reads and writes.

    `read`: the table, or a parenthesised SELECT, rows are read from (its columns are the
    URI's); `write`: the table inserts, updates and deletes go to (None: read-only);
    `key`: the `write` column that the `read` rows' `_id` is; `order`: the order of rows
    when the caller gives none (a SELECT without ORDER BY has none)."""

    read: str
    write: str | None = None
    key: str = "_id"
    order: str | None = None


class ContentProvider(SqliteStore):
    """Base: a SQLite database exposed under `content://<authority>/<path>`."""

    authority: ClassVar[str] = ""
    #: URI path -> what it reads and writes (a bare (read, write) pair is a `Table` too)
    paths: ClassVar[dict[str, Table | tuple[str, str | None]]] = {}
    #: other authorities the provider answers, read-only, each with its own paths over
    #: the same database (ContactsProvider2 still serves the pre-2.0 `contacts` one)
    legacy: ClassVar[dict[str, dict[str, Table]]] = {}

    @classmethod
    def of(cls: type[P], phone: Providers) -> P:
        """This provider on `phone` (an app's screens reach their data this way)."""
        return phone.providers[cls.authority]  # type: ignore[return-value]

    # --- CRUD as `content` sees it --------------------------------------
    def _resolve(self, path: str) -> Table:
        try:
            spec = self.paths[path.strip("/")]
        except KeyError:
            raise ContentError(f"Unknown URI content://{self.authority}/{path}") from None
        return spec if isinstance(spec, Table) else Table(*spec)

    def _execute(self, sql: str, params: list[Any] | tuple = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, params)
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(str(e)) from None

    def query(
        self,
        path: str,
        projection: list[str] | None = None,
        where: str | None = None,
        sort: str | None = None,
        args: list[str] | None = None,
    ) -> tuple[list[str], list[tuple]]:
        return self._query(self._resolve(path), projection, where, sort, args)

    def _query(self, spec: Table, projection: list[str] | None, where: str | None,
               sort: str | None, args: list[str] | None) -> tuple[list[str], list[tuple]]:
        cols = ", ".join(_ident(c) for c in projection) if projection else "*"
        sql = f"SELECT {cols} FROM {spec.read}"
        if where:
            sql += f" WHERE ({where})"
        if sort or spec.order:
            sql += f" ORDER BY {sort or spec.order}"
        try:
            cur = self.db.execute(sql, args or [])
            rows = cur.fetchall()
        except (sqlite3.Error, sqlite3.Warning) as e:
            raise ContentError(f"{self.authority}\n{e}") from None  # the command says the rest
        return [d[0] for d in cur.description], rows

    def insert(self, path: str, values: dict[str, Any]) -> int:
        table = self._resolve(path).write
        if table is None:
            raise ContentError(f"Insert not supported for content://{self.authority}/{path}")
        return self._insert(table, values)

    def _insert(self, table: str, values: dict[str, Any]) -> int:
        cols = ", ".join(_ident(c) for c in values)
        marks = ", ".join("?" for _ in values)
        sql = (f"INSERT INTO {table} ({cols}) VALUES ({marks})" if values
               else f"INSERT INTO {table} DEFAULT VALUES")
        cur = self._execute(sql, list(values.values()))
        self.revision += 1
        return int(cur.lastrowid or 0)

    def _target(self, spec: Table, where: str | None) -> str:
        """The WHERE clause, on the `write` table, for the rows `where` picks out of `read`."""
        if spec.read == spec.write:
            return f" WHERE ({where})" if where else ""
        sql = f"SELECT _id FROM {spec.read}" + (f" WHERE ({where})" if where else "")
        ids = [row[0] for row in self._execute(sql).fetchall()]
        return f" WHERE {spec.key} IN ({','.join(str(int(i)) for i in ids)})"

    def update(self, path: str, values: dict[str, Any], where: str | None = None) -> int:
        spec = self._resolve(path)
        if spec.write is None:
            raise ContentError(f"Update not supported for content://{self.authority}/{path}")
        if not values:
            raise ContentError("Empty values")
        sets = ", ".join(f"{_ident(c)} = ?" for c in values)
        n = self._execute(f"UPDATE {spec.write} SET {sets}" + self._target(spec, where),
                          list(values.values())).rowcount
        self.revision += 1
        return n

    def delete(self, path: str, where: str | None = None) -> int:
        spec = self._resolve(path)
        if spec.write is None:
            raise ContentError(f"Delete not supported for content://{self.authority}/{path}")
        n = self._execute(f"DELETE FROM {spec.write}" + self._target(spec, where)).rowcount
        self.revision += 1
        return n


class LegacyAuthority:
    """A provider's older authority (`ContentProvider.legacy`): its own read-only paths
    over the provider's database, answered as `content` answers any provider."""

    def __init__(self, provider: ContentProvider, authority: str, paths: dict[str, Table]) -> None:
        self.provider, self.authority, self.paths = provider, authority, paths

    def query(self, path: str, projection: list[str] | None = None, where: str | None = None,
              sort: str | None = None, args: list[str] | None = None
              ) -> tuple[list[str], list[tuple]]:
        try:
            spec = self.paths[path.strip("/")]
        except KeyError:
            raise ContentError(f"Unknown URI content://{self.authority}/{path}") from None
        return self.provider._query(spec, projection, where, sort, args)

    def _read_only(self, path: str, *_: Any) -> int:
        raise ContentError(f"Writes not supported for content://{self.authority}/{path}")

    insert = update = delete = _read_only


@lru_cache(maxsize=1024)
def _ident(name: str) -> str:
    """A column name as SQL may take it unquoted (letters, digits, `_`); cached, since
    every insert checks the same few names."""
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
