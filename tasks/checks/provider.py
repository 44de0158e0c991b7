"""Content-provider rows, read with `content query` and parsed as Android prints them.

Android writes one line per row, ``Row: <n> col=value, col=value`` (``NULL`` for a
null, ``No result found.`` for none); a value may hold a newline, which continues
the row on the next line.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from antrap_gym.device import Device

_ROW = re.compile(r"^Row: \d+ ")
_NONE = "No result found."
_NEXT_COL = re.compile(r", (?=[A-Za-z_][A-Za-z0-9_]*=)")


def _row_texts(out: str) -> list[str]:
    """The text after "Row: n " of each row, continuation lines joined back."""
    lines = out.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows: list[str] = []
    open_row = False  # a line that is not a row continues the last row, if one is open
    for line in lines:
        if _ROW.match(line):
            rows.append(_ROW.sub("", line, count=1))
            open_row = True
        elif line == _NONE:  # another query's empty answer (commands joined with &&)
            open_row = False
        elif open_row:
            rows[-1] += "\n" + line
    return rows


def parse_rows(out: str, columns: list[str] | None = None) -> list[dict[str, str]]:
    """`content query` output as dicts (NULL -> ""). With `columns` (the projection, in
    order) a value may contain ", "; without, columns are split at ", name="."""
    rows: list[dict[str, str]] = []
    pat = (re.compile("^" + ", ".join(f"{re.escape(c)}=(.*?)" for c in columns) + "$", re.S)
           if columns else None)
    for text in _row_texts(out):
        if pat is not None:
            m = pat.match(text)
            if m is None:
                continue
            pairs = list(zip(columns or [], m.groups()))
        else:
            pairs = [tuple(p.split("=", 1)) for p in _NEXT_COL.split(text) if "=" in p]
        rows.append({c: ("" if v == "NULL" else v) for c, v in pairs})
    return rows


def query(device: Device, uri: str, projection: list[str] | None = None,
          where: str | None = None, sort: str | None = None) -> list[dict[str, str]]:
    """Rows of `uri` (every column without a projection)."""
    cmd = f"content query --uri {uri}"
    if projection:
        cmd += " --projection " + ":".join(projection)
    if where:
        cmd += " --where " + shlex.quote(where)
    if sort:
        cmd += " --sort " + shlex.quote(sort)
    res = device.shell(cmd)
    if res.exit_code != 0:
        raise ProviderError(f"{cmd}: {res.stderr.strip() or res.stdout.strip()}")
    return parse_rows(res.stdout, projection)


class ProviderError(RuntimeError):
    """`content query` failed (no such provider, bad column)."""


@dataclasses.dataclass(frozen=True)
class ProviderQuery:
    """A row source: the rows `content query` returns for `uri`."""

    uri: str
    projection: tuple[str, ...] = ()
    where: str | None = None
    key: str = "_id"

    def rows(self, device: Device) -> list[dict[str, Any]]:
        return query(device, self.uri, list(self.projection) or None, self.where)
