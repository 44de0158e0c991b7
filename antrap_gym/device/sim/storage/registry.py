"""The phone's databases and providers by path/authority, remembering which stores were
handed out: a store nobody asked for since the last restore cannot have changed, so a
restore reloads only the ones that were (reset does not grow with the apps installed)."""

from __future__ import annotations

from typing import Any


class StoreRegistry(dict):
    """A dict of stores (or of objects with a `provider` store) that adds every store it
    hands out (`[]`, `get`, `items`, `values`) to the shared `touched` set."""

    def __init__(self, touched: set) -> None:
        super().__init__()
        self.touched = touched

    @staticmethod
    def _store(value: Any) -> Any:
        return getattr(value, "provider", value)

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        self.touched.add(self._store(value))
        return value

    def get(self, key: str, default: Any = None) -> Any:
        value = dict.get(self, key, default)
        if value is not default:
            self.touched.add(self._store(value))
        return value

    def values(self):  # type: ignore[override]
        self.touched.update(self._store(v) for v in dict.values(self))
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self.touched.update(self._store(v) for v in dict.values(self))
        return dict.items(self)
