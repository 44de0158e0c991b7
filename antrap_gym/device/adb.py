"""`AdbDevice`: the Device protocol over ADB (a real phone, an emulator, or sim-adbd).

Every call has a timeout; a lost transport is retried and reconnected, and
after that surfaces as a typed `DeviceLostError` (the env ends the episode as
truncated with the reason). Text goes through `input text` with exact shell
escaping when it can, or through the ADBKeyboard IME (`ADB_INPUT_B64`) when the
text is not plain ASCII — never with characters silently dropped.
"""

from __future__ import annotations

import base64
import contextlib
import re
import shlex
import struct
import subprocess
import time
from typing import Any

import numpy as np

from antrap_gym.device.elements import UIElement, filter_meaningful, parse_ui_xml
from antrap_gym.device.protocol import (
    KNOWN_APPS,
    Device,
    DeviceError,
    DeviceLostError,
    ShellResult,
    Snapshot,
)

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
DUMP_RETRIES = 3
#: characters `input text` takes literally once the whole argument is single-quoted
_PRINTABLE_ASCII = re.compile(r"^[\x20-\x7e\n]*$")
TEXT_CHUNK = 1000


def _adbutils():
    import adbutils

    return adbutils


class AdbDevice(Device):
    """A phone reached through an adb server (local or remote)."""

    backend = "adb"
    deterministic = False

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                 timeout_s: float = 15.0, retries: int = 2, connect: bool | None = None) -> None:
        adbutils = _adbutils()
        self.host, self.port = host, port
        self.serial = serial
        self.timeout_s = timeout_s
        self.retries = retries
        self.client = adbutils.AdbClient(host=host, port=port, socket_timeout=timeout_s)
        # serials that look like host:port are TCP devices the adb server must `connect` to
        self._tcp = serial is not None and bool(re.match(r"^[\w.\-]+:\d+$", serial))
        if connect if connect is not None else self._tcp:
            self._connect()
        self._dev = None
        self.round_trips = 0
        self._size: tuple[int, int] | None = None
        self._ime_ready: bool | None = None
        self._packages: dict[str, str] | None = None

    # --- transport ---------------------------------------------------------------------------
    def _connect(self) -> None:
        try:
            self.client.connect(self.serial, timeout=self.timeout_s)
        except Exception as e:
            raise DeviceLostError(f"cannot connect to {self.serial}: {e}") from None

    def _device(self):
        if self._dev is None:
            self._dev = self.client.device(self.serial) if self.serial else self.client.device()
        return self._dev

    def _call(self, what: str, fn):
        """Run an adb call; on transport trouble reconnect and retry, then give up typed."""
        adbutils = _adbutils()
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                self.round_trips += 1
                return fn(self._device())
            except (adbutils.AdbTimeout, TimeoutError) as e:
                last = e
            except (adbutils.AdbError, OSError, EOFError, ConnectionError) as e:
                last = e
            self._dev = None
            if attempt < self.retries:
                time.sleep(min(2.0, 0.2 * 2**attempt))
                if self._tcp:
                    # an offline TCP device stays "already connected" until disconnected
                    with contextlib.suppress(Exception):
                        self.client.disconnect(self.serial)
                    with contextlib.suppress(Exception):
                        self.client.connect(self.serial, timeout=self.timeout_s)
        raise DeviceLostError(f"{what} on {self.serial or 'the device'} failed: "
                              f"{type(last).__name__}: {last}")

    # --- Device protocol ---------------------------------------------------------------------
    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        t = timeout or self.timeout_s
        r = self._call("shell", lambda d: d.shell2(cmd, timeout=t, encoding=None, v2=True))
        out: bytes = r.stdout if r.stdout is not None else r.output
        err = (r.stderr or b"").decode("utf-8", "replace")
        try:
            return ShellResult(out.decode("utf-8"), err, int(r.returncode))
        except UnicodeDecodeError:
            return ShellResult(out.decode("latin-1"), err, int(r.returncode), out)

    @property
    def screen_size(self) -> tuple[int, int]:
        if self._size is None:
            text = self.shell("wm size").stdout
            m = re.findall(r"(\d+)x(\d+)", text)
            if not m:
                raise DeviceError(f"cannot read the screen size from {text!r}")
            w, h = m[-1]  # an override size comes last
            self._size = (int(w), int(h))
        return self._size

    def screenshot(self) -> np.ndarray:
        """`screencap` raw (RGBA with a 12- or 16-byte header): several times faster
        than PNG, which is the fallback."""
        r = self.shell("screencap")
        data = r.stdout_bytes
        if r.ok and len(data) >= 16:
            w, h, fmt = struct.unpack("<III", data[:12])
            header = len(data) - w * h * 4
            if fmt == 1 and w > 0 and h > 0 and header in (12, 16):
                rgba = np.frombuffer(data, np.uint8, w * h * 4, header).reshape(h, w, 4)
                return np.ascontiguousarray(rgba[..., :3])
        png = self.shell("screencap -p").stdout_bytes
        from io import BytesIO

        from PIL import Image

        try:
            return np.asarray(Image.open(BytesIO(png)).convert("RGB"))
        except Exception as e:
            raise DeviceError(f"screencap returned no image: {e}") from None

    def ui_xml(self) -> str:
        last = ""
        for _ in range(DUMP_RETRIES):
            r = self.shell("uiautomator dump /dev/tty")
            text = r.stdout
            if "<hierarchy" in text and "</hierarchy>" in text:
                return text[text.find("<?xml") if "<?xml" in text else text.find("<hierarchy"):
                            text.rfind("</hierarchy>") + len("</hierarchy>")]
            last = (r.stderr or text).strip()[:200]
            time.sleep(0.3)  # "could not get idle state": the UI is animating
        raise DeviceError(f"uiautomator dump failed: {last}")

    def ui_elements(self) -> list[UIElement]:
        return filter_meaningful(parse_ui_xml(self.ui_xml()))

    def snapshot(self) -> Snapshot:
        """An emulator snapshot where the serial is an emulator; otherwise a marker
        that `restore` answers by going home and stopping the known apps (the task's
        set-up then rebuilds its own state)."""
        if self._emulator():
            name = f"antrap_{int(time.time() * 1000)}"
            if self._emu("avd", "snapshot", "save", name):
                return Snapshot("adb", {"kind": "emulator", "name": name})
        return Snapshot("adb", {"kind": "home"})

    def restore(self, snap: Snapshot) -> None:
        if snap.backend != "adb":
            raise ValueError(f"cannot restore a {snap.backend!r} snapshot over adb")
        payload = snap.payload or {}
        if payload.get("kind") == "emulator" and self._emu("avd", "snapshot", "load",
                                                           payload["name"]):
            self._size = None
            return
        stops = [f"am force-stop {shlex.quote(p)}" for p in sorted(set(self.app_packages().values()))]
        r = self.shell("; ".join(["input keyevent KEYCODE_HOME", *stops]))
        if not r.ok:
            raise DeviceError(f"could not reset the device to its home screen: {r.stderr.strip()[:200]}")

    def _emulator(self) -> bool:
        return bool(self.serial and self.serial.startswith("emulator-"))

    def _emu(self, *args: str) -> bool:
        cmd = ["adb", "-H", self.host, "-P", str(self.port), "-s", str(self.serial), "emu", *args]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return out.returncode == 0 and "KO" not in out.stdout

    # --- input -------------------------------------------------------------------------------
    def enter_text(self, text: str, at: tuple[int, int] | None = None, clear: bool = False,
                   submit: bool = True) -> ShellResult:
        """One shell round trip for tap + clear + type + Enter when the text is plain
        ASCII (`&&`: a failing step stops the rest); the IME path otherwise."""
        if not self._plain(text):
            return super().enter_text(text, at, clear, submit)
        cmds = [f"input tap {int(at[0])} {int(at[1])}"] if at is not None else []
        if clear:
            cmds += ["input keycombination KEYCODE_CTRL_LEFT KEYCODE_A", "input keyevent KEYCODE_DEL"]
        cmds += self._text_commands(text)
        if submit:
            cmds.append("input keyevent KEYCODE_ENTER")
        return self.shell(" && ".join(cmds)) if cmds else ShellResult()

    @staticmethod
    def _plain(text: str) -> bool:
        """Text that `input text` types exactly once single-quoted."""
        return bool(_PRINTABLE_ASCII.match(text)) and "%s" not in text

    @staticmethod
    def _text_commands(text: str) -> list[str]:
        cmds = []
        for i, line in enumerate(text.split("\n")):
            if i:
                cmds.append("input keyevent KEYCODE_ENTER")
            for start in range(0, len(line), TEXT_CHUNK):
                chunk = line[start : start + TEXT_CHUNK].replace(" ", "%s")
                cmds.append("input text " + shlex.quote(chunk))
        return cmds

    def type_text(self, text: str) -> ShellResult:
        """Type exactly `text`: `input text` for printable ASCII (quoted so that no
        character reaches the shell as syntax), the ADBKeyboard IME otherwise."""
        if self._plain(text):
            cmds = self._text_commands(text)
            return self.shell(" && ".join(cmds)) if cmds else ShellResult()
        if not self._adb_keyboard():
            return ShellResult("", "this text needs the ADBKeyboard IME (com.android.adbkeyboard)"
                               " to be typed exactly, and it is not installed on the device; "
                               "install it or type ASCII only\n", 1)
        for start in range(0, len(text), TEXT_CHUNK):
            msg = base64.b64encode(text[start : start + TEXT_CHUNK].encode("utf-8")).decode()
            r = self.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {msg}")
            if not r.ok or "result=-1" not in r.stdout:
                return ShellResult(r.stdout, r.stderr or "the ADBKeyboard did not accept the text",
                                   r.exit_code or 1)
        return ShellResult()

    def _adb_keyboard(self) -> bool:
        if self._ime_ready is None:
            listed = self.shell("ime list -a -s").stdout.split()  # installed, enabled or not
            self._ime_ready = ADB_KEYBOARD in listed
            if self._ime_ready and self.shell(
                    "settings get secure default_input_method").stdout.strip() != ADB_KEYBOARD:
                self.shell(f"ime enable {ADB_KEYBOARD}; ime set {ADB_KEYBOARD}")
        return self._ime_ready

    def foreground(self) -> tuple[str, str]:
        from antrap_gym.device.protocol import parse_focused_window

        out = self.shell("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'").stdout
        return parse_focused_window(out)

    def app_packages(self) -> dict[str, str]:
        """Known app labels whose packages are installed on this device."""
        if self._packages is None:
            installed = {line.partition(":")[2].strip()
                         for line in self.shell("pm list packages").stdout.splitlines()}
            self._packages = {label: pkg for label, pkg in KNOWN_APPS.items() if pkg in installed}
        return dict(self._packages)

    def wait(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))

    def describe(self) -> dict[str, Any]:
        return {"backend": "adb", "serial": self.serial, "adb_server": f"{self.host}:{self.port}"}


def parse_device_name(spec: str) -> dict[str, Any]:
    """`adb:SERIAL` or `adb:HOST:PORT/SERIAL` (a remote adb server) -> AdbDevice kwargs."""
    if not spec.startswith("adb:"):
        raise ValueError(f"not an adb device name: {spec!r}")
    rest = spec[len("adb:") :]
    if "/" in rest:
        server, _, serial = rest.partition("/")
        host, _, port = server.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"adb server must be HOST:PORT in {spec!r}")
        return {"serial": serial or None, "host": host, "port": int(port)}
    return {"serial": rest or None}
