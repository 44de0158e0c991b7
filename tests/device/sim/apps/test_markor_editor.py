"""Markor's editor and browser the way a person uses them, through the public device
interface: line-level editing with taps and keys (reaching the reference templates'
expected content exactly), the overflow menu's Search / Replace dialog, and the
browser's "Sort by" menu (a preference that outlives a force-stop; newest first by date)."""

from __future__ import annotations

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.apps import markor as mk
from tests.screen import find_all, long_press, need, tap

ROOT = mk.ROOT
RID = mk.PKG + ":id/"
EDITOR = RID + "document__fragment__edit__highlighting_editor"
PREFS = f"/data/data/{mk.PKG}/shared_prefs/{mk.PKG}_preferences.xml"


# --- helpers -------------------------------------------------------------------------------


def editor_text(dev: SimDevice) -> str:
    return need(dev, rid=EDITOR).text or ""


def tap_in_text(dev: SimDevice, line: int, col: int | None) -> None:
    """Tap the editor on logical line `line` (no wrapping: short lines), before
    character `col` (None: past the end of the line)."""
    ed = need(dev, rid=EDITOR).bbox_pixels
    d = dev.phone.density
    size = round(16 * d)
    text = editor_text(dev).split("\n")[line]
    x = ed.x_min + round(16 * d) + (txt.text_width(text[:col], size) if col is not None
                                    else ed.x_max - ed.x_min - round(40 * d))
    y = ed.y_min + round(12 * d) + txt.line_height(size) * line + txt.line_height(size) // 2
    dev.tap(x, y)


def tap_below_text(dev: SimDevice) -> None:
    """A tap under the last line puts the cursor at the very end."""
    ed = need(dev, rid=EDITOR).bbox_pixels
    dev.tap((ed.x_min + ed.x_max) // 2, ed.y_max - round(24 * dev.phone.density))


def task(tid: str, seed: int = 0):
    cls = TEMPLATES[tid]
    return cls(cls.generate_params(np.random.default_rng(seed)))


def set_up(dev: SimDevice, tid: str, seed: int = 0):
    t = task(tid, seed)
    t.setup(dev)
    assert dev.launch(mk.PKG).ok
    return t


def open_note(dev: SimDevice, name: str) -> None:
    tap(dev, text=name)
    assert need(dev, rid=RID + "toolbar_title").text == name


def save(dev: SimDevice) -> None:
    tap(dev, desc="Save")


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


# --- line-level editing: the reference templates by hand -------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_prepend_line_by_tapping_before_the_first_character(dev, seed):
    t = set_up(dev, "MarkorPrependLine", seed)
    open_note(dev, t.params["file_name"])
    tap_in_text(dev, 0, 0)
    dev.type_text(t.params["line_to_prepend"])
    dev.key("KEYCODE_ENTER")
    save(dev)
    assert t.is_successful(dev) == 1.0
    got = dev.shell(f"cat {mk.q(mk.note_path(t.params['file_name']))}").stdout
    assert got == t.params["line_to_prepend"] + "\n" + t.params["original_content"]


def test_append_line_by_tapping_below_the_text(dev):
    t = set_up(dev, "MarkorAppendLine")
    open_note(dev, t.params["file_name"])
    tap_below_text(dev)
    dev.key("KEYCODE_ENTER")
    dev.type_text(t.params["line_to_append"])
    save(dev)
    assert t.is_successful(dev) == 1.0
    assert editor_text(dev) == t.params["original_content"] + "\n" + t.params["line_to_append"]


def test_insert_middle_line_at_the_end_of_the_first_line(dev):
    t = set_up(dev, "MarkorInsertMiddleLine")
    open_note(dev, t.params["file_name"])
    tap_in_text(dev, 0, None)
    dev.key("KEYCODE_ENTER")
    dev.type_text(t.params["middle_line"])
    save(dev)
    assert t.is_successful(dev) == 1.0
    p = t.params
    assert editor_text(dev) == "\n".join((p["line1"], p["middle_line"], p["line2"]))


def test_remove_last_line_with_backspace(dev):
    t = set_up(dev, "MarkorRemoveLastLine")
    open_note(dev, t.params["file_name"])
    tap_below_text(dev)
    for _ in range(len(t.params["line3"]) + 1):  # the line and the newline before it
        dev.key("KEYCODE_DEL")
    dev.key("KEYCODE_BACK")  # the keyboard
    dev.key("KEYCODE_BACK")  # the editor: Markor saves on leaving
    assert t.is_successful(dev) == 1.0


def test_keys_reach_the_start_and_end_of_the_note(dev):
    dev.shell(f"printf 'one\\ntwo\\nthree' > {ROOT}/k.md")
    dev.launch(mk.PKG)
    open_note(dev, "k.md")
    tap_in_text(dev, 2, 2)  # "th|ree"
    dev.key("KEYCODE_DPAD_UP")
    dev.key("KEYCODE_DPAD_UP")
    dev.key("KEYCODE_MOVE_HOME")
    dev.type_text("# ")
    dev.key("KEYCODE_DPAD_DOWN")
    dev.key("KEYCODE_DPAD_DOWN")
    dev.key("KEYCODE_MOVE_END")
    dev.type_text("!")
    assert editor_text(dev) == "# one\ntwo\nthree!"


def test_select_all_and_delete_then_type_replaces_the_note(dev):
    seed = next(i for i in range(50) if task("MarkorEditNote", i).params["edit_type"] == "replace")
    t = set_up(dev, "MarkorEditNote", seed)
    open_note(dev, t.params["file_name"])
    tap_in_text(dev, 0, 0)
    dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    dev.key("KEYCODE_DEL")
    assert editor_text(dev) == ""
    for i, line in enumerate(t.params["replace_text"].split("\n")):
        if i:
            dev.key("KEYCODE_ENTER")
        dev.type_text(line)
    save(dev)
    assert t.is_successful(dev) == 1.0
    assert editor_text(dev) == t.params["replace_text"]


# --- Search / Replace ----------------------------------------------------------------------


def open_replace(dev: SimDevice) -> None:
    tap(dev, desc="More options")
    tap(dev, text="Search / Replace")
    assert need(dev, rid="android:id/alertTitle").text == "Search / Replace"


def fill_replace(dev: SimDevice, search: str, replace: str) -> None:
    tap(dev, rid=RID + "search_input")
    dev.type_text(search)
    tap(dev, rid=RID + "replace_input")
    dev.type_text(replace)


def matches(dev: SimDevice) -> str:
    return need(dev, rid=RID + "match_count_or_error").text


def test_replace_all_solves_a_replace_template(dev):
    t = set_up(dev, "MarkorReplaceCatDog", 3)
    open_note(dev, t.params["file_name"])
    open_replace(dev)
    fill_replace(dev, "cat", "dog")
    assert matches(dev) == f"Matches: {t.params['original_content'].count('cat')}"
    tap(dev, text="Replace all")
    assert not find_all(dev, rid="android:id/alertTitle")
    assert editor_text(dev) == t.params["original_content"].replace("cat", "dog")
    assert t.is_successful(dev) == 0.0  # not saved yet
    save(dev)
    assert t.is_successful(dev) == 1.0


def test_replace_once_takes_the_first_match_after_the_cursor(dev):
    dev.shell(f"printf 'ab ab ab' > {ROOT}/r.md")
    dev.launch(mk.PKG)
    open_note(dev, "r.md")
    tap_in_text(dev, 0, 4)  # "ab a|b ab": the next whole match is the third
    open_replace(dev)
    fill_replace(dev, "ab", "X")
    assert matches(dev) == "Matches: 3"
    tap(dev, text="Replace (1)")
    assert editor_text(dev) == "ab ab X"
    open_replace(dev)
    fill_replace(dev, "ab", "Y")
    tap(dev, rid=RID + "replace_once")
    assert editor_text(dev) == "Y ab X"  # no match after the cursor now: the first one


def test_regex_groups_escapes_and_multiline(dev):
    dev.shell(f"printf 'a1\\nb2' > {ROOT}/g.md")
    dev.launch(mk.PKG)
    open_note(dev, "g.md")
    open_replace(dev)
    fill_replace(dev, "^([a-z])", "- $1")
    assert matches(dev) == "Matches: 0"  # literal without Regex
    tap(dev, text="Multiline")  # disabled until Regex is on
    assert not need(dev, rid=RID + "multiline").is_checked
    tap(dev, text="Regex")
    assert matches(dev) == "Matches: 1"  # ^ is the text's start only
    tap(dev, text="Multiline")
    assert need(dev, rid=RID + "multiline").is_checked
    assert matches(dev) == "Matches: 2"
    tap(dev, text="Replace all")
    assert editor_text(dev) == "- a1\n- b2"
    open_replace(dev)  # Regex stays on; an escape in the replacement becomes a newline
    fill_replace(dev, r"\d", r"\n")
    tap(dev, text="Replace all")
    assert editor_text(dev) == "- a\n\n- b\n"


def test_a_bad_pattern_disables_the_buttons_and_cancel_keeps_the_text(dev):
    dev.shell(f"printf 'keep (me)' > {ROOT}/e.md")
    dev.launch(mk.PKG)
    open_note(dev, "e.md")
    open_replace(dev)
    tap(dev, text="Regex")
    fill_replace(dev, "(me", "x")
    assert matches(dev) == "Search or replace pattern error."
    assert not need(dev, text="Replace all").is_enabled
    tap(dev, text="Replace all")
    assert editor_text(dev) == "keep (me)"
    tap(dev, text="Cancel")
    assert not find_all(dev, rid="android:id/alertTitle")
    open_replace(dev)
    dev.key("KEYCODE_BACK")  # BACK closes the dialog, not the editor
    assert not find_all(dev, rid="android:id/alertTitle")
    assert need(dev, rid=RID + "toolbar_title").text == "e.md"


# --- Sort by -------------------------------------------------------------------------------


def rows(dev: SimDevice) -> list[str]:
    names = {"a.md", "b.md", "c.md", "Work"}
    return [e.text for e in dev.ui_elements() if e.text in names]


@pytest.fixture
def notes(dev) -> SimDevice:
    dev.shell(f"printf bb > {ROOT}/a.md && printf cccc > {ROOT}/b.md && printf c > {ROOT}/c.md"
              f" && mkdir {ROOT}/Work && touch -d '2023-10-15 09:00:00' {ROOT}/b.md"
              f" && touch -d '2023-10-15 11:00:00' {ROOT}/a.md"
              f" && touch -d '2023-10-15 10:00:00' {ROOT}/c.md"
              f" && touch -d '2023-10-15 08:00:00' {ROOT}/Work")
    dev.launch(mk.PKG)
    return dev


def sort(dev: SimDevice, label: str) -> None:
    tap(dev, desc="Sort by")
    tap(dev, text=label)


def test_sort_by_date_puts_the_newest_first_and_rows_show_the_device_time(notes):
    dev = notes
    assert rows(dev) == ["Work", "a.md", "b.md", "c.md"]  # the default: name, folders first
    sort(dev, "Date")
    assert rows(dev) == ["Work", "a.md", "c.md", "b.md"]
    assert find_all(dev, text="Oct 15, 2023 11:00  ·  2 B")
    sort(dev, "Folder first")
    assert rows(dev) == ["a.md", "c.md", "b.md", "Work"]
    sort(dev, "Reverse order")
    assert rows(dev) == ["Work", "b.md", "c.md", "a.md"]
    sort(dev, "Size")  # still reversed: the smallest first (an empty folder is 0)
    assert rows(dev) == ["Work", "c.md", "a.md", "b.md"]


def test_sort_menu_shows_its_state_and_closes_on_a_touch_outside(notes):
    dev = notes
    sort(dev, "Date")
    tap(dev, desc="Sort by")
    radios = [e for e in dev.ui_elements() if e.class_name.endswith("RadioButton")]
    assert [r.is_checked for r in radios] == [False, True, False]
    dev.tap(20, dev.phone.height // 2)  # outside the menu, over the list
    assert not [e for e in dev.ui_elements() if e.class_name.endswith("RadioButton")]
    assert dev.foreground()[1].endswith("MainActivity")  # no note was opened


def test_sort_order_is_a_preference_kept_over_force_stop_until_pm_clear(notes):
    dev = notes
    sort(dev, "Date")
    assert "MTIME" in dev.shell(f"cat {PREFS}").stdout
    dev.shell(f"am force-stop {mk.PKG}")
    dev.launch(mk.PKG)
    assert rows(dev) == ["Work", "a.md", "c.md", "b.md"]
    snap = dev.phone.snapshot()
    dev.shell(f"pm clear {mk.PKG}")
    dev.shell(f"pm grant {mk.PKG} android.permission.MANAGE_EXTERNAL_STORAGE")
    dev.launch(mk.PKG)
    for _ in range(4):  # a cleared Markor starts with its intro again
        tap(dev, desc="NEXT")
    tap(dev, text="DONE")
    assert rows(dev) == ["Work", "a.md", "b.md", "c.md"]
    dev.phone.restore(snap)
    dev.launch(mk.PKG)
    assert rows(dev) == ["Work", "a.md", "c.md", "b.md"]


def test_delete_newest_by_sorting_by_date(dev):
    t = set_up(dev, "MarkorDeleteNewestNote", 2)
    sort(dev, "Date")
    top = next(e.text for e in dev.ui_elements() if e.text in t.params["notes"])
    assert top == t.params["newest"]
    long_press(dev, text=top)
    tap(dev, text="Delete")
    tap(dev, text="Delete")
    assert t.is_successful(dev) == 1.0
