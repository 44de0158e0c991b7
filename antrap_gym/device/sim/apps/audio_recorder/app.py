"""Audio Recorder as the phone installs it: package, launcher entry (its welcome
activity), the recorder and records activities, its preferences, the microphone
permission it asks for, and its records folder on shared storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.audio_recorder.screens import (
    PKG,
    RECORDS,
    MainActivity,
    RecorderPrefs,
    RecordsActivity,
    WelcomeActivity,
)
from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS, RECORD_AUDIO

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class AudioRecorder(App):
    package = PKG
    label = "Audio Recorder"
    version = "0.9.26"
    icon_color = (211, 47, 47)
    main = WelcomeActivity
    activities = (MainActivity, RecordsActivity)
    storage = (RecorderPrefs,)
    permissions = (RECORD_AUDIO, POST_NOTIFICATIONS)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        phone.fs.mkdir(RECORDS, phone.now, parents=True)
