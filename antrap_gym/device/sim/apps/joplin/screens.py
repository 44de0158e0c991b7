"""Joplin's screens: the note list, the side menu of notebooks, the search and the note.

The list shows a notebook's notes newest first ("All notes" shows every notebook's);
to-dos carry a checkbox. The side menu (the toolbar's menu button) lists "All notes"
and the notebooks. Tapping a note opens it rendered (headings, list items as bullets);
a to-do shows its checkbox beside the title.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.joplin.storage import PKG, JoplinDatabase
from antrap_gym.device.sim.toolkit.popups import Choice, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
ALL_NOTES = "All notes"


def note_rows(ui: UI, phone: PhoneContext, notes: list[dict]) -> None:
    """One row per note; a to-do's checkbox ticks it."""
    db = JoplinDatabase.of(phone)
    for n in notes:
        nid = n["id"]

        def open_(i: str = nid) -> None:
            phone.start_activity(NoteActivity(i))

        if n["is_todo"]:
            ui.row(n["title"] or "Untitled", on_click=open_,
                   trailing=("checkbox", bool(n["todo_completed"]),
                             lambda i=nid, d=bool(n["todo_completed"]):
                             db.set_completed(i, not d, phone.clock_ms)))
        else:
            ui.row(n["title"] or "Untitled", on_click=open_)


class MainActivity(Activity):
    package = PKG
    name = "net.cozic.joplin.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.folder: str | None = None  # None: All notes

    def heading(self, phone: PhoneContext) -> str:
        if self.folder is None:
            return ALL_NOTES
        return dict(JoplinDatabase.of(phone).folders()).get(self.folder, ALL_NOTES)

    def build(self, ui: UI, phone: PhoneContext) -> None:
        db = JoplinDatabase.of(phone)
        if self.folder is not None and self.folder not in dict(db.folders()):
            self.folder = None
        ui.toolbar(self.heading(phone),
                   actions=[("sort", "Open side menu", lambda: self.side_menu(phone)),
                            ("search", "Search", lambda: phone.start_activity(SearchActivity()))],
                   rid=RID + "toolbar")
        notes = db.notes(self.folder)
        if not notes:
            ui.empty("There are currently no notes. Create one by clicking on the (+) button.")
        with ui.scroll("notes", rid=RID + "note_list"):
            note_rows(ui, phone, notes)
        ui.fab("add", "New note", lambda: None, rid=RID + "fab")

    def side_menu(self, phone: PhoneContext) -> None:
        items = [Choice(ALL_NOTES, "show_folder", ("",))]
        items += [Choice(title, "show_folder", (fid,)) for fid, title in JoplinDatabase.of(phone).folders()]
        phone.open_popup(self, Menu(items, (0, 0), title="Notebooks"))

    def show_folder(self, phone: PhoneContext, folder_id: str) -> None:
        self.folder = folder_id or None
        self.scroll.pop("notes", None)

    def title(self, phone: PhoneContext) -> str:
        return self.heading(phone)


class SearchActivity(Activity):
    package = PKG
    name = "net.cozic.joplin.SearchActivity"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Search", back=True)
        ui.search("query", "Search...", rid=RID + "search_input")
        query = self.fields.get("query", "").strip()
        if query:
            with ui.scroll("results", rid=RID + "search_results"):
                note_rows(ui, phone, JoplinDatabase.of(phone).notes(search=query))

    def title(self, phone: PhoneContext) -> str:
        return "Search"


def render_markdown(ui: UI, body: str) -> None:
    """The body as the viewer renders it: headings, bullets for list items, paragraphs."""
    for line in body.split("\n"):
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            ui.text(s.lstrip("#").strip(), style="title")
        elif s[:2] in ("- ", "* ", "+ "):
            ui.text("• " + s[2:].strip())
        else:
            ui.text(s)


class NoteActivity(Activity):
    package = PKG
    name = "net.cozic.joplin.NoteActivity"

    def __init__(self, note_id: str = "") -> None:
        super().__init__()
        self.note_id = note_id

    def build(self, ui: UI, phone: PhoneContext) -> None:
        db = JoplinDatabase.of(phone)
        note = db.note(self.note_id)
        ui.toolbar(self.title(phone), back=True, rid=RID + "toolbar")
        if note is None:
            ui.empty("This note does not exist")
            return
        with ui.scroll("note", rid=RID + "note_body"):
            if note["is_todo"]:
                done = bool(note["todo_completed"])
                ui.row(note["title"] or "Untitled", rid=RID + "note_title", trailing=(
                    "checkbox", done, lambda: db.set_completed(self.note_id, not done, phone.clock_ms)))
            else:
                ui.text(note["title"] or "Untitled", style="title", rid=RID + "note_title")
            render_markdown(ui, note["body"] or "")

    def title(self, phone: PhoneContext) -> str:
        note = JoplinDatabase.of(phone).note(self.note_id)
        return (note or {}).get("title") or "Note"
