"""Tasks.org (`org.tasks`) for tasks: AndroidWorld's information-retrieval pools and draws
(tasks.textproto), seeding and reading the `tasks` table through `sqlite3` in one shell
call each, the list's "Show completed" state, and the app's screens for solutions.

A draw makes the rows the goal is about (the "relevant state") plus 20 random tasks
that escape the template's exclusion condition, as AndroidWorld does, so the expected
answer is known from the parameters alone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.checks.base import Check, Holds
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "org.tasks"
DB = f"/data/data/{PKG}/databases/database"
PREFS = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
MAIN = ".activity.MainActivity"
MENU = MAIN + "|menu"
#: the device's reference time (AndroidWorld's device_constants.DT), a Sunday
DT = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.UTC)
#: the columns a seeded row sets, in order
ROW = ("_id", "title", "importance", "dueDate", "hideUntil", "created", "modified", "completed",
       "notes", "remoteId")
STATE_COLUMNS = ("_id", "title", "importance", "dueDate", "hideUntil", "created", "modified",
                 "completed", "deleted", "notes", "recurrence", "remoteId", "parent")

# --- AndroidWorld's pools (tasks.textproto) ---------------------------------------------------
TITLES = (
    "Complete project proposal", "Review code changes", "Schedule team meeting",
    "Submit expense report", "Update website content", "Review quarterly goals",
    "Organize files and folders", "Draft marketing email", "Attend networking event",
    "Prepare presentation for meeting", "Call client for follow-up", "Research market trends",
    "Follow up on support tickets", "Prepare agenda for weekly meeting",
    "Book flights for conference", "Plan team outing", "Participate in brainstorming session",
    "Review performance metrics", "Attend training session", "Send report to manager",
)
TITLES_LONG = (*TITLES, "Dinner with friends", "Organize movie night", "Exercise session with coach",
               "Read book for book club", "Plan family reunion")
NOTES = (
    "Remember to complete this task.", "This task is important.",
    "Don't forget to follow up on this task.", "Double-check calculations.",
    "Confirm meeting location.", "Follow up with team members.", "Prepare presentation slides.",
    "Update project status.", "Check email for updates.", "Review feedback from client.",
    "Complete paperwork.", "Schedule follow-up meeting.",
)
NOTES_LONG = (
    "This is high priority.", "This is urgent.", "Remember to review ahead of time.",
    "Double-check details.", "Schedule time on calendar.", "Follow up with others.",
    "Send emails to everyone.", "Send an update.", "Monitor email for updates on this.",
    "Check handwritten notes.", "Complete survey.", "Schedule follow-up tasks.",
)
HIGH_TITLES = (
    "Project Milestone Review", "Submit Budget Report", "Proposal Draft Submission",
    "Team Sync-Up Meeting", "Client Feedback Session", "Code Review", "Marketing Campaign Launch",
    "Product Design Review", "Stakeholder Update Meeting", "Quarterly Sales Review",
)
TIMES = ("11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12pm", "6:30am", "8:00pm",
         "12am", "5:20pm", "23:59", "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm",
         "11:30am", "20:00")
HIGH_TIMES = ("5:00pm", "12:00pm", "8:00am", "11:59pm", "2:00pm", "9:00am", "3:30pm", "10:00am",
              "4:45pm", "7:00pm")


def october(first: int, last: int) -> tuple[str, ...]:
    return tuple(f"October {d} 2023" for d in range(first, last + 1))


#: the random tasks around the relevant ones: a title and its notes (our own wording)
DISTRACTORS = {
    "Grocery Shopping": "Milk, eggs and bread; snacks for the kids too.",
    "Finish Project Proposal": "Due Friday. Budget and timeline still open.",
    "Schedule Dentist Appointment": "Cleaning is overdue; call the practice.",
    "Water Plants": "Check the soil first. Feed the succulents.",
    "Meal Prep for the Week": "Plan meals, then shop. Cook on Sunday.",
    "Research Vacation Destinations": "Beaches with things to do for children.",
    "Read 'The Martian'": "Halfway through; finish by next weekend.",
    "Call Grandma": "Family news, and ask for the cookie recipe.",
    "Change Air Filter": "Three months since the last one.",
    "Brainstorm Blog Post Ideas": "Five topics for next month.",
    "Renew Driver's License": "Expires next month; check what to bring.",
    "Organize Closet": "Donate old clothes; store the winter things.",
    "Submit Expense Report": "Attach every receipt. Due Wednesday.",
    "Attend Team Meeting": "Project updates and new initiatives.",
    "Learn to Play Guitar": "Half an hour of chords a day.",
    "Reply to Emails": "Urgent ones first; unsubscribe from the rest.",
    "Clean Out Fridge": "Throw out what expired; wipe the shelves.",
    "Create Budget for Next Month": "Income, expenses, savings goals.",
    "Back Up Computer Files": "External drive or cloud; set a schedule.",
    "Take Dog to the Vet": "Annual check-up and vaccinations.",
}


# --- dates and times -------------------------------------------------------------------------


def day_of(date: str) -> dt.date:
    """'October 15 2023' as a date (AndroidWorld's `%B %d %Y`)."""
    return dt.datetime.strptime(date, "%B %d %Y").date()


def clock(time: str) -> dt.time:
    """'5:20pm', '12pm' or '21:45' (AndroidWorld's three time formats)."""
    for fmt in ("%H:%M", "%I:%M%p", "%I%p"):
        try:
            return dt.datetime.strptime(time.strip().upper(), fmt).time()
        except ValueError:
            pass
    raise ValueError(f"not a time: {time!r}")


def ms(day: dt.date, at: dt.time | None) -> int:
    t = at or dt.time(0, 0)
    return int(dt.datetime.combine(day, t, dt.UTC).timestamp()) * 1000


def due_ms(date: str, time: str | None = None) -> int:
    """A due date as Tasks.org stores it: a day without a time at noon, whole seconds; a
    day with a time one second past the minute (the app's "has a time" mark)."""
    if time is None:
        return ms(day_of(date), dt.time(12, 0))
    return ms(day_of(date), clock(time)) + 1000


def reworded(rng: np.random.Generator, date: str) -> str:
    """A date as AndroidWorld's goals word it, relative to the device's 2023-10-15: the
    date, the date without the year, today/tomorrow/yesterday, a weekday within a week,
    'this <weekday>', 'the <weekday> after next'."""
    day, today = day_of(date), DT.date()
    options = [f"{day:%B} {day:%d}", date]
    gap = (day - today).days
    options += {0: ["today"], 1: ["tomorrow"], -1: ["yesterday"]}.get(gap, [])
    name = f"{day:%A}"
    if 0 < gap <= 7:
        options += [name, f"this {name}"]
    elif 7 < gap <= 14:
        options.append(f"the {name} after next")
    elif -7 <= gap < 0:
        options.append(name)
    return options[int(rng.integers(len(options)))]


# --- draws ----------------------------------------------------------------------------------------


def pick(rng: np.random.Generator, pool: Sequence[Any]) -> Any:
    return pool[int(rng.integers(len(pool)))]


def picks(rng: np.random.Generator, pool: Sequence[Any], n: int) -> list[Any]:
    """n values without replacement (AndroidWorld's `{name_without_replacement}`)."""
    return [pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False)]


def task_row(title: str, importance: int = 2, due: int = 0, hide: int = 0, completed: int = 0,
             notes: str | None = None) -> dict:
    """One `tasks` row; created (and modified) 7 hours before it is due, as AndroidWorld
    seeds it."""
    created = due - 7 * 3600 if due else ms(DT.date(), None) - 7 * 3600
    return {"title": title, "importance": int(importance), "dueDate": due, "hideUntil": hide,
            "created": created, "modified": created, "completed": completed, "notes": notes}


def _random_instant(rng: np.random.Generator, centre: dt.datetime, days: float) -> dt.datetime:
    minutes = int(rng.integers(int(-days * 720), int(days * 720) + 1))
    return (centre + dt.timedelta(minutes=minutes)).replace(second=0)


def random_task(rng: np.random.Generator) -> dict:
    """A random task as AndroidWorld's: a title (half the time its notes), any priority,
    due within a week either side of now at a time, shown from about six days before,
    and completed (two weeks ago, give or take a week) half the time."""
    title = pick(rng, tuple(DISTRACTORS))
    notes = DISTRACTORS[title] if rng.random() < 0.5 else None
    due = _random_instant(rng, DT, 14)
    hide = _random_instant(rng, due - dt.timedelta(days=6), 5)
    completed = 0
    if rng.random() < 0.5:
        completed = int(_random_instant(rng, DT - dt.timedelta(days=14), 14).timestamp()) * 1000
    return task_row(title, int(rng.integers(4)), int(due.timestamp()) * 1000 + 1000,
                    int(hide.timestamp()) * 1000, completed, notes)


def due_day(row: dict) -> dt.date:
    return dt.datetime.fromtimestamp(row["dueDate"] / 1000, dt.UTC).date()


def with_distractors(rng: np.random.Generator, relevant: list[dict],
                     excluded: Callable[[dict], bool], n: int = 20) -> list[dict]:
    """The relevant rows and n random ones that `excluded` lets through, shuffled, with
    ids 1.. and remote ids from the seed."""
    rows = list(relevant)
    tries = 0
    while len(rows) < len(relevant) + n:
        tries += 1
        if tries > 2000:
            raise RuntimeError("the exclusion condition lets no random task through")
        row = random_task(rng)
        if not excluded(row):
            rows.append(row)
    order = rng.permutation(len(rows))
    out = []
    for i, k in enumerate(order, 1):
        row = dict(rows[int(k)], _id=i, remoteId=str(int(rng.integers(10**15, 10**16))))
        out.append(row)
    return out


# --- seeding and reading -------------------------------------------------------------------------


def sql_value(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return "'" + str(v).replace("'", "''") + "'"


def insert_sql(rows: list[dict]) -> str:
    cols = ", ".join(ROW)
    return "".join(f"INSERT INTO tasks ({cols}) VALUES ({', '.join(sql_value(r.get(c)) for c in ROW)});"
                   for r in rows)


#: one statement per row that puts it back as it was (every column)
_DUMP = ("SELECT 'INSERT INTO tasks VALUES(' || " + " || ',' || ".join(
    f"quote({c})" for c in ("_id", "title", "importance", "dueDate", "hideUntil", "created",
                            "modified", "completed", "deleted", "notes", "estimatedSeconds",
                            "elapsedSeconds", "timerStart", "notificationFlags", "lastNotified",
                            "recurrence", "repeat_from", "calendarUri", "remoteId", "collapsed",
                            "parent", "read_only")) + " || ');' FROM tasks ORDER BY _id;")


def replace_tasks(device: Device, script: str, read_first: bool = False) -> str | None:
    """Empty the table and run `script` (INSERTs) in one `sqlite3` call; with
    `read_first`, return the statements that restore what was there (one call more)."""
    before = sh(device, f"sqlite3 {DB} {q(_DUMP)}") if read_first else None
    sh(device, f"sqlite3 {DB} {q('DELETE FROM tasks;' + script)}")
    return before


@dataclasses.dataclass
class SeedTasks(Recipe):
    """The task list holds exactly `rows`; tear-down puts back the tasks there were."""

    rows: Any

    def apply(self, device: Device) -> None:
        first = self.saved is UNSET
        before = replace_tasks(device, insert_sql(list(self.rows or [])), read_first=first)
        if first:
            self.saved = before

    def restore(self, device: Device, saved: Any) -> None:
        replace_tasks(device, str(saved or ""))


@dataclasses.dataclass
class ShowsCompleted(Check):
    """The list's overflow choice "Show completed" is on (its preference file says so)."""

    def score(self, device: Device, answer: str | None) -> float:
        out = device.shell(f"cat {PREFS}").stdout
        return float('name="show_completed_tasks" value="true"' in out)


def state(device: Device) -> str:
    """What the contract compares before set-up and after tear-down: every task row."""
    cols = ", ".join(STATE_COLUMNS)
    return device.shell(f"sqlite3 {DB} {q(f'SELECT {cols} FROM tasks ORDER BY _id')}").stdout


# --- solution steps ----------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Tasks", package=PKG)


def show_completed() -> list[Tap]:
    done = Holds(ShowsCompleted())
    return [Tap(screen=MAIN, target=Target(desc="More options"), done=done),
            Tap(screen=MENU, target=Target(text="Show completed"), done=done)]
