"""Simple Calendar Pro as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.calendar.firstrun import PERMISSIONS, CalendarPrefs, past_first_run
from antrap_gym.device.sim.apps.calendar.screens import PKG, EventActivity, MainActivity
from antrap_gym.device.sim.apps.calendar.store import EventsDatabase

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class SimpleCalendar(App):
    package = PKG
    label = "Simple Calendar Pro"
    home_position = 7
    version = "6.22.1"
    icon_color = (33, 150, 243)
    main = MainActivity
    activities = (EventActivity,)
    storage = (EventsDatabase, CalendarPrefs)
    permissions = PERMISSIONS

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        past_first_run(phone)
