"""The Clock's data: alarms in `alarms.db` (AOSP DeskClock's `alarm_templates` table),
the stopwatch, the timer and the selected tab in its preferences file.

The stopwatch and the timer run on the phone's clock (`phone.clock_ms`, which every
input moves on): a running stopwatch is its accumulated time plus the time since it was
started, a running timer ends at a fixed clock time. `pm clear` resets both files: the
two alarms a fresh install has, the stopwatch at zero, no timer, the first tab.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "com.google.android.deskclock"
DB_PATH = f"/data/data/{PKG}/databases/alarms.db"
#: days of the week as DeskClock's bit mask: Monday is bit 0 ... Sunday bit 6
WEEKDAYS, WEEKEND = 0b0011111, 0b1100000
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True, slots=True)
class Alarm:
    id: int
    hour: int
    minutes: int
    days: int
    enabled: bool
    label: str

    @property
    def time(self) -> str:
        """"8:30 AM", as the list shows it on a 12-hour phone."""
        h = self.hour % 12 or 12
        return f"{h}:{self.minutes:02d}\u202f{'AM' if self.hour < 12 else 'PM'}"

    @property
    def repeat(self) -> str:
        if self.days == 0:
            return "Not scheduled" if not self.enabled else "Tomorrow"
        if self.days == 0b1111111:
            return "Every day"
        return ", ".join(n for i, n in enumerate(DAY_NAMES) if self.days >> i & 1)


class AlarmsDb(SqliteStore):
    """AOSP DeskClock's ClockDatabaseHelper schema (version 8) and its two default alarms."""

    path = DB_PATH
    version = 8
    schema = """
CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY, hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL, daysofweek INTEGER NOT NULL, enabled INTEGER NOT NULL,
    vibrate INTEGER NOT NULL, label TEXT NOT NULL, ringtone TEXT,
    delete_after_use INTEGER NOT NULL DEFAULT 0);
CREATE TABLE alarm_instances (_id INTEGER PRIMARY KEY, year INTEGER NOT NULL,
    month INTEGER NOT NULL, day INTEGER NOT NULL, hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL, vibrate INTEGER NOT NULL, label TEXT NOT NULL, ringtone TEXT,
    alarm_state INTEGER NOT NULL, alarm_id INTEGER REFERENCES alarm_templates(_id)
    ON UPDATE CASCADE ON DELETE CASCADE);
CREATE TABLE selected_cities (city_id TEXT PRIMARY KEY, city_name TEXT NOT NULL,
    timezone_name TEXT NOT NULL, timezone_offset INTEGER NOT NULL);
INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone)
    VALUES (8, 30, 31, 0, 1, '', NULL), (9, 0, 96, 0, 1, '', NULL);
"""

    @classmethod
    def of(cls, phone: PhoneContext) -> AlarmsDb:
        return phone.databases[DB_PATH]  # type: ignore[return-value]

    def all(self) -> list[Alarm]:
        """Every alarm, earliest time of day first (the list's order)."""
        cur = self.db.execute("SELECT _id, hour, minutes, daysofweek, enabled, label "
                              "FROM alarm_templates ORDER BY hour, minutes, _id")
        return [Alarm(int(r[0]), int(r[1]), int(r[2]), int(r[3]), bool(r[4]), str(r[5] or ""))
                for r in cur]

    def add(self, hour: int, minutes: int) -> int:
        cur = self.db.execute("INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, "
                              "vibrate, label, ringtone) VALUES (?, ?, 0, 1, 1, '', NULL)",
                              (hour, minutes))
        return int(cur.lastrowid or 0)

    def set_time(self, alarm_id: int, hour: int, minutes: int) -> None:
        self.db.execute("UPDATE alarm_templates SET hour = ?, minutes = ?, enabled = 1 "
                        "WHERE _id = ?", (hour, minutes, alarm_id))

    def set_enabled(self, alarm_id: int, on: bool) -> None:
        self.db.execute("UPDATE alarm_templates SET enabled = ? WHERE _id = ?", (int(on), alarm_id))

    def remove(self, alarm_id: int) -> None:
        self.db.execute("DELETE FROM alarm_templates WHERE _id = ?", (alarm_id,))


class ClockPrefs(SharedPreferences):
    """DeskClock's default preferences file: the stopwatch, the timer, the tab."""

    path = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"


def prefs(phone: PhoneContext) -> SharedPreferences:
    return phone.databases[ClockPrefs.path]  # type: ignore[return-value]


def _int(p: SharedPreferences, key: str) -> int:
    v = p.values.get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


# --- the stopwatch ------------------------------------------------------------------------

SW_RESET, SW_RUNNING, SW_PAUSED = "reset", "running", "paused"


def stopwatch_state(phone: PhoneContext) -> str:
    return prefs(phone).get_string("sw_state", SW_RESET)


def stopwatch_ms(phone: PhoneContext) -> int:
    """The time on the stopwatch now."""
    p = prefs(phone)
    total = _int(p, "sw_accum_ms")
    if stopwatch_state(phone) == SW_RUNNING:
        total += phone.clock_ms - _int(p, "sw_start_ms")
    return max(0, total)


def laps(phone: PhoneContext) -> list[int]:
    """Each lap's total time when it was taken, oldest first."""
    raw = prefs(phone).get_string("sw_laps", "")
    return [int(x) for x in raw.split(",") if x.isdigit()]


def stopwatch_start(phone: PhoneContext) -> None:
    p = prefs(phone)
    if stopwatch_state(phone) != SW_RUNNING:
        p.put("sw_start_ms", phone.clock_ms)
        p.put("sw_state", SW_RUNNING)


def stopwatch_pause(phone: PhoneContext) -> None:
    p = prefs(phone)
    if stopwatch_state(phone) == SW_RUNNING:
        p.put("sw_accum_ms", stopwatch_ms(phone))
        p.put("sw_state", SW_PAUSED)


def stopwatch_reset(phone: PhoneContext) -> None:
    p = prefs(phone)
    for key, value in (("sw_state", SW_RESET), ("sw_accum_ms", 0), ("sw_start_ms", 0),
                       ("sw_laps", "")):
        p.put(key, value)


def stopwatch_lap(phone: PhoneContext) -> None:
    if stopwatch_state(phone) == SW_RUNNING:
        prefs(phone).put("sw_laps", ",".join(str(x) for x in [*laps(phone), stopwatch_ms(phone)]))


# --- the timer ------------------------------------------------------------------------------

T_NONE, T_RUNNING, T_PAUSED = "none", "running", "paused"


def timer_state(phone: PhoneContext) -> str:
    return prefs(phone).get_string("timer_state", T_NONE)


def timer_remaining_ms(phone: PhoneContext) -> int:
    """What is left of the timer (0 once it has gone off)."""
    p = prefs(phone)
    state = timer_state(phone)
    if state == T_RUNNING:
        return max(0, _int(p, "timer_end_ms") - phone.clock_ms)
    return _int(p, "timer_remaining_ms") if state == T_PAUSED else 0


def timer_length_ms(phone: PhoneContext) -> int:
    return _int(prefs(phone), "timer_length_ms")


def timer_start(phone: PhoneContext, length_ms: int | None = None) -> None:
    """Start a new timer of `length_ms`, or resume the paused one."""
    p = prefs(phone)
    if length_ms is not None:
        p.put("timer_length_ms", length_ms)
        remaining = length_ms
    else:
        remaining = timer_remaining_ms(phone)
    p.put("timer_end_ms", phone.clock_ms + remaining)
    p.put("timer_state", T_RUNNING)


def timer_pause(phone: PhoneContext) -> None:
    p = prefs(phone)
    if timer_state(phone) == T_RUNNING:
        p.put("timer_remaining_ms", timer_remaining_ms(phone))
        p.put("timer_state", T_PAUSED)


def timer_add_minute(phone: PhoneContext) -> None:
    p = prefs(phone)
    state = timer_state(phone)
    if state == T_RUNNING:
        p.put("timer_end_ms", max(_int(p, "timer_end_ms"), phone.clock_ms) + 60_000)
    elif state == T_PAUSED:
        p.put("timer_remaining_ms", _int(p, "timer_remaining_ms") + 60_000)


def timer_delete(phone: PhoneContext) -> None:
    p = prefs(phone)
    for key, value in (("timer_state", T_NONE), ("timer_end_ms", 0), ("timer_remaining_ms", 0),
                       ("timer_length_ms", 0)):
        p.put(key, value)
