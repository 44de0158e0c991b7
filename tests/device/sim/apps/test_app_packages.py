"""An app is one package, registered in one place.

Each installed app lives in its own package under `device/sim/apps/` with its
screens, storage and launcher entry; the phone, the launcher, the painter, the
shell and the system storage name no app. A new app (a small notebook, defined
here) is installed by listing it, and then has its launcher icon, its intent,
its content provider, its database file and `pm clear` -- touching no other file.
"""

from __future__ import annotations

import ast
import importlib
import sqlite3
import sys
from pathlib import Path

import numpy as np
import pytest

import antrap_gym.tasks
from antrap_gym.device.protocol import KNOWN_APPS
from antrap_gym.device.sim.apps import INSTALLED, Activity, App, default_apps
from antrap_gym.device.sim.phone import Phone
from antrap_gym.device.sim.shell.interpreter import Shell
from antrap_gym.device.sim.storage.content import ContentProvider, Table
from antrap_gym.device.sim.storage.sqlite import SqliteStore
from tests.paths import ROOT
from tests.screen import tap, texts

SIM = ROOT / "antrap_gym" / "device" / "sim"
TASKS = ROOT / "tasks"
NOTEBOOK = "org.example.notebook"
NOTES_DB = f"/data/data/{NOTEBOOK}/databases/notes.db"


# --- a new app, all in one place ------------------------------------------------------------------


class NotesProvider(ContentProvider):
    authority = NOTEBOOK
    path = NOTES_DB
    schema = "CREATE TABLE notes (_id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL);"
    paths = {"notes": Table("notes", "notes", order="_id")}


class NotesActivity(Activity):
    package = NOTEBOOK
    name = ".NotesActivity"

    def build(self, ui, phone) -> None:
        notes = NotesProvider.of(phone).query("notes", ["title"])[1]
        ui.toolbar("Notebook")
        if not notes:
            ui.empty("No notes")
        else:
            with ui.scroll("notes"):
                for (title,) in notes:
                    ui.row(title)
        ui.fab("add", "New note", lambda: NotesProvider.of(phone).insert("notes", {"title": "Untitled"}))


class Notebook(App):
    package = NOTEBOOK
    label = "Notebook"
    icon_color = (200, 60, 60)
    main = NotesActivity
    intents = {"org.example.notebook.action.NOTES": None}
    storage = (NotesProvider,)


# --- the installed apps ---------------------------------------------------------------------------------


def test_every_installed_app_is_one_package_exporting_its_app():
    apps = default_apps()
    assert len(apps) == len(INSTALLED)
    for name, app in zip(INSTALLED, apps):
        pkg = importlib.import_module(f"antrap_gym.device.sim.apps.{name}")
        assert hasattr(pkg, "__path__"), f"{name} is a package, not a module"
        assert pkg.APP is app
        inside = f"antrap_gym.device.sim.apps.{name}."
        for part in (app, app.main, *app.activities, *app.storage):
            assert part.__module__.startswith(inside), f"{part.__qualname__} is outside {name}/"


def test_every_launchable_app_is_known_to_real_devices_by_its_label():
    """A real device finds an app by KNOWN_APPS (AndroidWorld's lower-case names): an app
    installed on the simulated phone but missing there would open here and not on an
    emulator."""
    for app in default_apps():
        if app.launchable:
            assert KNOWN_APPS.get(app.label.lower()) == app.package, (
                f"{app.label} ({app.package}) is not in device/protocol.py's KNOWN_APPS")


def test_every_template_module_is_found_without_being_named():
    """tasks/ imports each of its modules itself, so a new `<app>_tasks.py` registers its
    templates by being there; each registered template comes from one of them."""
    on_disk = {p.stem for p in TASKS.glob("*.py") if p.stem != "__init__"}
    assert set(antrap_gym.tasks.MODULES) == on_disk
    assert all(f"antrap_gym.tasks.{m}" in sys.modules for m in on_disk)
    homes = {cls.__module__.rsplit(".", 1)[-1] for cls in antrap_gym.tasks.TEMPLATES.values()}
    assert homes <= on_disk and len(homes) >= 20


def test_a_template_on_an_app_real_devices_cannot_find_is_refused():
    from antrap_gym.tasks.base import Task
    from antrap_gym.tasks.registry import TEMPLATES, register

    class NotebookAddNote(Task):
        apps = (NOTEBOOK,)

    with pytest.raises(ValueError, match=r"org\.example\.notebook.*KNOWN_APPS"):
        register(NotebookAddNote)
    assert "NotebookAddNote" not in TEMPLATES


def _strings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_the_phone_launcher_painter_shell_and_storage_name_no_app():
    """Adding an app touches no central file: nothing outside the apps' own packages
    names one (the window manager's launcher package aside)."""
    names = set()
    for app in default_apps():
        if app.launchable:
            names.add(app.package)
        for store in app.storage:
            names |= {store.path, getattr(store, "authority", "")} - {""}
    central = [SIM / "phone.py", SIM / "device.py", SIM / "render" / "painter.py",
               SIM / "apps" / "launcher" / "screens.py", SIM / "apps" / "base.py",
               SIM / "apps" / "__init__.py", *(SIM / "shell").glob("*.py"),
               *(SIM / "storage").glob("*.py"), SIM.parent / "adbd" / "sync.py"]
    # the registration's module names are not apps named (the sms module and the sms
    # provider's authority are both "sms")
    found = {f"{p.relative_to(SIM)}: {s}" for p in central for s in _strings(p) - set(INSTALLED)
             for n in names if n in s}
    assert not found, sorted(found)


# --- a new app ----------------------------------------------------------------------------------------------


@pytest.fixture
def phone() -> Phone:
    return Phone(apps=[*default_apps(), Notebook])


def test_a_new_app_has_its_launcher_icon_and_screens(phone):
    home = texts(phone)
    assert home[:3] == ["Contacts", "Markor", "Settings"]  # the pinned apps, in order
    assert "Notebook" not in home  # not pinned: the home screen is as it was
    assert home == texts(Phone())
    tap(phone, text="All apps")  # the drawer: every app, by label
    drawer = [e.text for e in phone.ui_elements()
              if e.resource_name == "com.google.android.apps.nexuslauncher:id/icon"]
    assert "Notebook" in drawer and drawer == sorted(drawer, key=str.lower)
    tap(phone, text="Notebook")
    assert phone.focused_component() == (NOTEBOOK, NOTEBOOK + ".NotesActivity")
    assert "No notes" in texts(phone)
    tap(phone, desc="New note")
    assert "Untitled" in texts(phone) and "No notes" not in texts(phone)
    phone.press_home()
    tap(phone, text="Contacts")  # the other apps are as they were
    assert phone.focused_component()[0] == "com.google.android.contacts"


def test_a_new_app_answers_its_intent_provider_database_and_pm_clear(phone, tmp_path):
    sh = Shell(phone)
    assert sh.run("am start -a org.example.notebook.action.NOTES").ok
    assert phone.focused_component()[0] == NOTEBOOK
    uri = f"content://{NOTEBOOK}/notes"
    assert sh.run(f"content insert --uri {uri} --bind 'title:s:Groceries'").ok
    assert sh.run(f"content query --uri {uri}").stdout == "Row: 0 _id=1, title=Groceries\n"
    assert sh.run(f"sqlite3 {NOTES_DB} \"INSERT INTO notes (title) VALUES ('Ideas')\"").ok
    assert sh.run(f"ls /data/data/{NOTEBOOK}/databases").stdout == "notes.db\n"
    (tmp_path / "notes.db").write_bytes(phone.fs.read(NOTES_DB))
    db = sqlite3.connect(tmp_path / "notes.db")
    assert db.execute("SELECT title FROM notes ORDER BY _id").fetchall() == [("Groceries",), ("Ideas",)]
    snap = phone.snapshot()
    assert NOTES_DB in snap[1]
    sh.run("content insert --uri content://com.android.contacts/raw_contacts --bind starred:i:1")
    assert sh.run(f"pm clear {NOTEBOOK}").stdout == "Success\n"
    assert sh.run(f"content query --uri {uri}").stdout == "No result found.\n"
    # the contacts provider's database is another package's: untouched
    assert sh.run("content query --uri content://com.android.contacts/raw_contacts --projection _id"
                  ).stdout == "Row: 0 _id=1\n"
    phone.restore(snap)
    assert sh.run(f"content query --uri {uri} --projection title").stdout.count("Row:") == 2


def test_two_apps_cannot_claim_one_database_or_authority():
    class Copy(NotesProvider):
        authority = "org.example.other"

    class Other(App):
        package = "org.example.other"
        label = "Other"
        main = NotesActivity
        storage = (Copy,)

    with pytest.raises(ValueError, match="database"):
        Phone(apps=[*default_apps(), Notebook, Other])


def test_the_launcher_icon_shows_the_apps_glyph():
    class Glyph(Notebook):
        icon_glyph = "Z"

    def drawer(app: type[App]) -> Phone:
        phone = Phone(apps=[*default_apps(), app])
        tap(phone, text="All apps")
        return phone

    plain = drawer(Notebook).screenshot()
    marked = drawer(Glyph).screenshot()
    rows, cols = np.nonzero((plain != marked).any(axis=2))
    assert rows.size  # the glyph differs...
    icon = next(e for e in drawer(Notebook).ui_elements() if e.text == "Notebook")
    box = icon.bbox_pixels
    assert box.x_min <= cols.min() and cols.max() < box.x_max  # ...on the Notebook icon only
    assert box.y_min <= rows.min() and rows.max() < box.y_max


def test_a_fresh_store_is_what_pm_clear_restores():
    class Counter(SqliteStore):
        path = "/data/data/org.example.counter/databases/c.db"
        schema = "CREATE TABLE n (v INTEGER); INSERT INTO n VALUES (0);"
        version = 7

    store = Counter()
    store.sql("UPDATE n SET v = 5")
    store.reset()
    assert store.sql("SELECT v FROM n") == [(0,)]
    assert store.sql("PRAGMA user_version") == [(7,)]
