"""A private adb server for tests: the stock `adb` binary on a free port, HOME in a
temporary folder so its keys stay out of the user's."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest

ADB = shutil.which("adb")
needs_adb = pytest.mark.skipif(ADB is None, reason="the `adb` binary is not installed (apt-get install adb)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AdbServer:
    """A private adb server: `run(...)` is `adb -P <port> ...`."""

    def __init__(self, home: Path) -> None:
        self.port = free_port()
        self.env = {**os.environ, "HOME": str(home), "ANDROID_SDK_HOME": str(home),
                    "ADB_MDNS": "0", "ADB_MDNS_AUTO_CONNECT": "0"}
        self.env.pop("ANDROID_SERIAL", None)
        self.env.pop("ANDROID_ADB_SERVER_PORT", None)

    def run(self, *args: str, input: bytes | None = None, timeout: float = 30,
            check: bool = False) -> subprocess.CompletedProcess[bytes]:
        res = subprocess.run([ADB or "adb", "-P", str(self.port), *args], input=input,
                             capture_output=True, timeout=timeout, env=self.env)
        if check and res.returncode != 0:
            raise AssertionError(f"adb {' '.join(args)} -> {res.returncode}: {res.stderr!r}")
        return res

    def sh(self, serial: str, *args: str, **kw) -> subprocess.CompletedProcess[bytes]:
        return self.run("-s", serial, *args, **kw)

    def connect(self, address: str) -> None:
        out = self.run("connect", address, check=True).stdout
        assert b"connected to" in out, out
        self.wait_state(address, "device")

    def state(self, address: str) -> str | None:
        for line in self.run("devices", check=True).stdout.decode().splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 2 and parts[0] == address:
                return parts[1]
        return None

    def wait_state(self, address: str, want: str | None, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while (got := self.state(address)) != want:
            if time.monotonic() > deadline:
                raise AssertionError(f"{address}: state {got!r}, wanted {want!r}")
            time.sleep(0.1)

    def server_pids(self) -> list[int]:
        """adb server processes listening on our port (to clean up if kill-server fails)."""
        pids = []
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    cmd = (d / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if b"fork-server" in cmd and f"tcp:{self.port}".encode() in cmd:
                    pids.append(int(d.name))
        return pids


def connected_phone(adb: AdbServer, serial: str):
    """Generator for a fixture: a simulated phone served over the ADB protocol, connected to
    `adb`'s server, disconnected and stopped after."""
    from antrap_gym.device.adbd import serve_in_thread

    handle = serve_in_thread(port=0, serial=serial)
    try:
        adb.connect(handle.address)
        yield handle
    finally:
        adb.run("disconnect", handle.address, timeout=10)
        handle.close()


def phone_maker(adb: AdbServer):
    """Generator for a fixture: `make(serial)` serves and connects a phone of the test's own
    (for tests that stop or change it); every one made is disconnected and stopped after."""
    from antrap_gym.device.adbd import serve_in_thread

    handles = []

    def make(serial: str):
        h = serve_in_thread(port=0, serial=serial)
        handles.append(h)
        adb.connect(h.address)
        return h

    yield make
    for h in handles:
        adb.run("disconnect", h.address, timeout=10)
        h.close()


def adb_server(tmp_path_factory):
    """Generator for a module-scoped fixture: a started private adb server, killed after."""
    if ADB is None:
        pytest.skip("the `adb` binary is not installed (apt-get install adb)")
    server = AdbServer(tmp_path_factory.mktemp("adb-home"))
    server.run("start-server", check=True)
    try:
        yield server
    finally:
        server.run("kill-server", timeout=10)
        deadline = time.monotonic() + 5
        while server.server_pids() and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in server.server_pids():
            os.kill(pid, signal.SIGKILL)




class LinkProxy:
    """A TCP relay on a fixed local port between an adb server and a device (sim-adbd): the
    link a test cuts and restores, while the phone behind it keeps running with its state.

    `down()` is a dead link: every relayed connection cut, nothing listening (so `adb
    connect` is refused), as when the phone drops off the network; `up()` listens again on
    the same port. `cut_when(match, wait)` cuts the link from inside the relay the moment
    the device sends a message `match(command, arg0, arg1)` accepts -- that message is
    held, never delivered -- after `wait` is set (or 10 s): e.g. the device's OKAY to the
    host's OPEN, held until the command has reached the phone's shell, so the host knows
    the command was sent but never hears that it was taken."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._socks: set[socket.socket] = set()
        self._trigger: tuple | None = None
        self.cuts = 0
        self.up()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def up(self) -> None:
        with self._lock:
            if self._listener is not None:
                return
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            deadline = time.monotonic() + 5
            while True:  # the old listener may take a moment to let go of the port
                try:
                    s.bind(("127.0.0.1", self.port))
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        s.close()
                        raise
                    time.sleep(0.05)
            s.listen(16)
            s.settimeout(0.1)
            self.port = s.getsockname()[1]
            self._listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def down(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            socks, self._socks = self._socks, set()
            self.cuts += 1
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes its accept()
            listener.close()
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    close = down

    def cut_when(self, match, wait: threading.Event | None = None) -> threading.Event:
        """Arm a one-shot cut (see the class); returns an event set once it has cut."""
        done = threading.Event()
        with self._lock:
            self._trigger = (match, wait, done)
        return done

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                host, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed: the link is down
            try:
                dev = socket.create_connection(self.target, timeout=5)
            except OSError:
                host.close()
                continue
            for s in (host, dev):
                s.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # went down meanwhile
                    host.close()
                    dev.close()
                    return
                self._socks |= {host, dev}
            threading.Thread(target=self._pump, args=(host, dev), daemon=True).start()
            threading.Thread(target=self._pump_device, args=(dev, host), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def _pump_device(self, src: socket.socket, dst: socket.socket) -> None:
        """Device -> host, message by message, so a message can be held and the link cut."""
        buf = bytearray()
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                buf += data
                while len(buf) >= 24:
                    command, arg0, arg1, length = struct.unpack_from("<4I", buf)
                    if len(buf) < 24 + length:
                        break
                    trigger = self._trigger
                    if trigger is not None and trigger[0](command, arg0, arg1):
                        self._trigger = None
                        match, wait, done = trigger
                        if wait is not None:
                            wait.wait(10)
                        self.down()
                        done.set()
                        return
                    dst.sendall(bytes(buf[: 24 + length]))
                    del buf[: 24 + length]
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
