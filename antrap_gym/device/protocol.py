"""The Device protocol: the one interface every backend implements.

Everything above the device layer (env, tasks, traps, agents) talks to a phone
only through this interface, so one task suite runs on the simulated phone and
on a real emulator alike.
"""

from __future__ import annotations

import abc
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.device.elements import UIElement
from antrap_gym.device.overlay import Overlay, OverlayEvent

if TYPE_CHECKING:
    from antrap_gym.device.repaint import Repainter


class DeviceError(Exception):
    """A device-level failure that is not the agent's fault."""


class DeviceLostError(DeviceError):
    """The transport to the device is gone (disconnected, killed, timed out)."""


class DeviceReplacedError(DeviceLostError):
    """The device answers again, but it is not the phone the episode was set up on: it
    rebooted, or another phone answers at its address (`Device.check_identity`). The
    phone the episode ran on is as good as lost."""


class DeviceFileError(DeviceError):
    """`pull` found no file to hand over: `errno` says why (`errno.ENOENT`: no such
    file, or none the shell user may read; `errno.EISDIR`: a folder; `errno.EACCES`:
    refused), `path` is the path asked for."""

    def __init__(self, path: str, errno: int, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.errno = errno
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ShellResult:
    """What a shell command returned, as `adb shell` would report it.

    `data` carries binary stdout (e.g. `screencap -p`); `stdout` is its text.
    """

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    data: bytes | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def stdout_bytes(self) -> bytes:
        return self.data if self.data is not None else self.stdout.encode()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An opaque saved device state; only the backend that made it can restore it.

    `virtual`: the overlays the device showed virtually (`antrap_gym.device.virtual`),
    which are no part of the phone's own state."""

    backend: str
    payload: Any = field(repr=False)
    virtual: Any = field(default=None, repr=False)


class Device(abc.ABC):
    """A phone: Android shell semantics plus observation and input helpers."""

    backend: str = "abstract"
    #: whether the same inputs always give the same outputs (the simulated phone)
    deterministic: bool = False

    # --- the essentials -------------------------------------------------
    @abc.abstractmethod
    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        """Run `cmd` with Android shell semantics; never raises for bad commands."""

    @abc.abstractmethod
    def screenshot(self) -> np.ndarray:
        """The screen as an (H, W, 3) uint8 array."""

    @abc.abstractmethod
    def ui_elements(self) -> list[UIElement]:
        """The accessibility elements of the focused window, in document order."""

    @abc.abstractmethod
    def ui_xml(self) -> str:
        """The view hierarchy as `uiautomator dump` XML."""

    @property
    @abc.abstractmethod
    def screen_size(self) -> tuple[int, int]:
        """(width, height) in pixels."""

    @abc.abstractmethod
    def snapshot(self) -> Snapshot: ...

    @abc.abstractmethod
    def restore(self, snap: Snapshot) -> None: ...

    # --- thin conveniences over shell ------------------------------------
    def tap(self, x: int, y: int) -> ShellResult:
        return self.shell(f"input tap {int(x)} {int(y)}")

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> ShellResult:
        return self.shell(f"input swipe {int(x)} {int(y)} {int(x)} {int(y)} {int(duration_ms)}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> ShellResult:
        return self.shell(f"input swipe {int(x1)} {int(y1)} {int(x2)} {int(y2)} {int(duration_ms)}")

    def type_text(self, text: str) -> ShellResult:
        return self.shell("input text " + shlex.quote(escape_input_text(text)))

    def clear_text(self) -> ShellResult:
        """Empty the focused text field (select all, then delete)."""
        self.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
        return self.key("KEYCODE_DEL")

    def enter_text(self, text: str, at: tuple[int, int] | None = None, clear: bool = False,
                   submit: bool = True) -> ShellResult:
        """The `input_text` action: tap the field at `at`, optionally empty it, type
        `text`, press Enter. Backends with costly round trips send it as one command."""
        if at is not None:
            self.tap(*at)
        if clear:
            self.clear_text()
        if text:
            res = self.type_text(text)
            if not res.ok:
                return res
        return self.key("KEYCODE_ENTER") if submit else ShellResult()

    def key(self, keycode: str | int) -> ShellResult:
        return self.shell(f"input keyevent {shlex.quote(str(keycode))}")

    def launch(self, package: str, activity: str | None = None) -> ShellResult:
        if activity:
            return self.shell(f"am start -n {shlex.quote(package + '/' + activity)}")
        return self.shell(f"monkey -p {shlex.quote(package)} -c android.intent.category.LAUNCHER 1")

    def wait(self, seconds: float) -> None:
        """Let time pass on the device (the simulated phone advances its clock)."""
        import time

        time.sleep(seconds)

    def foreground(self) -> tuple[str, str]:
        """(package, activity) of the focused window, from `dumpsys window`."""
        return parse_focused_window(self.shell("dumpsys window").stdout)

    # --- system overlays and repainting (what traps show) -----------------
    def show_overlay(self, overlay: Overlay) -> bool:
        """Put a system overlay on screen, above every app: it swallows input until
        one of its buttons, or BACK when it allows, closes it (see `overlay_log`).

        True when the backend's window manager hosts it (the simulated phone); False
        when the device shows it *virtually* (`antrap_gym.device.virtual`): composited
        into `screenshot`, `ui_elements` and `ui_xml`, the input helpers meeting it as
        they would a hosted one. Only `shell` reaches the phone beneath.
        """
        raise DeviceError(f"the {self.backend} backend cannot show overlays")

    def dismiss_overlay(self, ident: str, result: str = "dismiss") -> bool:
        """Close the topmost overlay put up as `ident`, logged with `result`;
        False when none is up."""
        return False

    def overlay_log(self) -> list[OverlayEvent]:
        """How overlays were closed, oldest first (restored with a snapshot)."""
        return []

    def repainter(self) -> Repainter:
        """Draws on copies of this device's screenshots in the phone's own style:
        an element relabelled, a checkable in another state, a pop-up."""
        from antrap_gym.device.repaint import Repainter

        return Repainter(self.screen_size)

    def observation_token(self) -> object | None:
        """A value that changes whenever the screen may have changed, or None
        when the backend cannot tell (then observations are always re-read)."""
        return None

    def app_packages(self) -> dict[str, str]:
        """Launcher label -> package for the apps `open_app` can name."""
        return dict(KNOWN_APPS)

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the device's resources."""

    # --- identity (a phone behind a link can come back as another) ----------
    def pin_identity(self) -> None:  # noqa: B027 - optional hook
        """Remember which boot of which phone this is now: the env pins it at every
        reset, before the task's set-up. A backend whose phone can be swapped behind
        its back (adb) then checks it after every reconnect and in `check_identity`;
        an in-process phone cannot be, and does nothing."""

    def check_identity(self) -> None:  # noqa: B027 - optional hook
        """Raise `DeviceReplacedError` when the phone is not the one pinned last (the
        env asks before judging an episode's success)."""

    def pull(self, path: str) -> bytes:
        """The bytes of the file at `path` (as `adb pull` fetches it: an app's SQLite
        database under /data/data, a file under /sdcard). A missing path, a folder or
        a file the device will not hand over raises `DeviceFileError`. This fallback
        reads it through the shell (`base64`); backends override it."""
        import base64
        import errno

        res = self.shell("base64 " + shlex.quote(path))
        if not res.ok:
            last = (res.stderr.strip() or f"exit status {res.exit_code}").splitlines()[-1]
            reason = last.rsplit(": ", 1)[-1]  # toybox: "base64: PATH: No such file ..."
            code = (errno.EISDIR if "Is a directory" in reason else
                    errno.ENOENT if "No such file" in reason else errno.EACCES)
            raise DeviceFileError(path, code, reason)
        return base64.b64decode(res.stdout)


#: AndroidWorld's app names for the apps this package knows (real-device default)
KNOWN_APPS = {
    "settings": "com.android.settings",
    "contacts": "com.google.android.contacts",
    "markor": "net.gsantner.markor",
    "chrome": "com.android.chrome",
    "clock": "com.google.android.deskclock",
    "camera": "com.android.camera2",
    "audio recorder": "com.dimowner.audiorecorder",
    "phone": "com.google.android.dialer",
    "files": "com.google.android.documentsui",
    "simple calendar pro": "com.simplemobiletools.calendar.pro",
    "simple sms messenger": "com.simplemobiletools.smsmessenger",
    "pro expense": "com.arduia.expense",
    "broccoli": "com.flauschcode.broccoli",
    "tasks": "org.tasks",
    "opentracks": "de.dennisguse.opentracks",
    "joplin": "net.cozic.joplin",
    "vlc": "org.videolan.vlc",
    "retro music": "code.name.monkey.retromusic",
    "simple gallery pro": "com.simplemobiletools.gallery.pro",
    "osmand": "net.osmand",
    "simple draw pro": "com.simplemobiletools.draw.pro",
}


def escape_input_text(text: str) -> str:
    """Encode text for `input text`, which reads `%s` as a space."""
    return text.replace(" ", "%s")


def parse_focused_window(dumpsys: str) -> tuple[str, str]:
    """Pull (package, activity) out of `dumpsys window` output (mCurrentFocus)."""
    for line in dumpsys.splitlines():
        if "mCurrentFocus=" in line or "mFocusedApp=" in line:
            tail = line.split("{", 1)[-1].rstrip("}").split()
            for tok in reversed(tail):
                if "/" in tok:
                    pkg, _, act = tok.partition("/")
                    return pkg, act.rstrip("}")
            if tail:
                return tail[-1].rstrip("}"), ""
    return "", ""
