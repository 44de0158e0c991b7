"""Pro Expense (`com.arduia.expense`) for tasks: AndroidWorld's expense draw (names by
category, notes, 1000..50000 cents, Oct 1-15 2023), seeding `accounting.db` in one
`sqlite3` call, the `expense` table as rows for the check library, the goal's text
forms (csv / text blocks) and the screens' steps for solutions.

Public for other templates (the gallery's ExpenseAddMultipleFromGallery):
`draw_expenses(rng, n)`, `SeedExpenses(rows)` (the noise recipe), `added_check(key)`
(these rows were added, AndroidWorld's addition integrity) and `add_steps(rows)`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.binding import F
from antrap_gym.tasks.checks import Added, DatabaseTable, Either, Eq, Fuzzy, read_rows
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.arduia.expense"
APP_NAME = "pro expense"  # how AndroidWorld's goals name the app
DB = f"/data/data/{PKG}/databases/accounting.db"
MAIN = ".ui.MainActivity"
LOGS = ".ui.expenselogs.ExpenseLogsActivity"
DETAIL = ".ui.expense.ExpenseDetailActivity"
ENTRY = ".ui.entry.ExpenseEntryActivity"
DELETE_ONE = DETAIL + "|Delete this expense?"
CATEGORY = ENTRY + "|Category"
COLUMNS = ("name", "amount", "category", "note", "created_date", "modified_date")
CATEGORIES: tuple[str, ...] = ("Others", "Income", "Food", "Housing", "Social", "Entertainment",
                               "Transportation", "Clothes", "Health Care", "Education", "Donation")

#: expense names by category (AndroidWorld's pools)
NAMES: dict[str, tuple[str, ...]] = {
    "Others": ("Emergency Repairs", "Pet Supplies", "Pet Care", "Household Items", "Stationery",
               "Unexpected Expenses", "Miscellaneous Gifts", "Subscriptions", "Membership Fees",
               "Legal Fees"),
    "Income": ("Salary", "Freelance Payment", "Bonus", "Dividends", "Interest Income",
               "Rental Income", "Capital Gains", "Reimbursements", "Side Business",
               "Consulting Fees"),
    "Food": ("Restaurant Meal", "Groceries", "Coffee", "Fast Food", "Fine Dining", "Bakery Items",
             "Snacks", "Food Delivery", "Specialty Foods", "Dining Out"),
    "Housing": ("Rent Payment", "Mortgage", "Home Repairs", "Utilities", "Property Taxes",
                "Home Insurance", "Furnishing", "Cleaning Services", "Landscaping", "Pest Control"),
    "Social": ("Dinner Party", "Gift for Friend", "Club Membership", "Wedding Gift",
               "Charity Donations", "Birthday Present", "Social Club Dues", "Event Tickets",
               "Night Out", "Party Supplies"),
    "Entertainment": ("Concert Tickets", "Movie Night", "Theater Show", "Streaming Services",
                      "Video Games", "Books", "Magazines", "Hobbies", "Museum Tickets",
                      "Amusement Park"),
    "Transportation": ("Taxi Fare", "Public Transit Pass", "Gas", "Parking Fees",
                       "Car Maintenance", "Bike Repairs", "Car Insurance", "Public Transit",
                       "Flight Tickets", "Ride-Sharing"),
    "Clothes": ("New Jacket", "Shirt Purchase", "Shoes", "Dress", "Jeans", "Accessories",
                "Sportswear", "Undergarments", "Tailoring Services", "Laundry"),
    "Health Care": ("Doctor Visits", "Medications", "Health Insurance", "Dental Care", "Eyecare",
                    "Wellness Products", "Gym Membership", "Therapy Sessions", "Medical Tests"),
    "Education": ("Tuition Fees", "School Supplies", "Textbooks", "Online Courses", "Seminars",
                  "Workshops", "Educational Software", "Library Fees", "ProDev",
                  "Tutoring Services"),
    "Donation": ("Charity", "Fundraising Events", "Sponsorships", "Non-Profit Support",
                 "Crowdfunding", "Religious", "Political", "Educational", "Medical Research",
                 "Environmental"),
}
NOTES = ("Paid by card", "Urgent", "Monthly recurring", "Want to have", "A need",
         "Remember to transfer funds", "I may repeat this")
#: the device clock at boot (2023-10-15 15:34 UTC): no seeded expense is later
NOW_S = int(dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.UTC).timestamp())
OCT1_S = int(dt.datetime(2023, 10, 1, tzinfo=dt.UTC).timestamp())

#: one expense as a template's parameters hold it (JSON)
Row = dict[str, Any]


# --- the draw --------------------------------------------------------------------------------


def random_ms(rng: np.random.Generator) -> int:
    """A random minute between Oct 1 2023 and now (Oct 15, 15:34), in epoch ms."""
    return (OCT1_S + 60 * int(rng.integers(0, (NOW_S - OCT1_S) // 60))) * 1000


def draw_expense(rng: np.random.Generator, category: int | None = None) -> Row:
    """One expense as AndroidWorld draws it: a category, a name of that category, an
    amount of 1000..50000 cents, a note, created = modified in Oct 1-15 2023."""
    cat = int(rng.integers(1, len(CATEGORIES) + 1)) if category is None else category
    pool = NAMES[CATEGORIES[cat - 1]]
    when = random_ms(rng)
    return {"name": pool[int(rng.integers(len(pool)))], "amount": int(rng.integers(1000, 50001)),
            "category": cat, "note": NOTES[int(rng.integers(len(NOTES)))],
            "created_date": when, "modified_date": when}


def draw_expenses(rng: np.random.Generator, n: int, avoid: Sequence[str] = (),
                  distinct_names: bool = True) -> list[Row]:
    """n different expenses, none named as in `avoid`; with `distinct_names` no two share
    a name (AndroidWorld's delete and add draws), else only whole rows differ."""
    out: list[Row] = []
    taken = set(avoid)
    while len(out) < n:
        e = draw_expense(rng)
        if e["name"] in taken or (not distinct_names and e in out):
            continue
        out.append(e)
        if distinct_names:
            taken.add(e["name"])
    return out


def amount_dollars(cents: int) -> str:
    """The amount as AndroidWorld's goals write it: f"${cents / 100}" ($12.3, $10.0)."""
    return f"${cents / 100}"


def as_text(rows: Sequence[Row], fmt: str, wrap_width: int | None = None) -> str:
    """The goal's (or a file's) list of expenses: "csv" (a header, `|` between fields) or
    "text_block" (an `Expense: name` block per row), with name, amount_dollars,
    category_name and note, as AndroidWorld writes them."""
    fields = ("name", "amount_dollars", "category_name", "note")
    values = [{"name": r["name"], "amount_dollars": amount_dollars(r["amount"]),
               "category_name": CATEGORIES[r["category"] - 1], "note": r["note"]} for r in rows]
    if fmt == "csv":
        return "|".join(fields) + "\n" + "\n".join("|".join(str(v[f]) for f in fields)
                                                   for v in values)
    blocks = []
    for v in values:
        lines = [f"Expense: {v['name']}"]
        for f in fields[1:]:
            text = str(v[f])
            lines.append(f" {f}: " + ("\n".join(textwrap.wrap(text, wrap_width))
                                      if wrap_width else text))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def typed_amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def money(cents: int) -> str:
    """How the app shows an amount ($1,234.50)."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def day(ms: int) -> str:
    d = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    return f"{d:%b} {d.day}, {d.year}"


def describe(r: Row) -> str:
    """A list row's description in the app: name, amount, category, date."""
    return f"{r['name']}, {money(r['amount'])}, {CATEGORIES[r['category'] - 1]}, {day(r['created_date'])}"


# --- the shell side ----------------------------------------------------------------------------


def sql_text(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(int(v))
    return "'" + str(v).replace("'", "''") + "'"


def _replace_all(device: Device, rows: Sequence[Mapping[str, Any]]) -> None:
    """Force-stop the app, then the table holds exactly `rows` (ids 1.. unless a row
    has its own `expense_id`): one shell call, however many rows."""
    stmts = ["DELETE FROM expense;", "DELETE FROM sqlite_sequence WHERE name = 'expense';"]
    if rows:
        values = ", ".join(
            "(" + ", ".join(sql_text(v) for v in (r.get("expense_id", i + 1),
                                                  *(r.get(c) for c in COLUMNS))) + ")"
            for i, r in enumerate(rows))
        stmts.append(f"INSERT INTO expense (expense_id, {', '.join(COLUMNS)}) VALUES {values};")
    sh(device, f"am force-stop {PKG} && sqlite3 {DB} {q(' '.join(stmts))}")


def read_expenses(device: Device) -> list[Row]:
    """Every row of the table (pulled and read with sqlite3, as the checks do)."""
    return read_rows(device, DB, 'SELECT * FROM "expense" ORDER BY expense_id')


@dataclasses.dataclass
class SeedExpenses(Recipe):
    """The `expense` table holds exactly `rows` (ids 1..n in order); tear-down puts back
    what it held."""

    rows: Any

    def apply(self, device: Device) -> None:
        if self.saved is UNSET:
            self.saved = read_expenses(device)
        _replace_all(device, list(self.rows or []))

    def restore(self, device: Device, saved: Any) -> None:
        _replace_all(device, list(saved or []))


EXPENSES = DatabaseTable(DB, "expense", key="expense_id")


def state(device: Device) -> list[tuple]:
    """What the contract compares before set-up and after tear-down: every row."""
    return [tuple(r.values()) for r in read_expenses(device)]


# --- checks ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AnyOf:
    """A matcher: the value is one of `values` (a row's id among the targets')."""

    values: tuple

    def __call__(self, v: Any) -> bool:
        return v in self.values


def ids(first: int, n: int) -> AnyOf:
    return AnyOf(tuple(range(first, first + n)))


def row_pattern(r: Row) -> dict[str, Any]:
    """AndroidWorld's addition compare: name and note fuzzy (0.9), amount and category exact."""
    return {"name": Fuzzy(r["name"], 0.9), "amount": Eq(r["amount"]),
            "category": Eq(r["category"]), "note": Fuzzy(r["note"], 0.9)}


def added_check(key: str = "targets") -> Added:
    """The rows in params[key] were added (each a new row, count = before + n, no other
    row changed): AndroidWorld's validate_rows_addition_integrity."""
    return Added(EXPENSES, F(lambda p: tuple(row_pattern(r) for r in p[key])))


@dataclasses.dataclass(frozen=True)
class Count:
    """A step's `done`: `sqlite3` counts the rows `where` selects, between lo and hi."""

    where: str
    lo: int
    hi: int = 10**9

    def __call__(self, device: Device) -> bool:
        res = device.shell(f"sqlite3 {DB} {q(f'SELECT count(*) FROM expense WHERE {self.where}')}")
        try:
            return res.exit_code == 0 and self.lo <= int(res.stdout.strip()) <= self.hi
        except ValueError:
            return False


@dataclasses.dataclass(frozen=True)
class Shows:
    """A step's `done`: an element (by resource id) shows `text`."""

    rid: str
    text: str

    def __call__(self, device: Device) -> bool:
        return any((e.resource_name or "").endswith(":id/" + self.rid)
                   and (e.text or "").strip() == self.text for e in device.ui_elements())


def saved(r: Row) -> Count:
    """The expense `r` (as the oracle types it) is in the table."""
    return Count(" AND ".join(f"{c} = {sql_text(r[c])}" for c in ("name", "amount", "category",
                                                                     "note")), 1)


# --- solution steps ------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Pro Expense", package=PKG)


def field(rid: str) -> Target:
    return Target(rid=rid, cls="EditText")


def add_steps(rows: Sequence[Row]) -> list[Step]:
    """Home > Add expense > Name, Amount, Category, Note > Save, for each row; every step
    is done once its row is saved."""
    steps: list[Step] = [open_app()]
    for r in rows:
        done = saved(r)
        cat = CATEGORIES[r["category"] - 1]
        steps += [
            Tap(screen=MAIN, target=Target(desc="Add expense"), done=done),
            TypeText(screen=ENTRY, target=field("edt_name"), text=r["name"],
                     done=Either(done, Shows("edt_name", r["name"]))),
            TypeText(screen=ENTRY, target=field("edt_amount"), text=typed_amount(r["amount"]),
                     done=Either(done, Shows("edt_amount", typed_amount(r["amount"])))),
            Tap(screen=ENTRY, target=Target(rid="sp_category"),
                done=Either(done, Shows("sp_category", cat))),
            Tap(screen=CATEGORY, target=Target(text=cat), done=Either(done, Shows("sp_category", cat))),
            TypeText(screen=ENTRY, target=field("edt_note"), text=r["note"],
                     done=Either(done, Shows("edt_note", r["note"]))),
            # Save waits for the whole form (a field a tap or a choice missed is redone)
            Tap(screen=ENTRY, target=Target(text="Save"), done=done, requires=(
                Target(rid="edt_name", text=r["name"]),
                Target(rid="edt_amount", text=typed_amount(r["amount"])),
                Target(rid="sp_category", text=cat), Target(rid="edt_note", text=r["note"]))),
        ]
    return steps


def delete_steps(rows: Sequence[Row], first_id: int = 1, unique: bool = True,
                 done_all: Any = None) -> list[Step]:
    """Home > More > (each row, top to bottom: tap it > Delete > Delete). Rows are found by their
    description (name, amount, category, date), the details by name (`unique`) or amount."""
    gone_all = done_all or Count(f"expense_id BETWEEN {first_id} AND {first_id + len(rows) - 1}", 0, 0)
    steps: list[Step] = [open_app(), Tap(screen=MAIN, target=Target(text="More"), done=gone_all)]
    # in the list's order (newest first), so the search only ever scrolls down
    order = sorted(range(len(rows)), key=lambda i: (-rows[i]["created_date"], -i))
    for i, r in ((i, rows[i]) for i in order):
        gone = done_all or Count(f"expense_id = {first_id + i}", 0, 0)
        whose = (Target(rid="tv_name", text=r["name"]) if unique
                 else Target(rid="tv_amount", text=money(r["amount"])))
        steps += [
            # not in selection mode (its bar says "N selected"), where a tap only selects
            Tap(screen=LOGS, target=Target(desc=describe(r)), done=gone,
                requires=Target(text="Expense logs")),
            Tap(screen=DETAIL, target=Target(desc="Delete"), requires=whose, done=gone),
            Tap(screen=DELETE_ONE, target=Target(text="Delete"), done=gone,
                requires=Target(rid="message", text=r["name"])),
        ]
    return steps
