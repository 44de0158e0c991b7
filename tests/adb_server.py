"""A private adb server for tests: the stock `adb` binary on a free port, HOME in a
temporary folder so its keys stay out of the user's."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
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


