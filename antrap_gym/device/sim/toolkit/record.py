"""A screen of one stored record: a contact, a recipe, an expense.

Android's detail screens hold the record's id, not the record: they read it again each
time they are drawn, so an edit made elsewhere (an editor, `adb shell content update`)
shows at once, and a record deleted underneath them leaves an empty screen that says so,
with Up. An activity mixes in `RecordDetail`, says how to find its record and what to
call it, and builds only the record's own screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI


class RecordDetail:
    """Mixin for an `Activity` that shows the record `record_id` of the app's storage."""

    #: what the record is called on the empty screen: "This {noun} no longer exists"
    record_noun: ClassVar[str] = "record"
    #: the window title while the record is gone
    untitled: ClassVar[str] = ""
    #: the toolbar's text while the record is gone
    gone_toolbar: ClassVar[str] = ""
    #: the toolbar's resource id
    toolbar_rid: ClassVar[str] = ""

    def __init__(self, record_id: int = 0) -> None:
        super().__init__()
        self.record_id = record_id

    def record(self, phone: PhoneContext) -> Any | None:
        """The record as stored now, or None once it is gone."""
        raise NotImplementedError

    def record_title(self, record: Any) -> str:
        """The window title while the record exists."""
        raise NotImplementedError

    def build_record(self, ui: UI, phone: PhoneContext, record: Any) -> None:
        """The screen of a record that exists."""
        raise NotImplementedError

    def title(self, phone: PhoneContext) -> str:
        r = self.record(phone)
        return self.untitled if r is None else self.record_title(r)

    def build(self, ui: UI, phone: PhoneContext) -> None:
        r = self.record(phone)
        if r is None:
            ui.toolbar(self.gone_toolbar, back=True, rid=self.toolbar_rid)
            ui.empty(f"This {self.record_noun} no longer exists")
            return
        self.build_record(ui, phone, r)
