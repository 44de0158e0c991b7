"""`Device.pull`: an app's SQLite database and files under /sdcard, as a device serves them.

The simulated phone serves each app's database at its Android path (the bytes of
the SQLite file, which open with sqlite3 like a file pulled from a phone), the
same bytes in-process (`SimDevice.pull`), over sim-adbd to the stock `adb pull`,
to adbutils, and to `AdbDevice.pull` (the ADB sync protocol); a path with no file
is a typed `DeviceFileError`.
"""

from __future__ import annotations

import errno
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from antrap_gym.device import DeviceError
from antrap_gym.device.adb import AdbDevice
from antrap_gym.device.adbd import AdbdHandle, serve_in_thread
from antrap_gym.device.protocol import Device, DeviceFileError, ShellResult, Snapshot
from antrap_gym.device.sim import SimDevice
from tests.adb_server import AdbServer, LinkProxy, needs_adb
from tests.screen import need, tap

CONTACTS_DB = "/data/data/com.android.providers.contacts/databases/contacts2.db"
URI = "content://com.android.contacts"


def open_db(data: bytes, tmp_path: Path, name: str = "pulled.db") -> sqlite3.Connection:
    """A pulled database, opened from a file as a check on a real device's copy would."""
    path = tmp_path / name
    path.write_bytes(data)
    return sqlite3.connect(path)


def people(db: sqlite3.Connection) -> list[tuple]:
    """(name, phone, starred) of every live contact, the way AOSP's contacts2.db is joined."""
    return db.execute(
        "SELECT r.display_name, d.data1, c.starred FROM raw_contacts r"
        " JOIN contacts c ON c._id = r.contact_id"
        " JOIN data d ON d.raw_contact_id = r._id"
        " JOIN mimetypes m ON m._id = d.mimetype_id"
        " WHERE r.deleted = 0 AND m.mimetype = 'vnd.android.cursor.item/phone_v2'"
        " ORDER BY r.display_name").fetchall()


def add_in_the_app(dev: SimDevice, first: str, last: str, number: str) -> None:
    """Create a contact through the Contacts app's own screens."""
    dev.launch("com.google.android.contacts")
    tap(dev, desc="Create contact")
    for rid, text in (("first_name", first), ("last_name", last), ("phone", number)):
        el = next(e for e in dev.ui_elements() if (e.resource_name or "").endswith(":id/" + rid))
        dev.tap(*el.bbox_pixels.center)
        dev.type_text(text)
    tap(dev, text="Save")


# --- the simulated phone, in process ------------------------------------------------------------


def test_the_contacts_database_is_aosp_contacts2_with_what_the_app_saved(dev, tmp_path):
    add_in_the_app(dev, "Ada", "Lovelace", "+1 415-555-0100")
    assert need(dev, text="Ada Lovelace")  # the app shows the saved contact
    db = open_db(dev.pull(CONTACTS_DB), tmp_path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "mimetypes", "contacts", "raw_contacts", "data",
            "android_metadata"} <= tables
    columns = {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}
    assert {"_id", "account_id", "contact_id", "deleted", "display_name", "display_name_source",
            "starred", "times_contacted"} <= columns["raw_contacts"]
    assert {"_id", "mimetype_id", "raw_contact_id", "is_primary", "is_super_primary",
            "data1", "data2", "data15"} <= columns["data"]
    assert {"_id", "name_raw_contact_id", "starred", "has_phone_number"} <= columns["contacts"]
    assert "mimetype" not in columns["data"]  # a data row names its kind by mimetype_id
    assert people(db) == [("Ada Lovelace", "+1 415-555-0100", 0)]
    assert db.execute("SELECT has_phone_number FROM contacts").fetchall() == [(1,)]
    assert db.execute("SELECT locale FROM android_metadata").fetchall() == [("en_US",)]


def test_writes_through_content_and_sqlite3_land_in_the_pulled_file(dev, tmp_path):
    dev.shell(f"content insert --uri {URI}/raw_contacts --bind account_type:n: --bind starred:i:1")
    dev.shell(f"content insert --uri {URI}/data --bind raw_contact_id:i:1 "
              "--bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:Grace Hopper'")
    dev.shell(f"content insert --uri {URI}/data --bind raw_contact_id:i:1 "
              "--bind mimetype:s:vnd.android.cursor.item/phone_v2 --bind data1:s:555-0199")
    first = dev.pull(CONTACTS_DB)
    assert people(open_db(first, tmp_path, "a.db")) == [("Grace Hopper", "555-0199", 1)]
    assert dev.pull(CONTACTS_DB) == first  # nothing changed, the same bytes
    assert dev.shell(f"sqlite3 {CONTACTS_DB} \"UPDATE raw_contacts SET starred = 0\"").ok
    second = open_db(dev.pull(CONTACTS_DB), tmp_path, "b.db")
    assert people(second) == [("Grace Hopper", "555-0199", 0)]  # contacts.starred follows
    dev.shell(f"content delete --uri {URI}/raw_contacts")
    third = open_db(dev.pull(CONTACTS_DB), tmp_path, "c.db")
    assert third.execute("SELECT count(*) FROM data").fetchone() == (0,)
    assert third.execute("SELECT count(*) FROM contacts").fetchone() == (0,)


def test_files_under_sdcard_come_back_byte_for_byte(dev):
    blob = bytes(range(256)) * 40
    dev.phone.fs.write("/sdcard/Download/blob.bin", blob, dev.phone.now)
    assert dev.pull("/sdcard/Download/blob.bin") == blob
    assert dev.pull("/storage/emulated/0/Download/blob.bin") == blob
    dev.shell("uiautomator dump")
    assert dev.pull("/sdcard/window_dump.xml").decode() == dev.ui_xml()


@pytest.mark.parametrize(("path", "code"), [
    ("/sdcard/no/such.txt", errno.ENOENT), ("/data/data/com.example.none/databases/x.db", errno.ENOENT),
    ("/sdcard/Download", errno.EISDIR), ("/data/data/com.android.providers.contacts", errno.EISDIR),
    ("", errno.EISDIR),
])
def test_no_file_is_a_typed_error(dev, path, code):
    with pytest.raises(DeviceFileError) as got:
        dev.pull(path)
    assert got.value.errno == code and got.value.path == path
    assert isinstance(got.value, DeviceError)


def test_the_database_is_a_read_only_file_the_shell_sees(dev):
    folder = "/data/data/com.android.providers.contacts/databases"
    assert dev.shell(f"ls {folder}").stdout == "contacts2.db\n"
    assert "data" in dev.shell("ls /data").stdout.split()
    assert dev.shell(f"test -f {CONTACTS_DB}").ok and dev.shell(f"test -d {folder}").ok
    assert dev.shell(f"cp {CONTACTS_DB} /sdcard/Download/copy.db").ok
    assert dev.pull("/sdcard/Download/copy.db") == dev.pull(CONTACTS_DB)
    for cmd in (f"rm {CONTACTS_DB}", f"echo x > {CONTACTS_DB}", f"mv {CONTACTS_DB} /sdcard/x.db",
                f"mkdir {folder}/more"):
        res = dev.shell(cmd)
        assert not res.ok and "Read-only file system" in res.stderr, cmd
    assert dev.pull(CONTACTS_DB).startswith(b"SQLite format 3\x00")


def test_a_restored_snapshot_serves_the_restored_database(dev, tmp_path):
    before = dev.snapshot()
    add_in_the_app(dev, "Alan", "Turing", "555-0142")
    after = dev.snapshot()
    assert people(open_db(dev.pull(CONTACTS_DB), tmp_path, "a.db"))
    dev.restore(before)
    assert people(open_db(dev.pull(CONTACTS_DB), tmp_path, "b.db")) == []
    assert dev.shell(f"ls {CONTACTS_DB}").ok  # still mounted after a restore
    dev.restore(after)
    assert people(open_db(dev.pull(CONTACTS_DB), tmp_path, "c.db")) == [("Alan Turing", "555-0142", 0)]


def test_restoring_skips_the_databases_an_episode_never_touched(dev, tmp_path):
    """Restore loads back only what changed since the snapshot: untouched databases keep
    their data without a reload, so reset does not grow with the apps installed, and
    every write path (the app's screens, `sqlite3`, `content insert`) is still undone."""
    stores = dev.phone.databases
    contacts = stores[CONTACTS_DB]
    boot = dev.snapshot()
    revisions = {path: db.revision for path, db in stores.items()}
    dev.restore(boot)
    assert {path: db.revision for path, db in stores.items()} == revisions  # nothing reloaded
    for write in (lambda: add_in_the_app(dev, "Alan", "Turing", "555-0142"),
                  lambda: dev.shell(f"content insert --uri {URI}/raw_contacts --bind account_type:n: "
                                    "--bind account_name:n:"),
                  lambda: dev.shell(f"sqlite3 {CONTACTS_DB} \"DELETE FROM accounts\"")):
        dump_before = contacts.dump()
        write()
        assert contacts.dump() != dump_before
        dev.restore(boot)
        assert contacts.dump() == boot.payload[1][CONTACTS_DB]
        assert people(open_db(dev.pull(CONTACTS_DB), tmp_path, "r.db")) == []
        others = {p: db.revision for p, db in stores.items() if p != CONTACTS_DB}
        assert others == {p: r for p, r in revisions.items() if p != CONTACTS_DB}


class ShellOnly(Device):
    """A backend with nothing but a shell (here the simulated phone's): `pull` falls back
    to reading the file through `base64`."""

    backend = "shell-only"

    def __init__(self) -> None:
        self.inner = SimDevice()

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        return self.inner.shell(cmd)

    def screenshot(self):
        return self.inner.screenshot()

    def ui_elements(self):
        return self.inner.ui_elements()

    def ui_xml(self) -> str:
        return self.inner.ui_xml()

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.inner.screen_size

    def snapshot(self) -> Snapshot:
        return self.inner.snapshot()

    def restore(self, snap: Snapshot) -> None:
        self.inner.restore(snap)


def test_the_protocols_fallback_pulls_through_the_shell():
    d = ShellOnly()
    d.inner.shell(f"content insert --uri {URI}/raw_contacts --bind starred:i:0")
    assert d.pull(CONTACTS_DB) == d.inner.pull(CONTACTS_DB)
    with pytest.raises(DeviceFileError) as got:
        d.pull("/sdcard/none")
    assert got.value.errno == errno.ENOENT and got.value.reason == "No such file or directory"
    with pytest.raises(DeviceFileError) as got:
        d.pull("/sdcard")
    assert got.value.errno == errno.EISDIR


# --- over ADB: sim-adbd, the stock adb, adbutils, AdbDevice --------------------------------------


@pytest.fixture(scope="module")
def phone(adb: AdbServer) -> AdbdHandle:
    handle = serve_in_thread(port=0, serial="SIMPULL01")
    try:
        adb.connect(handle.address)
        with handle.lock:
            add_in_the_app(handle.device, "Katherine", "Johnson", "+1 757-555-0123")
        yield handle
    finally:
        adb.run("disconnect", handle.address, timeout=10)
        handle.close()


@needs_adb
def test_adb_pull_fetches_the_same_bytes(adb, phone, tmp_path):
    with phone.lock:
        want = phone.device.pull(CONTACTS_DB)
    out = tmp_path / "contacts2.db"
    adb.sh(phone.address, "pull", CONTACTS_DB, str(out), check=True)
    assert out.read_bytes() == want
    assert people(sqlite3.connect(out)) == [("Katherine Johnson", "+1 757-555-0123", 0)]
    listing = adb.sh(phone.address, "shell", "ls", "/data/data/com.android.providers.contacts/databases",
                     check=True).stdout
    assert listing == b"contacts2.db\n"
    res = adb.sh(phone.address, "pull", "/data/data/nope.db", str(tmp_path / "nope.db"))
    assert res.returncode != 0 and b"No such file or directory" in res.stdout + res.stderr
    res = adb.sh(phone.address, "push", str(out), CONTACTS_DB)
    assert res.returncode != 0 and b"Read-only file system" in res.stdout + res.stderr


@needs_adb
def test_adbutils_sync_reads_the_database(adb, phone):
    import adbutils

    d = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(phone.address)
    with phone.lock:
        want = phone.device.pull(CONTACTS_DB)
    assert d.sync.read_bytes(CONTACTS_DB) == want
    info = d.sync.stat(CONTACTS_DB)
    assert info.size == len(want) and info.mode & 0o170000 == 0o100000


@needs_adb
def test_adb_device_pull_over_sync(adb, phone, tmp_path):
    dev = AdbDevice(serial=phone.address, port=adb.port, timeout_s=5.0, retry_window_s=5.0)
    with phone.lock:
        want = phone.device.pull(CONTACTS_DB)
    assert dev.pull(CONTACTS_DB) == want
    assert people(open_db(dev.pull(CONTACTS_DB), tmp_path)) == \
        [("Katherine Johnson", "+1 757-555-0123", 0)]
    big = bytes(range(256)) * 1000  # several RECV chunks
    with phone.lock:
        phone.device.phone.fs.write("/sdcard/Download/big.bin", big, 0)
    assert dev.pull("/sdcard/Download/big.bin") == big
    for path, code in (("/sdcard/none.bin", errno.ENOENT), ("/sdcard/Download", errno.EISDIR)):
        tries = dev.round_trips
        with pytest.raises(DeviceFileError) as got:
            dev.pull(path)
        assert got.value.errno == code and got.value.path == path
        assert dev.round_trips == tries + 1  # the device's answer, not a transport fault: no retry


@needs_adb
def test_adb_device_pull_rides_out_a_short_outage(adb):
    handle = serve_in_thread(port=0, serial="SIMPULL02")
    link = LinkProxy((handle.host, handle.port))
    try:
        adb.connect(link.address)
        dev = AdbDevice(serial=link.address, port=adb.port, timeout_s=5.0, retry_window_s=20.0)
        with handle.lock:
            want = handle.device.pull(CONTACTS_DB)
        assert dev.pull(CONTACTS_DB) == want
        link.down()
        back = threading.Thread(target=lambda: (time.sleep(1.0), link.up()))
        back.start()
        try:
            assert dev.pull(CONTACTS_DB) == want
        finally:
            back.join()
    finally:
        adb.run("disconnect", link.address, timeout=10)
        link.close()
        handle.close()
