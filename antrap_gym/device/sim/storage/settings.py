"""The settings provider: `settings get|put|delete|list system|secure|global`.

Keys and value conventions are the ones a Pixel on Android 13 uses, so task
checks written against the simulated phone hold on a real one.
"""

from __future__ import annotations

NAMESPACES = ("system", "secure", "global")

DEFAULTS: dict[str, dict[str, str]] = {
    "global": {
        "airplane_mode_on": "0",
        "wifi_on": "1",
        "bluetooth_on": "0",
        "mobile_data": "1",
        "data_roaming": "0",
        "auto_time": "1",
        "auto_time_zone": "1",
        "adb_enabled": "1",
        "device_name": "Pixel 6",
        "development_settings_enabled": "0",
        "stay_on_while_plugged_in": "0",
        "low_power": "0",
        "zen_mode": "0",
        "animator_duration_scale": "1.0",
    },
    "secure": {
        "ui_night_mode": "1",  # 1 = light, 2 = dark (UiModeManager)
        "location_mode": "3",
        "android_id": "7d3c1b4e9a0f5c21",
        "default_input_method": "com.google.android.inputmethod.latin/"
        "com.android.inputmethod.latin.LatinIME",
        "bluetooth_name": "Pixel 6",
        "screensaver_enabled": "0",
        "doze_always_on": "0",
        "notification_history_enabled": "0",
        "status_bar_show_silent_notifications": "1",
        "accessibility_display_inversion_enabled": "0",
    },
    "system": {
        "screen_brightness": "102",  # 0..255
        "screen_brightness_mode": "0",  # 0 manual, 1 adaptive
        "screen_off_timeout": "30000",  # ms
        # AudioService persists each stream's volume per output device, as
        # volume_<stream>_<device>: the phone's own speaker (earpiece for calls)
        "volume_ring_speaker": "5",  # 0..7
        "volume_music_speaker": "5",  # 0..15
        "volume_alarm_speaker": "6",  # 1..7
        "volume_notification_speaker": "5",  # 0..7
        "accelerometer_rotation": "1",
        "font_scale": "1.0",
        "haptic_feedback_enabled": "1",
        "time_12_24": "12",
        "volume_voice_earpiece": "4",  # 1..5
        "status_bar_show_battery_percent": "0",
        "vibrate_when_ringing": "1",
        "sound_effects_enabled": "1",
        "show_password": "1",
    },
}

#: legal ranges the Settings UI offers (used by the app and by tasks)
RING_VOLUME_MAX = 7
#: audio streams by AudioManager id: (name, settings key, min, max)
STREAMS: dict[int, tuple[str, str, int, int]] = {
    0: ("STREAM_VOICE_CALL", "volume_voice_earpiece", 1, 5),
    2: ("STREAM_RING", "volume_ring_speaker", 0, RING_VOLUME_MAX),
    3: ("STREAM_MUSIC", "volume_music_speaker", 0, 15),
    4: ("STREAM_ALARM", "volume_alarm_speaker", 1, 7),
    5: ("STREAM_NOTIFICATION", "volume_notification_speaker", 0, 7),
}
STREAM_RING, STREAM_MUSIC = 2, 3
BRIGHTNESS_MAX = 255
BRIGHTNESS_MIN = 1  # PowerManager's minimum screen_brightness
SCREEN_TIMEOUTS_MS = {
    "15 seconds": 15000,
    "30 seconds": 30000,
    "1 minute": 60000,
    "2 minutes": 120000,
    "5 minutes": 300000,
    "10 minutes": 600000,
    "30 minutes": 1800000,
}


class SettingsStore:
    """Three string-to-string tables, as Settings.System/Secure/Global."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, str]] = {ns: dict(kv) for ns, kv in DEFAULTS.items()}

    def get(self, ns: str, key: str) -> str | None:
        return self.tables[ns].get(key)

    def put(self, ns: str, key: str, value: str) -> None:
        self.tables[ns][key] = value

    def delete(self, ns: str, key: str) -> bool:
        return self.tables[ns].pop(key, None) is not None

    def items(self, ns: str) -> list[tuple[str, str]]:
        return sorted(self.tables[ns].items())

    def get_int(self, ns: str, key: str, default: int = 0) -> int:
        try:
            return int(float(self.tables[ns].get(key, default)))
        except ValueError:
            return default
