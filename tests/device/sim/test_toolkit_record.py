"""The toolkit's one-record screen (`toolkit/record.py`): a contact, a recipe and an
expense are each read again whenever their screen is drawn, so one deleted underneath the
screen (here through the shell, as `adb shell` would) leaves an empty screen saying so,
whose Up goes back -- the same in every app that shows one record."""

from __future__ import annotations

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps.broccoli.screens import DetailsActivity
from antrap_gym.device.sim.apps.contacts.screens import QuickContactActivity
from antrap_gym.device.sim.apps.expense.screens import ExpenseDetailActivity
from antrap_gym.tasks.apps import broccoli, expense
from antrap_gym.tasks.apps.contacts import seed_contacts
from tests.screen import texts

#: (activity, noun, seeds one record and returns its id, deletes it through the shell)
SCREENS = {
    "contacts": (
        QuickContactActivity, "contact",
        lambda dev: (seed_contacts(dev, [["Ada Lovelace", "+1 415-555-0101", "", False]]), 1)[1],
        lambda dev: dev.shell("content delete --uri content://com.android.contacts/raw_contacts"),
        "Ada Lovelace"),
    "broccoli": (
        DetailsActivity, "recipe",
        lambda dev: (broccoli.replace_recipes(dev, [{"title": "Lentil soup"}]),
                     broccoli.read_recipes(dev)[0][broccoli.KEY])[1],
        lambda dev: dev.shell(f"sqlite3 {broccoli.DB} 'DELETE FROM {broccoli.TABLE}'"),
        "Lentil soup"),
    "expense": (
        ExpenseDetailActivity, "expense",
        lambda dev: (dev.shell(f"sqlite3 {expense.DB} \"INSERT INTO expense (expense_id, name, amount,"
                               " category, note, created_date, modified_date)"
                               " VALUES (7, 'Lunch', 1250, 2, '', 0, 0)\""), 7)[1],
        lambda dev: dev.shell(f"sqlite3 {expense.DB} 'DELETE FROM expense'"),
        "Lunch"),
}


@pytest.mark.parametrize("app", sorted(SCREENS))
def test_a_record_deleted_underneath_its_screen_leaves_a_screen_that_says_so(app):
    activity, noun, seed, delete, name = SCREENS[app]
    dev = SimDevice()
    record_id = seed(dev)
    before = dev.foreground()
    dev.phone.start_activity(activity(record_id))
    assert name in texts(dev)
    assert f"This {noun} no longer exists" not in texts(dev)
    assert delete(dev).ok
    shown = texts(dev)
    assert f"This {noun} no longer exists" in shown and name not in shown
    dev.key("KEYCODE_BACK")
    assert dev.foreground() == before
