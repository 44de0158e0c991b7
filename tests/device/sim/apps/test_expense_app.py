"""Pro Expense on the simulated phone: its screens driven by taps and typing, read back
through `sqlite3` in the shell and a pulled copy of accounting.db; the adapter's draw,
text forms and recipe; the Deduplicated check."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps.expense.store import parse_amount
from antrap_gym.tasks.apps import expense as ex
from antrap_gym.tasks.checks import Deduplicated
from tests.screen import find, tap, type_into

ROWS = [
    {"name": "Coffee", "amount": 450, "category": 3, "note": "Urgent",
     "created_date": 1697200000000, "modified_date": 1697200000000},
    {"name": "Rent Payment", "amount": 120000, "category": 4, "note": "Monthly recurring",
     "created_date": 1697300000000, "modified_date": 1697300000000},
    {"name": "Taxi Fare", "amount": 2375, "category": 7, "note": "Paid by card",
     "created_date": 1696500000000, "modified_date": 1696500000000},
]


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


def rows_in_shell(dev: SimDevice) -> list[list[str]]:
    out = dev.shell(f"sqlite3 {ex.DB} 'SELECT name, amount, category, note FROM expense "
                    "ORDER BY expense_id'").stdout
    return [line.split("|") for line in out.splitlines()]


def open_logs(dev: SimDevice) -> None:
    dev.launch(ex.PKG)
    tap(dev, text="More")


def test_adding_from_the_form_stores_cents_and_the_category(dev, tmp_path):
    dev.launch(ex.PKG)
    tap(dev, desc="Add expense")
    type_into(dev, "edt_name", "Groceries")
    type_into(dev, "edt_amount", "12.34")
    tap(dev, rid="sp_category")
    tap(dev, text="Food")
    assert find(dev, rid="sp_category").text == "Food"
    assert find(dev, rid="tv_date").text == "Oct 15, 2023"  # today, read-only
    type_into(dev, "edt_note", "A need")
    tap(dev, text="Save")
    assert rows_in_shell(dev) == [["Groceries", "1234", "3", "A need"]]
    # the pulled file is a SQLite database with the same row
    local = tmp_path / "accounting.db"
    local.write_bytes(dev.pull(ex.DB))
    con = sqlite3.connect(local)
    assert con.execute("SELECT name, amount, category, note FROM expense").fetchall() == [
        ("Groceries", 1234, 3, "A need")]
    con.close()
    # home lists it under Recent, with the week's total
    assert find(dev, text="Groceries") is not None
    assert find(dev, rid="tv_week_total").text == "$12.34"


@pytest.mark.parametrize("typed", ["12.345", "abc", "-5", "0", "1.2.3"])
def test_a_bad_amount_is_the_fields_error(dev, typed):
    dev.launch(ex.PKG)
    tap(dev, desc="Add expense")
    type_into(dev, "edt_name", "Snacks")
    type_into(dev, "edt_amount", typed)
    tap(dev, text="Save")
    assert find(dev, rid="amount_error").text == "Invalid amount"
    assert rows_in_shell(dev) == []


def test_a_missing_name_or_amount_is_refused(dev):
    dev.launch(ex.PKG)
    tap(dev, desc="Add expense")
    tap(dev, text="Save")
    assert find(dev, rid="name_error").text == "Name is required"
    assert find(dev, rid="amount_error").text == "Amount is required"
    assert rows_in_shell(dev) == []


def test_parse_amount():
    assert parse_amount("12.34") == 1234
    assert parse_amount("$12.3") == 1230
    assert parse_amount(" 1,200 ") == 120000
    assert parse_amount("10.0") == 1000
    assert [parse_amount(s) for s in ("", "1e3", "12.345", "-1", "0.00", "abc")] == [None] * 6


def test_logs_list_newest_first_and_selection_deletes_after_confirming(dev):
    ex.SeedExpenses(ROWS).apply(dev)
    open_logs(dev)
    names = [e.text for e in dev.ui_elements() if e.text in {r["name"] for r in ROWS}]
    assert names == ["Rent Payment", "Coffee", "Taxi Fare"]
    assert find(dev, desc="Coffee, $4.50, Food, Oct 13, 2023") is not None
    e = find(dev, text="Coffee")
    dev.long_press(*e.center)
    assert find(dev, text="1 selected") is not None
    tap(dev, text="Taxi Fare")
    assert find(dev, text="2 selected") is not None
    tap(dev, desc="Delete")
    assert find(dev, text="Delete selected expenses?") is not None
    tap(dev, text="Cancel")
    assert len(rows_in_shell(dev)) == 3
    tap(dev, desc="Delete")
    tap(dev, text="Delete")
    assert rows_in_shell(dev) == [["Rent Payment", "120000", "4", "Monthly recurring"]]
    assert find(dev, text="Expense logs") is not None  # selection ended


def test_details_edit_and_delete(dev):
    ex.SeedExpenses(ROWS).apply(dev)
    open_logs(dev)
    tap(dev, text="Taxi Fare")
    assert find(dev, rid="tv_amount").text == "$23.75"
    assert find(dev, text="Transportation") is not None
    tap(dev, desc="Edit")
    assert find(dev, rid="edt_amount").text == "23.75"
    type_into(dev, "edt_amount", "5")  # appended at the end: 23.755, a third decimal
    tap(dev, text="Save")
    assert find(dev, rid="amount_error").text == "Invalid amount"
    tap(dev, rid="edt_amount")
    dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    dev.type_text("30")
    tap(dev, text="Save")
    assert rows_in_shell(dev)[2] == ["Taxi Fare", "3000", "7", "Paid by card"]
    modified = dev.shell(f"sqlite3 {ex.DB} 'SELECT modified_date FROM expense WHERE expense_id = 3'")
    assert int(modified.stdout) > ROWS[2]["modified_date"]
    assert find(dev, rid="tv_amount").text == "$30.00"
    tap(dev, desc="Delete")
    assert find(dev, rid="message").text == "Taxi Fare"
    tap(dev, text="Delete")
    assert [r[0] for r in rows_in_shell(dev)] == ["Coffee", "Rent Payment"]


def test_a_long_list_builds_only_the_rows_on_screen(dev):
    rows = ex.draw_expenses(np.random.default_rng(3), 60)
    ex.SeedExpenses(rows).apply(dev)
    open_logs(dev)
    shown = [e for e in dev.ui_elements() if (e.resource_name or "").endswith(":id/expense_item")]
    assert 5 <= len(shown) < 20


def test_seeding_restores_what_was_there(dev):
    first = ex.SeedExpenses(ROWS)
    first.apply(dev)
    before = ex.state(dev)
    recipe = ex.SeedExpenses(ROWS[:1])
    recipe.apply(dev)
    recipe.apply(dev)
    assert [r[1] for r in ex.state(dev)] == ["Coffee"]
    recipe.undo(dev)
    assert ex.state(dev) == before


def test_the_draw_follows_androidworld():
    rng = np.random.default_rng(0)
    rows = ex.draw_expenses(rng, 40)
    assert len({r["name"] for r in rows}) == 40
    for r in rows:
        assert 1000 <= r["amount"] <= 50000 and 1 <= r["category"] <= 11
        assert r["name"] in ex.NAMES[ex.CATEGORIES[r["category"] - 1]]
        assert r["note"] in ex.NOTES
        assert ex.OCT1_S * 1000 <= r["created_date"] <= ex.NOW_S * 1000


def test_text_forms():
    assert ex.amount_dollars(1230) == "$12.3" and ex.amount_dollars(1000) == "$10.0"
    assert ex.as_text(ROWS[:2], "csv") == (
        "name|amount_dollars|category_name|note\n"
        "Coffee|$4.5|Food|Urgent\nRent Payment|$1200.0|Housing|Monthly recurring")
    assert ex.as_text(ROWS[:1], "text_block") == (
        "Expense: Coffee\n amount_dollars: $4.5\n category_name: Food\n note: Urgent\n")


def test_deduplicated_wants_exactly_one_copy_left(dev):
    rows = [ROWS[0], dict(ROWS[0]), ROWS[1], ROWS[2]]
    for delete, want in (([1], 1.0), ([2], 1.0), ([1, 2], 0.0), ([1, 3], 0.0), ([], 0.0)):
        ex.SeedExpenses(rows).apply(dev)
        check = Deduplicated(ex.EXPENSES, {"expense_id": ex.ids(1, 2)})
        check.prepare(dev)
        if delete:
            dev.shell(f"sqlite3 {ex.DB} 'DELETE FROM expense WHERE expense_id IN "
                      f"({', '.join(map(str, delete))})'")
        assert check.score(dev, None) == want, delete
    ex.SeedExpenses(rows).apply(dev)
    check = Deduplicated(ex.EXPENSES, {"expense_id": ex.ids(1, 2)})
    check.prepare(dev)
    dev.shell(f"sqlite3 {ex.DB} \"DELETE FROM expense WHERE expense_id = 1; "
              f"UPDATE expense SET note = 'x' WHERE expense_id = 3;\"")
    assert check.score(dev, None) == 0.0  # another row changed
