"""`AdbDevice`: the Device protocol over ADB (a real phone, an emulator, or sim-adbd).

Every call has a timeout. A transport that fails before a command reached the
device is retried with back-off for a retry window (30 s by default: an adb
server restart, a USB or Wi-Fi blip), re-dialling network devices meanwhile; a
command that may already have run (it was sent, then the connection timed out
or broke) is re-sent only when running it twice is the same as once (reads,
`settings put`, `am force-stop`, ...) -- never taps, typing, launches or
inserts. After that the failure surfaces as a typed `DeviceLostError` (the env
ends the episode as truncated with the reason). A phone that answers again after a
failure must be the one the episode was set up on (`pin_identity`: its boot id and
uptime, `antrap_gym.device.identity`): another -- rebooted, factory-fresh -- raises
`DeviceReplacedError` before any command reaches it.
Text goes through `input text` with exact shell escaping when it can, or
through the ADBKeyboard IME (`ADB_INPUT_B64`) when it is not plain ASCII --
never with characters silently dropped.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import logging
import math
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import struct
import subprocess
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

import numpy as np

from antrap_gym.device.elements import UIElement, filter_meaningful, parse_ui_xml
from antrap_gym.device.identity import READ_COMMAND, Identity
from antrap_gym.device.overlay import Overlay, OverlayEvent
from antrap_gym.device.protocol import (
    KNOWN_APPS,
    Device,
    DeviceError,
    DeviceFileError,
    DeviceLostError,
    DeviceReplacedError,
    ShellResult,
    Snapshot,
)
from antrap_gym.device.virtual import VirtualOverlays

log = logging.getLogger(__name__)

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
#: `uiautomator dump` attempts before giving up ("could not get idle state": the UI animates)
DUMP_RETRIES = 3
DUMP_RETRY_PAUSE_S = 0.3
#: characters `input text` takes literally once the whole argument is single-quoted
_PRINTABLE_ASCII = re.compile(r"^[\x20-\x7e\n]*$")
#: characters per `input text` command / per ADBKeyboard broadcast
TEXT_CHUNK = 1000
#: a shell command longer than this is split (adb garbles commands over ~65,000 characters)
MAX_COMMAND_CHARS = 32_000
#: extra timeout per typed character: a real phone's `input text` injects key events one
#: by one (tens of ms per character on an emulator), so long text must not time out
TYPE_S_PER_CHAR = 0.02
_V1_EXIT = "X4EXIT:"
#: how long a call keeps retrying a transport that fails (an adb server restarts in a few s)
RETRY_WINDOW_S = 30.0
#: the first pause between attempts; it doubles up to `RETRY_PAUSE_CAP_S`
RETRY_PAUSE_S = 0.2
RETRY_PAUSE_CAP_S = 2.0
#: how the adb server refuses a stream before passing it to the device (the device never saw
#: it). Any other answer -- "closed" (the device's link died after the OPEN went out), a
#: dropped connection -- leaves it unknown whether the command started.
_REFUSED_BEFORE_SENDING = ("device offline", "not found", "no devices", "no emulators",
                           "more than one", "unauthorized", "authorizing", "still connecting")

#: commands that only read, or set an absolute state: running one twice is the same as
#: once, so it may be re-sent after a timeout even though the first copy may have run.
#: Matched word by word against every simple command of a script.
RESENDABLE = frozenset({
    ("uiautomator", "dump"), ("screencap",), ("dumpsys",), ("getprop",), ("wm", "size"),
    ("wm", "density"), ("pm", "list"), ("pm", "path"), ("ime", "list"), ("ime", "enable"),
    ("ime", "set"), ("settings", "get"), ("settings", "list"), ("settings", "put"),
    ("content", "query"), ("am", "force-stop"), ("cat",), ("ls",), ("echo",), ("stat",),
    ("date",), ("id",), ("true",), ("test",), ("grep",), ("head",), ("tail",), ("wc",),
    ("sleep",), ("svc", "wifi"), ("svc", "data"), ("svc", "bluetooth"), ("svc", "nfc"),
    ("cmd", "connectivity", "airplane-mode"), ("cmd", "uimode", "night"),
})
_RESENDABLE_FIRST = frozenset(words[0] for words in RESENDABLE)
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "\n"})


def resendable(cmd: str) -> bool:
    """Whether re-running `cmd` after it may already have run changes nothing (see
    `RESENDABLE`). Unknown commands, appends (`>>`) and anything unparsable are not."""
    head = cmd.lstrip().split(None, 1)
    if not head or head[0] not in _RESENDABLE_FIRST:
        return False  # the fast answer for taps and typing
    try:
        lex = shlex.shlex(cmd.replace("\n", " ; "), posix=True, punctuation_chars=";&|<>")
        lex.whitespace_split = True
        tokens = list(lex)
    except ValueError:
        return False
    words: list[str] = []
    for tok in [*tokens, ";"]:
        if tok in _SEPARATORS or set(tok) <= set(";&|"):
            if words and not any(tuple(words[: len(k)]) == k for k in RESENDABLE):
                return False
            words = []
        elif tok == ">>" or "`" in tok or "$(" in tok:
            return False
        else:
            words.append(tok)
    return True


def adb_executable() -> str:
    """The `adb` binary adbutils would start: $ADBUTILS_ADB_PATH, else `adb` on PATH, else
    adbutils' bundled one."""
    exe = os.environ.get("ADBUTILS_ADB_PATH") or shutil.which("adb")
    if exe:
        return exe
    try:
        from adbutils._utils import adb_path

        return adb_path()
    except Exception:
        return "adb"


def _adbutils():
    import adbutils

    return adbutils


class _Unsent(Exception):
    """The transport failed before the command was handed to the device."""


class AdbDevice(Device):
    """A phone reached through an adb server (local or remote)."""

    backend = "adb"
    deterministic = False

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                 timeout_s: float = 15.0, retry_window_s: float = RETRY_WINDOW_S,
                 connect: bool | None = None, emulator: bool | None = None,
                 emu_timeout_s: float = 120.0) -> None:
        """`timeout_s`: each attempt's timeout. `retry_window_s`: for how long from its start
        a call keeps retrying a failing transport (0: one attempt), so a phone that is
        truly gone costs a call at most about the window plus one timeout. `connect`:
        whether to `adb connect` the serial, first and whenever it drops (None: when it is
        HOST:PORT). `emulator`: whether `adb emu` reaches this device's console for
        snapshot resets (None: a serial `emulator-NNNN` on a local adb server -- `adb emu`
        talks to the console port on *this* machine, so an emulator behind a remote server
        is reset like a phone); `emu_timeout_s` bounds each `adb emu` call."""
        adbutils = _adbutils()
        if not (math.isfinite(retry_window_s) and retry_window_s >= 0):
            raise ValueError(f"retry_window_s must be a finite number >= 0, not {retry_window_s!r}")
        self.host, self.port = host, port
        self.serial = serial
        self.timeout_s = timeout_s
        self.retry_window_s = float(retry_window_s)
        local = host in ("127.0.0.1", "localhost", "::1")
        self.emulator = emulator if emulator is not None else bool(
            local and serial and serial.startswith("emulator-"))
        self.emu_timeout_s = emu_timeout_s
        #: why the last emulator snapshot command failed (None: it worked or none was tried)
        self.emu_error: str | None = None
        self.client = adbutils.AdbClient(host=host, port=port, socket_timeout=timeout_s)
        # serials that look like host:port are TCP devices the adb server must `connect` to
        tcp = serial is not None and bool(re.match(r"^[\w.\-]+:\d+$", serial))
        self._dial = bool(serial) and (connect if connect is not None else tcp)
        if self._dial:
            # best effort: a server or phone that is down now is dialled again by each call
            self._redial(time.monotonic() + timeout_s)
        self.round_trips = 0
        self._v2: bool | None = None
        self._size: tuple[int, int] | None = None
        self._ime_ready: bool | None = None
        self._packages: dict[str, str] | None = None
        #: the overlays shown virtually (None until the first; see `show_overlay`)
        self._virtual: VirtualOverlays | None = None
        #: the phone's boot the episode runs on (`pin_identity`; None: none pinned)
        self._pinned: Identity | None = None
        #: a call failed since the phone last proved to be the pinned one: check it first
        self._suspect = False
        #: why the phone is not the pinned one (every call raises it until the next pin)
        self._replaced: str | None = None

    # --- transport ---------------------------------------------------------------------------
    def _host(self, service: str, timeout: float) -> tuple[bool, str]:
        """One host service of the adb server (`host:connect:...`): (OKAY?, its answer)."""
        c = self.client.make_connection(timeout=max(0.1, timeout))
        try:
            c.send_command(service)
            status = c.read(4)
            if status not in (b"OKAY", b"FAIL"):
                raise EOFError(f"the adb server answered {status!r} to {service}")
            return status == b"OKAY", c.read_string_block()
        finally:
            _close(c)

    def _redial(self, until: float) -> None:
        """Have the adb server dial this network device again, where it needs to: a server
        that restarted has forgotten it, and one that lost it keeps it "offline" (`adb
        connect` answering "already connected") until it is disconnected. Best effort,
        done by `until` (a monotonic time); failures are left to the next attempt."""
        if not self._dial:
            return
        try:
            ok, state = self._host(f"host-serial:{self.serial}:get-state",
                                   until - time.monotonic())
            if ok and state.strip() == "device":
                return
            if "offline" in state:
                self._host(f"host:disconnect:{self.serial}", until - time.monotonic())
            elif not (not ok and "not found" in state):
                return  # unauthorized, still authorizing, ...: dialling again will not help
            ok, answer = self._host(f"host:connect:{self.serial}", until - time.monotonic())
            log.debug("%s: adb connect: %s", self.serial, answer.strip())
        except (_adbutils().AdbError, OSError, EOFError) as e:
            log.debug("%s: cannot dial it again now: %s", self.serial, e)

    def _transport(self, timeout: float):
        """A connection to the adb server switched to this device. Nothing has reached the
        device yet: every failure here is `_Unsent`."""
        adbutils = _adbutils()
        try:
            c = self.client.make_connection(timeout=timeout)
        except (adbutils.AdbError, OSError) as e:
            raise _Unsent(f"adb server {self.host}:{self.port}: {e}") from e
        try:
            if self._v2 is None:
                c.send_command(f"host-serial:{self.serial}:features" if self.serial
                               else "host:features")
                c.check_okay()
                self._v2 = "shell_v2" in c.read_string_block().split(",")
                c.close()
                c = self.client.make_connection(timeout=timeout)
            c.send_command(f"host:transport:{self.serial}" if self.serial else "host:transport-any")
            c.check_okay()
        except (adbutils.AdbError, OSError, EOFError) as e:
            _close(c)
            raise _Unsent(str(e)) from e
        return c

    def _shell_once(self, cmd: str, timeout: float) -> tuple[bytes, bytes, int]:
        """One attempt: raises `_Unsent` when the device never got the command, anything
        else when it may have run."""
        c = self._transport(timeout)
        try:
            if self._v2:
                c.send_command(f"shell,v2,raw:{cmd}")
                _acknowledged(c)
                sock = c.conn
                out, err = bytearray(), bytearray()
                while True:
                    header = _read_exact(sock, 5)
                    n = int.from_bytes(header[1:5], "little")
                    data = _read_exact(sock, n) if n else b""
                    if header[0] == 1:
                        out += data
                    elif header[0] == 2:
                        err += data
                    elif header[0] == 3:
                        return bytes(out), bytes(err), data[0] if data else 255
            c.send_command(f"shell:{cmd}; echo {_V1_EXIT}$?")
            _acknowledged(c)
            raw = c.read_until_close(encoding=None)
            at = raw.rfind(_V1_EXIT.encode())
            if at < 0:
                raise EOFError("the connection closed before the command's exit status")
            return raw[:at], b"", int(raw[at + len(_V1_EXIT):].strip() or 255)
        finally:
            _close(c)

    def _run(self, cmd: str, timeout: float, resend: bool,
             once: Callable[[str, float], tuple[bytes, bytes, int]] | None = None,
             ) -> tuple[bytes, bytes, int]:
        """Run `cmd`, retrying transport failures until `retry_window_s` after the call began
        (back-off from `RETRY_PAUSE_S`, doubling, at most `RETRY_PAUSE_CAP_S`; network devices
        re-dialled before each retry): every failure that happened before the device got the
        command, and -- when `resend` -- also those after (timeouts, broken connections),
        since the command may then have run already. No attempt begins once the window is
        over, so a call ends about one attempt's timeouts past it at the latest.
        `once`: what one attempt does (default `_shell_once`; `pull` passes its own)."""
        adbutils = _adbutils()
        if self._replaced is not None:  # nothing goes to the other phone, however it is asked
            raise DeviceReplacedError(self._replaced)
        deadline = time.monotonic() + self.retry_window_s
        attempts = 0
        while True:
            attempts += 1
            self.round_trips += 1
            try:
                if self._suspect and self._pinned is not None:
                    self._confirm(timeout)
                return (once or self._shell_once)(cmd, timeout)
            except _Unsent as e:
                self._suspect = True
                last: BaseException = e
            except (adbutils.AdbError, OSError, EOFError) as e:
                self._suspect = True
                if not resend:
                    raise DeviceLostError(
                        f"shell on {self.serial or 'the device'} failed after the command was sent "
                        f"({type(e).__name__}: {e}); not re-sent, since it may have run and "
                        f"running it twice is not the same as once: {_short(cmd)}") from None
                last = e
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(RETRY_PAUSE_CAP_S, RETRY_PAUSE_S * 2 ** min(attempts - 1, 10), left))
            self._redial(min(deadline, time.monotonic() + self.timeout_s))
        cause = last.__cause__ if isinstance(last, _Unsent) and last.__cause__ else last
        why = str(cause) if isinstance(cause, _Unsent) else f"{type(cause).__name__}: {cause}"
        raise DeviceLostError(f"shell on {self.serial or 'the device'} failed {attempts} time(s) "
                              f"in its retry window of {self.retry_window_s:g} s: {why}")

    # --- identity: the phone that answers is the one the episode was set up on --------------
    def _confirm(self, timeout: float) -> None:
        """One attempt at reading the phone's identity after a failure, before the command:
        `DeviceReplacedError` when it is another; a transport failure is `_Unsent` (the
        command itself has not gone out)."""
        adbutils = _adbutils()
        self.round_trips += 1
        try:
            out = self._shell_once(READ_COMMAND, timeout)[0]
        except (adbutils.AdbError, OSError, EOFError) as e:
            raise _Unsent(f"checking that it is the same phone: {type(e).__name__}: {e}") from e
        self._compare(Identity.parse(out.decode("utf-8", "replace")))

    def _compare(self, now: Identity) -> None:
        pinned = self._pinned
        why = pinned.differs(now) if pinned is not None else None
        if why is not None:
            self._forget_phone()
            self._replaced = (f"{self.serial or 'the device'} is not the phone this episode was "
                              f"set up on: {why}")
            raise DeviceReplacedError(self._replaced)
        if pinned is not None and now.uptime_s is not None:
            self._pinned = Identity(pinned.boot_id, now.uptime_s)  # later readings must not be lower
        self._suspect = False

    def _read_identity(self) -> Identity:
        return Identity.parse(self.shell(READ_COMMAND, resend=True).stdout)

    def _forget_phone(self) -> None:
        """What was learnt about the phone: another may have a different IME, screen, apps."""
        self._pinned = None
        self._v2 = self._size = self._ime_ready = self._packages = None

    def pin_identity(self) -> None:
        """Read the phone's boot id and uptime and hold on to them (one round trip): after
        any failed attempt, the phone must show the same ones again before a command goes
        out, and `check_identity` compares them on demand. Once another phone was found,
        every call raises `DeviceReplacedError` until the next pin, so that a caller that
        swallowed the first (an agent reading the phone) cannot go on with another phone."""
        previous, self._pinned, self._suspect, self._replaced = self._pinned, None, False, None
        now = self._read_identity()
        if previous is not None and previous.differs(now):
            self._forget_phone()  # a different phone since the last pin: learn it afresh
        if not now.known:
            log.warning("%s: the phone does not tell its boot id or uptime; a phone swapped for "
                        "another behind it cannot be told apart", self.serial)
        self._pinned = now

    def check_identity(self) -> None:
        """`DeviceReplacedError` when the phone is not the one pinned (one round trip)."""
        if self._replaced is not None:
            raise DeviceReplacedError(self._replaced)
        if self._pinned is not None:
            self._compare(self._read_identity())

    # --- Device protocol ---------------------------------------------------------------------
    def shell(self, cmd: str, timeout: float | None = None, *,
              resend: bool | None = None) -> ShellResult:
        """`adb shell cmd` (shell protocol v2: stdout, stderr and the exit status apart).
        `resend`: whether the command may be sent again after a timeout or a broken
        connection, when it may already have run (None: `resendable(cmd)`)."""
        t = timeout or self.timeout_s
        out, err_b, code = self._run(cmd, t, resendable(cmd) if resend is None else resend)
        err = err_b.decode("utf-8", "replace")
        try:
            return ShellResult(out.decode("utf-8"), err, int(code))
        except UnicodeDecodeError:
            return ShellResult(out.decode("latin-1"), err, int(code), out)

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
        """The screen, with the virtual overlays drawn over it."""
        v = self._virtual
        return v.composite(self._screencap()) if v else self._screencap()

    def _screencap(self) -> np.ndarray:
        """`screencap` raw (RGBA with a 12- or 16-byte header): several times faster
        than PNG, which is the fallback."""
        # the bytes as they came (no text decoding of 10 MB of pixels)
        data, _err, code = self._run("screencap", self.timeout_s, True)
        if code == 0 and len(data) >= 16:
            w, h, fmt = struct.unpack("<III", data[:12])
            header = len(data) - w * h * 4
            if fmt == 1 and w > 0 and h > 0 and header in (12, 16):
                rgba = np.frombuffer(data, np.uint8, w * h * 4, header).reshape(h, w, 4)
                return np.ascontiguousarray(rgba[..., :3])
        png = self._run("screencap -p", self.timeout_s, True)[0]
        from io import BytesIO

        from PIL import Image

        try:
            return np.asarray(Image.open(BytesIO(png)).convert("RGB"))
        except Exception as e:
            raise DeviceError(f"screencap returned no image: {e}") from None

    def ui_xml(self) -> str:
        """`uiautomator dump` to the terminal. A busy phone answers "ERROR: could not get
        idle state." (on stderr, exit status 0, no XML): retried `DUMP_RETRIES` times, then
        a `DeviceError` saying so. A virtual overlay up: its window's XML."""
        if self._virtual:
            return self._virtual.xml()
        last = ""
        for attempt in range(DUMP_RETRIES):
            r = self.shell("uiautomator dump /dev/tty")
            text = r.stdout
            if "<hierarchy" in text and "</hierarchy>" in text:
                return text[text.find("<?xml") if "<?xml" in text else text.find("<hierarchy"):
                            text.rfind("</hierarchy>") + len("</hierarchy>")]
            last = (r.stderr.strip() or text.strip() or f"no XML (exit status {r.exit_code})")[:200]
            if attempt + 1 < DUMP_RETRIES:
                time.sleep(DUMP_RETRY_PAUSE_S)  # the UI is animating: give it a moment
        raise DeviceError(f"uiautomator dump failed {DUMP_RETRIES} times: {last}")

    def ui_elements(self) -> list[UIElement]:
        v = self._virtual
        return v.elements() if v else filter_meaningful(parse_ui_xml(self.ui_xml()))

    # --- resets ------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """An emulator snapshot (`adb emu avd snapshot save`) where the device is an
        emulator and its console takes the command; otherwise a marker that `restore`
        answers by going home and stopping the known apps (the task's set-up then
        rebuilds its own state)."""
        virtual = self._virtual.save() if self._virtual is not None else None
        if self.emulator:
            name = f"antrap_{int(time.time() * 1000)}"
            if self._emu("avd", "snapshot", "save", name):
                return Snapshot("adb", {"kind": "emulator", "name": name}, virtual)
            log.warning("%s: no emulator snapshot (%s); resets go home and force-stop the apps",
                        self.serial, self.emu_error)
        return Snapshot("adb", {"kind": "home"}, virtual)

    def restore(self, snap: Snapshot) -> None:
        if snap.backend != "adb":
            raise ValueError(f"cannot restore a {snap.backend!r} snapshot over adb")
        if snap.virtual is not None or self._virtual is not None:
            self._overlays().load(snap.virtual)  # the overlays it showed then, and no others
        payload = snap.payload or {}
        if payload.get("kind") == "emulator":
            if self._emu("avd", "snapshot", "load", payload["name"]):
                self._size = None
                if self._pinned is not None:
                    self.pin_identity()  # the loaded snapshot's uptime is not this boot's
                return
            log.warning("%s: loading emulator snapshot %s failed (%s); going home and "
                        "force-stopping the apps instead", self.serial, payload["name"], self.emu_error)
        stops = [f"am force-stop {shlex.quote(p)}" for p in sorted(set(self.app_packages().values()))]
        # going home and stopping apps twice is the same as once: safe to re-send
        r = self.shell("; ".join(["input keyevent KEYCODE_HOME", *stops]), resend=True)
        if not r.ok:
            raise DeviceError(f"could not reset the device to its home screen: {r.stderr.strip()[:200]}")

    def _emu(self, *args: str) -> bool:
        """`adb emu ARGS` (the emulator console through the adb server), bounded by
        `emu_timeout_s`. True on success; otherwise False with the reason in `emu_error`
        (the console answered "KO: ...", adb failed, or it hung)."""
        what = "adb emu " + " ".join(args)
        cmd = [adb_executable(), "-H", self.host, "-P", str(self.port),
               *(["-s", self.serial] if self.serial else []), "emu", *args]
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, start_new_session=True)
        except OSError as e:
            self.emu_error = f"{what}: cannot run {cmd[0]}: {e}"
            return False
        try:
            out, err = proc.communicate(timeout=self.emu_timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)  # adb and anything it started
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=5)
            self.emu_error = f"{what}: no answer within {self.emu_timeout_s:g} s"
            return False
        lines = [ln.strip() for ln in f"{out}\n{err}".splitlines() if ln.strip()]
        ko = next((ln for ln in lines if ln.startswith("KO")), None)
        if ko is not None or proc.returncode != 0:
            self.emu_error = f"{what}: {ko or (err or out).strip()[:200] or f'exit status {proc.returncode}'}"
            return False
        self.emu_error = None
        return True

    # --- overlays: virtual (nothing outside a phone can make its window manager show one) --
    def show_overlay(self, overlay: Overlay) -> bool:
        dark = self.shell("settings get secure ui_night_mode").stdout.strip() == "2"
        self._overlays().show(overlay, dark=dark)
        return False

    def dismiss_overlay(self, ident: str, result: str = "dismiss") -> bool:
        return bool(self._virtual and self._virtual.dismiss(ident, result))

    def overlay_log(self) -> list[OverlayEvent]:
        return self._virtual.log if self._virtual is not None else []

    def _overlays(self) -> VirtualOverlays:
        if self._virtual is None:
            self._virtual = VirtualOverlays(self.screen_size)
        return self._virtual

    # --- input (a virtual overlay up takes it first: `antrap_gym.device.virtual`) -------------
    def tap(self, x: int, y: int) -> ShellResult:
        if self._virtual:
            self._virtual.tap(x, y)
            return ShellResult()
        return super().tap(x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> ShellResult:
        if self._virtual:
            self._virtual.tap(x, y)
            return ShellResult()
        return super().long_press(x, y, duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> ShellResult:
        return self._swallowed() or super().swipe(x1, y1, x2, y2, duration_ms)

    def clear_text(self) -> ShellResult:
        return self._swallowed(2) or super().clear_text()  # select all, delete

    def key(self, keycode: str | int) -> ShellResult:
        if self._virtual and self._virtual.key(keycode):
            return ShellResult()
        return super().key(keycode)

    def _swallowed(self, inputs: int = 1) -> ShellResult | None:
        """Inputs a virtual overlay swallows (None: none is up)."""
        if not self._virtual:
            return None
        self._virtual.swallow(inputs)
        return ShellResult()

    def enter_text(self, text: str, at: tuple[int, int] | None = None, clear: bool = False,
                   submit: bool = True) -> ShellResult:
        """Tap + clear + type + Enter as one shell round trip (`&&`: a failing step stops
        the rest); very long text takes one more per ~32,000 characters of command. A
        virtual overlay up takes them one by one, as the phone would."""
        if self._virtual:
            return Device.enter_text(self, text, at=at, clear=clear, submit=submit)
        plain = self._plain(text)
        if text and not plain and not self._adb_keyboard():
            return ShellResult("", "this text needs the ADBKeyboard IME (com.android.adbkeyboard)"
                               " to be typed exactly, and it is not installed on the device; "
                               "install it or type ASCII only\n", 1)
        cmds = [f"input tap {int(at[0])} {int(at[1])}"] if at is not None else []
        if clear:
            cmds += ["input keycombination KEYCODE_CTRL_LEFT KEYCODE_A", "input keyevent KEYCODE_DEL"]
        cmds += self._text_commands(text) if plain else self._ime_commands(text)
        if submit:
            cmds.append("input keyevent KEYCODE_ENTER")
        return self._run_input(cmds)

    def type_text(self, text: str) -> ShellResult:
        """Type exactly `text`: `input text` for printable ASCII (quoted so that no
        character reaches the shell as syntax), the ADBKeyboard IME otherwise."""
        return self._swallowed() or (self.enter_text(text, submit=False) if text else ShellResult())

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

    @staticmethod
    def _ime_commands(text: str) -> list[str]:
        """ADBKeyboard broadcasts, `TEXT_CHUNK` characters each, as base64 (the shell sees
        only [A-Za-z0-9+/=])."""
        return [f"am broadcast -a ADB_INPUT_B64 --es msg "
                f"{base64.b64encode(text[i : i + TEXT_CHUNK].encode('utf-8')).decode()}"
                for i in range(0, len(text), TEXT_CHUNK)]

    def _run_input(self, cmds: list[str]) -> ShellResult:
        """Run input commands joined by `&&`, in as few shell commands as the command-length
        limit allows, each with a timeout that grows with the text it types. Input is never
        re-sent after a timeout (it may have been typed)."""
        scripts: list[list[str]] = []
        size = 0
        for c in cmds:
            if not scripts or size + len(c) + 4 > MAX_COMMAND_CHARS:
                scripts.append([])
                size = 0
            scripts[-1].append(c)
            size += len(c) + 4
        for n, script in enumerate(scripts):
            chars = sum(len(c) for c in script if c.startswith(("input text ", "am broadcast ")))
            r = self.shell(" && ".join(script), timeout=self.timeout_s + TYPE_S_PER_CHAR * chars,
                           resend=False)
            problem = _input_problem(r, sum(c.startswith("am broadcast ") for c in script))
            if problem:
                done = " (part of the text was typed already)" if n else ""
                return ShellResult(r.stdout, problem + done + "\n", r.exit_code or 1)
        return ShellResult()

    def _adb_keyboard(self) -> bool:
        """Whether ADBKeyboard is installed; the first time, make it the current IME."""
        if self._ime_ready is None:
            listed = self.shell("ime list -a -s").stdout.split()  # installed, enabled or not
            ready = ADB_KEYBOARD in listed
            if ready and self._default_ime() != ADB_KEYBOARD:
                self.shell(f"ime enable {ADB_KEYBOARD}; ime set {ADB_KEYBOARD}")
                ready = self._default_ime() == ADB_KEYBOARD
                if not ready:
                    log.warning("%s: could not make %s the input method", self.serial, ADB_KEYBOARD)
            self._ime_ready = ready
        return self._ime_ready

    def _default_ime(self) -> str:
        return self.shell("settings get secure default_input_method").stdout.strip()

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
        self._swallowed()  # time passing is an input to a pop-up's countdown
        time.sleep(max(0.0, seconds))

    def describe(self) -> dict[str, Any]:
        return {"backend": "adb", "serial": self.serial, "adb_server": f"{self.host}:{self.port}",
                "emulator": self.emulator}

    def pull(self, path: str) -> bytes:
        """The file at `path` over the ADB sync protocol (`sync:` STAT, then RECV), as
        `adb pull` fetches it; an app's database under /data/data needs a root shell
        (`adb root` on an emulator). Transport failures are retried as for `shell` (a
        read runs twice safely); the device answering that there is no such file is
        not a transport failure: `DeviceFileError`."""
        try:
            return self._run(path, self.timeout_s, True, once=self._pull_once)[0]
        except DeviceLostError as e:
            raise type(e)(f"pull {path}: {e}") from None

    def _pull_once(self, path: str, timeout: float) -> tuple[bytes, bytes, int]:
        c = self._transport(timeout)
        try:
            c.send_command("sync:")
            _acknowledged(c)
            sock = c.conn
            raw = path.encode("utf-8")
            sock.sendall(b"STAT" + struct.pack("<I", len(raw)) + raw)
            reply = _read_exact(sock, 16)
            if reply[:4] != b"STAT":
                raise EOFError(f"the device answered {bytes(reply[:4])!r} to STAT")
            mode = struct.unpack_from("<I", reply, 4)[0]
            if mode == 0:  # lstat failed: no such file, or none the shell user may see
                raise DeviceFileError(path, errno.ENOENT, "No such file or directory")
            if stat.S_ISDIR(mode):
                raise DeviceFileError(path, errno.EISDIR, "Is a directory")
            sock.sendall(b"RECV" + struct.pack("<I", len(raw)) + raw)
            data = bytearray()
            while True:
                ident, n = struct.unpack("<4sI", _read_exact(sock, 8))
                if ident == b"DATA":
                    data += _read_exact(sock, n)
                elif ident == b"DONE":
                    break
                elif ident == b"FAIL":
                    reason = _read_exact(sock, n).decode("utf-8", "replace")
                    raise DeviceFileError(path, errno.EACCES, reason)
                else:
                    raise EOFError(f"the device answered {ident!r} to RECV")
            with contextlib.suppress(OSError):
                sock.sendall(b"QUIT" + bytes(4))
            return bytes(data), b"", 0
        finally:
            _close(c)


def _input_problem(r: ShellResult, broadcasts: int) -> str:
    """Why an input script failed ('' when it worked). An ADBKeyboard broadcast worked when
    `am` says "Broadcast completed" and nothing went wrong: the stock ADBKeyboard never
    sets a result code, so a real phone reports `result=0` (forks that set RESULT_OK
    report `result=-1`); which result it was says nothing either way."""
    if not r.ok:
        return r.stderr.strip()[:300] or r.stdout.strip()[-300:] or f"exit status {r.exit_code}"
    if broadcasts:
        text = r.stdout + r.stderr
        failed = re.search(r"^.*(?:Error|Exception).*$", text, re.MULTILINE)
        if failed:
            return f"the ADBKeyboard broadcast failed: {failed.group(0).strip()[:300]}"
        done = len(re.findall(r"^Broadcast completed: result=-?\d+", r.stdout, re.MULTILINE))
        if done < broadcasts:
            return (f"the ADBKeyboard broadcast did not complete ({done} of {broadcasts}): "
                    f"{r.stdout.strip()[-300:]!r}")
    return ""


def _acknowledged(c) -> None:
    """Wait for the device to take the stream (its OKAY to our OPEN, relayed by the adb
    server). The server refusing it before passing it on (device offline, not found):
    `_Unsent`, the device never saw it, so it may be sent again. Anything else stays
    ambiguous and is raised as it is: "closed" (the link died after the OPEN went out -- a
    real adbd starts the command before it answers), a connection that dropped (the server
    died), no answer in time (a frozen device may still run the queued OPEN)."""
    status = c.read(4)  # AdbTimeout when no answer comes in time
    if status == b"OKAY":
        return
    if status != b"FAIL":
        raise EOFError(f"the adb server closed the stream before the device answered ({status!r})")
    reason = c.read_string_block()
    if any(r in reason for r in _REFUSED_BEFORE_SENDING):
        raise _Unsent(f"the device did not take the command: {reason}")
    raise _adbutils().AdbError(f"the stream failed before the device answered: {reason}")


def _read_exact(sock: socket.socket, n: int) -> bytearray:
    """Exactly n bytes, received in place (adbutils' reader re-copies its buffer on every
    recv, which costs tens of ms on a 10 MB screenshot)."""
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise EOFError(f"the connection closed after {got} of {n} bytes")
        got += k
    return buf


def _close(c) -> None:
    """Close an adbutils connection at once (its own close() sleeps 10 ms)."""
    with contextlib.suppress(Exception):
        sock = c.conn
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


def _short(cmd: str, n: int = 120) -> str:
    return cmd if len(cmd) <= n else f"{cmd[:n]}... ({len(cmd)} characters)"


#: options of an `adb:` device name (`adb:SERIAL?retry_window=10&timeout=5`): AdbDevice keywords
NAME_OPTIONS = {"retry_window": "retry_window_s", "timeout": "timeout_s"}


def device_names(values: Iterable[str]) -> list[str]:
    """Device names from repeated and/or comma-separated options
    (`--device adb:A,adb:B --device sim`), in order, blanks dropped; `adb:` names are
    checked here (ValueError), so a typo fails the command instead of every episode."""
    names = [name.strip() for v in values for name in v.split(",") if name.strip()]
    for name in names:
        if name.startswith("adb:"):
            parse_device_name(name)
        elif name != "sim":
            raise ValueError(f"unknown device {name!r}: use sim, adb:SERIAL or adb:HOST:PORT/SERIAL")
    return names


def parse_device_name(spec: str) -> dict[str, Any]:
    """`adb:SERIAL` or `adb:HOST:PORT/SERIAL` (a remote adb server), optionally followed by
    `?retry_window=S&timeout=S` (`retry_window_s`, `timeout_s`) -> AdbDevice kwargs."""
    if not spec.startswith("adb:"):
        raise ValueError(f"not an adb device name: {spec!r}")
    rest, _, query = spec[len("adb:") :].partition("?")
    options: dict[str, Any] = {}
    if query:
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            pairs = [(query, "")]
        for key, value in pairs:
            if key not in NAME_OPTIONS:
                raise ValueError(f"unknown option {key!r} in {spec!r}; known: "
                                 f"{', '.join(NAME_OPTIONS)} (seconds each)")
            try:
                seconds = float(value)
            except ValueError:
                seconds = math.nan
            least = "> 0" if key == "timeout" else ">= 0"
            if not math.isfinite(seconds) or seconds < 0 or (key == "timeout" and seconds == 0):
                raise ValueError(f"{key} must be a number of seconds ({least}), not {value!r}, "
                                 f"in {spec!r} (options: {', '.join(NAME_OPTIONS)})")
            options[NAME_OPTIONS[key]] = seconds
    if "/" in rest:
        server, _, serial = rest.partition("/")
        host, _, port = server.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"adb server must be HOST:PORT in {spec!r}")
        return {"serial": serial or None, "host": host, "port": int(port), **options}
    return {"serial": rest or None, **options}
