"""Simple Calendar Pro's first run, after install or `pm clear`: Android's prompt to let it
send notifications (its event reminders). AndroidWorld's set-up grants that, and the
calendar permissions, with `pm grant`; the app's preferences file (Simple Mobile Tools'
Prefs.xml) remembers a prompt answered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.toolkit import firstrun as fr

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.base import Activity
    from antrap_gym.device.sim.context import PhoneContext

PKG = "com.simplemobiletools.calendar.pro"
PREFS = f"/data/data/{PKG}/shared_prefs/Prefs.xml"
READ_CALENDAR = "android.permission.READ_CALENDAR"
WRITE_CALENDAR = "android.permission.WRITE_CALENDAR"
PERMISSIONS = (READ_CALENDAR, WRITE_CALENDAR, POST_NOTIFICATIONS)
ASKED = "notification_permission_asked"


class CalendarPrefs(SharedPreferences):
    path = PREFS


def first_run(phone: PhoneContext, act: Activity) -> None:
    fr.ask_once(phone, act, PREFS, ASKED, "Simple Calendar Pro", "send you notifications",
                POST_NOTIFICATIONS)


def past_first_run(phone: PhoneContext) -> None:
    """The factory phone: AndroidWorld's set-up granted the calendar its permissions."""
    for perm in PERMISSIONS:
        phone.state.permissions.grant(PKG, perm)
