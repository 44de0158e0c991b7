"""An app's SharedPreferences file: `/data/data/<package>/shared_prefs/<name>.xml`.

It is declared in `App.storage` like a database, so the phone serves its bytes as a
read-only file (`cat`, `adb pull` show Android's XML), snapshots it (`dump`/`load`)
and `pm clear` empties it (`reset`): the app's choices (a list's sort order) outlive
a force-stop as on a phone, and a task's set-up can start from the defaults.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import ClassVar
from xml.sax.saxutils import escape, quoteattr

from antrap_gym.device.sim.storage.sqlite import SqlError

Value = str | bool | int


class SharedPreferences:
    """Typed key/value pairs (string, boolean, int) as one XML map."""

    path: ClassVar[str] = ""

    def __init__(self) -> None:
        self.values: dict[str, Value] = {}
        self.revision = 0
        #: (the revision, the file bytes it equals): the last image dumped or loaded
        self._image: tuple[int, bytes] | None = None

    # --- what the app reads and writes ------------------------------------------------
    def get_string(self, key: str, default: str) -> str:
        v = self.values.get(key)
        return v if isinstance(v, str) else default

    def get_bool(self, key: str, default: bool) -> bool:
        v = self.values.get(key)
        return v if isinstance(v, bool) else default

    def put(self, key: str, value: Value) -> None:
        self.values[key] = value
        self.revision += 1

    # --- the file, the snapshot, `pm clear` -------------------------------------------
    def dump(self) -> bytes:
        """The XML Android's SharedPreferencesImpl writes (keys in order); an unchanged
        file hands back its last image (snapshots cost nothing for untouched apps)."""
        if self._image is not None and self._image[0] == self.revision:
            return self._image[1]
        lines = ["<?xml version='1.0' encoding='utf-8' standalone='yes' ?>", "<map>"]
        for key in sorted(self.values):
            v = self.values[key]
            name = quoteattr(key)
            if isinstance(v, bool):
                lines.append(f"    <boolean name={name} value=\"{str(v).lower()}\" />")
            elif isinstance(v, int):
                lines.append(f"    <int name={name} value=\"{v}\" />")
            else:
                lines.append(f"    <string name={name}>{escape(v)}</string>")
        lines.append("</map>")
        data = ("\n".join(lines) + "\n").encode("utf-8")
        self._image = (self.revision, data)
        return data

    def load(self, data: bytes) -> None:
        """Become the file `data` holds (skipped when it already is exactly that)."""
        if self._image is not None and self._image[1] is data and self._image[0] == self.revision:
            return
        values: dict[str, Value] = {}
        try:
            root = ET.fromstring(data.decode("utf-8"))
        except (ET.ParseError, UnicodeDecodeError):
            root = ET.Element("map")
        for el in root:
            key = el.get("name")
            if key is None:
                continue
            if el.tag == "boolean":
                values[key] = el.get("value") == "true"
            elif el.tag == "int":
                try:
                    values[key] = int(el.get("value", "0"))
                except ValueError:
                    continue
            elif el.tag == "string":
                values[key] = el.text or ""
        self.values = values
        self.revision += 1
        self._image = (self.revision, data)

    def reset(self) -> None:
        self.values = {}
        self.revision += 1

    def sql(self, statement: str) -> list[tuple]:
        """`sqlite3` on this file fails as on a phone: it is not a database."""
        raise SqlError("file is not a database")
