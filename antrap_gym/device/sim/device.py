"""`SimDevice`: the Device protocol over the simulated phone."""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from antrap_gym.device.elements import UIElement
from antrap_gym.device.overlay import Overlay, OverlayEvent
from antrap_gym.device.protocol import Device, DeviceFileError, ShellResult, Snapshot
from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.keycodes import KEYCODES, keycode_of
from antrap_gym.device.sim.phone import Phone
from antrap_gym.device.sim.shell.android_commands import PROPS
from antrap_gym.device.sim.shell.interpreter import Shell
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.uixml import dump_xml
from antrap_gym.device.virtual import VirtualOverlays, remove_overlay

IDLE_STATE_ERROR = "ERROR: could not get idle state.\n"


@dataclass
class SimFaults:
    """Fault injection for tests: the misbehaviour a real phone shows now and then.

    Only `shell()` consults these (that is the path adb and sim-adbd take); the
    in-process fast paths (`tap`, `ui_elements`, ...) stay untouched.
    """

    #: the next N `uiautomator dump` commands fail the way a busy real phone's do:
    #: "ERROR: could not get idle state." on stderr, exit status 0, no XML, no file
    dump_idle_failures: int = 0
    #: called with every shell command before it runs, in the thread running it
    #: (under sim-adbd, with the phone's lock held): sleep in it to make the phone
    #: slow, raise `DeviceLostError` in it to lose an in-process phone, or cut a
    #: sim-adbd connection from it
    before_shell: Callable[[str], None] | None = None


class SimDevice(Device):
    """A simulated Pixel 6: deterministic, microsecond snapshots, no emulator.

    Input helpers call the phone directly (no shell parsing on the hot path);
    `shell()` accepts the same commands a real device does. Overlays are the
    window manager's own; with `host_overlays=False` they are virtual, as on a
    real device (`antrap_gym.device.virtual`).
    """

    backend = "sim"
    deterministic = True

    def __init__(self, width: int = 1080, height: int = 2400, host_overlays: bool = True,
                 serial: str | None = None, apps: list[type[App]] | None = None) -> None:
        #: `apps`: the apps installed (default: every registered app, `default_apps()`)
        self.phone = Phone(width, height, apps=apps)
        self._shell = Shell(self.phone)
        #: False makes the phone behave like a backend without an overlay helper app
        self.host_overlays = host_overlays
        #: the overlays shown virtually (None until the first)
        self._virtual: VirtualOverlays | None = None
        #: fault injection (tests); see `SimFaults`
        self.faults = SimFaults()
        if serial is not None:
            self.serial = serial

    @property
    def serial(self) -> str:
        """`getprop ro.serialno` (sim-adbd's `--serial` sets it)."""
        return getattr(self.phone, "prop_overrides", {}).get("ro.serialno", PROPS["ro.serialno"])

    @serial.setter
    def serial(self, value: str) -> None:
        overrides = dict(getattr(self.phone, "prop_overrides", {}))
        overrides["ro.serialno"] = str(value)
        self.phone.prop_overrides = overrides

    # --- Device protocol --------------------------------------------------------
    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        faults = self.faults
        if faults.before_shell is not None:
            faults.before_shell(cmd)
        if faults.dump_idle_failures > 0 and cmd.lstrip().startswith("uiautomator dump"):
            faults.dump_idle_failures -= 1
            self.phone.shell_log.append(cmd.strip())
            return ShellResult("", IDLE_STATE_ERROR, 0)
        return self._shell.run(cmd)

    def screenshot(self) -> np.ndarray:
        v = self._virtual
        return v.composite(self.phone.screenshot()) if v else self.phone.screenshot()

    def ui_elements(self) -> list[UIElement]:
        v = self._virtual
        return v.elements() if v else list(self.phone.ui_elements())

    def ui_xml(self) -> str:
        v = self._virtual
        return v.xml() if v else dump_xml(self.phone)

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.phone.width, self.phone.height

    def snapshot(self) -> Snapshot:
        v = self._virtual
        return Snapshot("sim", self.phone.snapshot(), v.save() if v is not None else None)

    def restore(self, snap: Snapshot) -> None:
        if snap.backend != "sim":
            raise ValueError(f"cannot restore a {snap.backend!r} snapshot on the simulated phone")
        self.phone.restore(snap.payload)
        if snap.virtual is not None or self._virtual is not None:
            self._overlays().load(snap.virtual)

    # --- fast input paths (a virtual overlay up takes them first: `device.virtual`) -------
    def tap(self, x: int, y: int) -> ShellResult:
        if self._virtual:
            self._virtual.tap(x, y)
        else:
            self.phone.tap(x, y)
        return ShellResult()

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> ShellResult:
        if self._virtual:
            self._virtual.tap(x, y)
        else:
            self.phone.swipe(x, y, x, y, duration_ms)
        return ShellResult()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> ShellResult:
        if self._virtual:
            self._virtual.swallow()
        else:
            self.phone.swipe(x1, y1, x2, y2, duration_ms)
        return ShellResult()

    def type_text(self, text: str) -> ShellResult:
        if self._virtual:
            self._virtual.swallow()
        else:
            self.phone.input_text(text)
        return ShellResult()

    def clear_text(self) -> ShellResult:
        if self._virtual:
            self._virtual.swallow(2)  # select all, delete
            return ShellResult()
        self.phone.key_combination([KEYCODES["CTRL_LEFT"], KEYCODES["A"]])
        self.phone.key(KEYCODES["DEL"])
        return ShellResult()

    def key(self, keycode: str | int) -> ShellResult:
        code = keycode_of(keycode)
        if code is None:
            return ShellResult("", f"Error: Unknown keycode: {keycode}\n", 1)
        if not (self._virtual and self._virtual.key(code)):
            self.phone.key(code)
        return ShellResult()

    def launch(self, package: str, activity: str | None = None) -> ShellResult:
        err = self.phone.launch(package, activity)
        if err:
            return ShellResult("", f"Error: {err}\n", 1)
        return ShellResult()

    def wait(self, seconds: float) -> None:
        if self._virtual:
            self._virtual.swallow()
        self.phone.advance(int(max(0.0, seconds) * 1000))

    # --- overlays -------------------------------------------------------------------
    def show_overlay(self, overlay: Overlay) -> bool:
        if not self.host_overlays:
            self._overlays().show(overlay, dark=self.phone.dark)
            return False
        self.phone.show_overlay(overlay)
        return True

    def dismiss_overlay(self, ident: str, result: str = "dismiss") -> bool:
        v = self._virtual
        return bool(v and v.dismiss(ident, result)) or remove_overlay(self.phone, ident, result)

    def overlay_log(self) -> list[OverlayEvent]:
        v = self._virtual
        log = self.phone.wm.overlay_log
        return [*log, *v.log] if v is not None and v.log else log

    def _overlays(self) -> VirtualOverlays:
        if self._virtual is None:
            self._virtual = VirtualOverlays(self.screen_size)
        return self._virtual

    def observation_token(self) -> object:
        v = self._virtual
        return self.phone.revision if v is None else (self.phone.revision, v.revision)

    def app_packages(self) -> dict[str, str]:
        return {app.label.lower(): pkg for pkg, app in self.phone.apps.items() if app.launchable}

    def foreground(self) -> tuple[str, str]:
        return self.phone.focused_component()

    def pull(self, path: str) -> bytes:
        """From the phone's storage, as `adb pull` fetches it: a file under /sdcard, or an
        app's SQLite database at its Android path (the bytes of the database file)."""
        try:
            return self.phone.fs.read(path)
        except FsError as e:
            reason = str(e).rsplit(": ", 1)[-1]
            code = errno.EISDIR if reason == "Is a directory" else errno.ENOENT
            raise DeviceFileError(path, code, reason) from None
