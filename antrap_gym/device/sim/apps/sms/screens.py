"""Simple SMS Messenger's screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.simplemobiletools.smsmessenger"
RID = PKG + ":id/"


class MainActivity(Activity):
    package = PKG
    name = "com.simplemobiletools.smsmessenger.activities.MainActivity"

    def build(self, ui: UI, phone: Phone) -> None:
        ui.toolbar("Simple SMS Messenger")
        ui.empty("Nothing here yet")

    def title(self, phone: Phone) -> str:
        return "Simple SMS Messenger"
