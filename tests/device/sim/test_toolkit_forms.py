"""The toolkit's editor forms (`toolkit/forms.py`): IME Enter on a single-line field moves
the focus to the form's next field, and after the last one the keyboard closes; a
multi-line field takes Enter as a new line and keeps the focus. Checked through the
screen (which field shows focused) on the three editors that share the behaviour."""

from __future__ import annotations

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps.broccoli.screens import EditorActivity
from antrap_gym.device.sim.apps.contacts.screens import ContactEditorActivity
from antrap_gym.device.sim.apps.expense.screens import ExpenseEntryActivity

#: editor -> the focused field's id after a tap on the first field and each Enter after it
#: (None: no field focused, the keyboard gone)
FOCUS = {
    "contacts": (ContactEditorActivity, ["first_name", "last_name", "phone", "email", None, None]),
    "expense": (ExpenseEntryActivity, ["edt_name", "edt_amount", "edt_note", None, None]),
    # ingredients is multi-line: Enter is a new line there, and the focus stays
    "broccoli": (EditorActivity, ["new_title", "new_description", "new_source", "new_servings",
                                  "new_preparation_time", "new_ingredients", "new_ingredients"]),
}


def focused_field(dev: SimDevice) -> str | None:
    ids = [e.resource_name.rsplit("/", 1)[-1] for e in dev.ui_elements()
           if e.is_editable and e.is_focused]
    assert len(ids) <= 1, ids
    return ids[0] if ids else None


@pytest.mark.parametrize("app", sorted(FOCUS))
def test_enter_moves_to_the_next_field_and_closes_the_keyboard_after_the_last(app):
    activity, expected = FOCUS[app]
    dev = SimDevice()
    dev.phone.start_activity(activity())
    first = next(e for e in dev.ui_elements() if e.is_editable)
    dev.tap(*first.center)
    seen = [focused_field(dev)]
    for _ in expected[1:]:
        dev.key("KEYCODE_ENTER")
        seen.append(focused_field(dev))
    assert seen == expected
    assert dev.phone.ime_shown == (expected[-1] is not None)
