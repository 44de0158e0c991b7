"""Contacts' first run, after install or `pm clear`: the offer to back up and organize the
contacts with a Google account (Skip), then Android's prompt to let it send notifications
(AndroidWorld's set-up answers Skip and Don't allow). Its preferences remember both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.toolkit import firstrun as fr

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.base import Activity
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.google.android.contacts"
PREFS = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
BACKUP_TITLE = "Back up & organize your contacts with Google"
ONBOARDED, ASKED = "onboarding_done", "notification_permission_asked"


class ContactsPrefs(SharedPreferences):
    path = PREFS


def first_run(ui: UI, phone: PhoneContext, act: Activity) -> bool:
    """Show what the first run has left (the backup page, which fills the window: True;
    the notifications prompt, over the list: False)."""
    if not fr.done(phone, PREFS, ONBOARDED):
        fr.page(ui, BACKUP_TITLE, "", [("Skip", lambda: _skip(phone))], icon="person")
        return True
    fr.ask_once(phone, act, PREFS, ASKED, "Contacts", "send you notifications", POST_NOTIFICATIONS)
    return False


def _skip(phone: PhoneContext) -> None:
    fr.mark(phone, PREFS, ONBOARDED)
    phone.changed()


def past_first_run(phone: PhoneContext) -> None:
    """The factory phone: past the first run as AndroidWorld's set-up leaves it."""
    fr.mark(phone, PREFS, ONBOARDED, ASKED)
