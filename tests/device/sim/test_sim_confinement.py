"""The simulated phone never touches the host's files, whatever a client sends it.

Every shell command that takes a path, the `sqlite3` and `content` SQL paths, and
the ADB sync service (push/pull) are driven with host paths: absolute ones, `../`
traversal out of the phone's folders, paths through `/proc/self/root` (a link to
the host's `/` on the host), NUL bytes and very long paths. A unique host folder
holds a file and a database with a unique token; after each case that folder is
byte-for-byte as it was, nothing new appears in it, and the token never shows in
the output. The phone answers with an Android-like error (or writes into its own
in-memory file system), never a traceback. The adb cases go through the stock
`adb` binary against a served phone, as a client would.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import socket
import sqlite3
import struct
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from antrap_gym.device.adbd import AdbdHandle, serve_in_thread
from antrap_gym.device.adbd.cli import add_arguments
from antrap_gym.device.adbd.protocol import SYNC_MAX_PATH
from antrap_gym.device.adbd.sync import SyncSession
from antrap_gym.device.sim import SimDevice
from tests.adb_server import AdbServer, connected_phone, needs_adb

CONTACTS_DB = "/data/data/com.android.providers.contacts/databases/contacts2.db"
SMS_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"


class Host:
    """A unique host folder with a secret file, a secret database and a subfolder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.token = f"HOSTSECRET-{uuid.uuid4().hex}"
        self.secret = root / "secret.txt"
        self.secret.write_text(self.token + "\n")
        self.db = root / "secret.db"
        with sqlite3.connect(self.db) as c:
            c.execute("CREATE TABLE secret (s TEXT)")
            c.execute("INSERT INTO secret VALUES (?)", (self.token,))
        c.close()
        (root / "sub").mkdir()
        self.new = root / "new.txt"   # must never come to exist
        self.before = self.state()

    def state(self) -> dict[str, tuple[bytes, int] | None]:
        """Every entry under the folder: its bytes and mtime (None for a folder)."""
        out: dict[str, tuple[bytes, int] | None] = {}
        for p in sorted(self.root.rglob("*")):
            out[str(p.relative_to(self.root))] = (None if p.is_dir()
                                                  else (p.read_bytes(), p.stat().st_mtime_ns))
        return out

    def assert_untouched(self, *outputs: str | bytes) -> None:
        assert self.state() == self.before, "the host folder changed"
        for out in outputs:
            text = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
            assert self.token not in text, "host file content reached the client"


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return Host(tmp_path)


def _passwd_line() -> str:
    try:
        return Path("/etc/passwd").read_text().splitlines()[0]
    except (OSError, IndexError):
        return "root:x:0:0:"


# --- how a host path is spelled --------------------------------------------------------------
#: each turns an absolute host path into what a client sends
PATH_FORMS: dict[str, Callable[[str], str]] = {
    "absolute": lambda h: h,
    "sdcard-traversal": lambda h: "/sdcard/../../.." + h,
    "deep-traversal": lambda h: "/sdcard/Download/" + "../" * 40 + h.lstrip("/"),
    "relative-traversal": lambda h: "../" * 12 + h.lstrip("/"),
    "tmp-traversal": lambda h: "/data/local/tmp/../../../" + h.lstrip("/"),
    "proc-root-link": lambda h: "/proc/self/root" + h,
    "proc-cwd-link": lambda h: "/proc/self/cwd/" + "../" * 20 + h.lstrip("/"),
    "long": lambda h: "/sdcard/" + "a/" * 2000 + "../" * 2001 + h.lstrip("/"),
}
#: forms only the in-process shell can carry (adb cannot send a NUL; adb garbles ~65k commands)
LOCAL_FORMS: dict[str, Callable[[str], str]] = {
    "nul-suffix": lambda h: h + "\x00.txt",
    "nul-inside": lambda h: "/sdcard/Download/x\x00/../../../.." + h,
    "very-long": lambda h: "/sdcard/" + "../" * 30000 + h.lstrip("/"),
}

# --- commands that take a path ---------------------------------------------------------------
#: name -> (the command for path P, whether the path is a file to read or one to write)
#: `{P}` is the quoted client path; `{T}` the token (written by redirects)
COMMANDS: dict[str, tuple[str, str]] = {
    "cat": ("cat {P}", "read"),
    "cat-stdin-redirect": ("cat < {P}", "read"),
    "ls": ("ls {P}", "read"),
    "ls-l": ("ls -l {P}", "read"),
    "stat": ("stat {P}", "read"),
    "head": ("head -n 5 {P}", "read"),
    "tail": ("tail -n 5 {P}", "read"),
    "wc": ("wc {P}", "read"),
    "grep": ("grep HOSTSECRET {P}", "read"),
    "base64": ("base64 {P}", "read"),
    "find": ("find {P}", "read"),
    "test-f": ("test -f {P} && echo FOUND", "read"),
    "cp-from": ("cp {P} /sdcard/Download/got.txt && cat /sdcard/Download/got.txt", "read"),
    "mv-from": ("mv {P} /sdcard/Download/moved.txt && cat /sdcard/Download/moved.txt", "read"),
    "rm": ("rm {P}", "read"),
    "rm-rf": ("rm -rf {P}", "read"),
    "rmdir": ("rmdir {P}", "read"),
    "touch-existing": ("touch {P}", "read"),
    "echo-truncate-existing": ("echo {T} > {P}", "read"),
    "echo-append-existing": ("echo {T} >> {P}", "read"),
    "cp-to": ("echo {T} > /sdcard/Download/src.txt; cp /sdcard/Download/src.txt {P}", "write"),
    "mv-to": ("echo {T} > /sdcard/Download/src.txt; mv /sdcard/Download/src.txt {P}", "write"),
    "mkdir": ("mkdir {P}", "write"),
    "mkdir-p": ("mkdir -p {P}", "write"),
    "touch": ("touch {P}", "write"),
    "echo-redirect": ("echo {T} > {P}", "write"),
    "echo-append": ("echo {T} >> {P}", "write"),
    "printf-redirect": ("printf %s {T} > {P}", "write"),
    "uiautomator-dump": ("uiautomator dump {P}", "write"),
    "screencap": ("screencap -p {P}", "write"),
    "sqlite3-new-db": ("sqlite3 {P} 'CREATE TABLE t (a)'", "write"),
    "sqlite3-read-db": ("sqlite3 {P} 'SELECT s FROM secret'", "db"),
}


def _command(name: str, client_path: str, token: str) -> str:
    template = COMMANDS[name][0]
    return template.format(P=shlex.quote(client_path), T=shlex.quote(token))


def _target(host: Host, name: str) -> str:
    kind = COMMANDS[name][1]
    if kind == "write":
        return str(host.new)
    if kind == "db":
        return str(host.db)
    return str(host.secret)


#: commands that fail without a word on a phone too (a test that is false; grep finding nothing)
QUIET = {"test-f", "grep"}


def _assert_android_like(name: str, stdout: str, stderr: str, code: int) -> None:
    """A refusal reads like toybox's (no Python exception, no host errno text)."""
    for text in (stdout, stderr):
        assert "Traceback" not in text and "[Errno" not in text, text
    if code != 0 and name not in QUIET:
        assert stderr.strip() or stdout.strip(), "a failure with no message"


@pytest.mark.parametrize("form", [*PATH_FORMS, *LOCAL_FORMS])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_shell_path_never_reaches_the_host(host: Host, name: str, form: str) -> None:
    dev = SimDevice()
    spell = {**PATH_FORMS, **LOCAL_FORMS}[form]
    res = dev.shell(_command(name, spell(_target(host, name)), host.token))
    _assert_android_like(name, res.stdout, res.stderr, res.exit_code)
    host.assert_untouched(res.stdout, res.stderr)
    assert "FOUND" not in res.stdout


@pytest.mark.parametrize("name", ["cat", "head", "grep", "base64", "cp-from", "sqlite3-read-db"])
@pytest.mark.parametrize("form", list(PATH_FORMS))
def test_host_etc_passwd_is_not_readable(name: str, form: str) -> None:
    dev = SimDevice()
    res = dev.shell(_command(name, PATH_FORMS[form]("/etc/passwd"), "x").replace("HOSTSECRET", "root"))
    _assert_android_like(name, res.stdout, res.stderr, res.exit_code)
    assert _passwd_line() not in res.stdout and "root:x:0:0" not in res.stdout


def test_writes_land_in_the_phones_own_file_system(host: Host) -> None:
    """A relative path or a traversal that stays inside /sdcard is the phone's, not the host's."""
    dev = SimDevice()
    res = dev.shell(f"echo {host.token} > /sdcard/Download/../Download/a.txt; "
                    f"echo {host.token} > sdcard/Download/b.txt")  # relative to the shell's /
    assert res.exit_code == 0, res
    for name in ("a.txt", "b.txt"):
        assert dev.phone.fs.read(f"/sdcard/Download/{name}") == (host.token + "\n").encode()
        assert dev.shell(f"cat /storage/emulated/0/Download/{name}").stdout == host.token + "\n"
    host.assert_untouched()


# --- SQL: sqlite3 and content ----------------------------------------------------------------
#: statements that would reach a host file; {d}: the host folder, {db}: its database, {new}: a new file
SQL_CASES: dict[str, str] = {
    "vacuum-into": "VACUUM INTO '{new}'",
    "vacuum-into-computed": "VACUUM INTO ('{d}/' || 'new.txt')",
    "vacuum-main-into": "VACUUM main INTO '{new}'",
    "attach-read": "ATTACH '{db}' AS h; SELECT s FROM h.secret",
    "attach-uri-ro": "ATTACH 'file:{db}?mode=ro' AS h; SELECT s FROM h.secret",
    "attach-computed": "ATTACH ('{d}/' || 'secret.db') AS h; SELECT s FROM h.secret",
    "attach-create": "ATTACH '{new}' AS h; CREATE TABLE h.t (a)",
    "attach-memory-uri": "ATTACH 'file:{new}?mode=memory' AS h; CREATE TABLE h.t (a)",
    "load-extension": "SELECT load_extension('{db}')",
    "temp-store-directory": "PRAGMA temp_store_directory = '{d}'",
    "temp-store-file": "PRAGMA temp_store = FILE",
}


def _sql(host: Host, case: str) -> str:
    return SQL_CASES[case].format(d=host.root, db=host.db, new=host.new)


def _seed(dev: SimDevice) -> bytes:
    """Give the SMS database a row; returns the database's bytes."""
    res = dev.shell(f"sqlite3 {SMS_DB} \"INSERT INTO sms (address, body, date, type, read) "
                    "VALUES ('+15550100', 'hello', 1700000000000, 1, 1)\"")
    assert res.exit_code == 0, res
    return dev.phone.databases[SMS_DB].dump()


@pytest.mark.parametrize("case", SQL_CASES)
def test_sqlite3_is_confined_to_the_phone(host: Host, case: str) -> None:
    dev = SimDevice()
    before = _seed(dev)
    sql = _sql(host, case)
    res = dev.shell(f"sqlite3 {SMS_DB} {shlex.quote(sql)}")
    assert res.exit_code == 1 and res.stderr.startswith("Error: "), res
    assert res.stdout == ""
    host.assert_untouched(res.stdout, res.stderr)
    assert dev.phone.databases[SMS_DB].dump() == before
    # the refusal holds no state: the phone's database is the only one its connection has
    assert dev.shell(f"sqlite3 {SMS_DB} 'PRAGMA database_list'").stdout == "0|main|\n"


def test_temporary_tables_stay_in_memory(host: Host) -> None:
    """SQLite would spill a big temporary table into a file in the host's temp folder."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to see the process's open files")
    dev = SimDevice()
    make = ("CREATE TEMP TABLE big AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
            "FROM c WHERE x < 20000) SELECT randomblob(500) AS b FROM c")
    res = dev.shell(f"sqlite3 {CONTACTS_DB} {shlex.quote(make)}")
    try:
        assert res.exit_code == 0, res
        assert dev.shell(f"sqlite3 {CONTACTS_DB} 'SELECT count(*) FROM big'").stdout == "20000\n"
        open_files = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):  # closed meanwhile
                open_files.append(os.readlink(f"/proc/self/fd/{fd}"))
        assert not [f for f in open_files if "etilqs" in f], open_files
    finally:
        dev.shell(f"sqlite3 {CONTACTS_DB} 'DROP TABLE IF EXISTS temp.big'")


def test_plain_sql_and_vacuum_still_work() -> None:
    dev = SimDevice()
    _seed(dev)
    assert dev.shell(f"sqlite3 {SMS_DB} 'VACUUM'").exit_code == 0
    assert dev.shell(f"sqlite3 {SMS_DB} 'SELECT address, body FROM sms'").stdout == "+15550100|hello\n"
    assert dev.shell(f"sqlite3 {SMS_DB} 'PRAGMA user_version'").exit_code == 0
    assert dev.shell(f"sqlite3 {SMS_DB} 'PRAGMA temp_store'").stdout == "2\n"  # MEMORY


def test_snapshot_restore_keeps_the_confinement(host: Host) -> None:
    dev = SimDevice()
    snap = dev.snapshot()
    _seed(dev)
    dev.restore(snap)
    res = dev.shell(f"sqlite3 {SMS_DB} {shlex.quote(_sql(host, 'vacuum-into'))}")
    assert res.exit_code == 1 and res.stderr.startswith("Error: ")
    host.assert_untouched(res.stdout, res.stderr)


@pytest.mark.parametrize("uri", ["content://settings/global", "content://sms", "content://com.android.contacts/raw_contacts"])
@pytest.mark.parametrize("option", ["--where", "--sort"])
def test_content_query_sql_is_confined(host: Host, uri: str, option: str) -> None:
    dev = SimDevice()
    for fragment in (f"load_extension('{host.db}')", f"(SELECT load_extension('{host.db}'))"):
        res = dev.shell(f"content query --uri {uri} {option} {shlex.quote(fragment)}")
        assert res.exit_code == 1 and "not authorized" in res.stderr, res
        host.assert_untouched(res.stdout, res.stderr)


# --- the ADB sync service, directly (NUL bytes and paths adb itself would refuse) --------------
def _sync_path(ident: bytes, path: bytes) -> bytes:
    return ident + struct.pack("<I", len(path)) + path


@pytest.mark.parametrize("form", [*PATH_FORMS, *LOCAL_FORMS])
def test_sync_recv_and_stat_never_read_the_host(host: Host, form: str) -> None:
    dev = SimDevice()
    raw = {**PATH_FORMS, **LOCAL_FORMS}[form](str(host.secret)).encode()
    for ident in (b"STAT", b"STA2", b"LIST", b"LIS2", b"RECV"):
        session = SyncSession(dev.phone)
        out = session.feed(_sync_path(ident, raw))
        host.assert_untouched(out)
        if len(raw) > SYNC_MAX_PATH:
            assert out.startswith(b"FAIL") and b"path too long" in out and session.finished, out
        elif ident == b"RECV":
            assert out.startswith(b"FAIL") and b"No such file or directory" in out, out
        elif ident == b"STAT":
            assert out == b"STAT" + bytes(12)  # absent


@pytest.mark.parametrize("form", [*PATH_FORMS, *LOCAL_FORMS])
def test_sync_send_never_writes_the_host(host: Host, form: str) -> None:
    dev = SimDevice()
    raw = ({**PATH_FORMS, **LOCAL_FORMS}[form](str(host.new)) + ",33188").encode()
    body = host.token.encode()
    req = (_sync_path(b"SEND", raw) + b"DATA" + struct.pack("<I", len(body)) + body
           + b"DONE" + struct.pack("<I", 1_700_000_000))
    out = SyncSession(dev.phone).feed(req)
    if len(raw) > SYNC_MAX_PATH:
        assert out.startswith(b"FAIL") and b"path too long" in out, out
    else:
        assert out.startswith(b"FAIL") and b"couldn't create file" in out, out
    host.assert_untouched(out)


# --- through the stock adb binary against a served phone -------------------------------------
@pytest.fixture(scope="module")
def phone(adb: AdbServer):
    yield from connected_phone(adb, "SIMCONFINE1")


ADB_COMMANDS = ["cat", "ls", "cp-from", "rm", "echo-truncate-existing", "cp-to", "mv-to", "mkdir-p",
                "touch", "echo-redirect", "echo-append", "uiautomator-dump", "screencap", "sqlite3-read-db"]
ADB_FORMS = ["absolute", "sdcard-traversal", "relative-traversal", "proc-root-link", "long"]


@needs_adb
@pytest.mark.parametrize("form", ADB_FORMS)
@pytest.mark.parametrize("name", ADB_COMMANDS)
def test_adb_shell_path_never_reaches_the_host(adb: AdbServer, phone: AdbdHandle, host: Host,
                                               name: str, form: str) -> None:
    cmd = _command(name, PATH_FORMS[form](_target(host, name)), host.token)
    res = adb.sh(phone.address, "shell", cmd)
    _assert_android_like(name, res.stdout.decode("utf-8", "replace"),
                         res.stderr.decode("utf-8", "replace"), res.returncode)
    host.assert_untouched(res.stdout, res.stderr)


@needs_adb
@pytest.mark.parametrize("case", SQL_CASES)
def test_adb_sqlite3_is_confined(adb: AdbServer, phone: AdbdHandle, host: Host, case: str) -> None:
    """The reported commands: `adb shell "sqlite3 DB \\"VACUUM INTO '/host/x'\\""` and ATTACH."""
    sql = _sql(host, case)
    res = adb.sh(phone.address, "shell", f"sqlite3 {CONTACTS_DB} \"{sql}\"")
    assert res.returncode == 1 and res.stderr.startswith(b"Error: "), res
    host.assert_untouched(res.stdout, res.stderr)
    listed = adb.sh(phone.address, "shell", f"sqlite3 {CONTACTS_DB} 'PRAGMA database_list'")
    assert listed.stdout == b"0|main|\n"  # nothing stayed attached


@needs_adb
@pytest.mark.parametrize("form", ["absolute", "sdcard-traversal", "relative-traversal", "proc-root-link"])
def test_adb_pull_never_reads_the_host(adb: AdbServer, phone: AdbdHandle, host: Host, tmp_path_factory,
                                       form: str) -> None:
    dest = tmp_path_factory.mktemp("pulled") / "out.txt"
    res = adb.sh(phone.address, "pull", PATH_FORMS[form](str(host.secret)), str(dest))
    assert res.returncode != 0, res
    assert not dest.exists() or host.token not in dest.read_text(errors="replace")
    host.assert_untouched(res.stdout, res.stderr)


@needs_adb
@pytest.mark.parametrize("form", ["absolute", "sdcard-traversal", "relative-traversal", "tmp-traversal",
                                  "proc-root-link"])
def test_adb_push_never_writes_the_host(adb: AdbServer, phone: AdbdHandle, host: Host, tmp_path_factory,
                                        form: str) -> None:
    src = tmp_path_factory.mktemp("push") / "payload.txt"
    src.write_text(host.token)
    for target in (host.new, host.secret, host.root / "sub" / "new.txt"):
        res = adb.sh(phone.address, "push", str(src), PATH_FORMS[form](str(target)))
        assert res.returncode != 0 and b"Read-only file system" in res.stdout + res.stderr, res
        host.assert_untouched()


# --- where sim-adbd listens ------------------------------------------------------------------
def _listen_address(port: int) -> str | None:
    """The local IPv4 address a socket listening on `port` is bound to (from /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state = fields[1], fields[3]
        addr_hex, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
            return socket.inet_ntoa(struct.pack("<I", int(addr_hex, 16)))
    return None


def test_default_bind_is_loopback() -> None:
    import argparse

    assert add_arguments(argparse.ArgumentParser()).parse_args([]).host == "127.0.0.1"
    with serve_in_thread(port=0) as h:
        assert h.host == "127.0.0.1"
        if Path("/proc/net/tcp").exists():
            assert _listen_address(h.port) == "127.0.0.1"


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the kernel's socket table")
@pytest.mark.parametrize("extra, want", [([], "127.0.0.1"), (["--host", "0.0.0.0"], "0.0.0.0")])
def test_cli_binds_beyond_loopback_only_when_asked(extra: list[str], want: str) -> None:
    """`python -m antrap_gym.device.adbd` as a process: the socket the kernel sees."""
    proc = subprocess.Popen([sys.executable, "-m", "antrap_gym.device.adbd", "--port", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"listening on (\S+):(\d+) ", line)
        assert m, line
        assert m.group(1) == want
        assert _listen_address(int(m.group(2))) == want
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
