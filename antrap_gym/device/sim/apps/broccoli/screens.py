"""Broccoli's screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.flauschcode.broccoli"
RID = PKG + ":id/"


class MainActivity(Activity):
    package = PKG
    name = "com.flauschcode.broccoli.MainActivity"

    def build(self, ui: UI, phone: Phone) -> None:
        ui.toolbar("Recipes")
        ui.empty("Nothing here yet")

    def title(self, phone: Phone) -> str:
        return "Recipes"
