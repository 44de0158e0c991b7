"""The file browser's order, as Markor's toolbar "Sort by" menu sets it.

Name, Date (last modified) or Size, with "Folder first" and "Reverse order" as
check items; the choice is a preference (Markor's SharedPreferences file), so it
outlives a force-stop and `pm clear` puts back the default: by name, folders first.
Date puts the newest first and Size the largest first, so "the newest note" is the
top row once sorted by date.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.prefs import SharedPreferences

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "net.gsantner.markor"
BY_NAME, BY_DATE, BY_SIZE = "NAME", "MTIME", "FILESIZE"
#: the menu's radio items, in the real app's order: label -> stored value
SORT_LABELS = {"Name": BY_NAME, "Date": BY_DATE, "Size": BY_SIZE}
KEY_SORT = "pref_key__file_browser__sort_by_type"
KEY_REVERSE = "pref_key__sort_reverse"
KEY_FOLDER_FIRST = "pref_key__file_browser__folder_first"


class MarkorPrefs(SharedPreferences):
    """Markor's default preferences file."""

    path = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"


def prefs(phone: PhoneContext) -> SharedPreferences:
    store = phone.databases[MarkorPrefs.path]
    assert isinstance(store, SharedPreferences)
    return store


def order(phone: PhoneContext) -> tuple[str, bool, bool]:
    """(sort by, folders first, reverse)."""
    p = prefs(phone)
    by = p.get_string(KEY_SORT, BY_NAME)
    return (by if by in SORT_LABELS.values() else BY_NAME, p.get_bool(KEY_FOLDER_FIRST, True),
            p.get_bool(KEY_REVERSE, False))


def sort_entries(phone: PhoneContext, folder: str, items: list[tuple[str, bool]]
                 ) -> list[tuple[str, bool]]:
    """`items` (name, is folder) in the browser's order now."""
    by, folders_first, reverse = order(phone)
    fs = phone.fs

    def size(name: str, is_dir: bool) -> int:
        path = posixpath.join(folder, name)
        return len(fs.listdir(path)) if is_dir else len(fs.read(path))

    by_name = sorted(items, key=lambda it: (it[0].casefold(), it[0]))
    if by == BY_DATE:
        out = sorted(by_name, key=lambda it: -fs.mtime(posixpath.join(folder, it[0])))
    elif by == BY_SIZE:
        out = sorted(by_name, key=lambda it: -size(*it))
    else:
        out = by_name
    if reverse:
        out.reverse()
    if folders_first:
        out.sort(key=lambda it: not it[1])  # stable: keeps the order within each group
    return out
