"""Clock (`com.google.android.deskclock`) for tasks: its set-up (AndroidWorld clears the
app's data: the stopwatch at zero, no timer), its screens for solutions, and what the
contract compares (the alarms, read from alarms.db).

`pm clear` empties the preferences that hold the stopwatch and the timer, which no
shell command writes back; tear-down restores the alarms (`sqlite3` on alarms.db) and
leaves the stopwatch and timer reset.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.apps.grants import ClearApp
from antrap_gym.tasks.checks import ElementShows, Holds, read_rows
from antrap_gym.tasks.recipes import q
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.google.android.deskclock"
APP_NAME = "Clock"
DESKCLOCK = "com.android.deskclock.DeskClock"
RID = PKG + ":id/"
DB = f"/data/data/{PKG}/databases/alarms.db"
COLUMNS = ("_id", "hour", "minutes", "daysofweek", "enabled", "vibrate", "label", "ringtone",
           "delete_after_use")


def read_alarms(device: Device) -> list[dict[str, Any]]:
    return read_rows(device, DB, f"SELECT {', '.join(COLUMNS)} FROM alarm_templates ORDER BY _id")


def _literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, (int, float)):
        return str(v)
    return "'" + str(v).replace("'", "''") + "'"


@dataclasses.dataclass
class ClearClock(ClearApp):
    """AndroidWorld's set-up of the Clock tasks: its data cleared (`pm clear`), so the
    stopwatch is reset and paused at 00:00, no timer is set, and it opens on its first
    tab. Tear-down puts the alarms back."""

    package: str = PKG

    def save(self, device: Device) -> Any:
        return {"grants": super().save(device), "alarms": read_alarms(device)}

    def restore(self, device: Device, saved: Any) -> None:
        super().restore(device, saved["grants"])
        rows = saved["alarms"]
        values = ", ".join("(" + ", ".join(_literal(r[c]) for c in COLUMNS) + ")" for r in rows)
        sql = "DELETE FROM alarm_templates;" + (
            f" INSERT INTO alarm_templates ({', '.join(COLUMNS)}) VALUES {values};" if rows else "")
        device.shell(f"sqlite3 {q(DB)} {q(sql)}")


def state(device: Device) -> list[tuple]:
    """What the contract compares before set-up and after tear-down: the alarms."""
    return [tuple(r.values()) for r in read_alarms(device)]


# --- screens and steps -------------------------------------------------------------------------


def open_app(done: Any = None) -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG, done=done)


def shows(rid: str) -> Holds:
    """A step's `done`: an element with this DeskClock resource id is on screen."""
    return Holds(ElementShows(({"resource_id": RID + rid},)))


def tab(label: str, shown_rid: str) -> Tap:
    """Select a tab in the bottom navigation bar (done while the tab's view shows)."""
    return Tap(screen=DESKCLOCK, target=Target(desc=label, rid="navigation_bar_item_"
                                               + label.lower() + "_view"), done=shows(shown_rid))
