"""Files' main screen (FilesActivity): browse the roots, open documents with the app
that takes their type, and select documents (long press) to copy, move, rename or
delete them; plus the copy/move destination picker it starts (`picker.py`)."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim import intents
from antrap_gym.device.sim.apps.files import model as m
from antrap_gym.device.sim.apps.files.browser import NEW_FOLDER, BrowserActivity
from antrap_gym.device.sim.apps.files.model import RID, Doc
from antrap_gym.device.sim.apps.files.picker import PickActivity
from antrap_gym.device.sim.toolkit.builder import BarAction
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RENAME_FIELD = "rename"
SEARCH_FIELD = "search"
#: the snackbar DocumentsUI shows when no app takes a document's type
CANT_OPEN = "Can\u2019t open file"
NAME_TAKEN = "A file with this name already exists."


def delete_message(docs: list[Doc]) -> str:
    """DocumentsUI's confirmation: by the number of files and folders."""
    dirs = sum(d.is_dir for d in docs)
    if len(docs) == 1:
        d = docs[0]
        return f'Delete folder "{d.name}" and its contents?' if d.is_dir else f'Delete "{d.name}"?'
    n = len(docs)
    if dirs == n:
        return f"Delete {n} folders and their contents?"
    return f"Delete {n} files?" if dirs == 0 else f"Delete {n} items?"


class FilesActivity(BrowserActivity):
    name = "com.android.documentsui.files.FilesActivity"

    def __init__(self, root: str = m.RECENT, path: str | None = None) -> None:
        super().__init__(root, path)
        #: the selected documents' paths, in the order they were picked
        self.selected: list[str] = []
        #: the search bar is open (its query is `fields[SEARCH_FIELD]`)
        self.searching = False

    # --- selection ------------------------------------------------------------------------
    def selection(self, phone: PhoneContext) -> list[Doc]:
        """The selected documents still there (one removed behind the app's back drops)."""
        fs = phone.fs
        self.selected = [p for p in self.selected if fs.exists(p)]
        return [m.doc(fs, p) for p in self.selected]

    def on_moved(self, phone: PhoneContext) -> None:
        self.selected = []
        self.searching = False
        self.focus = None

    # --- search ---------------------------------------------------------------------------------
    def start_search(self, phone: PhoneContext) -> None:
        self.searching = True
        self.set_field(SEARCH_FIELD, "")
        self.focus = SEARCH_FIELD
        phone.wm.ime_shown = True

    def stop_search(self, phone: PhoneContext) -> None:
        self.searching = False
        self.focus = None
        phone.wm.ime_shown = False

    def docs(self, phone: PhoneContext) -> list[Doc]:
        """The listing, or while searching the documents whose names hold the query: under
        the folder shown (at any depth), or among the root's files."""
        query = self.fields.get(SEARCH_FIELD, "").strip().casefold() if self.searching else ""
        if not query:
            return super().docs(phone)
        here = self.folder(phone)
        fs = phone.fs
        if here is None:
            found = [d for d in m.category_docs(fs, self.root) if query in d.name.casefold()]
        else:
            prefix = here.rstrip("/") + "/"
            paths = [p for p in (*fs.files, *fs.dirs) if p.startswith(prefix) and "/." not in p[len(here):]
                     and query in posixpath.basename(p).casefold()]
            found = [m.doc(fs, p) for p in paths]
        _, dim, desc = m.SORTS[self.sort]
        return m.sort_docs(found, dim, desc)

    def clear_selection(self) -> None:
        self.selected = []

    def tap_doc(self, phone: PhoneContext, d: Doc) -> None:
        if self.selected:
            self.toggle(d)
        elif d.is_dir:
            self.enter(phone, d)
        else:
            self.open_doc(phone, d, choose=False)

    def long_press_doc(self, phone: PhoneContext, d: Doc) -> None:
        if d.path not in self.selected:
            self.selected.append(d.path)

    def toggle(self, d: Doc) -> None:
        if d.path in self.selected:
            self.selected.remove(d.path)
        else:
            self.selected.append(d.path)

    def enter(self, phone: PhoneContext, d: Doc) -> None:
        """A folder: in a root of files by kind it opens in the storage root."""
        if self.root in m.FOLDER_ROOTS and m.inside(d.path, m.FOLDER_ROOTS[self.root]):
            self.open_folder(phone, d.path)
        else:
            self.go(phone, m.STORAGE, d.path)

    def select_all(self, phone: PhoneContext) -> None:
        self.selected = [d.path for d in self.docs(phone)]

    def on_back(self, phone: PhoneContext) -> bool:
        if self.selected:
            self.selected = []
            return True
        if self.searching:
            self.stop_search(phone)
            return True
        return super().on_back(phone)

    # --- opening ------------------------------------------------------------------------------
    def open_doc(self, phone: PhoneContext, d: Doc, choose: bool) -> None:
        """A VIEW of the document for the app that takes its type (the chooser when
        several do, or always for "Open with")."""
        intent = intents.Intent(intents.ACTION_VIEW, intents.document_uri(d.path), d.mime)
        if not intents.view(phone, intent, self, choose=choose):
            phone.toast(CANT_OPEN)

    def open_with(self, phone: PhoneContext, *args: str) -> None:
        self.selected = []
        super().open_with(phone, *args)

    def open_selected_with(self, phone: PhoneContext) -> None:
        docs = self.selection(phone)
        if len(docs) == 1:
            self.open_doc(phone, docs[0], choose=True)

    # --- build ------------------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        docs = self.docs(phone)
        chosen = self.selection(phone)
        if chosen:
            self._action_bar(ui, phone, chosen)
        elif self.searching:
            ui.toolbar("", back=lambda: self.stop_search(phone), rid=RID + "toolbar")
            ui.search(SEARCH_FIELD, "Search files", rid=RID + "search_src_text")
        else:
            menu = []
            if self.folder(phone) is not None:
                menu.append(Choice(NEW_FOLDER, "ask_new_folder"))
            if docs:
                menu.append(Choice("Select all", "select_all"))
            menu.append(Choice("Sort by", "ask_sort"))
            search = BarAction("search", "Search", lambda: self.start_search(phone),
                               rid=RID + "menu_search")
            ui.toolbar(self.location(phone), nav=self.toolbar_nav(phone),
                       actions=[search, self.view_toggle(phone)], menu=menu, rid=RID + "toolbar")
        if not self.searching:
            self.breadcrumb(ui, phone)
        self.document_list(ui, phone, docs, on_click=lambda d: self.tap_doc(phone, d),
                           on_long_click=lambda d: self.long_press_doc(phone, d),
                           selected=set(self.selected))

    def _action_bar(self, ui: UI, phone: PhoneContext, chosen: list[Doc]) -> None:
        """The selection's bar: how many, Delete, and the rest in the overflow menu."""
        menu = []
        if len(chosen) == 1 and not chosen[0].is_dir:
            menu.append(Choice("Open with", "open_selected_with"))
        menu += [Choice("Select all", "select_all"), Choice("Copy to\u2026", "copy_to"),
                 Choice("Move to\u2026", "move_to")]
        if len(chosen) == 1:
            menu.append(Choice("Rename", "ask_rename"))
        ui.toolbar(f"{len(chosen)} selected", rid=RID + "toolbar",
                   nav=BarAction("close", "Done", self.clear_selection),
                   actions=[BarAction("delete", "Delete", lambda: self.ask_delete(phone),
                                      rid=RID + "action_menu_delete")], menu=menu)

    # --- copy and move --------------------------------------------------------------------------
    def copy_to(self, phone: PhoneContext) -> None:
        self._pick(phone, PickActivity.COPY)

    def move_to(self, phone: PhoneContext) -> None:
        self._pick(phone, PickActivity.MOVE)

    def _pick(self, phone: PhoneContext, mode: str) -> None:
        """The destination picker, opened where the documents are (or at the storage root)."""
        sources = [d.path for d in self.selection(phone)]
        if not sources:
            return
        here = self.folder(phone)
        root, path = (self.root, here) if here is not None else (m.STORAGE, m.SDCARD)
        self.selected = []
        phone.start_activity(PickActivity(mode, sources, root, path))

    # --- delete ---------------------------------------------------------------------------------
    def ask_delete(self, phone: PhoneContext) -> None:
        chosen = self.selection(phone)
        if not chosen:
            return
        phone.open_popup(self, Dialog("", delete_message(chosen), buttons=[
            Choice("Cancel", "cancel_dialog"),
            Choice("OK", "delete_selected", (tuple(d.path for d in chosen),), destructive=True)]))

    def delete_selected(self, phone: PhoneContext, paths: tuple[str, ...]) -> None:
        for p in paths:
            if phone.fs.exists(p):
                phone.fs.remove(p, recursive=True)
        self.selected = [p for p in self.selected if p not in paths]

    # --- rename ---------------------------------------------------------------------------------
    def ask_rename(self, phone: PhoneContext, error: str = "") -> None:
        chosen = self.selection(phone)
        if len(chosen) != 1:
            return
        d = chosen[0]
        if not error:
            self.set_field(RENAME_FIELD, d.name)
        phone.open_popup(self, Dialog("Rename", error, field_name=RENAME_FIELD, buttons=[
            Choice("Cancel", "cancel_dialog"), Choice("OK", "rename", (d.path,))]))
        self.focus = RENAME_FIELD
        self.selection_all = True  # the name comes selected: typing replaces it
        phone.wm.ime_shown = True

    def rename(self, phone: PhoneContext, path: str) -> None:
        self.focus = None
        self.popup = None
        new = self.fields.get(RENAME_FIELD, "")
        old = posixpath.basename(path)
        if new == old or not phone.fs.exists(path):
            return
        if not new or "/" in new or new in (".", ".."):
            phone.toast("Failed to rename document")
            return
        folder = posixpath.dirname(path)
        if phone.fs.exists(posixpath.join(folder, new)):
            self.ask_rename(phone, error=NAME_TAKEN)
            return
        phone.fs.move(path, posixpath.join(folder, new), phone.now)
        self.selected = []

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == RENAME_FIELD and self.popup is not None and self.selected:
            self.rename(phone, self.selected[0])
            return
        super().on_submit(phone, field)
