"""Simple Calendar Pro: month/day/agenda views and the event editor over events.db
(`com.simplemobiletools.calendar.pro`).

- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.calendar.app import SimpleCalendar

APP = SimpleCalendar

__all__ = ["APP", "SimpleCalendar"]
