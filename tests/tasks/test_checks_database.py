"""App-database checks: the database file pulled from the phone (`Device.pull`) and read
with Python's sqlite3, as AndroidWorld reads an emulator's; rows followed across reads
for addition and removal integrity, the "before" taken at set-up."""

from __future__ import annotations

import base64
import sqlite3

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.checks import (
    Added,
    DatabaseError,
    DatabaseQuery,
    DatabaseTable,
    Eq,
    Removed,
    Text,
    read_rows,
)

CONTACTS_DB = "/data/data/com.android.providers.contacts/databases/contacts2.db"
RAW = DatabaseTable(CONTACTS_DB, "raw_contacts", ("_id", "display_name", "starred", "deleted"))
ROSTER = [["Ada Lovelace", "+1 415-555-0101", "", False], ["Bruno Mars", "+1 212-555-0102", "", True]]


def names(dev) -> list[tuple[str, int]]:
    return sorted((r["display_name"], r["starred"]) for r in RAW.rows(dev) if not r["deleted"])


def test_the_contacts_database_holds_what_the_provider_was_given():
    dev = SimDevice()
    ct.seed_contacts(dev, ROSTER)
    assert names(dev) == [("Ada Lovelace", 0), ("Bruno Mars", 1)]


def add(dev, name: str) -> None:
    dev.shell("content insert --uri content://com.android.contacts/raw_contacts --bind starred:i:0")
    rid = max(r["_id"] for r in RAW.rows(dev))
    dev.shell("content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:"
              f"{rid} --bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:{name}'")


def delete(dev, name: str) -> None:
    rid = next(r["_id"] for r in RAW.rows(dev) if r["display_name"] == name)
    dev.shell(f"content delete --uri content://com.android.contacts/raw_contacts --where '_id={rid}'")


def prepared(*checks):
    dev = SimDevice()
    ct.seed_contacts(dev, ROSTER)
    for c in checks:
        c.prepare(dev)
    return dev


def test_addition_integrity_over_the_database():
    added = Added(RAW, ({"display_name": Text("zoe quinn"), "starred": Eq(0)},))
    dev = prepared(added)
    assert added(dev) == 0.0
    add(dev, "Zoe Quinn")
    assert added(dev) == 1.0
    delete(dev, "Bruno Mars")  # an earlier row is gone
    assert added(dev) == 0.0


def test_removal_integrity_over_the_database():
    removed = Removed(RAW, {"display_name": Text("Bruno Mars")})
    dev = prepared(removed)
    assert removed(dev) == 0.0
    delete(dev, "Bruno Mars")
    assert removed(dev) == 1.0
    add(dev, "Zoe Quinn")  # nothing may be added
    assert removed(dev) == 0.0


def test_a_query_joins_tables():
    dev = SimDevice()
    ct.seed_contacts(dev, ROSTER)
    rows = DatabaseQuery(CONTACTS_DB, "SELECT r._id AS _id, d.data1 AS data1 FROM raw_contacts r "
                         "JOIN data d ON d.raw_contact_id = r._id ORDER BY d._id").rows(dev)
    assert {"Ada Lovelace", "+1 415-555-0101", "Bruno Mars"} <= {r["data1"] for r in rows}


def _push(dev, path: str, data: bytes) -> None:
    res = dev.shell(f"echo {base64.b64encode(data).decode()} | base64 -d > {path}")
    assert res.exit_code == 0, res.stderr


def test_a_database_in_wal_mode_is_read_with_its_log(tmp_path):
    """The newest rows of a WAL database live in <db>-wal until a checkpoint: both files are
    pulled, so the check sees what the app sees."""
    local = tmp_path / "notes.db"
    con = sqlite3.connect(local)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE notes (_id INTEGER PRIMARY KEY, title TEXT)")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("INSERT INTO notes (title) VALUES ('only in the log')")
    con.commit()
    main, wal = local.read_bytes(), (tmp_path / "notes.db-wal").read_bytes()
    con.close()  # (closing checkpoints the local copy; the phone keeps the two files)
    dev = SimDevice()
    _push(dev, "/sdcard/notes.db", main)
    _push(dev, "/sdcard/notes.db-wal", wal)
    assert [r["title"] for r in DatabaseTable("/sdcard/notes.db", "notes").rows(dev)] == ["only in the log"]
    dev.shell("rm /sdcard/notes.db-wal")
    assert DatabaseTable("/sdcard/notes.db", "notes").rows(dev) == []  # the main file alone


def test_a_missing_database_is_a_clear_error():
    with pytest.raises(DatabaseError, match="cannot pull"):
        read_rows(SimDevice(), "/data/data/no.such.app/databases/x.db", "SELECT 1")
    with pytest.raises(DatabaseError, match="no such table"):
        DatabaseTable(CONTACTS_DB, "no_such_table").rows(SimDevice())
