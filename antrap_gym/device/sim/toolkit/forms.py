"""Editor forms that ask before they throw changes away.

Android editors (a contact, an expense, a recipe, a calendar event) leave on Up
or BACK at once when nothing changed, and otherwise ask first: "Discard
changes?" (Cancel / Discard) in most apps, "Save changes before closing?"
(Discard / Save) in Simple Calendar. An activity mixes in `UnsavedChangesGuard`,
says when it is `dirty`, and wires its toolbar's Up to `close`; BACK arrives
through `on_back`. The dialog is plain data (`Dialog`), so it snapshots with the
app's state, and its buttons name the activity's methods (`noop` on every
activity, `discard` here, or the app's own save action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class UnsavedChangesGuard:
    """Mixin for an `Activity` that edits a stored record."""

    unsaved_title: ClassVar[str] = "Discard changes?"
    unsaved_message: ClassVar[str] = "Your changes haven't been saved."
    #: (label, action) of the dialog's buttons, left to right
    unsaved_buttons: ClassVar[tuple[tuple[str, str], ...]] = (("Cancel", "noop"), ("Discard", "discard"))

    def dirty(self, phone: PhoneContext) -> bool:
        """Whether the form differs from what is stored."""
        raise NotImplementedError

    def close(self, phone: PhoneContext) -> None:
        """Up / BACK: leave, asking first when there are unsaved changes."""
        if self.dirty(phone):
            self.focus = None  # the dialog takes the focus from the field
            phone.open_popup(self, Dialog(self.unsaved_title, self.unsaved_message, buttons=[
                Choice(label, action) for label, action in self.unsaved_buttons]))
        else:
            phone.finish_activity(self)

    def on_back(self, phone: PhoneContext) -> bool:
        if self.dirty(phone):
            self.close(phone)
            return True
        return False

    def discard(self, phone: PhoneContext) -> None:
        phone.finish_activity(self)


class NextFieldOnEnter:
    """Mixin for an editor `Activity`: IME Enter on one of its single-line fields moves the
    focus to the next field of `field_order` (the cursor at the end of its text); after the
    last one the keyboard closes. (A multi-line field takes Enter as a new line instead.)"""

    #: the form's text fields, in focus order
    field_order: ClassVar[tuple[str, ...]] = ()

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        keys = self.field_order
        if field in keys and keys.index(field) + 1 < len(keys):
            nxt = keys[keys.index(field) + 1]
            self.focus = nxt
            self.selection_all = False
            self.cursors[nxt] = len(self.fields.get(nxt, ""))
        else:
            self.focus = None
