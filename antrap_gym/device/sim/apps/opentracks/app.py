"""OpenTracks as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.opentracks.screens import PKG, MainActivity, TrackRecordedActivity
from antrap_gym.device.sim.apps.opentracks.store import TracksDb


class OpenTracks(App):
    package = PKG
    label = "OpenTracks"
    home_position = 5
    version = "4.10.0"
    icon_color = (211, 47, 47)
    main = MainActivity
    activities = (TrackRecordedActivity,)
    storage = (TracksDb,)
