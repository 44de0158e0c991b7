"""The Phone app's one activity: Favorites, Recents and Contacts tabs, and the dial pad
(digits typed into a field, a call button). There is no telephony behind it: a call
says so and ends at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.google.android.dialer"
RID = PKG + ":id/"
TABS = ("Favorites", "Recents", "Contacts")
EMPTY = ("No favorites yet", "Your call history is empty", "You have no contacts on this device")
KEYS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("*", "0", "#"))


class DialtactsActivity(Activity):
    package = PKG
    name = "com.google.android.dialer.extensions.GoogleDialtactsActivity"

    def __init__(self) -> None:
        super().__init__()
        self.tab = 1
        self.dialpad = False
        self.digits = ""

    def title(self, phone: PhoneContext) -> str:
        return "Phone"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if self.dialpad:
            self._dialpad(ui, phone)
            return
        ui.search("search", "Search contacts & places", rid=RID + "search_view_container")
        ui.tabs(list(TABS), self.tab, lambda i: setattr(self, "tab", i))
        ui.empty(EMPTY[self.tab])
        ui.fab("dialpad", "key pad", lambda: setattr(self, "dialpad", True), rid=RID + "fab")

    def _dialpad(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("", back=lambda: self.close_dialpad(phone), rid=RID + "dialpad_toolbar")
        r = ui._take(ui.dp(72))
        ui.mk("text", (r[0] + ui.dp(24), r[1], r[2] - ui.dp(72), r[3]), text=self.digits,
              style="title", rid=RID + "digits")
        ui.mk("icon_button", (r[2] - ui.dp(64), r[1] + ui.dp(12), r[2] - ui.dp(16), r[3] - ui.dp(12)),
              icon="backspace", desc="backspace", rid=RID + "deleteButton",
              on_click=lambda: setattr(self, "digits", self.digits[:-1]))
        x0, x1 = ui.rect[0] + ui.dp(40), ui.rect[2] - ui.dp(40)
        kw = (x1 - x0) // 3
        for row in KEYS:
            r = ui._take(ui.dp(72))
            for c, key in enumerate(row):
                ui.mk("key", (x0 + c * kw + ui.dp(6), r[1] + ui.dp(4), x0 + (c + 1) * kw - ui.dp(6),
                              r[3] - ui.dp(4)), text=key, rid=RID + "dialpad_key_number",
                      on_click=lambda k=key: setattr(self, "digits", self.digits + k))
        ui.spacer(16)
        cx = (ui.rect[0] + ui.rect[2]) // 2
        y = ui.y
        ui.mk("fab", (cx - ui.dp(36), y, cx + ui.dp(36), y + ui.dp(72)), icon="phone", desc="dial",
              rid=RID + "dialpad_voice_call_button", on_click=lambda: self.call(phone))

    def close_dialpad(self, phone: PhoneContext) -> None:
        self.dialpad = False

    def on_back(self, phone: PhoneContext) -> bool:
        if self.dialpad:
            self.dialpad = False
            return True
        return False

    def call(self, phone: PhoneContext) -> None:
        if self.digits:
            phone.toast("Call not sent: this device has no mobile network")
