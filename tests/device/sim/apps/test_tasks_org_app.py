"""Tasks.org on the simulated phone: the list and the editor, driven by taps, read back
through `sqlite3` and a pulled database file."""

from __future__ import annotations

import sqlite3
import tempfile

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import tasks_org as to
from tests.screen import find, tap, texts

PKG = "org.tasks"


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


def row_of(dev: SimDevice, title: str) -> dict:
    """A list row's elements by resource id: the completion box, title and due date."""
    t = next(e for e in dev.ui_elements() if e.text == title)
    return {e.resource_name.rsplit("/", 1)[1]: e for e in dev.ui_elements()
            if e.resource_name and abs(e.center[1] - t.center[1]) < 10
            and e.resource_name.rsplit("/", 1)[1] in ("completeBox", "title", "due_date")}


def test_list_shows_open_tasks_with_due_date(dev):
    shown = texts(dev)
    assert shown.index("Buy milk") < shown.index("Pay rent")
    assert row_of(dev, "Buy milk")["due_date"].text == "Tomorrow"
    assert row_of(dev, "Pay rent")["due_date"].text == "Fri, Oct 20 5:00 PM"
    assert "Old chore" not in shown
    assert not any("priority" in (e.text or "").casefold() for e in dev.ui_elements())


def drawn_in(dev: SimDevice, el) -> tuple[int, int, int]:
    """The colour an element is drawn in: the commonest in its box but the background's
    (its top left corner)."""
    b = el.bbox_pixels
    px = dev.screenshot()[b.y_min:b.y_max, b.x_min:b.x_max]
    bg = tuple(int(v) for v in px[0, 0])
    colours, counts = np.unique(px.reshape(-1, 3), axis=0, return_counts=True)
    ranked = [tuple(int(v) for v in c) for c in colours[np.argsort(-counts)]]
    return next(c for c in ranked if c != bg)


def test_priority_is_the_completion_boxs_colour_and_nothing_else(dev):
    to.replace_tasks(dev, to.insert_sql([
        dict(to.task_row(title, imp), _id=i, remoteId=str(i))
        for i, (title, imp) in enumerate((("Red", 0), ("Amber", 1), ("Blue", 2), ("Grey", 3)), 1)]))
    dev.launch(PKG)
    want = {"Red": (0xF4, 0x43, 0x36), "Amber": (0xFF, 0xC1, 0x07), "Blue": (0x21, 0x96, 0xF3),
            "Grey": (0x9E, 0x9E, 0x9E)}
    for title, colour in want.items():
        box = row_of(dev, title)["completeBox"]
        # as the app's CheckableImageView: an ImageView saying nothing of the priority
        assert box.class_name == "android.widget.ImageView" and box.is_clickable
        assert not box.content_description and not box.text and not box.is_checkable
        assert drawn_in(dev, box) == colour


def test_the_editor_shows_priority_as_four_coloured_radio_buttons(dev):
    tap(dev, text="Buy milk")   # high priority
    label = find(dev, text="Priority")
    radios = [e for e in dev.ui_elements() if e.class_name == "android.widget.RadioButton"]
    assert len(radios) == 4 and all(abs(r.center[1] - label.center[1]) < 20 for r in radios)
    assert [r.is_checked for r in sorted(radios, key=lambda r: r.center[0])] == [
        False, False, False, True]   # None, Low, Medium, High from the left
    assert not any(r.text or r.content_description for r in radios)
    assert [drawn_in(dev, r) for r in sorted(radios, key=lambda r: r.center[0])] == [
        (0x9E, 0x9E, 0x9E), (0x21, 0x96, 0xF3), (0xFF, 0xC1, 0x07), (0xF4, 0x43, 0x36)]


def test_show_completed_adds_the_completed_section(dev):
    tap(dev, desc="More options")
    tap(dev, text="Show completed")
    shown = texts(dev)
    assert "Completed" in shown and "Old chore" in shown
    assert to.ShowsCompleted().score(dev, None) == 1.0


def test_ticking_a_task_completes_it_in_the_database(dev):
    dev.tap(*row_of(dev, "Buy milk")["completeBox"].center)
    assert query(dev, "SELECT completed > 0 FROM tasks WHERE _id = 1").strip() == "1"
    assert "Buy milk" not in texts(dev)


def test_editor_saves_priority_and_title_read_back_from_pulled_file(dev):
    tap(dev, text="Pay rent")
    assert dev.foreground()[1].endswith("TaskEditActivity")
    radios = sorted((e for e in dev.ui_elements() if e.class_name == "android.widget.RadioButton"),
                    key=lambda e: e.center[0])
    dev.tap(*radios[2].center)   # the third from the left: medium
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
