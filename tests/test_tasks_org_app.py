"""Tasks.org on the simulated phone: the list and the editor, driven by taps, read back
through `sqlite3` and a pulled database file."""

from __future__ import annotations

import sqlite3
import tempfile

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import tasks_org as to

PKG = "org.tasks"


def find(dev: SimDevice, text: str | None = None, desc: str | None = None):
    return next((e for e in dev.ui_elements() if (text is None or e.text == text)
                 and (desc is None or e.content_description == desc)), None)


def tap(dev: SimDevice, text: str | None = None, desc: str | None = None) -> None:
    e = find(dev, text, desc)
    assert e is not None, (text, desc, [x.text for x in dev.ui_elements()])
    dev.tap(*e.center)


def texts(dev: SimDevice) -> list[str]:
    return [e.text for e in dev.ui_elements() if e.text]


ROWS = [
    dict(to.task_row("Buy milk", 0, to.due_ms("October 16 2023")), _id=1, remoteId="1"),
    dict(to.task_row("Pay rent", 3, to.due_ms("October 20 2023", "5:00pm")), _id=2, remoteId="2"),
    dict(to.task_row("Old chore", 2, to.due_ms("October 12 2023"), completed=1697000000000), _id=3,
         remoteId="3"),
]


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    to.replace_tasks(d, to.insert_sql(ROWS))
    d.launch(PKG)
    return d


def query(dev: SimDevice, sql: str) -> str:
    res = dev.shell(f"sqlite3 {to.DB} \"{sql}\"")
    assert res.exit_code == 0, res.stderr
    return res.stdout


def test_list_shows_open_tasks_with_due_chip_and_priority(dev):
    shown = texts(dev)
    assert shown.index("Buy milk") < shown.index("Pay rent")
    assert "Tomorrow · High priority" in shown
    assert "Fri, Oct 20 5:00 PM" in shown
    assert "Old chore" not in shown


def test_show_completed_adds_the_completed_section(dev):
    tap(dev, desc="More options")
    tap(dev, text="Show completed")
    shown = texts(dev)
    assert "Completed" in shown and "Old chore" in shown
    assert to.ShowsCompleted().score(dev, None) == 1.0


def test_ticking_a_task_completes_it_in_the_database(dev):
    row = next(e for e in dev.ui_elements() if e.text == "Buy milk")
    box = next(e for e in dev.ui_elements() if (e.class_name or "").endswith("CheckBox")
               and abs(e.center[1] - row.center[1]) < 60)
    dev.tap(*box.center)
    assert query(dev, "SELECT completed > 0 FROM tasks WHERE _id = 1").strip() == "1"
    assert "Buy milk" not in texts(dev)


def test_editor_saves_priority_and_title_read_back_from_pulled_file(dev):
    tap(dev, text="Pay rent")
    assert dev.foreground()[1].endswith("TaskEditActivity")
    tap(dev, text="Medium")
    dev.key("KEYCODE_BACK")
    with tempfile.NamedTemporaryFile(suffix=".db") as f:
        f.write(dev.pull(to.DB))
        f.flush()
        row = sqlite3.connect(f.name).execute("SELECT importance FROM tasks WHERE _id = 2").fetchone()
    assert row == (1,)


def test_due_dates_keep_the_apps_time_mark():
    assert to.due_ms("October 16 2023") % 60000 == 0
    assert to.due_ms("October 16 2023", "5:00pm") % 60000 == 1000
    assert to.clock("12am").hour == 0 and to.clock("12pm").hour == 12
