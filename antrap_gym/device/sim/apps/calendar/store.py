"""events.db: Simple Calendar Pro's Room database at its real path, with the tables and
columns the app creates (`events`, `event_types`, `widgets`, `tasks`), and the small
API its screens use (they rebuild on every change and must not parse shell output).

Times are epoch seconds (UTC, the phone's zone); `repeat_interval` is in seconds
(86400 daily, 604800 weekly, 2592001 monthly, 31536000 yearly, as the app stores
them) and a weekly `repeat_rule` is a weekday bitmask (Mon=1 .. Sun=64).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PATH = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db"

DAY = 86400
WEEK = 7 * DAY
MONTH = 30 * DAY + 1   # the app's REPEAT_MONTH marker
YEAR = 365 * DAY
#: the repeat dialog's entries and what each stores in repeat_interval
REPEATS: tuple[tuple[str, int], ...] = (
    ("No repetition", 0), ("Daily", DAY), ("Weekly", WEEK), ("Monthly", MONTH), ("Yearly", YEAR))

_SCHEMA = """
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, start_ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL, title TEXT NOT NULL, location TEXT NOT NULL, description TEXT NOT NULL,
  reminder_1_minutes INTEGER NOT NULL, reminder_2_minutes INTEGER NOT NULL,
  reminder_3_minutes INTEGER NOT NULL, reminder_1_type INTEGER NOT NULL,
  reminder_2_type INTEGER NOT NULL, reminder_3_type INTEGER NOT NULL,
  repeat_interval INTEGER NOT NULL, repeat_rule INTEGER NOT NULL, repeat_limit INTEGER NOT NULL,
  repetition_exceptions TEXT NOT NULL, attendees TEXT NOT NULL, import_id TEXT NOT NULL,
  time_zone TEXT NOT NULL, flags INTEGER NOT NULL, event_type INTEGER NOT NULL,
  parent_id INTEGER NOT NULL, last_updated INTEGER NOT NULL, source TEXT NOT NULL,
  availability INTEGER NOT NULL, color INTEGER NOT NULL, type INTEGER NOT NULL);
CREATE UNIQUE INDEX index_events_id ON events (id);
CREATE TABLE event_types (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
  color INTEGER NOT NULL, caldav_calendar_id INTEGER NOT NULL, caldav_display_name TEXT NOT NULL,
  caldav_email TEXT NOT NULL, type INTEGER NOT NULL);
CREATE UNIQUE INDEX index_event_types_id ON event_types (id);
CREATE TABLE widgets (id INTEGER PRIMARY KEY AUTOINCREMENT, widget_id INTEGER NOT NULL,
  period INTEGER NOT NULL);
CREATE UNIQUE INDEX index_widgets_widget_id ON widgets (widget_id);
CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, task_id INTEGER NOT NULL,
  start_ts INTEGER NOT NULL, flags INTEGER NOT NULL);
CREATE UNIQUE INDEX index_tasks_id_task_id ON tasks (id, task_id);
INSERT INTO event_types (id, title, color, caldav_calendar_id, caldav_display_name, caldav_email, type)
  VALUES (1, 'Regular event', -14575885, 0, '', '', 0);
"""

#: every events column but id, with the value a new event gets when nobody says otherwise
DEFAULTS: dict[str, Any] = {
    "start_ts": 0, "end_ts": 0, "title": "", "location": "", "description": "",
    "reminder_1_minutes": -1, "reminder_2_minutes": -1, "reminder_3_minutes": -1,
    "reminder_1_type": 0, "reminder_2_type": 0, "reminder_3_type": 0,
    "repeat_interval": 0, "repeat_rule": 0, "repeat_limit": 0, "repetition_exceptions": "[]",
    "attendees": "", "import_id": "", "time_zone": "UTC", "flags": 0, "event_type": 1,
    "parent_id": 0, "last_updated": 0, "source": "simple-calendar", "availability": 0,
    "color": 0, "type": 0,
}
COLUMNS: tuple[str, ...] = ("id", *DEFAULTS)


@dataclasses.dataclass
class Event:
    """One events row, as the screens use it."""

    id: int
    start_ts: int
    end_ts: int
    title: str
    location: str
    description: str
    repeat_interval: int
    repeat_rule: int


_READ = "id, start_ts, end_ts, title, location, description, repeat_interval, repeat_rule"


class EventsDatabase(SqliteStore):
    path = PATH
    schema = _SCHEMA
    version = 11
    _fresh: ClassVar[bytes | None] = None

    @classmethod
    def of(cls, phone: PhoneContext) -> EventsDatabase:
        return phone.databases[cls.path]  # type: ignore[return-value]

    def all(self) -> list[Event]:
        """Every event, by start time."""
        return [Event(*r) for r in self.db.execute(
            f"SELECT {_READ} FROM events ORDER BY start_ts, id").fetchall()]

    def get(self, event_id: int) -> Event | None:
        r = self.db.execute(f"SELECT {_READ} FROM events WHERE id = ?", (event_id,)).fetchone()
        return Event(*r) if r else None

    def add(self, values: dict[str, Any], now_s: int) -> int:
        row = {**DEFAULTS, **values, "last_updated": now_s * 1000}
        cols = ", ".join(row)
        cur = self.db.execute(f"INSERT INTO events ({cols}) VALUES ({', '.join('?' * len(row))})",
                              tuple(row.values()))
        self.revision += 1
        return int(cur.lastrowid)

    def update(self, event_id: int, values: dict[str, Any], now_s: int) -> None:
        row = {**values, "last_updated": now_s * 1000}
        sets = ", ".join(f"{c} = ?" for c in row)
        self.db.execute(f"UPDATE events SET {sets} WHERE id = ?", (*row.values(), event_id))
        self.revision += 1

    def remove(self, event_id: int) -> None:
        self.db.execute("DELETE FROM events WHERE id = ?", (event_id,))
        self.revision += 1
