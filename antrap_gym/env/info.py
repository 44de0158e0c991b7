"""`InfoMap`: the read-only mapping `info["params"]` and `info["action"]` are made of.

Gymnasium's vector envs merge each env's `info` key by key into arrays, and descend
into every `dict` they meet. Task parameters differ between templates (`day` is a day
of the month in one and a date like "October 25 2023" in another; `noise` a list in
one and a dict in another), and `action` is a dict on one env and None on the next, so
merged as dicts they raise or silently overwrite each other. An `InfoMap` is a Mapping
but not a dict: a vector env keeps it whole, one per env, in an object array
(`infos["params"][i]["day"]`), while a single env's `info["params"]["day"]` reads as
before. `dict(m)` gives a plain dict, e.g. for `json.dumps`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class InfoMap(Mapping[str, Any]):
    """A read-only mapping that vector envs store per env instead of merging key by key."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data = dict(data or {})

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"InfoMap({self._data!r})"


def plain(value: Any) -> Any:
    """An InfoMap as a plain (shallow) dict, for records that are written as JSON; any
    other value as it is."""
    return dict(value) if isinstance(value, InfoMap) else value
