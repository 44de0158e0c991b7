"""Simple Calendar Pro (`com.simplemobiletools.calendar.pro`) for tasks: the seeded events
(AndroidWorld's generator: titles, descriptions, 15-60 minute lengths in October 2023),
seeding events.db through one `sqlite3` call and restoring it at tear-down, the `events`
table as rows for the check library, and the app's screens for solutions.

An event dict holds any of events.db's columns (`start_ts`, `end_ts`, `title`,
`location`, `description`, `repeat_interval`, `repeat_rule`, ...); the rest take the
values AndroidWorld's `CalendarEvent` gives them. Times are epoch seconds, UTC.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.checks.base import Check, Either, Holds
from antrap_gym.tasks.checks.database import DatabaseTable, read_rows
from antrap_gym.tasks.checks.match import Eq
from antrap_gym.tasks.checks.screen import ElementShows
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from collections.abc import Callable

    from antrap_gym.device import Device

PKG = "com.simplemobiletools.calendar.pro"
RID = PKG + ":id/"
EVENTS_DB = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db"
#: the month / day / agenda views (one activity, as in the app)
MAIN = ".activities.MainActivity"
#: the event editor (new and existing events)
EDITOR = ".activities.EventActivity"
#: the date picker's title and the time picker's in clock mode (the toolkit's Material pickers)
DATE_TITLE, TIME_TITLE = "Select date", "Select time"
#: the time picker's views (Material's ids, in the app's package)
HOUR_CHIP, MINUTE_CHIP = RID + "material_hour_tv", RID + "material_minute_tv"
#: the dial's labels are TextViews ("7 o'clock", "35 minutes"); the chips show the same
LABEL = "android.widget.TextView"

#: events.db's `events` rows, keyed by id (what the integrity checks compare)
EVENTS = DatabaseTable(EVENTS_DB, "events", key="id")

#: the columns a seeded event gets unless its dict says otherwise (AndroidWorld's
#: CalendarEvent defaults; `id` is given by the seeding, 1..n)
EVENT_DEFAULTS: dict[str, Any] = {
    "start_ts": 0, "end_ts": 0, "title": "", "location": "", "description": "",
    "reminder_1_minutes": -1, "reminder_2_minutes": -1, "reminder_3_minutes": -1,
    "reminder_1_type": 0, "reminder_2_type": 0, "reminder_3_type": 0,
    "repeat_interval": 0, "repeat_rule": 0, "repeat_limit": 0, "repetition_exceptions": "[]",
    "attendees": "", "import_id": "", "time_zone": "UTC", "flags": 0, "event_type": 1,
    "parent_id": 0, "last_updated": 0, "source": "imported-ics", "availability": 0,
    "color": 0, "type": 0,
}

DAY = 86400
WEEK = 7 * DAY
YEAR, MONTH = 2023, 10
#: the device's "today" (AndroidWorld's DT: Sunday 2023-10-15 15:34 UTC)
TODAY = dt.date(2023, 10, 15)

# --- AndroidWorld's event generator pools --------------------------------------------------

TITLE_PREFIXES = ("Meeting with", "Call with", "Workshop on", "Appointment for", "Catch up on",
                  "Review session for")
NAMES = ("Alice", "Bob", "the Team", "HR", "Dr. Smith", "Marketing")
SUBJECTS = ("Project X", "Annual Report", "Budget Planning", "Campaign")
ACTIONS = ("discuss", "finalize", "plan", "celebrate", "prepare for", "review", "explore",
           "understand", "organize", "strategize about")
TOPICS = ("upcoming project milestones", "marketing strategies", "annual budget",
          "product launch", "team roles", "client feedback", "contract details",
          "software updates", "business objectives")
NOTES = ("Please bring relevant documents.", "Remember to confirm attendance.",
         "Let's be punctual.", "Looking forward to productive discussions.",
         "Snacks will be provided.")
DURATIONS = (15, 30, 45, 60)


def _pick(rng: np.random.Generator, pool: tuple[str, ...]) -> str:
    return pool[int(rng.integers(len(pool)))]


def event_title(rng: np.random.Generator) -> str:
    prefix = _pick(rng, TITLE_PREFIXES)
    return f"{prefix} {_pick(rng, NAMES if 'with' in prefix else SUBJECTS)}"


def event_description(rng: np.random.Generator) -> str:
    text = f"We will {_pick(rng, ACTIONS)} {_pick(rng, TOPICS)}."
    return f"{text} {_pick(rng, NOTES)}" if rng.random() < 0.5 else text


def october_ts(rng: np.random.Generator, start_day: int = 15, end_day: int = 31,
               start_hour: int = 0) -> int:
    """A random whole hour in October 2023 (UTC): day in [start_day, end_day], hour in
    [start_hour, 23] (AndroidWorld's create_random_october_2023_unix_ts)."""
    day = int(rng.integers(start_day, end_day + 1))
    hour = int(rng.integers(start_hour, 24))
    return int(dt.datetime(YEAR, MONTH, day, hour, tzinfo=dt.UTC).timestamp())


def make_event(rng: np.random.Generator, start_ts: int) -> dict[str, Any]:
    """An event starting at `start_ts`: random title and description, 15-60 minutes."""
    mins = DURATIONS[int(rng.integers(len(DURATIONS)))]
    return {"start_ts": start_ts, "end_ts": start_ts + 60 * mins,
            "title": event_title(rng), "description": event_description(rng)}


def noise_events(rng: np.random.Generator, n: int,
                 keep: Callable[[dict[str, Any]], bool] = lambda e: True,
                 start_day: int = 1) -> list[dict[str, Any]]:
    """n distinct random events in October (from `start_day`) that `keep` accepts."""
    out: list[dict[str, Any]] = []
    for _ in range(10_000):
        if len(out) >= n:
            return out
        e = make_event(rng, october_ts(rng, start_day=start_day))
        if keep(e) and e not in out:
            out.append(e)
    raise ValueError(f"could only draw {len(out)} of {n} noise events")


def start_of(event: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(event["start_ts"]), tz=dt.UTC)


def weekly_rule(start_ts: int) -> int:
    """Simple Calendar Pro's weekly repeat_rule for the start's weekday (Mon=1 .. Sun=64)."""
    return 1 << (start_of({"start_ts": start_ts}).isoweekday() - 1)


# --- the shell side -----------------------------------------------------------------------------


def _lit(v: Any) -> str:
    if isinstance(v, (bool, int)):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def _insert(row: dict[str, Any]) -> str:
    cols = ", ".join(row)
    return f"INSERT INTO events ({cols}) VALUES ({', '.join(_lit(v) for v in row.values())});"


def _seq_sql(seq: int | None) -> str:
    reset = "DELETE FROM sqlite_sequence WHERE name = 'events';"
    return reset + (f"INSERT INTO sqlite_sequence (name, seq) VALUES ('events', {int(seq)});"
                    if seq is not None else "")


def read_events(device: Device) -> list[dict[str, Any]]:
    """Every events row (all columns), by id."""
    return EVENTS.rows(device)


def write_events(device: Device, rows: list[dict[str, Any]], seq: int | None) -> None:
    """Replace the events table with `rows` (full rows, ids included) and set its
    AUTOINCREMENT counter to `seq`, in one `sqlite3` call."""
    sql = "BEGIN;DELETE FROM events;" + "".join(map(_insert, rows)) + _seq_sql(seq) + "COMMIT;"
    sh(device, f"sqlite3 {EVENTS_DB} {q(sql)}")


def seed_events(device: Device, events: list[dict[str, Any]]) -> None:
    """events.db holds exactly `events` (ids 1..n, AndroidWorld's defaults for the
    columns they leave out); the next event the app adds gets id n + 1."""
    rows = [{**EVENT_DEFAULTS, **e, "id": i} for i, e in enumerate(events, 1)]
    write_events(device, rows, len(rows) if rows else None)


def _saved(device: Device) -> tuple[list[dict[str, Any]], int | None]:
    seq = read_rows(device, EVENTS_DB, "SELECT seq FROM sqlite_sequence WHERE name = 'events'")
    return read_events(device), (int(seq[0]["seq"]) if seq else None)


@dataclasses.dataclass
class SeedEvents(Recipe):
    """The calendar holds exactly `events` (a list of event dicts); tear-down puts back
    the rows (and the id counter) that were there before."""

    events: Any

    def apply(self, device: Device) -> None:
        if self.saved is UNSET:
            self.saved = _saved(device)
        seed_events(device, list(self.events or []))

    def restore(self, device: Device, saved: Any) -> None:
        rows, seq = saved
        write_events(device, rows, seq)


def state(device: Device) -> list[dict[str, Any]]:
    """What the contract compares before set-up and after tear-down: every events row."""
    return read_events(device)


# --- solution steps ------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Simple Calendar Pro", package=PKG)


def field(rid: str) -> Target:
    """An editor or picker field by resource id (a filled field shows no hint)."""
    return Target(rid=rid, cls="EditText")


def day_label(ts: int) -> str:
    """The day view's heading for the day of `ts`: "October 16 (Mon)"."""
    d = dt.datetime.fromtimestamp(int(ts), tz=dt.UTC)
    return f"{d.strftime('%B')} {d.day} ({d.strftime('%a')})"


def date_desc(ts: int) -> str:
    """A date picker's (and the month view's) content-desc for the day of `ts`."""
    d = dt.datetime.fromtimestamp(int(ts), tz=dt.UTC)
    return f"{d.day} {d.strftime('%B')} {d.year}"


@dataclasses.dataclass(frozen=True)
class IdIn:
    """A matcher: an id among `ids` (the seeded target events)."""

    ids: tuple[int, ...]

    def __call__(self, v: Any) -> bool:
        return isinstance(v, int) and v in self.ids


@dataclasses.dataclass
class EventGone(Check):
    """No event titled `title` starts on the UTC day of `day_ts` (one of a delete task's
    targets is deleted): a solution step's `done`, read from the database."""

    title: str
    day_ts: int

    def score(self, device: Device, answer: str | None) -> float:
        lo = int(self.day_ts) - int(self.day_ts) % DAY
        rows = read_rows(device, EVENTS_DB, "SELECT count(*) AS n FROM events WHERE title = ? "
                         "AND start_ts >= ? AND start_ts < ?", (self.title, lo, lo + DAY))
        return float(rows[0]["n"] == 0)


@dataclasses.dataclass
class EventTitled(Check):
    """Some event is titled `title` (`present`), or none is: an add task's event saved
    already, right or wrong; a solution step's `done`, read from the database."""

    title: str
    present: bool = True

    def score(self, device: Device, answer: str | None) -> float:
        rows = read_rows(device, EVENTS_DB, "SELECT count(*) AS n FROM events WHERE title = ?",
                         (self.title,))
        return float((rows[0]["n"] > 0) == self.present)


def reopen_saved(title: str) -> list[Step]:
    """Find an event titled `title` through the toolbar search and open it in the editor,
    each step done while none exists: an add task's event saved before its form was right
    (an "unsaved changes" dialog answered Save, say) is corrected, not added again, since
    the check allows one new row."""
    none = Holds(EventTitled(title, present=False))
    query = Target(rid="search_query", cls="EditText")
    typed = Holds(ElementShows(({"resource_id": Eq(RID + "search_query"), "text": Eq(title)},)))
    return [Tap(screen=MAIN, target=Target(desc="Search"), done=none),
            TypeText(screen=MAIN, target=query, text=title, requires=query,
                     done=Either(none, typed)),
            Tap(screen=MAIN, target=Target(text=title, cls="TextView"), requires=query, done=none)]


def editor_date(ts: int) -> str:
    """The editor's label for the day of `ts`: "Mon, October 16 2023"."""
    d = dt.datetime.fromtimestamp(int(ts), tz=dt.UTC)
    return f"{d.strftime('%a')}, {d.strftime('%B')} {d.day} {d.year}"


def shown(which: str, part: str, text: str) -> Target:
    """The editor's start/end date/time field showing `text`."""
    return Target(rid=f"event_{which}_{part}", text=text)


def time_parts(prefix: str, ts: int) -> dict[str, str]:
    """What the clock picker and the editor show for the time of `ts` (12-hour clock, the
    phone's default), under `prefix`: `_hour` the dial's label ("7"), `_hour_chip` and
    `_minute` the chips ("07", "35"; "35" is also the dial's label), `_period` ("PM") and
    `_time` the editor's field ("07:35 PM"). The dial labels every five minutes, which is
    what the steps tap: a time between them is refused here."""
    t = dt.datetime.fromtimestamp(int(ts), tz=dt.UTC)
    if t.minute % 5:
        raise ValueError(f"{t:%H:%M}: the dial's labels are five minutes apart")
    h12 = t.hour % 12 or 12
    return {f"{prefix}_hour": str(h12), f"{prefix}_hour_chip": f"{h12:02d}",
            f"{prefix}_minute": f"{t.minute:02d}", f"{prefix}_period": "AM" if t.hour < 12 else "PM",
            f"{prefix}_time": t.strftime("%I:%M %p")}


def _shows(rid: str, text: str) -> Holds:
    return Holds(ElementShows(({"resource_id": Eq(rid), "text": Eq(text)},)))


def dial_steps(which: str, p: str, after: tuple[Target, ...] = ()) -> list[Step]:
    """Set the editor's start or end time on the clock dial, from `time_parts(p, ...)`'s
    placeholders: open the picker (done when the field shows the time), bring the dial to
    hours (unless the hour is right), tap the hour's label, the period, bring the dial to
    minutes, tap the minute's label, OK. The labels are found by their content-desc in the
    accessibility tree, so a tap lands where the dial draws them."""
    clock = EDITOR + "|" + TIME_TITLE
    hour, minute = "{" + p + "_hour}", "{" + p + "_minute}"
    t_done = _shows(RID + f"event_{which}_time", "{" + p + "_time}")
    hour_ok = _shows(HOUR_CHIP, "{" + p + "_hour_chip}")
    minute_ok = _shows(MINUTE_CHIP, minute)
    on_hours = Holds(ElementShows(({"content_description": Eq(hour + " o'clock"),
                                    "class_name": Eq(LABEL)},)))
    on_minutes = Holds(ElementShows(({"content_description": Eq(minute + " minutes"),
                                      "class_name": Eq(LABEL)},)))
    return [
        Tap(screen=EDITOR, target=Target(rid=f"event_{which}_time"), done=t_done,
            requires=after or None),
        Tap(screen=clock, target=Target(rid="material_hour_tv"), done=Either(hour_ok, on_hours)),
        Tap(screen=clock, target=Target(desc=hour + " o'clock", cls="TextView"), done=hour_ok),
        Tap(screen=clock, target=Target(text="{" + p + "_period}", cls="Button")),
        Tap(screen=clock, target=Target(rid="material_minute_tv"),
            done=Either(minute_ok, on_minutes)),
        Tap(screen=clock, target=Target(desc=minute + " minutes", cls="TextView"), done=minute_ok),
        Tap(screen=clock, target=Target(text="OK"), done=t_done),
    ]


def set_when(which: str, date: str, date_label: str, p: str,
             after: tuple[Target, ...] = ()) -> list[Step]:
    """Set the editor's start or end date and time through the pickers. Each part is done
    when its field shows the value (`date_label`, and the time of `time_parts(p, ...)`: the
    end after the start moved it is skipped), and waits for the part before it (`after`,
    then its own date): a picker closed before its OK is reopened, not passed over."""
    picker = EDITOR + "|" + DATE_TITLE
    on_date = shown(which, "date", date_label)
    d_done = _shows(RID + f"event_{which}_date", date_label)
    return [
        Tap(screen=EDITOR, target=Target(rid=f"event_{which}_date"), done=d_done,
            requires=after or None),
        Tap(screen=picker, target=Target(desc=date)),
        Tap(screen=picker, target=Target(text="OK"), done=d_done),
        *dial_steps(which, p, after=(*after, on_date)),
    ]
