"""Joplin on the simulated phone: notebooks, the note list, search and the note viewer,
driven by taps and read back through `sqlite3`."""

from __future__ import annotations

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import joplin as jp
from tests.screen import find, tap, texts

PKG = "net.cozic.joplin"


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    notes = [jp.note("Tacos", "Ingredients:\n- 1 cup tahini\n- 2 tortillas", "Recipes"),
             jp.note("Shopping", "milk", "Home", is_todo=True)]
    data = jp.with_distractors(np.random.default_rng(0), notes, lambda n: n["title"] in ("Tacos", "Shopping"),
                               n=0)
    jp.replace_notes(d, jp.insert_sql(data["folders"], data["notes"]))
    d.launch(PKG)
    return d


def test_all_notes_then_a_notebook_from_the_side_menu(dev):
    assert {"All notes", "Tacos", "Shopping"} <= set(texts(dev))
    tap(dev, desc="Open side menu")
    tap(dev, text="Recipes")
    shown = texts(dev)
    assert "Recipes" in shown and "Tacos" in shown and "Shopping" not in shown


def test_search_opens_the_rendered_note(dev):
    tap(dev, desc="Search")
    e = next(e for e in dev.ui_elements() if (e.class_name or "").endswith("EditText"))
    dev.tap(*e.center)
    dev.type_text("Tac")
    tap(dev, text="Tacos")
    assert dev.foreground()[1].endswith("NoteActivity")
    assert "• 1 cup tahini" in texts(dev)


def test_ticking_a_todo_writes_both_tables(dev):
    row = find(dev, text="Shopping")
    box = next(e for e in dev.ui_elements() if (e.class_name or "").endswith("CheckBox")
               and abs(e.center[1] - row.center[1]) < 60)
    dev.tap(*box.center)
    out = dev.shell(f"sqlite3 {jp.DB} 'SELECT n.todo_completed > 0, m.todo_completed > 0 FROM notes n"
                    " JOIN notes_normalized m ON m.id = n.id WHERE n.title = \"Shopping\"'").stdout
    assert out.strip() == "1|1"


def test_ids_are_32_hex_digits(dev):
    ids = dev.shell(f"sqlite3 {jp.DB} 'SELECT id FROM notes UNION SELECT id FROM folders'").stdout.split()
    assert ids and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
