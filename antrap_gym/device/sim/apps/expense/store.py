"""Pro Expense's database: `accounting.db` at its real path, the `expense` table as the
app's Room entity has it (amount in cents, category an id 1..11, dates in epoch ms).

Screens read it once per build (`all()`) and write through `add`/`update`/`remove`,
so `sqlite3 .../accounting.db "SELECT ..."` and a pulled copy see what the app shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "com.arduia.expense"
DB_PATH = f"/data/data/{PKG}/databases/accounting.db"
#: category ids as the app numbers them (AndroidWorld's Expense.category_id_to_name)
CATEGORIES: tuple[str, ...] = ("Others", "Income", "Food", "Housing", "Social", "Entertainment",
                               "Transportation", "Clothes", "Health Care", "Education", "Donation")
COLUMNS = ("expense_id", "name", "amount", "category", "note", "created_date", "modified_date")


def category_name(cid: int) -> str:
    return CATEGORIES[cid - 1] if 1 <= cid <= len(CATEGORIES) else "Others"


def category_id(name: str) -> int:
    return CATEGORIES.index(name) + 1 if name in CATEGORIES else 1


def money(cents: int) -> str:
    """How the app shows an amount: $1,234.50."""
    return f"${cents / 100:,.2f}" if cents >= 0 else f"-${-cents / 100:,.2f}"


def parse_amount(text: str) -> int | None:
    """Typed amount -> cents: "12.34", "$12.3", "1,200" ; None for anything else (the
    field's error), including negatives, zero and more than two decimals."""
    s = text.strip().removeprefix("$").replace(",", "").strip()
    if not s or not all(c.isdigit() or c == "." for c in s):
        return None
    try:
        value = Decimal(s)
    except InvalidOperation:
        return None
    cents = value * 100
    if cents != cents.to_integral_value() or cents <= 0 or cents >= 10**13:
        return None
    return int(cents)


@dataclass(frozen=True, slots=True)
class Expense:
    expense_id: int
    name: str
    amount: int
    category: int
    note: str
    created_date: int
    modified_date: int


class ExpenseDb(SqliteStore):
    path = DB_PATH
    version = 3
    schema = """
CREATE TABLE expense (expense_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, name TEXT,
    amount INTEGER NOT NULL, category INTEGER NOT NULL, note TEXT,
    created_date INTEGER NOT NULL, modified_date INTEGER NOT NULL);
CREATE TABLE room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
INSERT INTO room_master_table VALUES (42, '6f3b1e2c9a8d4f7e0b5c2a1d9e8f7a6b');
"""

    @classmethod
    def of(cls, phone: PhoneContext) -> ExpenseDb:
        return phone.databases[DB_PATH]  # type: ignore[return-value]

    def all(self) -> list[Expense]:
        """Every expense, newest first (as the logs list them)."""
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM expense"
                              " ORDER BY created_date DESC, expense_id DESC")
        return [Expense(r[0], r[1] or "", int(r[2] or 0), int(r[3] or 1), r[4] or "",
                        int(r[5] or 0), int(r[6] or 0)) for r in cur.fetchall()]

    def get(self, expense_id: int) -> Expense | None:
        return next((e for e in self.all() if e.expense_id == expense_id), None)

    def add(self, name: str, amount: int, category: int, note: str, when_ms: int) -> int:
        cur = self.db.execute("INSERT INTO expense (name, amount, category, note, created_date,"
                              " modified_date) VALUES (?, ?, ?, ?, ?, ?)",
                              (name, amount, category, note, when_ms, when_ms))
        self.revision += 1
        return int(cur.lastrowid or 0)

    def update(self, expense_id: int, name: str, amount: int, category: int, note: str,
               when_ms: int) -> None:
        self.db.execute("UPDATE expense SET name = ?, amount = ?, category = ?, note = ?,"
                        " modified_date = ? WHERE expense_id = ?",
                        (name, amount, category, note, when_ms, expense_id))
        self.revision += 1

    def remove(self, ids: list[int] | tuple[int, ...]) -> None:
        self.db.executemany("DELETE FROM expense WHERE expense_id = ?", [(i,) for i in ids])
        self.revision += 1
