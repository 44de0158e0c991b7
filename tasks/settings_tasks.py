"""Tasks in Settings (`com.android.settings`), checked through `settings get`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tasks.base import Task, answer_matches
from tasks.registry import register
from tasks.steps import Answer, OpenApp, SetChecked, SetSlider, Tap, Target, TypeText

PKG = "com.android.settings"
HOME = ".Settings"
NETWORK = ".Settings$NetworkDashboardActivity"
INTERNET = ".Settings$NetworkProviderSettingsActivity"
CONNECTED = ".Settings$ConnectedDeviceDashboardActivity"
CONN_PREFS = ".Settings$AdvancedConnectedDeviceActivity"
BLUETOOTH = ".Settings$BluetoothDashboardActivity"
DISPLAY = ".Settings$DisplaySettingsActivity"
SOUND = ".Settings$SoundSettingsActivity"
LOCATION = ".Settings$LocationSettingsActivity"
BATTERY = ".Settings$PowerUsageSummaryActivity"
SYSTEM = ".Settings$SystemDashboardActivity"
DATETIME = ".Settings$DateTimeSettingsActivity"
ABOUT = ".Settings$MyDeviceInfoActivity"
TIMEOUTS = ("15 seconds", "30 seconds", "1 minute", "2 minutes", "5 minutes", "10 minutes",
            "30 minutes")
TIMEOUT_MS = {"15 seconds": 15000, "30 seconds": 30000, "1 minute": 60000, "2 minutes": 120000,
              "5 minutes": 300000, "10 minutes": 600000, "30 minutes": 1800000}
DEVICE_NAMES = ("Alex's Pixel", "Kitchen Phone", "Work Pixel", "Nora 6", "Field Unit 7",
                "Blue Phone", "Travel Pixel", "Lab Device", "Mia's Phone", "Pixel Dev")


def open_settings() -> OpenApp:
    return OpenApp(app="Settings", package=PKG)


def tap(text: str, screen: str) -> Tap:
    return Tap(screen=screen, target=Target(text=text))


class SettingsToggleTask(Task):
    """Turn one switch on or off; the key starts in the opposite state."""

    apps = (PKG,)
    namespace: ClassVar[str] = "global"
    key: ClassVar[str] = ""
    on_value: ClassVar[str] = "1"
    off_value: ClassVar[str] = "0"
    switch_label: ClassVar[str] = ""
    path: ClassVar[tuple[tuple[str, str], ...]] = ()  # (row to tap, on screen)
    switch_screen: ClassVar[str] = ""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"state": "on" if rng.random() < 0.5 else "off"}

    def _want(self) -> str:
        return self.on_value if self.params["state"] == "on" else self.off_value

    def setup(self, device) -> None:
        start = self.off_value if self.params["state"] == "on" else self.on_value
        self.sh(device, f"settings put {self.namespace} {self.key} {start}")

    def is_successful(self, device, answer: str | None = None) -> float:
        return float(self.setting(device, self.namespace, self.key) == self._want())

    def solution(self):
        want = self._want()

        def done(dev, ns=self.namespace, key=self.key) -> bool:
            return self.setting(dev, ns, key) == want

        return [
            open_settings(),
            *(tap(row, screen) for row, screen in self.path),
            SetChecked(screen=self.switch_screen, target=Target(row=self.switch_label, cls="Switch"),
                       checked=self.params["state"] == "on", done=done),
        ]


@register
class SettingsWifiToggle(SettingsToggleTask):
    template = "Turn Wi-Fi {state}."
    key = "wifi_on"
    switch_label = "Wi-Fi"
    path = (("Network & internet", HOME), ("Internet", NETWORK))
    switch_screen = INTERNET
    complexity = 1.0


@register
class SettingsBluetoothToggle(SettingsToggleTask):
    template = "Turn Bluetooth {state}."
    key = "bluetooth_on"
    switch_label = "Use Bluetooth"
    path = (("Connected devices", HOME), ("Connection preferences", CONNECTED),
            ("Bluetooth", CONN_PREFS))
    switch_screen = BLUETOOTH
    complexity = 1.0


@register
class SettingsAirplaneMode(SettingsToggleTask):
    template = "Turn airplane mode {state}."
    key = "airplane_mode_on"
    switch_label = "Airplane mode"
    path = (("Network & internet", HOME),)
    switch_screen = NETWORK
    complexity = 1.0


@register
class SettingsDarkTheme(SettingsToggleTask):
    template = "Turn dark theme {state}."
    namespace = "secure"
    key = "ui_night_mode"
    on_value, off_value = "2", "1"
    switch_label = "Dark theme"
    path = (("Display", HOME),)
    switch_screen = DISPLAY
    complexity = 1.0


@register
class SettingsLocationToggle(SettingsToggleTask):
    template = "Turn location {state}."
    namespace = "secure"
    key = "location_mode"
    on_value, off_value = "3", "0"
    switch_label = "Use location"
    path = (("Location", HOME),)
    switch_screen = LOCATION
    complexity = 1.2
    needs_scroll = True


@register
class SettingsBatterySaver(SettingsToggleTask):
    template = "Turn Battery Saver {state}."
    key = "low_power"
    switch_label = "Battery Saver"
    path = (("Battery", HOME),)
    switch_screen = BATTERY
    complexity = 1.0


@register
class Settings24HourFormat(SettingsToggleTask):
    template = "Turn {state} the 24-hour time format."
    namespace = "system"
    key = "time_12_24"
    on_value, off_value = "24", "12"
    switch_label = "Use 24-hour format"
    path = (("System", HOME), ("Date & time", SYSTEM))
    switch_screen = DATETIME
    complexity = 1.4
    needs_scroll = True


@register
class SettingsBrightness(Task):
    template = "Set the screen brightness level to {percent}%."
    apps = (PKG,)
    complexity = 1.2

    @classmethod
    def generate_params(cls, rng):
        return {"percent": int(rng.choice([0, 10, 25, 50, 75, 90, 100]))}

    def setup(self, device) -> None:
        start = 204 if self.params["percent"] <= 50 else 26  # far from the target
        self.sh(device, f"settings put system screen_brightness {start}")

    def _pct(self, device) -> float:
        try:
            return 100 * int(self.setting(device, "system", "screen_brightness")) / 255
        except ValueError:
            return -100.0

    def is_successful(self, device, answer=None) -> float:
        return float(abs(self._pct(device) - self.params["percent"]) <= 3)

    def solution(self):
        return [open_settings(), tap("Display", HOME),
                SetSlider(screen=DISPLAY, target=Target(desc="Brightness level"),
                          fraction=self.params["percent"] / 100,
                          done=lambda dev: bool(self.is_successful(dev)))]


@register
class SettingsRingVolume(Task):
    template = "Set the ring & notification volume to {level} (of 7)."
    apps = (PKG,)
    complexity = 1.2

    @classmethod
    def generate_params(cls, rng):
        return {"level": int(rng.integers(0, 8))}

    def setup(self, device) -> None:
        start = 7 - self.params["level"] if self.params["level"] != 3 else 6
        self.sh(device, f"settings put system volume_ring {start}")

    def is_successful(self, device, answer=None) -> float:
        return float(self.setting(device, "system", "volume_ring") == str(self.params["level"]))

    def solution(self):
        return [open_settings(), tap("Sound & vibration", HOME),
                SetSlider(screen=SOUND, target=Target(desc="Ring & notification volume"),
                          fraction=self.params["level"] / 7,
                          done=lambda dev: bool(self.is_successful(dev)))]


@register
class SettingsScreenTimeout(Task):
    template = "Set the screen timeout to {duration}."
    apps = (PKG,)
    complexity = 1.5

    @classmethod
    def generate_params(cls, rng):
        return {"duration": str(rng.choice([t for t in TIMEOUTS if t != "30 seconds"]))}

    def setup(self, device) -> None:
        self.sh(device, "settings put system screen_off_timeout 30000")

    def is_successful(self, device, answer=None) -> float:
        want = TIMEOUT_MS[self.params["duration"]]
        return float(self.setting(device, "system", "screen_off_timeout") == str(want))

    def solution(self):
        return [open_settings(), tap("Display", HOME), tap("Screen timeout", DISPLAY),
                Tap(screen=DISPLAY + "|Screen timeout", target=Target(text=self.params["duration"]),
                    done=lambda dev: bool(self.is_successful(dev)))]


@register
class SettingsRenameDevice(Task):
    template = "Rename this phone to \"{name}\"."
    apps = (PKG,)
    complexity = 2.0
    needs_scroll = True

    @classmethod
    def generate_params(cls, rng):
        return {"name": str(rng.choice(DEVICE_NAMES))}

    def setup(self, device) -> None:
        self.sh(device, "settings put global device_name " + self.q("Pixel 6"))

    def is_successful(self, device, answer=None) -> float:
        return float(self.setting(device, "global", "device_name") == self.params["name"])

    def solution(self):
        name = self.params["name"]
        return [open_settings(), tap("About phone", HOME), tap("Device name", ABOUT),
                TypeText(screen=ABOUT + "|Device name", target=Target(cls="EditText"), text=name,
                         done=lambda dev: bool(self.is_successful(dev))),
                Tap(screen=ABOUT + "|Device name", target=Target(text="OK"),
                    done=lambda dev: bool(self.is_successful(dev)))]


class SettingsQuestion(Task):
    """Information retrieval: read a value off a Settings screen and answer it."""

    apps = (PKG,)
    answer_task = True
    answer_kind: ClassVar[str] = "text"
    path: ClassVar[tuple[tuple[str, str], ...]] = ()

    def expected(self) -> str:
        raise NotImplementedError

    def is_successful(self, device, answer=None) -> float:
        return float(answer_matches(answer, self.expected(), self.answer_kind))

    def solution(self):
        return [open_settings(), *(tap(r, s) for r, s in self.path), Answer(text=self.expected())]


@register
class SettingsAndroidVersion(SettingsQuestion):
    template = "What Android version is this phone running? Answer with the version number."
    complexity = 1.2
    needs_scroll = True
    answer_kind = "number"
    path = (("About phone", HOME),)

    def expected(self) -> str:
        return "13"


@register
class SettingsBuildNumber(SettingsQuestion):
    template = "What is this phone's build number?"
    complexity = 1.2
    needs_scroll = True
    path = (("About phone", HOME),)

    def expected(self) -> str:
        return "TQ3A.230805.001"


@register
class SettingsDeviceNameQuestion(SettingsQuestion):
    template = "What is this phone's device name, as shown in Settings?"
    complexity = 1.2
    needs_scroll = True
    path = (("About phone", HOME),)

    @classmethod
    def generate_params(cls, rng):
        return {"name": str(rng.choice(DEVICE_NAMES))}

    def setup(self, device) -> None:
        self.sh(device, "settings put global device_name " + self.q(self.params["name"]))

    def expected(self) -> str:
        return self.params["name"]


@register
class SettingsTimeoutQuestion(SettingsQuestion):
    template = "How long is the screen timeout set to?"
    complexity = 1.0
    path = (("Display", HOME),)

    @classmethod
    def generate_params(cls, rng):
        return {"duration": str(rng.choice(TIMEOUTS))}

    def setup(self, device) -> None:
        ms = TIMEOUT_MS[self.params["duration"]]
        self.sh(device, f"settings put system screen_off_timeout {ms}")

    def expected(self) -> str:
        return self.params["duration"]
