"""OpenTracks's screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "de.dennisguse.opentracks"
RID = PKG + ":id/"


class MainActivity(Activity):
    package = PKG
    name = "de.dennisguse.opentracks.TrackListActivity"

    def build(self, ui: UI, phone: Phone) -> None:
        ui.toolbar("OpenTracks")
        ui.empty("Nothing here yet")

    def title(self, phone: Phone) -> str:
        return "OpenTracks"
