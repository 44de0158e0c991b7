"""Joplin (`net.cozic.joplin`) for tasks: AndroidWorld's information-retrieval draws
(tasks.textproto, joplin_app_utils), seeding and reading joplin.sqlite through `sqlite3`
in one shell call each, and the app's screens for solutions.

A draw makes the notes the goal is about plus 40 random notes (AndroidWorld: 100; fewer
keep set-up cheap) in the same notebooks, 30% in the goal's notebook, that escape the
template's exclusion condition, as AndroidWorld does; ids (32 hex digits) and times
come from the seed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps.tasks_org import pick, sql_value
from antrap_gym.tasks.checks import ElementShows, Eq, Holds
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "net.cozic.joplin"
DB = f"/data/data/{PKG}/databases/joplin.sqlite"
MAIN = "net.cozic.joplin.MainActivity"
MENU = MAIN + "|menu"
SEARCH = "net.cozic.joplin.SearchActivity"
#: 2023-10-15 15:34 UTC in ms: notes are dated before it
NOW_MS = 1697384040000
FOLDER_COLUMNS = ("id", "title", "created_time", "updated_time", "user_created_time",
                  "user_updated_time", "encryption_cipher_text", "encryption_applied", "parent_id",
                  "is_shared", "share_id", "master_key_id", "icon", "user_data", "deleted_time")
NOTE_COLUMNS = ("id", "parent_id", "title", "body", "created_time", "updated_time", "is_conflict",
                "latitude", "longitude", "altitude", "author", "source_url", "is_todo", "todo_due",
                "todo_completed", "source", "source_application", "application_data", '"order"',
                "user_created_time", "user_updated_time", "encryption_cipher_text",
                "encryption_applied", "markup_language", "is_shared", "share_id",
                "conflict_original_id", "master_key_id", "user_data", "deleted_time")
NORMALIZED_COLUMNS = ("id", "title", "body", "user_created_time", "user_updated_time", "is_todo",
                      "todo_completed", "parent_id", "latitude", "longitude", "altitude",
                      "source_url", "todo_due")
TABLES = {"folders": FOLDER_COLUMNS, "notes": NOTE_COLUMNS, "notes_normalized": NORMALIZED_COLUMNS}

#: the random notes of each notebook: (title, body) (our own wording)
FOLDER_NOTES: dict[str, tuple[tuple[str, str], ...]] = {
    "Personal": (("Birthday Ideas", "Scarf for Ana, a book for Tom."),
                 ("Letters to Write", "Thank-you card to the neighbours."),
                 ("Weekend Plans", "Farmers market Saturday, hike Sunday.")),
    "Work": (("Standup Notes", "Blocked on the API review."),
             ("Quarterly Objectives", "Ship the billing rewrite; hire two engineers."),
             ("Onboarding Checklist", "Laptop, badge, accounts, first-week buddy.")),
    "School": (("Chemistry Lab", "Titration report due Thursday."),
               ("Essay Outline", "Intro, three arguments, counterpoint, conclusion."),
               ("Exam Schedule", "Math on the 20th, history on the 24th.")),
    "Home": (("Repairs", "Squeaky door, loose tile in the bathroom."),
             ("Cleaning Rota", "Kitchen Mondays, bathroom Thursdays."),
             ("Garden", "Plant tulip bulbs before the frost.")),
    "Projects": (("Website Redesign", "New colour palette and a simpler menu."),
                 ("Bookshelf Build", "Oak boards, 8 brackets, wall anchors."),
                 ("Podcast Launch", "Record three episodes before announcing.")),
    "Ideas": (("App Ideas", "A plant-watering reminder with photos."),
              ("Story Prompts", "A lighthouse keeper who collects letters."),
              ("Gift Ideas", "Cooking class voucher, a vinyl record.")),
    "Recipes": (("Pad Thai", "Rice noodles, tofu, bean sprouts and a tangy sauce."),
                ("Banana Bread", "Ripe bananas, flour, sugar, butter, one egg."),
                ("Vegetable Curry", "Vegetables simmered in coconut milk and spices.")),
    "Finance": (("Monthly Budget", "Rent, groceries, transport, savings."),
                ("Tax Documents", "Collect the receipts and the annual statement."),
                ("Subscriptions", "Cancel the unused streaming service.")),
    "Health": (("Workout Plan", "Run Tuesday, weights Thursday, yoga Saturday."),
               ("Doctor Questions", "Ask about the allergy test results."),
               ("Meal Ideas", "More vegetables, fewer snacks after dinner.")),
    "Travel": (("Packing List", "Passport, charger, rain jacket, adapters."),
               ("Lisbon Trip", "Tram 28, Belem tower, pasteis de nata."),
               ("Road Trip Stops", "Diner at the junction, the lake viewpoint.")),
    "Meeting Notes": (("Design Review", "Agreed on the new onboarding flow."),
                      ("Retro", "Too many meetings; keep the demo day."),
                      ("Vendor Call", "Price holds until the end of the year.")),
}


def hex_id(rng: np.random.Generator) -> str:
    """A Joplin id: 32 hex digits."""
    hi, lo = (int(v) for v in rng.integers(0, 2**63, size=2))
    return f"{hi:016x}{lo:016x}"


def note(title: str, body: str, folder: str, is_todo: bool = False, completed: bool = False) -> dict:
    return {"title": title, "body": body, "folder": folder, "is_todo": int(is_todo),
            "completed": int(completed)}


def random_note(rng: np.random.Generator, relevant_folders: list[str]) -> dict:
    """AndroidWorld's random note: 30% in one of the goal's notebooks, else any; a to-do
    half the time, and then completed half the time."""
    folder = pick(rng, relevant_folders) if rng.random() < 0.3 else pick(rng, tuple(FOLDER_NOTES))
    title, body = pick(rng, FOLDER_NOTES[folder])
    is_todo = bool(rng.random() < 0.5)
    return note(title, body, folder, is_todo, is_todo and bool(rng.random() < 0.5))


def with_distractors(rng: np.random.Generator, relevant: list[dict],
                     excluded: Callable[[dict], bool], n: int = 40) -> dict:
    """The relevant notes and n random ones that `excluded` lets through, shuffled, with
    notebooks, ids and times: {"folders": [[id, title]], "notes": [...]}."""
    folders = [r["folder"] for r in relevant]
    rows = list(relevant)
    while len(rows) < len(relevant) + n:
        row = random_note(rng, folders)
        if not excluded(row):
            rows.append(row)
    names = sorted({r["folder"] for r in rows})
    ids = {name: hex_id(rng) for name in names}
    out = []
    for k in rng.permutation(len(rows)):
        r = rows[int(k)]
        t = NOW_MS - int(rng.integers(3600, 30 * 86400)) * 1000
        out.append({**r, "id": hex_id(rng), "parent_id": ids[r["folder"]], "time": t,
                    "done_time": t + 60000 if r["completed"] else 0})
    return {"folders": [[ids[n], n] for n in names], "notes": out}


# --- seeding and reading -------------------------------------------------------------------------


def insert_sql(folders: list, notes: list[dict]) -> str:
    parts = [f"INSERT INTO folders (id, title, created_time, updated_time, user_created_time,"
             f" user_updated_time) VALUES ({sql_value(fid)}, {sql_value(title)}, {NOW_MS - 40 * 86400000},"
             f" {NOW_MS - 40 * 86400000}, {NOW_MS - 40 * 86400000}, {NOW_MS - 40 * 86400000});"
             for fid, title in folders]
    for n in notes:
        v = [sql_value(x) for x in (n["id"], n["parent_id"], n["title"], n["body"])]
        t, done, todo = n["time"], n["done_time"], n["is_todo"]
        parts.append("INSERT INTO notes (id, parent_id, title, body, created_time, updated_time,"
                     " user_created_time, user_updated_time, is_todo, todo_completed) VALUES"
                     f" ({', '.join(v)}, {t}, {t}, {t}, {t}, {todo}, {done});")
        parts.append("INSERT INTO notes_normalized (id, parent_id, title, body, user_created_time,"
                     " user_updated_time, is_todo, todo_completed) VALUES"
                     f" ({v[0]}, {v[1]}, {sql_value(n['title'].lower())}, {v[3]}, {t}, {t}, {todo}, {done});")
    return "".join(parts)


def _dump() -> str:
    """One SELECT printing, per row of each table, the INSERT that puts it back."""
    sels = [f"SELECT 'INSERT INTO {table} VALUES(' || "
            + " || ',' || ".join(f"quote({c})" for c in cols) + f" || ');' FROM {table}"
            for table, cols in TABLES.items()]
    return " UNION ALL ".join(sels) + ";"


WIPE = "DELETE FROM folders; DELETE FROM notes; DELETE FROM notes_normalized;"


def replace_notes(device: Device, script: str, read_first: bool = False) -> str | None:
    """Empty the three tables and run `script` in one `sqlite3` call; with `read_first`,
    return the statements that restore what was there (one call more)."""
    before = sh(device, f"sqlite3 {DB} {q(_dump())}") if read_first else None
    sh(device, f"sqlite3 {DB} {q(WIPE + script)}")
    return before


@dataclasses.dataclass
class SeedNotes(Recipe):
    """Joplin holds exactly `data` ({"folders", "notes"} as `with_distractors` makes);
    tear-down puts back the notebooks and notes there were."""

    data: Any

    def apply(self, device: Device) -> None:
        first = self.saved is UNSET
        d = dict(self.data or {})
        before = replace_notes(device, insert_sql(d.get("folders", []), d.get("notes", [])),
                               read_first=first)
        if first:
            self.saved = before

    def restore(self, device: Device, saved: Any) -> None:
        replace_notes(device, str(saved or ""))


def state(device: Device) -> str:
    """What the contract compares before set-up and after tear-down: every row of the
    three tables."""
    return device.shell(f"sqlite3 {DB} {q(_dump())}").stdout


# --- solution steps ----------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Joplin", package=PKG)


def open_note(title: str) -> list:
    """Search for the note by its title and open it."""
    return [Tap(screen=MAIN, target=Target(desc="Search")),
            TypeText(screen=SEARCH, target=Target(rid="search_input", cls="EditText"), text=title),
            Tap(screen=SEARCH, target=Target(text=title))]


def open_folder(folder: str) -> list:
    """Open the notebook from the side menu (done once the toolbar names it)."""
    done = Holds(ElementShows(({"resource_id": Eq(f"{PKG}:id/toolbar_title"), "text": Eq(folder)},)))
    return [Tap(screen=MAIN, target=Target(desc="Open side menu"), done=done),
            Tap(screen=MENU, target=Target(text=folder), done=done)]
