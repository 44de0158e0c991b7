"""OpenTracks as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.opentracks.firstrun import PERMISSIONS, OpenTracksPrefs, past_first_run
from antrap_gym.device.sim.apps.opentracks.screens import PKG, MainActivity, TrackRecordedActivity
from antrap_gym.device.sim.apps.opentracks.store import TracksDb

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class OpenTracks(App):
    package = PKG
    label = "OpenTracks"
    home_position = 5
    version = "4.10.0"
    icon_color = (211, 47, 47)
    main = MainActivity
    activities = (TrackRecordedActivity,)
    storage = (TracksDb, OpenTracksPrefs)
    permissions = PERMISSIONS

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        past_first_run(phone)
