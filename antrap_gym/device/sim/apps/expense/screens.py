"""Pro Expense's screens, laid out like Pro Expense 3.x.

- Home (`MainActivity`): this week's total, the five most recent expenses with a
  More button to the full list, and the Add expense button;
- Expense logs: every expense, newest first (name, category and date, amount); tap
  one for its details, long-press to start selecting, then Delete with a confirmation;
- the details of one expense, with Edit and Delete;
- the entry form (add or edit): Name, Amount, Category (a drop-down of the eleven
  categories), Date (today, read-only), Note, and Save. A bad amount is the
  field's error, never a crash.

Every screen reads `accounting.db` once per build; activity state holds plain values
(ids, field text, the selection).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.expense.store import (
    CATEGORIES,
    PKG,
    Expense,
    ExpenseDb,
    category_id,
    category_name,
    money,
    parse_amount,
)
from antrap_gym.device.sim.toolkit.forms import NextFieldOnEnter, UnsavedChangesGuard
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog
from antrap_gym.device.sim.toolkit.record import RecordDetail

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
DELETE_ONE = "Delete this expense?"
DELETE_MANY = "Delete selected expenses?"
RECENT = 5


@lru_cache(maxsize=4096)
def day(ms: int) -> str:
    """An expense's date as the app shows it: Oct 12, 2023 (UTC, the phone's zone)."""
    d = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    return f"{d:%b} {d.day}, {d.year}"


def db(phone: PhoneContext) -> ExpenseDb:
    return ExpenseDb.of(phone)


def _rows(phone: PhoneContext) -> list[Expense]:
    """Every expense (shared and read-only), read again only when the table changes."""
    store = db(phone)
    return store.cached("all", store.all)


def describe(e: Expense) -> str:
    """A row's accessibility description: everything it shows, in one phrase."""
    return f"{e.name}, {money(e.amount)}, {category_name(e.category)}, {day(e.created_date)}"


class ExpenseActivity(Activity):
    package = PKG

    def expense_row(self, ui: UI, phone: PhoneContext, e: Expense) -> None:
        row = ui.row(e.name or "(No name)", f"{category_name(e.category)} · {day(e.created_date)}",
                     trailing=("text", money(e.amount)), rid=RID + "expense_item",
                     on_click=lambda i=e.expense_id: phone.start_activity(ExpenseDetailActivity(i)))
        if row.children:  # on screen (a culled row has no views)
            row.desc = describe(e)


class MainActivity(ExpenseActivity):
    """Home: the week's total, recent expenses, More, and the Add expense button."""

    name = "com.arduia.expense.ui.MainActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Pro Expense"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Pro Expense", rid=RID + "toolbar")
        rows = _rows(phone)
        today = dt.datetime.fromtimestamp(phone.clock_ms / 1000, dt.UTC).date()
        monday = today - dt.timedelta(days=today.weekday())
        start = int(dt.datetime.combine(monday, dt.time(), dt.UTC).timestamp() * 1000)
        week = [e for e in rows if e.created_date >= start and e.category != category_id("Income")]
        with ui.scroll("home", rid=RID + "home_scroll"):
            ui.header("This week")
            ui.text(money(sum(e.amount for e in week)), style="title", rid=RID + "tv_week_total")
            ui.text(f"{monday:%b} {monday.day} - {today:%b} {today.day} · {len(week)} expenses",
                    style="caption")
            ui.divider()
            ui.header("Recent")
            if not rows:
                ui.text("No expenses yet", style="summary")
            for e in rows[:RECENT]:
                self.expense_row(ui, phone, e)
            ui.button("More", lambda: phone.start_activity(ExpenseLogsActivity()), style="text",
                      rid=RID + "btn_more")
            ui.spacer(88)
        ui.fab("add", "Add expense", lambda: phone.start_activity(ExpenseEntryActivity()),
               rid=RID + "fb_main_add")


class ExpenseLogsActivity(ExpenseActivity):
    """Every expense, newest first; long-press selects, Delete removes the selection."""

    name = "com.arduia.expense.ui.expenselogs.ExpenseLogsActivity"

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []
        self.selecting = False

    def title(self, phone: PhoneContext) -> str:
        return "Expense logs"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        rows = _rows(phone)
        ids = {e.expense_id for e in rows}
        self.selected = [i for i in self.selected if i in ids]
        if self.selecting:
            ui.toolbar(f"{len(self.selected)} selected", back=lambda: self.end_selection(),
                       rid=RID + "toolbar",
                       actions=[("delete", "Delete", lambda: self.ask_delete(phone))])
        else:
            ui.toolbar("Expense logs", back=True, rid=RID + "toolbar")
        if not rows:
            ui.empty("No expenses yet")
        else:
            with ui.scroll("list", rid=RID + "rv_expense_logs"):
                h = ui.dp(72)  # a row with a summary line
                for e in rows:
                    if ui.culled((ui.rect[0], ui.y, ui.rect[2], ui.y + h)):
                        ui.set_y(ui.y + h)  # off screen: its place only
                        continue
                    self.log_row(ui, phone, e)
                ui.spacer(88)
        ui.fab("add", "Add expense", lambda: phone.start_activity(ExpenseEntryActivity()),
               rid=RID + "fb_logs_add")

    def log_row(self, ui: UI, phone: PhoneContext, e: Expense) -> None:
        summary = f"{category_name(e.category)} · {day(e.created_date)}"
        i = e.expense_id
        if self.selecting:
            on = i in self.selected
            row = ui.row(e.name or "(No name)", f"{summary} · {money(e.amount)}",
                         trailing=("checkbox", on, lambda: self.toggle(i)), selected=on,
                         on_click=lambda: self.toggle(i), on_long_click=lambda: self.toggle(i),
                         rid=RID + "expense_item")
        else:
            row = ui.row(e.name or "(No name)", summary, trailing=("text", money(e.amount)),
                         on_click=lambda: phone.start_activity(ExpenseDetailActivity(i)),
                         on_long_click=lambda: self.start_selection(i), rid=RID + "expense_item")
        if row.children:  # on screen (a culled row has no views)
            row.desc = describe(e)

    # --- selection ---------------------------------------------------------------------
    def start_selection(self, expense_id: int) -> None:
        self.selecting = True
        self.selected = [expense_id]

    def toggle(self, expense_id: int) -> None:
        if expense_id in self.selected:
            self.selected.remove(expense_id)
        else:
            self.selected.append(expense_id)
        if not self.selected:
            self.selecting = False

    def end_selection(self) -> None:
        self.selecting = False
        self.selected = []

    def ask_delete(self, phone: PhoneContext) -> None:
        n = len(self.selected)
        if not n:
            return
        phone.open_popup(self, Dialog(DELETE_MANY, f"{n} expense{'s' if n > 1 else ''} will be "
                                      "deleted permanently.",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "do_delete", destructive=True)]))

    def do_delete(self, phone: PhoneContext) -> None:
        n = len(self.selected)
        db(phone).remove(list(self.selected))
        self.end_selection()
        phone.toast(f"{n} deleted")

    def on_back(self, phone: PhoneContext) -> bool:
        if self.selecting:
            self.end_selection()
            return True
        return False


class ExpenseDetailActivity(RecordDetail, ExpenseActivity):
    """One expense: its name, amount, category, date and note; Edit and Delete."""

    name = "com.arduia.expense.ui.expense.ExpenseDetailActivity"
    record_noun, untitled, gone_toolbar, toolbar_rid = "expense", "Expense", "Expense", RID + "toolbar"

    def record(self, phone: PhoneContext) -> Expense | None:
        return db(phone).get(self.record_id)

    def record_title(self, record: Expense) -> str:
        return record.name

    def build_record(self, ui: UI, phone: PhoneContext, e: Expense) -> None:
        ui.toolbar("Expense", back=True, rid=RID + "toolbar", actions=[
            ("edit", "Edit", lambda: phone.start_activity(ExpenseEntryActivity.editing(e))),
            ("delete", "Delete", lambda: self.ask_delete(phone, e))])
        with ui.scroll("details", rid=RID + "detail_scroll"):
            ui.text(e.name or "(No name)", style="title", rid=RID + "tv_name")
            ui.text(money(e.amount), style="title", rid=RID + "tv_amount")
            ui.row(category_name(e.category), "Category", rid=RID + "tv_category")
            ui.row(day(e.created_date), "Date", rid=RID + "tv_date")
            ui.row(e.note or "No note", "Note", rid=RID + "tv_note")

    def ask_delete(self, phone: PhoneContext, e: Expense) -> None:
        phone.open_popup(self, Dialog(DELETE_ONE, e.name, buttons=[
            Choice("Cancel", "noop"), Choice("Delete", "do_delete", destructive=True)]))

    def do_delete(self, phone: PhoneContext) -> None:
        db(phone).remove([self.record_id])
        phone.finish_activity(self)
        phone.toast("Deleted")


#: the entry form's text fields in focus order (IME Enter moves to the next)
FIELDS: tuple[tuple[str, str], ...] = (("name", "Name"), ("amount", "Amount"), ("note", "Note"))


class ExpenseEntryActivity(NextFieldOnEnter, UnsavedChangesGuard, ExpenseActivity):
    """Add or edit an expense: Name, Amount, Category, Date (read-only), Note; Save."""

    name = "com.arduia.expense.ui.entry.ExpenseEntryActivity"
    field_order = tuple(k for k, _ in FIELDS)

    def __init__(self, expense_id: int | None = None) -> None:
        super().__init__()
        self.expense_id = expense_id
        self.fields["category"] = CATEGORIES[0]
        self.errors: dict[str, str] = {}
        self.stored: dict[str, str] = self.values()

    @classmethod
    def editing(cls, e: Expense) -> ExpenseEntryActivity:
        act = cls(e.expense_id)
        for key, value in (("name", e.name), ("amount", f"{e.amount / 100:.2f}"),
                           ("note", e.note), ("category", category_name(e.category))):
            act.set_field(key, value)
        act.stored = act.values()
        act.created = e.created_date
        return act

    created: int | None = None

    def title(self, phone: PhoneContext) -> str:
        return "Add expense" if self.expense_id is None else "Edit expense"

    def values(self) -> dict[str, str]:
        return {k: self.fields.get(k, "").strip() for k in ("name", "amount", "note", "category")}

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.title(phone), back=lambda: self.close(phone), rid=RID + "toolbar",
                   button=("Save", lambda: self.save(phone)))
        when = self.created if self.created is not None else phone.clock_ms
        with ui.scroll("form", rid=RID + "entry_scroll"):
            for key, hint in FIELDS[:2]:
                ui.edit(key, hint, label=hint, rid=RID + f"edt_{key}")
                if key in self.errors:
                    ui.text(self.errors[key], style="caption", rid=RID + f"{key}_error")
            cat = self.fields.get("category") or CATEGORIES[0]
            ui.text("Category", style="caption")
            ui.spinner(cat, lambda: self.ask_category(phone), desc=f"Category {cat}",
                       rid=RID + "sp_category")
            ui.text("Date", style="caption")
            ui.text(day(when), style="body", rid=RID + "tv_date")
            ui.edit("note", "Note", label="Note", rid=RID + "edt_note")

    # --- actions -----------------------------------------------------------------------
    def ask_category(self, phone: PhoneContext) -> None:
        self.focus = None
        cur = self.fields.get("category") or CATEGORIES[0]
        phone.open_popup(self, Dialog("Category", buttons=[Choice("Cancel", "noop")],
                                      choices=[Choice(c, "set_category", (c,)) for c in CATEGORIES],
                                      checked=CATEGORIES.index(cur) if cur in CATEGORIES else -1))

    def set_category(self, phone: PhoneContext, name: str) -> None:
        self.fields["category"] = name

    def save(self, phone: PhoneContext) -> None:
        v = self.values()
        self.errors = {}
        if not v["name"]:
            self.errors["name"] = "Name is required"
        cents = parse_amount(v["amount"])
        if cents is None:
            self.errors["amount"] = "Amount is required" if not v["amount"] else "Invalid amount"
        if self.errors:
            return
        assert cents is not None
        self.focus = None
        store = db(phone)
        if self.expense_id is None:
            store.add(v["name"], cents, category_id(v["category"]), v["note"], phone.clock_ms)
        elif store.get(self.expense_id) is not None:
            store.update(self.expense_id, v["name"], cents, category_id(v["category"]), v["note"],
                         phone.clock_ms)
        phone.finish_activity(self)
        phone.toast("Saved")

    def dirty(self, phone: PhoneContext) -> bool:
        return self.values() != self.stored

