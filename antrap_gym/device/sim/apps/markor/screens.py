"""Markor's screens: a Markdown notes app over plain files.

Like the real app, every note is a file under `/sdcard/Documents/Markor`, so
tasks set up and check notes with `printf`, `cat`, `ls` and `test`. The file
browser reads the file system on every build; the editor keeps only its
working text and writes it back on Save, on BACK/Up and when it finishes.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import time
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.markor import intro, sorting
from antrap_gym.device.sim.apps.markor import search_replace as sr
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.toolkit import card
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "net.gsantner.markor"
ROOT = "/sdcard/Documents/Markor"
RID = PKG + ":id/"
DEFAULT_EXT = ".md"
#: a trailing ".ext" that counts as an extension (so "v1.2 plan" still gets ".md")
_EXT_RE = re.compile(r"\.[A-Za-z0-9]{1,8}$")
MAX_NAME = 120
#: the "Move to" dialog lists at most this many folders (it does not scroll)
MAX_MOVE_TARGETS = 9


def with_default_ext(name: str) -> str:
    """Markor's new-file rule: a name without an extension becomes Markdown."""
    return name if _EXT_RE.search(name) else name + DEFAULT_EXT


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def fmt_mtime(secs: int) -> str:
    """Device-clock time as the browser shows it (UTC, like the rest of the phone)."""
    return time.strftime("%b %d, %Y %H:%M", time.gmtime(secs))


def name_error(name: str) -> str | None:
    """Why a file or folder name is not allowed (None when it is)."""
    if not name:
        return "Please enter a name"
    if "/" in name or name in (".", ".."):
        return "Invalid name: " + name
    if len(name) > MAX_NAME:
        return "Name is too long"
    return None


def free_path(phone: PhoneContext, folder: str, typed: str, name: str | None = None) -> str | None:
    """`folder/name` (`name`: what `typed` becomes, by default itself) when `typed` is a
    valid name and nothing is there yet; else None, the reason toasted, as Markor does
    before it asks again."""
    err = name_error(typed)
    if err:
        phone.toast(err)
        return None
    name = typed if name is None else name
    path = posixpath.join(folder, name)
    if phone.fs.exists(path):
        phone.toast(f"{name} already exists")
        return None
    return path


def inside_root(path: str) -> bool:
    return path == ROOT or path.startswith(ROOT + "/")


def ime_focus(act: Activity, field: str) -> None:
    """Give `field` the text focus, cursor at its end (the keyboard comes with a tap)."""
    act.focus = field
    act.selection_all = False
    act.cursors[field] = len(act.fields.get(field, ""))


class MarkorActivity(Activity):
    """Shared dialog plumbing: every popup action clears the text focus."""

    package = PKG

    def cancel(self, phone: PhoneContext) -> None:
        self.focus = None

    def _field(self, key: str) -> str:
        return self.fields.get(key, "").strip()


# --- the file browser -------------------------------------------------------------


class MainActivity(intro.StorageNote, MarkorActivity):
    """The Files tab: one folder's entries in the "Sort by" order (by default folders
    first, then files, by name); the intro and the storage note first on a first run."""

    name = ".activity.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.cwd = ROOT
        self.target = ""  # the entry a rename/move/delete dialog acts on (a name in cwd)
        self.selected: list[str] = []  # selection mode (names in cwd) when not empty
        self.sort_open = False  # the toolbar's "Sort by" menu is shown

    def title(self, phone: PhoneContext) -> str:
        return "Markor"

    # --- state helpers --------------------------------------------------------------
    def _cwd(self, phone: PhoneContext) -> str:
        """The current folder, falling back to the nearest existing parent (the
        shell may have removed it meanwhile)."""
        fs = phone.fs
        path = self.cwd if inside_root(self.cwd) else ROOT
        while path != ROOT and not fs.isdir(path):
            path = posixpath.dirname(path)
        if path != self.cwd:
            self.cwd = path
            self.scroll["files"] = 0
            self.selected = []
        return path

    def _entries(self, phone: PhoneContext, folder: str) -> list[tuple[str, bool]]:
        fs = phone.fs
        if not fs.isdir(folder):
            return []
        names = [n for n in fs.listdir(folder) if not n.startswith(".")]  # dotfiles hidden
        items = [(n, fs.isdir(posixpath.join(folder, n))) for n in names]
        return sorting.sort_entries(phone, folder, items)

    def _summary(self, phone: PhoneContext, path: str, is_dir: bool) -> str:
        fs = phone.fs
        if is_dir:
            n = len(fs.listdir(path))
            return "Empty folder" if n == 0 else f"{n} item" + ("" if n == 1 else "s")
        return f"{fmt_mtime(fs.mtime(path))}  ·  {human_size(len(fs.read(path)))}"

    # --- layout ---------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        if intro.first_run(phone, self):
            return
        cwd = self._cwd(phone)
        at_root = cwd == ROOT
        entries = self._entries(phone, cwd)
        self.selected = [n for n in self.selected if any(n == e[0] for e in entries)]
        if self.selected:
            self._build_selecting(ui, phone, cwd, entries)
            return
        ui.toolbar("Markor" if at_root else posixpath.basename(cwd),
                   back=False if at_root else (lambda: self.go_up(phone)),
                   actions=[("sort", "Sort by", lambda: self.open_sort(phone))],
                   menu=[Choice("New folder", "ask_new_folder"), Choice("Go to top folder", "go_root")],
                   rid=RID + "toolbar")
        rel = "Markor" + cwd[len(ROOT):]
        ui.text(rel.replace("/", " / "), style="caption", rid=RID + "path")
        if not entries:
            ui.empty("This folder is empty.\nTap + to create a note.")
        else:
            mid = (ui.rect[0] + ui.rect[2]) // 2
            row_h = ui.dp(72)
            with ui.scroll("files", rid=RID + "ui__filesystem_dialog__list"):
                for name, is_dir in entries:
                    path = posixpath.join(cwd, name)
                    anchor = (mid, ui.y + row_h // 2)
                    ui.row(name, self._summary(phone, path, is_dir),
                           icon="folder" if is_dir else "file",
                           on_click=(lambda n=name, d=is_dir: self.open_entry(phone, n, d)),
                           on_long_click=(lambda n=name, a=anchor: self.context_menu(phone, n, a)))
                ui.spacer(88)  # the last row can scroll clear of the FAB
        if self.sort_open:  # the menu covers the button (a floating view would stay on top)
            self._build_sort_menu(ui, phone)
        else:
            ui.fab("add", "Create a new file or folder", lambda: self.ask_new_file(phone),
                   rid=RID + "fab_add_new_item")

    # --- "Sort by" --------------------------------------------------------------------
    def _build_sort_menu(self, ui: UI, phone: PhoneContext) -> None:
        """Name / Date / Size (one of them), then Folder first and Reverse order."""
        by, folders_first, reverse = sorting.order(phone)
        anchor = (ui.rect[2] - ui.dp(8), ui.rect[1] + ui.dp(8))
        with card.menu(ui, anchor, 220, lambda: self.close_sort(phone)) as m:
            for label, value in sorting.SORT_LABELS.items():
                m.row(label, trailing=("radio", by == value, lambda v=value: self.sort_by(phone, v)))
            m.row("Folder first", trailing=("checkbox", folders_first,
                                            lambda: self.toggle_pref(phone, sorting.KEY_FOLDER_FIRST,
                                                                     True)))
            m.row("Reverse order", trailing=("checkbox", reverse,
                                             lambda: self.toggle_pref(phone, sorting.KEY_REVERSE,
                                                                      False)))

    def open_sort(self, phone: PhoneContext) -> None:
        self.focus = None
        self.sort_open = True

    def close_sort(self, phone: PhoneContext) -> None:
        self.sort_open = False

    def sort_by(self, phone: PhoneContext, value: str) -> None:
        sorting.prefs(phone).put(sorting.KEY_SORT, value)
        self.sort_open = False
        self.scroll["files"] = 0

    def toggle_pref(self, phone: PhoneContext, key: str, default: bool) -> None:
        p = sorting.prefs(phone)
        p.put(key, not p.get_bool(key, default))
        self.sort_open = False
        self.scroll["files"] = 0

    def _build_selecting(self, ui: UI, phone: PhoneContext, cwd: str,
                         entries: list[tuple[str, bool]]) -> None:
        """Selection mode (long-press > Select): rows toggle, the bar selects all or deletes."""
        ui.toolbar(f"{len(self.selected)} selected", back=lambda: self.clear_selection(phone),
                   actions=[("check", "Select all", lambda: self.select_all(phone)),
                            ("delete", "Delete", lambda: self.ask_delete_selected(phone))],
                   rid=RID + "toolbar")
        ui.text(("Markor" + cwd[len(ROOT):]).replace("/", " / "), style="caption", rid=RID + "path")
        with ui.scroll("files", rid=RID + "ui__filesystem_dialog__list"):
            for name, is_dir in entries:
                ui.row(name, self._summary(phone, posixpath.join(cwd, name), is_dir),
                       icon="folder" if is_dir else "file", selected=name in self.selected,
                       on_click=(lambda n=name: self.toggle(phone, n)))

    def start_select(self, phone: PhoneContext, name: str) -> None:
        self.selected = [name]

    def toggle(self, phone: PhoneContext, name: str) -> None:
        if name in self.selected:
            self.selected.remove(name)
        else:
            self.selected.append(name)

    def select_all(self, phone: PhoneContext) -> None:
        self.selected = [n for n, _ in self._entries(phone, self._cwd(phone))]

    def clear_selection(self, phone: PhoneContext) -> None:
        self.selected = []

    def ask_delete_selected(self, phone: PhoneContext) -> None:
        n = len(self.selected)
        phone.open_popup(self, Dialog(
            "Delete selected items?", f"{n} item{'' if n == 1 else 's'} will be deleted permanently.",
            buttons=[Choice("Cancel", "cancel"), Choice("Delete", "do_delete_selected", (), True)]))

    def do_delete_selected(self, phone: PhoneContext) -> None:
        self.focus = None
        cwd = self._cwd(phone)
        for name in self.selected:
            with contextlib.suppress(FsError):
                phone.fs.remove(posixpath.join(cwd, name), recursive=True)
        phone.toast(f"Deleted {len(self.selected)} item" + ("" if len(self.selected) == 1 else "s"))
        self.selected = []

    # --- navigation -------------------------------------------------------------------
    def open_entry(self, phone: PhoneContext, name: str, is_dir: bool) -> None:
        path = posixpath.join(self._cwd(phone), name)
        if is_dir:
            self.cwd = path
            self.scroll["files"] = 0
            return
        try:
            text = phone.fs.read_text(path)
        except FsError:
            phone.toast("File not found")
            return
        phone.start_activity(DocumentActivity(path, text))

    def go_up(self, phone: PhoneContext) -> None:
        cwd = self._cwd(phone)
        if cwd != ROOT:
            self.cwd = posixpath.dirname(cwd)
            self.scroll["files"] = 0

    def go_root(self, phone: PhoneContext) -> None:
        self.cwd = ROOT
        self.scroll["files"] = 0

    def on_back(self, phone: PhoneContext) -> bool:
        if self.sort_open:
            self.sort_open = False
            return True
        if self.selected:
            self.selected = []
            return True
        if self._cwd(phone) != ROOT:
            self.go_up(phone)
            return True
        return False

    # --- new file / folder --------------------------------------------------------------
    def ask_new_file(self, phone: PhoneContext, name: str = "") -> None:
        self.set_field("new_name", name)
        phone.open_popup(self, Dialog(
            "New file", "A name without an extension gets \".md\" (Markdown).",
            field_name="new_name", field_hint="Name",
            buttons=[Choice("Folder", "folder_from_dialog"), Choice("Cancel", "cancel"),
                     Choice("OK", "create_file")]))

    def create_file(self, phone: PhoneContext) -> None:
        self.focus = None
        raw = self._field("new_name")
        path = free_path(phone, self._cwd(phone), raw, with_default_ext(raw))
        if path is None:
            self.ask_new_file(phone, raw)
            return
        try:
            phone.fs.write_text(path, "", phone.now)
        except FsError as e:
            phone.toast(str(e))
            return
        phone.start_activity(DocumentActivity(path, ""))

    def folder_from_dialog(self, phone: PhoneContext) -> None:
        """The dialog's Folder button: a typed name becomes a folder, else ask for one."""
        raw = self._field("new_name")
        if raw:
            self.set_field("folder_name", raw)
            self.create_folder(phone)
        else:
            self.ask_new_folder(phone)

    def ask_new_folder(self, phone: PhoneContext, name: str = "") -> None:
        self.set_field("folder_name", name)
        phone.open_popup(self, Dialog(
            "New folder", field_name="folder_name", field_hint="Name",
            buttons=[Choice("Cancel", "cancel"), Choice("OK", "create_folder")]))

    def create_folder(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self._field("folder_name")
        path = free_path(phone, self._cwd(phone), name)
        if path is None:
            self.ask_new_folder(phone, name)
            return
        try:
            phone.fs.mkdir(path, phone.now)
        except FsError as e:
            phone.toast(str(e))

    # --- long-press menu ------------------------------------------------------------------
    def context_menu(self, phone: PhoneContext, name: str, anchor: tuple[int, int]) -> None:
        self.target = name
        phone.open_popup(self, Menu([Choice("Rename", "ask_rename", (name,)),
                                     Choice("Move to…", "ask_move", (name,)),
                                     Choice("Delete", "ask_delete", (name,), destructive=True),
                                     Choice("Select", "start_select", (name,))],
                                    anchor, title=name))

    def ask_rename(self, phone: PhoneContext, name: str) -> None:
        self.target = name
        self.set_field("rename", name)
        phone.open_popup(self, Dialog(
            "Rename", field_name="rename", field_hint="Name",
            buttons=[Choice("Cancel", "cancel"), Choice("OK", "do_rename")]))

    def do_rename(self, phone: PhoneContext) -> None:
        self.focus = None
        old, new = self.target, self._field("rename")
        cwd = self._cwd(phone)
        src = posixpath.join(cwd, old)
        if not old or not phone.fs.exists(src):
            phone.toast("File not found")
            return
        if new == old and name_error(new) is None:
            return
        dst = free_path(phone, cwd, new)
        if dst is None:
            self.ask_rename(phone, old)
            if name_error(new) is None:  # taken: the dialog keeps what was typed
                self.set_field("rename", new)
            return
        try:
            phone.fs.move(src, dst, phone.now)
        except FsError as e:
            phone.toast(str(e))
            return
        self.target = new

    def ask_delete(self, phone: PhoneContext, name: str) -> None:
        self.target = name
        is_dir = phone.fs.isdir(posixpath.join(self._cwd(phone), name))
        phone.open_popup(self, Dialog(
            f"Delete {name}?",
            "The folder and everything in it will be deleted." if is_dir
            else "This note will be deleted permanently.",
            buttons=[Choice("Cancel", "cancel"), Choice("Delete", "do_delete", (name,), True)]))

    def do_delete(self, phone: PhoneContext, name: str) -> None:
        self.focus = None
        try:
            phone.fs.remove(posixpath.join(self._cwd(phone), name), recursive=True)
        except FsError:
            phone.toast("File not found")
            return
        phone.toast(f"Deleted {name}")

    def _move_targets(self, phone: PhoneContext, src: str) -> list[str]:
        """Every folder under the Markor root the entry can move into."""
        fs = phone.fs
        parent = posixpath.dirname(src)
        out = []
        for d in sorted(fs.dirs, key=str.casefold):
            if not inside_root(d) or d in (parent, src) or d.startswith(src + "/"):
                continue
            out.append(d)
        return out

    @staticmethod
    def folder_label(path: str) -> str:
        return "Markor (top folder)" if path == ROOT else path[len(ROOT) + 1:]

    def ask_move(self, phone: PhoneContext, name: str) -> None:
        self.target = name
        src = posixpath.join(self._cwd(phone), name)
        targets = self._move_targets(phone, src)
        if not targets:
            phone.toast("No other folder to move to. Create a folder first.")
            return
        phone.open_popup(self, Dialog(
            f"Move {name} to",
            choices=[Choice(self.folder_label(d), "do_move", (name, d))
                     for d in targets[:MAX_MOVE_TARGETS]],
            buttons=[Choice("Cancel", "cancel")]))

    def do_move(self, phone: PhoneContext, name: str, dest: str) -> None:
        self.focus = None
        src = posixpath.join(self._cwd(phone), name)
        dst = posixpath.join(dest, name)
        if phone.fs.exists(dst):
            phone.toast(f"{name} already exists in {self.folder_label(dest)}")
            return
        try:
            phone.fs.move(src, dst, phone.now)
        except FsError as e:
            phone.toast(str(e))
            return
        phone.toast(f"Moved to {self.folder_label(dest)}")

    # --- keyboard ---------------------------------------------------------------------------
    def on_submit(self, phone: PhoneContext, field: str) -> None:
        """Enter in a dialog's name field means OK."""
        if self.popup is None:
            return
        action = {"new_name": self.create_file, "folder_name": self.create_folder,
                  "rename": self.do_rename}.get(field)
        if action is not None:
            self.popup = None
            action(phone)


# --- the editor ------------------------------------------------------------------------


#: the Search / Replace dialog's fields
SR_SEARCH, SR_REPLACE = "sr_search", "sr_replace"


class DocumentActivity(MarkorActivity):
    """One file in a full-height editor; saved on Save, BACK/Up and finish. The
    overflow menu's Search / Replace edits the working text (saved the same way)."""

    name = ".activity.DocumentActivity"

    def __init__(self, path: str = "", text: str = "") -> None:
        super().__init__()
        self.path = path
        self.deleted = False
        self.set_field("text", text)
        self.replacing = False  # the Search / Replace dialog is open
        self.sr_regex = False
        self.sr_multiline = False

    def title(self, phone: PhoneContext) -> str:
        return posixpath.basename(self.path) or "Markor"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        name = posixpath.basename(self.path)
        if not self.path or self.deleted:
            ui.toolbar(name or "Markor", back=True, rid=RID + "toolbar")
            ui.empty("No document open")
            return
        ui.toolbar(name, back=True, actions=[("save", "Save", lambda: self.save(phone, True))],
                   menu=[Choice("Search / Replace", "open_replace"), Choice("Rename", "ask_rename"),
                         Choice("Delete", "ask_delete")],
                   rid=RID + "toolbar")
        ed = ui.edit("text", "Start writing here…", multiline=True,
                     rid=RID + "document__fragment__edit__highlighting_editor")
        if self.replacing:
            ed.editable = ed.clickable = ed.long_clickable = ed.focusable = False
            self._build_replace(ui, phone)

    # --- Search / Replace -------------------------------------------------------------
    def _matches(self) -> tuple[int, bool]:
        """(match count, pattern error) for the dialog's fields now."""
        try:
            return sr.count(self.fields.get("text", ""), self.fields.get(SR_SEARCH, ""),
                            self.fields.get(SR_REPLACE, ""), self.sr_regex, self.sr_multiline), False
        except sr.PatternError:
            return 0, True

    def _build_replace(self, ui: UI, phone: PhoneContext) -> None:
        n, error = self._matches()
        with card.dialog(ui, "Search / Replace", lambda: self.close_replace(phone)) as d:
            d.edit(SR_SEARCH, "Search for", rid=RID + "search_input")
            d.edit(SR_REPLACE, "Replace with", rid=RID + "replace_input")
            r = d.rect
            line = (r[0] + d.dp(8), d.y, r[2] - d.dp(8), d.y + d.dp(48))
            for cell, label, on, cb, enabled in zip(
                    card.split(line, 2, d.dp(8)), ("Regex", "Multiline"),
                    (self.sr_regex, self.sr_multiline),
                    (self.toggle_regex, self.toggle_multiline), (True, self.sr_regex)):
                box = d.mk("linear", cell, on_click=(lambda cb=cb: cb(phone)), enabled=enabled)
                d.mk("checkbox", (cell[0], cell[1], cell[0] + d.dp(40), cell[3]), box,
                     checkable=True, checked=on, enabled=enabled,
                     rid=RID + ("enable_regex" if label == "Regex" else "multiline"))
                d.mk("text", (cell[0] + d.dp(44), cell[1], cell[2], cell[3]), box, text=label,
                     style="body", enabled=enabled)
            d.spacer(56)
            d.text("Search or replace pattern error." if error else f"Matches: {n}",
                   style="caption", rid=RID + "match_count_or_error")
            line = (r[0] + d.dp(8), d.y + d.dp(8), r[2] - d.dp(8), d.y + d.dp(56))
            for cell, label, all_ in zip(card.split(line, 2, d.dp(8)),
                                         ("Replace (1)", "Replace all"), (False, True)):
                d.mk("button", cell, text=label, style="tonal", enabled=n > 0 and not error,
                     rid=RID + ("replace_all" if all_ else "replace_once"),
                     on_click=(lambda a=all_: self.do_replace(phone, a)))
            d.spacer(64)
            d.button_bar([("Cancel", lambda: self.close_replace(phone), "text")])

    def open_replace(self, phone: PhoneContext) -> None:
        """Markor opens the dialog empty each time (its history is a drop-down we lack)."""
        self.replacing = True
        self.set_field(SR_SEARCH, "")
        self.set_field(SR_REPLACE, "")
        ime_focus(self, SR_SEARCH)

    def close_replace(self, phone: PhoneContext) -> None:
        self.replacing = False
        self.focus = None

    def toggle_regex(self, phone: PhoneContext) -> None:
        self.sr_regex = not self.sr_regex

    def toggle_multiline(self, phone: PhoneContext) -> None:
        if self.sr_regex:
            self.sr_multiline = not self.sr_multiline

    def do_replace(self, phone: PhoneContext, all_: bool) -> None:
        """Replace (1) or Replace all in the working text, then close the dialog."""
        text = self.fields.get("text", "")
        n, error = self._matches()
        if n == 0 or error:
            return
        cursor = -1 if self.selection_all else self.cursors.get("text", -1)
        try:
            new = sr.replaced(text, self.fields.get(SR_SEARCH, ""), self.fields.get(SR_REPLACE, ""),
                              self.sr_regex, self.sr_multiline, all_, cursor)
        except sr.PatternError:
            return
        self.fields["text"] = new
        self.cursors["text"] = min(self.cursors.get("text", len(new)), len(new))
        self.selection_all = False
        self.close_replace(phone)

    def on_back(self, phone: PhoneContext) -> bool:
        if self.replacing:
            self.close_replace(phone)
            return True
        return False

    # --- saving -----------------------------------------------------------------------------
    def save(self, phone: PhoneContext, explicit: bool = False) -> None:
        """Write the working text if it differs from the file (keeps mtime otherwise)."""
        if not self.path or self.deleted:
            return
        text = self.fields.get("text", "")
        fs = phone.fs
        try:
            if not fs.isfile(self.path) or fs.read_text(self.path) != text:
                fs.write_text(self.path, text, phone.now)
                phone.changed()
        except FsError as e:
            if explicit:
                phone.toast(f"Could not save: {e}")
            return
        if explicit:
            phone.toast("Saved")

    def on_finish(self, phone: PhoneContext) -> None:
        self.save(phone)

    def on_pause(self, phone: PhoneContext) -> None:
        self.save(phone)  # Markor saves when it leaves the foreground

    # --- overflow menu --------------------------------------------------------------------
    def ask_rename(self, phone: PhoneContext) -> None:
        self.set_field("rename", posixpath.basename(self.path))
        phone.open_popup(self, Dialog(
            "Rename", field_name="rename", field_hint="Name",
            buttons=[Choice("Cancel", "cancel"), Choice("OK", "do_rename")]))

    def do_rename(self, phone: PhoneContext) -> None:
        self.focus = None
        new = self._field("rename")
        old = posixpath.basename(self.path)
        if new == old and name_error(new) is None:
            return
        dst = free_path(phone, posixpath.dirname(self.path), new)
        if dst is None:
            self.ask_rename(phone)
            if name_error(new) is None:  # taken: the dialog keeps what was typed
                self.set_field("rename", new)
            return
        try:
            if phone.fs.isfile(self.path):
                phone.fs.move(self.path, dst, phone.now)
        except FsError as e:
            phone.toast(str(e))
            return
        self.path = dst
        self.save(phone)

    def ask_delete(self, phone: PhoneContext) -> None:
        name = posixpath.basename(self.path)
        phone.open_popup(self, Dialog(
            f"Delete {name}?", "This note will be deleted permanently.",
            buttons=[Choice("Cancel", "cancel"), Choice("Delete", "do_delete", (), True)]))

    def do_delete(self, phone: PhoneContext) -> None:
        self.focus = None
        with contextlib.suppress(FsError):
            phone.fs.remove(self.path)
        self.deleted = True
        phone.toast(f"Deleted {posixpath.basename(self.path)}")
        phone.finish_activity(self)

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == "rename" and self.popup is not None:
            self.popup = None
            self.do_rename(phone)
        elif field == SR_SEARCH and self.replacing:
            ime_focus(self, SR_REPLACE)

