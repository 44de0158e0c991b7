"""Retro Music as the phone installs it: package, launcher entry, activities, storage.

The phone is the benchmark's: AndroidWorld's device set-up has opened the app once and
granted its storage access, so the first-run screen is behind it; `pm clear` brings it
back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.retro_music.screens import (
    MainActivity,
    PermissionActivity,
    PlayingQueueActivity,
    PlaylistDetailActivity,
    SearchActivity,
    SongListActivity,
)
from antrap_gym.device.sim.apps.retro_music.storage import (
    KEY_INTRO_SHOWN,
    PKG,
    PlaybackStateDatabase,
    PlaylistDatabase,
    RetroPrefs,
    prefs,
)

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class RetroMusic(App):
    package = PKG
    label = "Retro Music"
    version = "6.1.0"
    icon_color = (236, 64, 122)
    main = MainActivity
    activities = (PlaylistDetailActivity, SongListActivity, PlayingQueueActivity, SearchActivity,
                  PermissionActivity)
    storage = (PlaylistDatabase, PlaybackStateDatabase, RetroPrefs)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        prefs(phone).put(KEY_INTRO_SHOWN, True)
