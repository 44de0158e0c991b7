"""Tasks in Settings (`com.android.settings`), checked through `settings get`.

Set-up changes state the way that takes effect on a real phone, not only in the
settings table: radios through `svc` / `cmd connectivity`, the theme through
`cmd uimode`, location and Battery Saver through their services, volumes
through `cmd media_session`; each then waits until the settings key the check
reads has followed (a real phone persists it a moment later). Values shown on
the About screen are read with `getprop`, so the expected answer is the
phone's own.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from antrap_gym.tasks.base import Task, TaskError, answer_matches
from antrap_gym.tasks.registry import register
from antrap_gym.tasks.steps import Answer, OpenApp, SetChecked, SetSlider, Tap, Target, TypeText

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
STREAM_RING = 2
RING_KEY = "volume_ring_speaker"  # AudioService: volume_<stream>_<output device>
#: how long set-up waits for a service to persist a change: polls x seconds apart
SETTLE_POLLS, SETTLE_S = 20, 0.25


def await_setting(device, ns: str, key: str, ok, what: str) -> None:
    """Poll `settings get` until `ok(value)`; a real phone's services persist a change a
    little after the command returns (the simulated phone's at once: no sleep there)."""
    for i in range(SETTLE_POLLS):
        if ok(Task.setting(device, ns, key)):
            return
        if i < SETTLE_POLLS - 1:
            device.shell(f"sleep {SETTLE_S}")
    raise TaskError(f"{what}: settings {ns} {key} is still "
                    f"{Task.setting(device, ns, key)!r} after {SETTLE_POLLS * SETTLE_S:.0f} s")


def open_settings() -> OpenApp:
    return OpenApp(app="Settings", package=PKG)


def tap(text: str, screen: str) -> Tap:
    return Tap(screen=screen, target=Target(text=text))


class SettingsToggleTask(Task):
    """Turn one switch on or off; it starts in the opposite state.

    `command` sets the state through the system service that owns it (what
    takes effect on a real phone); `key` is the setting that service persists,
    read by the check; `on_values` are the values that mean "on" there.
    """

    apps = (PKG,)
    namespace: ClassVar[str] = "global"
    key: ClassVar[str] = ""
    on_values: ClassVar[tuple[str, ...]] = ("1",)
    #: shell command with {on}: (value when turning on, value when turning off)
    command: ClassVar[str] = ""
    command_words: ClassVar[tuple[str, str]] = ("enable", "disable")
    switch_label: ClassVar[str] = ""
    path: ClassVar[tuple[tuple[str, str], ...]] = ()  # (row to tap, on screen)
    switch_screen: ClassVar[str] = ""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"state": "on" if rng.random() < 0.5 else "off"}

    def set_command(self, on: bool) -> str:
        return self.command.format(on=self.command_words[0 if on else 1])

    def is_on(self, device) -> bool:
        return self.setting(device, self.namespace, self.key) in self.on_values

    def setup(self, device) -> None:
        start_on = self.params["state"] == "off"
        self.sh(device, self.set_command(start_on))
        await_setting(device, self.namespace, self.key,
                      lambda v: (v in self.on_values) == start_on, self.set_command(start_on))

    def is_successful(self, device, answer: str | None = None) -> float:
        return float(self.is_on(device) == (self.params["state"] == "on"))

    def solution(self):
        want_on = self.params["state"] == "on"

        def done(dev) -> bool:
            return self.is_on(dev) == want_on

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
    on_values = ("1", "2")  # 2: turned back on in airplane mode; 3: off because of it
    command = "svc wifi {on}"
    switch_label = "Wi-Fi"
    path = (("Network & internet", HOME), ("Internet", NETWORK))
    switch_screen = INTERNET
    complexity = 1.0


@register
class SettingsBluetoothToggle(SettingsToggleTask):
    template = "Turn Bluetooth {state}."
    key = "bluetooth_on"
    command = "svc bluetooth {on}"  # bluetooth_on 2: off because of airplane mode
    switch_label = "Use Bluetooth"
    path = (("Connected devices", HOME), ("Connection preferences", CONNECTED),
            ("Bluetooth", CONN_PREFS))
    switch_screen = BLUETOOTH
    complexity = 1.0


@register
class SettingsAirplaneMode(SettingsToggleTask):
    template = "Turn airplane mode {state}."
    key = "airplane_mode_on"
    command = "cmd connectivity airplane-mode {on}"
    switch_label = "Airplane mode"
    path = (("Network & internet", HOME),)
    switch_screen = NETWORK
    complexity = 1.0


@register
class SettingsDarkTheme(SettingsToggleTask):
    template = "Turn dark theme {state}."
    namespace = "secure"
    key = "ui_night_mode"
    on_values = ("2",)  # UiModeManager: 1 no, 2 yes, 0 auto
    command = "cmd uimode night {on}"
    command_words = ("yes", "no")
    switch_label = "Dark theme"
    path = (("Display", HOME),)
    switch_screen = DISPLAY
    complexity = 1.0


@register
class SettingsLocationToggle(SettingsToggleTask):
    template = "Turn location {state}."
    namespace = "secure"
    key = "location_mode"
    on_values = ("1", "2", "3")  # anything but LOCATION_MODE_OFF
    command = "cmd location set-location-enabled {on}"
    command_words = ("true", "false")
    switch_label = "Use location"
    path = (("Location", HOME),)
    switch_screen = LOCATION
    complexity = 1.2
    needs_scroll = True


@register
class SettingsBatterySaver(SettingsToggleTask):
    template = "Turn Battery Saver {state}."
    key = "low_power"
    command = "cmd power set-mode {on}"
    command_words = ("1", "0")
    switch_label = "Battery Saver"
    path = (("Battery", HOME),)
    switch_screen = BATTERY
    complexity = 1.0


@register
class Settings24HourFormat(SettingsToggleTask):
    template = "Turn {state} the 24-hour time format."
    namespace = "system"
    key = "time_12_24"
    on_values = ("24",)
    command = "settings put system time_12_24 {on}"  # the clock and Settings observe it
    command_words = ("24", "12")
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
        start = str(7 - self.params["level"] if self.params["level"] != 3 else 6)
        # through AudioService (a `settings put` would not move a real phone's volume)
        cmd = f"cmd media_session volume --stream {STREAM_RING} --set {start}"
        self.sh(device, cmd)
        await_setting(device, "system", RING_KEY, lambda v: v == start, cmd)

    def is_successful(self, device, answer=None) -> float:
        return float(self.setting(device, "system", RING_KEY) == str(self.params["level"]))

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
    path: ClassVar[tuple[tuple[str, str], ...]] = ()

    def expected(self, device=None) -> str:
        raise NotImplementedError

    def is_successful(self, device, answer=None) -> float:
        return float(answer_matches(answer, self.expected(device), self.answer_kind,
                                    self.distractors()))

    def solution(self):
        return [open_settings(), *(tap(r, s) for r, s in self.path), Answer(text=self.expected())]


class SettingsPropQuestion(SettingsQuestion):
    """A value the About screen shows from a system property: the truth is the phone's
    own `getprop`, read at set-up (for the oracle's answer) and again at the check."""

    prop: ClassVar[str] = ""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.seen: str | None = None

    def read(self, device) -> str:
        value = device.shell(f"getprop {self.prop}").stdout.strip()
        if not value:
            raise TaskError(f"getprop {self.prop} is empty on this device")
        return value

    def setup(self, device) -> None:
        self.seen = self.read(device)

    def expected(self, device=None) -> str:
        if device is not None:
            return self.read(device)
        if self.seen is None:
            raise TaskError(f"{self.task_id()}: set up the task first (the answer is read "
                            "from the phone)")
        return self.seen


@register
class SettingsAndroidVersion(SettingsPropQuestion):
    template = "What Android version is this phone running? Answer with the version number."
    complexity = 1.2
    needs_scroll = True
    answer_kind = "number"  # 13 == 13.0; 8.1.0 == 8.1
    prop = "ro.build.version.release"
    path = (("About phone", HOME),)


@register
class SettingsBuildNumber(SettingsPropQuestion):
    template = "What is this phone's build number?"
    complexity = 1.2
    needs_scroll = True
    prop = "ro.build.display.id"
    path = (("About phone", HOME),)


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

    def expected(self, device=None) -> str:
        return self.params["name"]

    def distractors(self) -> list[str]:
        return [n for n in DEVICE_NAMES if n != self.params["name"]] + ["Pixel 6"]


@register
class SettingsTimeoutQuestion(SettingsQuestion):
    template = "How long is the screen timeout set to?"
    complexity = 1.0
    answer_kind = "duration"  # "1 minute" == "60 seconds"; "30 seconds or 1 minute" fails
    path = (("Display", HOME),)

    @classmethod
    def generate_params(cls, rng):
        return {"duration": str(rng.choice(TIMEOUTS))}

    def setup(self, device) -> None:
        ms = TIMEOUT_MS[self.params["duration"]]
        self.sh(device, f"settings put system screen_off_timeout {ms}")

    def expected(self, device=None) -> str:
        return self.params["duration"]
