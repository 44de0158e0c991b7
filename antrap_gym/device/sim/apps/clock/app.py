"""Clock (Google's DeskClock) as the phone installs it: package, launcher entry, the
DeskClock activity, the `android.intent.action.SET_ALARM` / `SHOW_ALARMS` intents, and its
storage (alarms.db and its preferences file)."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.clock.screens import DeskClock
from antrap_gym.device.sim.apps.clock.store import PKG, AlarmsDb, ClockPrefs


class Clock(App):
    package = PKG
    label = "Clock"
    version = "7.6.0"
    icon_color = (26, 115, 232)
    main = DeskClock
    intents = {"android.intent.action.SHOW_ALARMS": None, "android.intent.action.SET_TIMER": None}
    storage = (AlarmsDb, ClockPrefs)
