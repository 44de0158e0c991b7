"""VLC as the phone installs it: package, launcher entry, activities, storage, and the
video files it opens for other apps (a VIEW of video/*).

The phone is the benchmark's: AndroidWorld's device set-up has opened the app once and
gone through its welcome and storage-access screens; `pm clear` brings them back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.vlc.screens import (
    MainActivity,
    OnboardingActivity,
    PlaylistActivity,
    SearchActivity,
    VideoPlayerActivity,
)
from antrap_gym.device.sim.apps.vlc.storage import KEY_ONBOARDING_DONE, PKG, MediaLibrary, VlcPrefs, prefs
from antrap_gym.device.sim.intents import IntentFilter

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class Vlc(App):
    package = PKG
    label = "VLC"
    version = "3.5.4"
    icon_color = (255, 136, 0)
    main = MainActivity
    activities = (PlaylistActivity, VideoPlayerActivity, SearchActivity, OnboardingActivity)
    intent_filters = (IntentFilter(mime_types=("video/*",), activity=VideoPlayerActivity.name),)
    storage = (MediaLibrary, VlcPrefs)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        prefs(phone).put(KEY_ONBOARDING_DONE, True)
