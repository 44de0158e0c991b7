"""Settings (`com.android.settings`) for tasks: set-up that changes state the way that
takes effect on a real phone, and the app's screens for solutions.

Radios go through `svc` / `cmd connectivity`, the theme through `cmd uimode`,
location and Battery Saver through their services, volumes through
`cmd media_session`; each then waits until the settings key the check reads has
followed (a real phone persists it a moment later). Plain preferences go through
`settings put`. Every recipe remembers the value it replaced and puts it back at
tear-down, through the same route.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.base import TaskError
from antrap_gym.tasks.checks.settings import NAMESPACES, get_setting
from antrap_gym.tasks.checks.system import nfc_on, read_clipboard
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.android.settings"
HOME = ".Settings"
NETWORK = ".Settings$NetworkDashboardActivity"
SIM = ".Settings$MobileNetworkActivity"
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


def await_setting(device: Device, ns: str, key: str, ok: Callable[[str], bool], what: str) -> None:
    """Poll `settings get` until `ok(value)`; a real phone's services persist a change a
    little after the command returns (the simulated phone's at once: no sleep there)."""
    for i in range(SETTLE_POLLS):
        if ok(get_setting(device, ns, key)):
            return
        if i < SETTLE_POLLS - 1:
            device.shell(f"sleep {SETTLE_S}")
    raise TaskError(f"{what}: settings {ns} {key} is still "
                    f"{get_setting(device, ns, key)!r} after {SETTLE_POLLS * SETTLE_S:.0f} s")


# --- recipes ---------------------------------------------------------------------------------


@dataclasses.dataclass
class PutSetting(Recipe):
    """`settings put` a preference the app and the system read from the table."""

    namespace: str
    key: str
    value: Any

    def __post_init__(self) -> None:
        if self.namespace not in NAMESPACES:
            raise ValueError(f"settings namespace {self.namespace!r} is not one of {NAMESPACES}")

    def save(self, device: Device) -> str:
        return get_setting(device, self.namespace, self.key)

    def run(self, device: Device) -> None:
        sh(device, f"settings put {self.namespace} {self.key} {q(self.value)}")

    def restore(self, device: Device, saved: str) -> None:
        if saved == "null":
            device.shell(f"settings delete {self.namespace} {self.key}")
        else:
            device.shell(f"settings put {self.namespace} {self.key} {q(saved)}")


@dataclasses.dataclass
class ServiceSetting(Recipe):
    """A value set through the service that owns it (`command`, whose own {value} is
    filled at run time), then awaited in the settings key the service persists."""

    command: str = dataclasses.field(metadata={"literal": True})
    namespace: str
    key: str
    value: Any

    def save(self, device: Device) -> str:
        return get_setting(device, self.namespace, self.key)

    def _set(self, device: Device, value: Any) -> None:
        cmd = self.command.replace("{value}", str(value))
        sh(device, cmd)
        await_setting(device, self.namespace, self.key, lambda v: v == str(value), cmd)

    def run(self, device: Device) -> None:
        self._set(device, self.value)

    def restore(self, device: Device, saved: str) -> None:
        if saved != "null":
            self._set(device, saved)


@dataclasses.dataclass(frozen=True)
class Toggle:
    """One switch: `command` (with {on}) sets it through the system service that owns it
    (what takes effect on a real phone), `command_words` fill {on} for on and off; `key`
    is the setting that service persists (read by the check), `on_values` the values
    that mean on there. `switch` is the row's label, reached by tapping `path`
    ((row, on screen), ...) from Settings' home, on `screen`."""

    namespace: str
    key: str
    command: str
    switch: str
    path: tuple[tuple[str, str], ...]
    screen: str
    on_values: tuple[str, ...] = ("1",)
    command_words: tuple[str, str] = ("enable", "disable")

    def __bind__(self, fn: Any) -> Toggle:
        return self  # fixed facts of the phone, not per variant: {on} is its own placeholder

    def command_for(self, on: bool) -> str:
        return self.command.format(on=self.command_words[0 if on else 1])

    def is_on(self, device: Device) -> bool:
        return get_setting(device, self.namespace, self.key) in self.on_values

    def set(self, device: Device, on: bool) -> None:
        cmd = self.command_for(on)
        sh(device, cmd)
        await_setting(device, self.namespace, self.key, lambda v: (v in self.on_values) == on, cmd)


@dataclasses.dataclass
class SetToggle(Recipe):
    """The switch starts `on` (or off); tear-down sets it back as it was."""

    toggle: Toggle
    on: bool

    def save(self, device: Device) -> bool:
        return self.toggle.is_on(device)

    def run(self, device: Device) -> None:
        self.toggle.set(device, self.on)

    def restore(self, device: Device, saved: bool) -> None:
        self.toggle.set(device, saved)


@dataclasses.dataclass
class SetNfc(Recipe):
    """NFC starts `on` (or off), through `svc nfc` (NfcService keeps no settings key)."""

    on: bool

    def save(self, device: Device) -> bool:
        return nfc_on(device)

    def _set(self, device: Device, on: bool) -> None:
        sh(device, f"svc nfc {'enable' if on else 'disable'}")
        for i in range(SETTLE_POLLS):
            if nfc_on(device) == on:
                return
            if i < SETTLE_POLLS - 1:
                device.shell(f"sleep {SETTLE_S}")
        raise TaskError(f"svc nfc: NFC is still {'off' if on else 'on'}")

    def run(self, device: Device) -> None:
        self._set(device, self.on)

    def restore(self, device: Device, saved: bool) -> None:
        self._set(device, saved)


@dataclasses.dataclass
class SetClipboard(Recipe):
    """The clipboard holds `text` (Clipper's `clipper.set`); tear-down puts back the
    text it held (an empty clipboard cannot be restored over adb: it gets "")."""

    text: str

    def save(self, device: Device) -> str | None:
        return read_clipboard(device)

    def _set(self, device: Device, text: str) -> None:
        sh(device, f"am broadcast -a clipper.set -e text {q(text)}")
        if read_clipboard(device) != text:
            raise TaskError("clipper.set: the clipboard does not hold the text (is Clipper running?)")

    def run(self, device: Device) -> None:
        self._set(device, self.text)

    def restore(self, device: Device, saved: str | None) -> None:
        self._set(device, saved or "")


def state(device: Device) -> dict[str, object]:
    """What the contract compares before set-up and after tear-down: every setting, NFC
    and the clipboard's text (None and "" alike: nothing to paste)."""
    out: dict[str, object] = {ns: device.shell(f"settings list {ns}").stdout for ns in NAMESPACES}
    out["nfc"] = nfc_on(device)
    out["clipboard"] = read_clipboard(device) or ""
    return out


# --- solution steps ----------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Settings", package=PKG)


def tap(text: str, screen: str) -> Tap:
    return Tap(screen=screen, target=Target(text=text))


def walk(path: tuple[tuple[str, str], ...]) -> list[Tap]:
    """Open Settings' rows one after another: ((row, on screen), ...)."""
    return [tap(row, screen) for row, screen in path]
