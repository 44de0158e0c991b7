"""The Contacts app as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.contacts.firstrun import ContactsPrefs, past_first_run
from antrap_gym.device.sim.apps.contacts.provider import ContactsProvider
from antrap_gym.device.sim.apps.contacts.screens import (
    PKG,
    ContactEditorActivity,
    PeopleActivity,
    QuickContactActivity,
)
from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class Contacts(App):
    package = PKG
    label = "Contacts"
    version = "4.22.37.586680692"
    icon_color = (26, 115, 232)
    home_position = 0
    main = PeopleActivity
    activities = (QuickContactActivity, ContactEditorActivity)
    #: on Android the provider is its own package (com.android.providers.contacts, where
    #: its database lives); here it ships with the app that shows it
    storage = (ContactsProvider, ContactsPrefs)
    permissions = (POST_NOTIFICATIONS,)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        past_first_run(phone)
