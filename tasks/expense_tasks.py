"""Templates in Pro Expense (`com.arduia.expense`): AndroidWorld's expense tasks, as data.

Set-up seeds `accounting.db` in one `sqlite3` call (tasks/apps/expense.py); checks pull
the database and read the `expense` table with AndroidWorld's integrity: deleting
leaves every other row as it was, adding finds each expense as a new row (name and
note fuzzy at 0.9, amount in cents and category exact) and nothing else changed.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from antrap_gym.tasks.apps import expense as ex
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.binding import F
from antrap_gym.tasks.checks import Deduplicated, Removed
from antrap_gym.tasks.steps import OpenApp, Tap, Target
from antrap_gym.tasks.template import template

expense = partial(template, apps=(ex.PKG,), source="AndroidWorld", kind="action")
SEED_ALL = ex.SeedExpenses(F(lambda p: p["targets"] + p["noise"]))
DELETE_GOAL = "Delete the following expenses from pro expense: {names}."


def _delete(n: int, noise: int):
    def draw(rng: np.random.Generator) -> dict:
        rows = ex.draw_expenses(rng, n + noise)
        return {"targets": rows[:n], "noise": rows[n:],
                "names": ", ".join(r["name"] for r in rows[:n])}
    return draw


for _id, _n, _noise, _cx in (("ExpenseDeleteSingle", 1, 0, 1.0),
                             ("ExpenseDeleteMultiple", 3, 0, 2.0),
                             ("ExpenseDeleteMultiple2", 3, 50, 3.4)):
    globals()[_id] = expense(
        id=_id, split="train", family="ExpenseDelete", complexity=_cx, goal=DELETE_GOAL,
        needs_scroll=_noise > 0,
        params=_delete(_n, _noise), setup=[SEED_ALL],
        check=Removed(ex.EXPENSES, {"expense_id": ex.ids(1, _n)}),
        solution=lambda p: ex.delete_steps(p["targets"]),
        doc=f"AndroidWorld's check: the {_n} named expense(s) are gone and every other row is "
            f"as it was ({_noise} noise rows), none added. Names are distinct across the table.")


# --- duplicates: exactly one copy of the duplicated expense goes --------------------------------

DEDUP_GOAL = ("Delete all but one of any expenses in pro expense that are exact duplicates, "
              "ensuring at least one instance of each unique expense remains.")


def _duplicates(rng: np.random.Generator) -> dict:
    rows = ex.draw_expenses(rng, 6, distinct_names=False)
    target = rows.pop()
    return {"targets": [target, dict(target)], "noise": rows}


def _near_duplicates(rng: np.random.Generator) -> dict:
    """AndroidWorld's harder draw: 37 noise rows, and three variants of the duplicated
    expense with the amount raised by 50..999 cents and other dates."""
    rows = ex.draw_expenses(rng, 38, distinct_names=False)
    target = rows.pop()
    bumps = rng.choice(np.arange(50, 1000), size=3, replace=False)
    variants = [{**target, "amount": target["amount"] + int(b), "created_date": ex.random_ms(rng),
                 "modified_date": ex.random_ms(rng)} for b in bumps]
    return {"targets": [target, dict(target)], "noise": rows + variants}


def _dedup_steps(p) -> list:
    return ex.delete_steps(p["targets"][:1], unique=False,
                           done_all=ex.Count("expense_id IN (1, 2)", 1, 1))


for _id, _draw, _cx in (("ExpenseDeleteDuplicates", _duplicates, 1.2),
                        ("ExpenseDeleteDuplicates2", _near_duplicates, 1.8)):
    globals()[_id] = expense(
        id=_id, split="train", family="ExpenseDeleteDuplicates", complexity=_cx, goal=DEDUP_GOAL,
        needs_scroll=_draw is _near_duplicates,
        params=_draw, setup=[SEED_ALL],
        check=Deduplicated(ex.EXPENSES, {"expense_id": ex.ids(1, 2)}),
        solution=_dedup_steps,
        doc="AndroidWorld's check: exactly one of the two identical rows is removed (either), "
            "every other row as it was, none added. Near-duplicates (same name, other amount) "
            "in ExpenseDeleteDuplicates2 must stay.")


# --- adding: the expenses are in the goal, or in a Markor file ---------------------------------

ADD_GOAL = "Add the following expenses into the pro expense:\n{listing}"


def _add(n: int, noise: int):
    def draw(rng: np.random.Generator) -> dict:
        targets = ex.draw_expenses(rng, n)
        rows = ex.draw_expenses(rng, noise, avoid=[t["name"] for t in targets])
        fmt = ("csv", "text_block")[int(rng.integers(2))]
        return {"targets": targets, "noise": rows, "text_representation_type": fmt,
                "listing": ex.as_text(targets, fmt)}
    return draw


SEED_NOISE = ex.SeedExpenses(F(lambda p: p["noise"]))

for _id, _n, _cx in (("ExpenseAddSingle", 1, 1.2), ("ExpenseAddMultiple", 3, 6.0)):
    globals()[_id] = expense(
        id=_id, split="test", family="ExpenseAdd", complexity=_cx, goal=ADD_GOAL, params=_add(_n, 10),
        setup=[SEED_NOISE], check=ex.added_check("targets"),
        solution=lambda p: ex.add_steps(p["targets"]),
        doc="AndroidWorld's check: each expense is a new row (name and note fuzzy at 0.9, "
            "amount in cents and category exact), the count grew by exactly that many and "
            "the 10 noise rows are unchanged. The goal lists them as csv or text blocks.")


MARKOR_FILE = "my_expenses.txt"


def _from_markor(rng: np.random.Generator) -> dict:
    p = _add(2, 100)(rng)
    marked = [{**t, "note": t["note"] + ". Reimbursable."} for t in p["targets"]]
    listed = marked + p["noise"]
    order = rng.permutation(len(listed))
    p["file_text"] = ex.as_text([listed[int(i)] for i in order], "csv")
    del p["text_representation_type"], p["listing"]
    return p


def _markor_steps(p) -> list:
    return [OpenApp(app="Markor", package=mk.PKG),
            Tap(screen=mk.MAIN, target=Target(text=MARKOR_FILE)),
            *ex.add_steps(p["targets"])]


ExpenseAddMultipleFromMarkor = expense(
    id="ExpenseAddMultipleFromMarkor", apps=(ex.PKG, mk.PKG), split="train", complexity=6.0,
    goal="Go through the transactions in my_expenses.txt in Markor. Log the reimbursable "
         "transactions in the pro expense.",
    params=_from_markor,
    setup=[SEED_NOISE, mk.SeedFiles(F(lambda p: {MARKOR_FILE: p["file_text"]}))],
    check=ex.added_check("targets"), solution=_markor_steps,
    doc="AndroidWorld's: my_expenses.txt (csv, in Markor's folder, which set-up empties) lists "
        "100 noise transactions, also seeded in the app, and 2 whose note ends '. Reimbursable.'. "
        "The check compares with the notes without that suffix (fuzzy 0.9), as the reference "
        "does: a note typed with the suffix fails (weak, kept for comparability).")
