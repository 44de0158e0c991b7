"""The simulated adbd against real clients: the stock `adb` binary and adbutils, over real sockets.

A private adb server runs on a free port (every call passes `-P`), with HOME in a
temporary folder so its keys stay out of the user's; the fixtures kill it and
close every simulated adbd at the end.
"""

from __future__ import annotations

import contextlib
import io
import os
import pty
import select
import signal
import socket
import struct
import subprocess
import threading
import time

import numpy as np
import pytest
from PIL import Image

from antrap_gym.device import parse_ui_xml
from antrap_gym.device.adbd import serve_in_thread
from antrap_gym.device.adbd.protocol import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    HEADER_SIZE,
    ShellPacketParser,
    decode_header,
    encode,
    shell_packet,
    shell_packets,
)
from antrap_gym.device.adbd.sync import SyncSession
from antrap_gym.device.sim import SimDevice
from tests.adb_server import ADB, AdbServer, connected_phone, needs_adb, phone_maker


@pytest.fixture(scope="module")
def phone(adb: AdbServer):
    yield from connected_phone(adb, "SIMTEST01")


@pytest.fixture
def fresh_phone(adb: AdbServer):
    """A phone of its own (for tests that kill it), connected."""
    yield from phone_maker(adb)


# --- wire formats, without adb ---------------------------------------------------------------


def test_shell_packets_reassemble_from_any_cut():
    stream = (shell_packet(0, b"hello") + shell_packets(1, bytes(range(256)) * 300) + shell_packet(4, b"")
              + shell_packet(3, b"\x07"))
    for cut in (1, 3, 5, 7, 4096):
        parser = ShellPacketParser()
        got = []
        for i in range(0, len(stream), cut):
            got += parser.feed(stream[i:i + cut])
        assert got[0] == (0, b"hello")
        assert b"".join(d for k, d in got if k == 1) == bytes(range(256)) * 300
        assert got[-2:] == [(4, b""), (3, b"\x07")]


def test_sync_session_byte_by_byte():
    dev = SimDevice()
    session = SyncSession(dev.phone)
    body = os.urandom(200_000)
    req = b"SEND" + struct.pack("<I", len(b"/sdcard/x/y.bin,33188")) + b"/sdcard/x/y.bin,33188"
    for i in range(0, len(body), 65536):
        chunk = body[i:i + 65536]
        req += b"DATA" + struct.pack("<I", len(chunk)) + chunk
    req += b"DONE" + struct.pack("<I", 1_700_000_000)
    req += b"STAT" + struct.pack("<I", 13) + b"/sdcard/x/y.b"  # a file that does not exist
    out = b"".join(session.feed(req[i:i + 1]) for i in range(len(req)))
    assert out == b"OKAY" + bytes(4) + b"STAT" + bytes(12)
    assert dev.phone.fs.read("/sdcard/x/y.bin") == body
    assert dev.phone.fs.mtime("/sdcard/x/y.bin") == 1_700_000_000
    out = session.feed(b"RECV" + struct.pack("<I", 15) + b"/sdcard/x/y.bin")
    chunks, pos = [], 0
    while out[pos:pos + 4] == b"DATA":
        (n,) = struct.unpack_from("<I", out, pos + 4)
        assert n <= 65536
        chunks.append(out[pos + 8:pos + 8 + n])
        pos += 8 + n
    assert out[pos:] == b"DONE" + bytes(4)
    assert b"".join(chunks) == body
    assert session.feed(b"LIS2" + struct.pack("<I", 4) + b"/nop").endswith(b"DONE" + bytes(72))
    assert session.feed(b"QUIT" + bytes(4)) == b"" and session.finished


def _read_msg(sock: socket.socket) -> tuple[int, int, int, bytes]:
    def exact(n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            part = sock.recv(n - len(buf))
            assert part, "connection closed"
            buf += part
        return buf

    h = decode_header(exact(HEADER_SIZE))
    return h.command, h.arg0, h.arg1, exact(h.length) if h.length else b""


def test_raw_socket_handshake_refusal_and_shell():
    """Checksums of 0 are accepted, an unknown service is refused with CLSE and the
    connection stays usable; data split across WRTEs is reassembled."""
    with serve_in_thread(port=0) as h, socket.create_connection(("127.0.0.1", h.port), timeout=10) as s:
        hdr = struct.pack("<6I", A_CNXN, 0x01000001, 1 << 20, 19, 0, A_CNXN ^ 0xFFFFFFFF)
        s.sendall(hdr + b"host::features=cmd\0")
        cmd, version, maxdata, banner = _read_msg(s)
        assert (cmd, version, maxdata) == (A_CNXN, 0x01000001, 1 << 20)
        assert b"features=" in banner and b"shell_v2" in banner and b"ro.product.model=Pixel 6" in banner
        s.sendall(encode(A_OPEN, 5, 0, b"framebuffer:\0"))
        assert _read_msg(s)[:3] == (A_CLSE, 0, 5)
        s.sendall(encode(A_OPEN, 6, 0, b"shell,v2,raw:echo hi; false\0"))
        cmd, local, remote, _ = _read_msg(s)
        assert (cmd, remote) == (A_OKAY, 6) and local != 0
        parser, packets = ShellPacketParser(), []
        while not any(k == 3 for k, _ in packets):
            cmd, a0, a1, data = _read_msg(s)
            assert (cmd, a0, a1) == (A_WRTE, local, 6)
            packets += parser.feed(data)
            s.sendall(encode(A_OKAY, 6, local))
        assert packets == [(1, b"hi\n"), (3, b"\x01")]
        assert _read_msg(s)[:3] == (A_CLSE, local, 6)
        # an interactive v2 shell, its stdin cut in the middle of a packet header
        s.sendall(encode(A_OPEN, 7, 0, b"shell,v2,raw:\0"))
        cmd, local, _, _ = _read_msg(s)
        assert cmd == A_OKAY
        stdin = shell_packet(0, b"getprop ro.product.model\nexit 4\n") + shell_packet(4, b"")
        for part in (stdin[:2], stdin[2:9], stdin[9:]):
            s.sendall(encode(A_WRTE, 7, local, part))
            assert _read_msg(s)[:3] == (A_OKAY, local, 7)
        packets = []
        while not any(k == 3 for k, _ in packets):
            cmd, _, _, data = _read_msg(s)
            assert cmd == A_WRTE
            packets += parser.feed(data)
            s.sendall(encode(A_OKAY, 7, local))
        assert packets == [(1, b"Pixel 6\n"), (3, b"\x04")]


# --- the stock adb client -----------------------------------------------------------------------


@needs_adb
def test_devices_lists_the_phone(adb, phone):
    out = adb.run("devices", "-l", check=True).stdout.decode()
    line = next(ln for ln in out.splitlines() if ln.startswith(phone.address))
    assert "device" in line.split() and "model:Pixel_6" in line and "product:oriole" in line


@needs_adb
def test_shell_commands_and_exit_codes(adb, phone):
    a = phone.address
    assert adb.sh(a, "shell", "echo", "hello").stdout == b"hello\n"
    assert adb.sh(a, "shell", "false").returncode == 1
    assert adb.sh(a, "shell", "true").returncode == 0
    res = adb.sh(a, "shell", "nosuchcommand")
    assert res.returncode == 127 and b"not found" in res.stderr and res.stdout == b""
    res = adb.sh(a, "shell", "ls /sdcard/nope; echo after")
    assert res.returncode == 0 and res.stdout == b"after\n" and b"No such file" in res.stderr
    assert adb.sh(a, "shell", "settings get global wifi_on").stdout.strip() == b"1"
    assert adb.sh(a, "shell", "settings put global wifi_on 0").returncode == 0
    assert phone.device.phone.settings.get("global", "wifi_on") == "0"
    assert adb.sh(a, "shell", "input", "tap", "10", "20").returncode == 0
    assert list(phone.device.phone.shell_log)[-1] == "input tap 10 20"
    # `-x` makes adb use the old protocol (`shell:`): no exit codes any more
    res = adb.sh(a, "shell", "-x", "false; echo done")
    assert res.returncode == 0 and res.stdout == b"done\n"
    assert adb.sh(a, "shell", "-x", "false").returncode == 0


@needs_adb
def test_exec_out_screencap_png(adb, phone):
    res = adb.sh(phone.address, "exec-out", "screencap", "-p", check=True)
    assert res.stdout[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(res.stdout))
    assert img.size == (1080, 2400)
    with phone.lock:
        expect = phone.device.screenshot()
    assert np.array_equal(np.asarray(img.convert("RGB")), expect)


@needs_adb
def test_uiautomator_dump_and_pull(adb, phone, tmp_path):
    res = adb.sh(phone.address, "shell", "uiautomator", "dump", check=True)
    assert b"/sdcard/window_dump.xml" in res.stdout
    adb.sh(phone.address, "pull", "/sdcard/window_dump.xml", str(tmp_path / "d.xml"), check=True)
    xml = (tmp_path / "d.xml").read_text()
    elements = parse_ui_xml(xml)
    with phone.lock:
        assert elements and elements == parse_ui_xml(phone.device.ui_xml())


@needs_adb
def test_push_cat_pull_round_trip(adb, phone, tmp_path):
    blob = os.urandom(3 * 1024 * 1024 + 12345)  # binary, several MB, several WRTEs each way
    src = tmp_path / "blob.bin"
    src.write_bytes(blob)
    a = phone.address
    adb.sh(a, "push", str(src), "/sdcard/Download/new/dir/blob.bin", check=True)  # parents made
    assert phone.device.phone.fs.read("/sdcard/Download/new/dir/blob.bin") == blob
    assert adb.sh(a, "exec-out", "cat /sdcard/Download/new/dir/blob.bin", check=True).stdout == blob
    assert adb.sh(a, "shell", "cat", "/sdcard/Download/new/dir/blob.bin", check=True).stdout == blob
    adb.sh(a, "pull", "/sdcard/Download/new/dir/blob.bin", str(tmp_path / "back.bin"), check=True)
    assert (tmp_path / "back.bin").read_bytes() == blob
    res = adb.sh(a, "push", str(src), "/system/blob.bin")
    assert res.returncode != 0 and b"Read-only file system" in res.stdout + res.stderr
    res = adb.sh(a, "pull", "/sdcard/missing.bin", str(tmp_path / "m.bin"))
    assert res.returncode != 0 and b"No such file" in res.stdout + res.stderr


@needs_adb
def test_ls_via_sync_and_shell(adb, phone):
    out = adb.sh(phone.address, "ls", "/sdcard", check=True).stdout.decode().splitlines()
    rows = {line.split()[-1]: line.split()[0] for line in out}
    assert rows["Download"] == "000041f9" and {".", "..", "DCIM", "Music"} <= set(rows)
    listing = adb.sh(phone.address, "shell", "ls", "/sdcard", check=True).stdout.decode().split()
    assert "Download" in listing and "." not in listing


@needs_adb
def test_stdin_to_an_interactive_shell(adb, phone):
    script = b"echo one\ngetprop ro.product.model\nnosuch\nexit 3\necho no\n"
    res = adb.sh(phone.address, "shell", input=script)
    assert res.returncode == 3
    assert res.stdout == b"one\nPixel 6\n" and b"nosuch" in res.stderr
    res = adb.sh(phone.address, "shell", input=b"echo last line without newline")
    assert res.returncode == 0 and res.stdout == b"last line without newline\n"


@needs_adb
def test_interactive_shell_on_a_terminal(adb, phone):
    pid, fd = pty.fork()
    if pid == 0:  # the child: adb with a terminal on stdin, so it asks for a remote PTY
        try:
            os.execve(ADB or "adb", ["adb", "-P", str(adb.port), "-s", phone.address, "shell"], adb.env)
        finally:
            os._exit(127)
    out = bytearray()

    def until(marker: bytes, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while marker not in out:
            assert time.monotonic() < deadline, f"no {marker!r} in {bytes(out)!r}"
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out.extend(os.read(fd, 65536))
                except OSError:
                    break

    try:
        until(b"$ ")
        os.write(fd, b"echo hel\x7flo\r")  # a typo, rubbed out
        until(b"helo\r\n")
        os.write(fd, b"exit 5\r")
        deadline = time.monotonic() + 10
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
            assert time.monotonic() < deadline, "adb shell did not exit"
            if select.select([fd], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    out.extend(os.read(fd, 65536))
        assert os.waitstatus_to_exitcode(done[1]) == 5
        assert out.startswith(b"oriole:/ $ ") and b"echo hel\x08 \x08lo\r\nhelo\r\n" in out
    finally:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        except ChildProcessError:
            pass  # already reaped above
        os.close(fd)


@needs_adb
def test_large_shell_output(adb, phone):
    text = b"".join(b"line %07d of a long file\n" % i for i in range(60_000))  # ~1.6 MB
    with phone.lock:
        phone.device.phone.fs.write("/sdcard/Documents/long.txt", text, 0)
    res = adb.sh(phone.address, "shell", "cat /sdcard/Documents/long.txt", check=True)
    assert res.stdout == text
    res = adb.sh(phone.address, "shell", "-x", "cat /sdcard/Documents/long.txt", check=True)
    assert res.stdout == text


@needs_adb
def test_unknown_service_keeps_the_connection(adb, phone):
    res = adb.sh(phone.address, "reverse", "tcp:6000", "tcp:6000")
    assert res.returncode != 0
    assert adb.sh(phone.address, "root").stdout.startswith(b"adbd cannot run as root")
    assert adb.sh(phone.address, "shell", "echo", "alive").stdout == b"alive\n"
    assert adb.state(phone.address) == "device"


@needs_adb
def test_two_servers_are_two_devices(adb, phone, fresh_phone):
    other = fresh_phone("SIMTEST02")
    assert adb.state(phone.address) == adb.state(other.address) == "device"
    adb.sh(other.address, "shell", "settings put global airplane_mode_on 1", check=True)
    assert adb.sh(other.address, "shell", "settings get global airplane_mode_on").stdout.strip() == b"1"
    assert adb.sh(phone.address, "shell", "settings get global airplane_mode_on").stdout.strip() == b"0"
    assert other.device is not phone.device


@needs_adb
def test_device_loss_and_reconnection(adb, fresh_phone, tmp_path):
    h = fresh_phone("SIMTEST03")
    a = h.address
    adb.sh(a, "shell", "echo kept > /sdcard/Documents/kept.txt", check=True)
    h.stop()
    adb.wait_state(a, "offline")
    res = adb.sh(a, "shell", "echo", "hi", timeout=20)
    assert res.returncode != 0 and res.stdout == b""
    assert adb.run("devices").returncode == 0  # the adb server survived
    h.restart()
    adb.run("disconnect", a)
    adb.connect(a)
    assert adb.sh(a, "shell", "cat /sdcard/Documents/kept.txt", check=True).stdout == b"kept\n"
    assert h.port == int(a.rsplit(":", 1)[1])


@needs_adb
def test_concurrent_clients(adb, phone):
    import adbutils

    dev = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(phone.address)
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            for j in range(5):
                assert dev.shell(f"echo {i}-{j}") == f"{i}-{j}"
                assert adb.sh(phone.address, "shell", f"echo c{i}{j}").stdout == f"c{i}{j}\n".encode()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors


# --- adbutils ---------------------------------------------------------------------------------


@needs_adb
def test_adbutils_shell_sync_and_screenshot(adb, phone, tmp_path):
    import adbutils

    client = adbutils.AdbClient(host="127.0.0.1", port=adb.port)
    assert phone.address in [d.serial for d in client.device_list()]
    d = client.device(phone.address)
    assert d.shell("echo hi") == "hi"
    assert d.shell(["echo", "two words"]) == "two words"
    assert d.shell2("false").returncode == 1  # v1 plus `echo X4EXIT:$?`
    r = d.shell2("ls /sdcard/nope", v2=True)
    assert r.returncode == 1 and "No such file" in r.stderr and r.stdout == ""
    r = d.shell2("ls /sdcard/nope; echo ok")  # stderr on the shared channel stays before the marker
    assert r.returncode == 0 and r.output.endswith("ok\n")
    assert d.prop.model == "Pixel 6"

    payload = os.urandom(300_000)
    d.sync.push(payload, "/sdcard/Download/u.bin")
    assert phone.device.phone.fs.read("/sdcard/Download/u.bin") == payload
    info = d.sync.stat("/sdcard/Download/u.bin")
    assert info.size == len(payload) and info.mode & 0o170000 == 0o100000
    assert d.sync.stat("/sdcard").mode & 0o170000 == 0o040000
    assert d.sync.stat("/sdcard/none").mode == 0 and not d.sync.exists("/sdcard/none")
    names = [f.path for f in d.sync.list("/sdcard/Download")]
    assert "u.bin" in names
    d.sync.pull("/sdcard/Download/u.bin", tmp_path / "u.bin")
    assert (tmp_path / "u.bin").read_bytes() == payload
    assert d.sync.read_bytes("/sdcard/Download/u.bin") == payload
    with pytest.raises(adbutils.AdbError):
        d.sync.read_bytes("/sdcard/none")
    with pytest.raises(adbutils.AdbError):
        d.sync.push(b"x", "/system/x")

    img = d.screenshot()
    assert img.size == (1080, 2400)
    with phone.lock:
        expect = phone.device.screenshot()
    assert np.array_equal(np.asarray(img), expect)


@needs_adb
def test_frozen_device_times_out_then_recovers(adb, fresh_phone):
    import adbutils

    h = fresh_phone("SIMTEST04")
    d = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(h.address)
    assert d.shell("echo before") == "before"
    h.freeze()
    try:
        t0 = time.monotonic()
        # shell2 with v2 applies its timeout from the OPEN on (plain shell() would hang)
        with pytest.raises((adbutils.AdbTimeout, adbutils.AdbError, OSError)):
            d.shell2("echo frozen", timeout=1, v2=True)
        assert time.monotonic() - t0 < 10
    finally:
        h.thaw()
    assert d.shell("echo after") == "after"


@contextlib.contextmanager
def served_phone(adb, cmd: list[str], banner: str):
    """Start sim-adbd as a process (`cmd`), wait for its `banner` line, connect the stock
    adb to it; yields the address. Leaving stops it with SIGTERM: it must exit cleanly and
    the device go offline."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    address = None
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "sim-adbd printed nothing within 60 s"
        line = proc.stdout.readline().decode()  # printed once listening
        assert line.startswith(banner) and "listening on 127.0.0.1:" in line, line
        address = line.split("listening on ", 1)[1].split()[0]
        adb.connect(address)
        yield address
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        adb.wait_state(address, "offline")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        if address:
            adb.run("disconnect", address, timeout=10)


@needs_adb
def test_module_entry_point_serves_until_sigterm(adb):
    import sys

    cmd = [sys.executable, "-m", "antrap_gym.device.adbd", "--port", "0", "--serial", "SIMCLI"]
    with served_phone(adb, cmd, "adbd SIMCLI") as address:
        assert adb.sh(address, "shell", "getprop", "ro.product.model").stdout == b"Pixel 6\n"


@needs_adb
def test_serial_is_the_phones_ro_serialno(adb, phone):
    assert adb.sh(phone.address, "shell", "getprop", "ro.serialno").stdout == b"SIMTEST01\n"
    assert b"[ro.serialno]: [SIMTEST01]" in adb.sh(phone.address, "shell", "getprop").stdout
    # adb itself names a TCP device by its address, as for any `adb connect`ed phone
    assert adb.state(phone.address) == "device"
    assert adb.sh(phone.address, "get-serialno").stdout.strip() == phone.address.encode()
    with serve_in_thread(port=0, serial="OTHER0002") as other:
        assert other.device.serial == "OTHER0002"
        assert other.device.shell("getprop ro.serialno").stdout == "OTHER0002\n"
    assert SimDevice().shell("getprop ro.serialno").stdout == "SIMPHONE0001\n"  # the default


@needs_adb
def test_the_antrap_sim_adbd_console_script(adb):
    """`antrap sim-adbd` itself (the installed console script): serve, connect with the stock
    adb, run a command, stop with SIGTERM."""
    import shutil

    antrap = shutil.which("antrap")
    assert antrap, "the `antrap` console script is not installed (pip install -e .)"
    cmd = [antrap, "sim-adbd", "--port", "0", "--serial", "SIMCONSOLE7"]
    with served_phone(adb, cmd, "adbd SIMCONSOLE7") as address:
        assert adb.sh(address, "shell", "getprop", "ro.serialno").stdout == b"SIMCONSOLE7\n"
        res = adb.sh(address, "shell", "settings put global wifi_on 0; settings get global wifi_on")
        assert res.returncode == 0 and res.stdout == b"0\n"
