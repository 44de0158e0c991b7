"""Contacts (`com.google.android.contacts`) and the contacts provider it shows.

- `screens`: the contact list, a contact's details, the editor;
- `provider`: `content://com.android.contacts` over `contacts2.db` (AOSP's tables);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.contacts.app import Contacts
from antrap_gym.device.sim.apps.contacts.provider import Contact, ContactsProvider

APP = Contacts

__all__ = ["APP", "Contact", "Contacts", "ContactsProvider"]
