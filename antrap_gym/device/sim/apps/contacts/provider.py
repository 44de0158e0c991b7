"""The contacts provider (`content://com.android.contacts/...`) and its database.

The database is AOSP's `contacts2.db` at its real path, trimmed to the tables the
Contacts app and the tasks use -- `accounts`, `mimetypes`, `contacts`,
`raw_contacts`, `data` -- with their real column names, so a check that pulls the
file and reads it with sqlite3 works on the simulated phone as on a device. As
there, `data` rows name their kind by `mimetype_id` (joined with `mimetypes`),
a raw contact points at its aggregate `contact_id` and its `account_id`. The
simulated phone keeps one raw contact per contact (same `_id`); triggers keep
`display_name`, `starred` and `has_phone_number` in step, whoever writes (the
app, `content`, or `sqlite3`).

The URIs read trimmed versions of the provider's views (`contacts`,
`raw_contacts`, `data`, `data/phones`, `data/emails`) with the real column names;
writes go to the tables, with `mimetype` and the account translated as
ContactsProvider2 does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from antrap_gym.device.sim.storage.content import ContentError, ContentProvider, Table

MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
#: ContactsContract.CommonDataKinds.Phone.TYPE_*
PHONE_TYPES = {1: "Home", 2: "Mobile", 3: "Work", 7: "Other", 12: "Main"}
#: ContactsContract.DisplayNameSources.STRUCTURED_NAME
NAME_SOURCE_STRUCTURED = 40
#: the kinds of data row a fresh database knows, with their `mimetypes._id` (others are
#: added as they are first written, as ContactsProvider2 does)
MIME_IDS = {MIME_NAME: 1, MIME_PHONE: 2, MIME_EMAIL: 3}
#: the local (device) account: no name, no type
LOCAL_ACCOUNT_ID = 1

_DATA_COLUMNS = ", ".join(f"data{i} TEXT" for i in range(1, 16))
_CONTACT_HAS_PHONE = (
    "UPDATE contacts SET has_phone_number = EXISTS (SELECT 1 FROM raw_contacts r"
    " JOIN data d ON d.raw_contact_id = r._id WHERE r.contact_id = contacts._id"
    f" AND d.mimetype_id = {MIME_IDS[MIME_PHONE]})"
    " WHERE _id IN (SELECT contact_id FROM raw_contacts WHERE _id IN ({}));"
)
_IS_NAME = f"mimetype_id = {MIME_IDS[MIME_NAME]}"
_IS_PHONE = f"mimetype_id = {MIME_IDS[MIME_PHONE]}"
_MIMETYPE_ROWS = ", ".join(f"({i}, '{m}')" for m, i in MIME_IDS.items())

_SCHEMA = f"""
CREATE TABLE accounts (_id INTEGER PRIMARY KEY AUTOINCREMENT, account_name TEXT,
    account_type TEXT, data_set TEXT);
CREATE TABLE mimetypes (_id INTEGER PRIMARY KEY AUTOINCREMENT, mimetype TEXT NOT NULL);
CREATE UNIQUE INDEX mime_type ON mimetypes (mimetype);
CREATE TABLE contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
    name_raw_contact_id INTEGER REFERENCES raw_contacts(_id),
    photo_id INTEGER REFERENCES data(_id), photo_file_id INTEGER, custom_ringtone TEXT,
    send_to_voicemail INTEGER NOT NULL DEFAULT 0, times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER, starred INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0, has_phone_number INTEGER NOT NULL DEFAULT 0,
    lookup TEXT, status_update_id INTEGER REFERENCES data(_id),
    contact_last_updated_timestamp INTEGER);
CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER REFERENCES accounts(_id), sourceid TEXT, backup_id TEXT,
    raw_contact_is_read_only INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1,
    dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
    metadata_dirty INTEGER NOT NULL DEFAULT 0, contact_id INTEGER REFERENCES contacts(_id),
    aggregation_mode INTEGER NOT NULL DEFAULT 0, aggregation_needed INTEGER NOT NULL DEFAULT 1,
    custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
    times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER,
    starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0, display_name TEXT,
    display_name_alt TEXT, display_name_source INTEGER NOT NULL DEFAULT 0, phonetic_name TEXT,
    phonetic_name_style TEXT, sort_key TEXT, phonebook_label TEXT, phonebook_bucket INTEGER,
    sort_key_alt TEXT, phonebook_label_alt TEXT, phonebook_bucket_alt INTEGER,
    name_verified INTEGER NOT NULL DEFAULT 0, sync1 TEXT, sync2 TEXT, sync3 TEXT, sync4 TEXT);
CREATE TABLE data (_id INTEGER PRIMARY KEY AUTOINCREMENT, package_id INTEGER,
    mimetype_id INTEGER REFERENCES mimetypes(_id) NOT NULL,
    raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, hash_id TEXT,
    is_read_only INTEGER NOT NULL DEFAULT 0, is_primary INTEGER NOT NULL DEFAULT 0,
    is_super_primary INTEGER NOT NULL DEFAULT 0, data_version INTEGER NOT NULL DEFAULT 0,
    {_DATA_COLUMNS}, data_sync1 TEXT, data_sync2 TEXT, data_sync3 TEXT, data_sync4 TEXT,
    carrier_presence INTEGER NOT NULL DEFAULT 0);
CREATE INDEX data_raw_contact_id ON data (raw_contact_id);
INSERT INTO accounts (_id, account_name, account_type, data_set)
    VALUES ({LOCAL_ACCOUNT_ID}, NULL, NULL, NULL);
INSERT INTO mimetypes (_id, mimetype) VALUES {_MIMETYPE_ROWS};

CREATE TRIGGER raw_contacts_inserted AFTER INSERT ON raw_contacts BEGIN
    INSERT OR REPLACE INTO contacts (_id, name_raw_contact_id, starred, times_contacted)
        VALUES (NEW._id, NEW._id, NEW.starred, NEW.times_contacted);
    UPDATE raw_contacts SET contact_id = NEW._id WHERE _id = NEW._id;
END;
CREATE TRIGGER raw_contacts_updated AFTER UPDATE OF starred, times_contacted ON raw_contacts
BEGIN
    UPDATE contacts SET starred = NEW.starred, times_contacted = NEW.times_contacted
        WHERE _id = NEW.contact_id;
END;
CREATE TRIGGER raw_contacts_deleted BEFORE DELETE ON raw_contacts BEGIN
    DELETE FROM data WHERE raw_contact_id = OLD._id;
    DELETE FROM contacts WHERE _id = OLD.contact_id;
END;
CREATE TRIGGER data_name_inserted AFTER INSERT ON data WHEN NEW.{_IS_NAME} BEGIN
    UPDATE raw_contacts SET display_name = NEW.data1,
        display_name_source = {NAME_SOURCE_STRUCTURED} WHERE _id = NEW.raw_contact_id;
END;
CREATE TRIGGER data_name_updated AFTER UPDATE ON data WHEN NEW.{_IS_NAME} BEGIN
    UPDATE raw_contacts SET display_name = NEW.data1,
        display_name_source = {NAME_SOURCE_STRUCTURED} WHERE _id = NEW.raw_contact_id;
END;
CREATE TRIGGER data_phone_inserted AFTER INSERT ON data WHEN NEW.{_IS_PHONE} BEGIN
    UPDATE contacts SET has_phone_number = 1
        WHERE _id = (SELECT contact_id FROM raw_contacts WHERE _id = NEW.raw_contact_id);
END;
CREATE TRIGGER data_phone_updated AFTER UPDATE OF mimetype_id, raw_contact_id ON data
WHEN OLD.{_IS_PHONE} OR NEW.{_IS_PHONE} BEGIN
    {_CONTACT_HAS_PHONE.format("OLD.raw_contact_id, NEW.raw_contact_id")}
END;
CREATE TRIGGER data_phone_deleted AFTER DELETE ON data WHEN OLD.{_IS_PHONE} BEGIN
    {_CONTACT_HAS_PHONE.format("OLD.raw_contact_id")}
END;
"""

#: the URIs' rows: trimmed versions of ContactsProvider2's views, with their column names
_RAW_CONTACTS = (
    "(SELECT r._id AS _id, r.display_name AS display_name, r.starred AS starred,"
    " r.deleted AS deleted, a.account_type AS account_type, a.account_name AS account_name,"
    " r.times_contacted AS times_contacted"
    " FROM raw_contacts r LEFT JOIN accounts a ON a._id = r.account_id)")
_CONTACTS = (
    "(SELECT c._id AS _id, r.display_name AS display_name, c.starred AS starred,"
    " c.has_phone_number AS has_phone_number, c.times_contacted AS times_contacted"
    " FROM contacts c JOIN raw_contacts r ON r._id = c.name_raw_contact_id WHERE r.deleted = 0)")
_DATA = (
    "SELECT d._id AS _id, d.raw_contact_id AS raw_contact_id, r.contact_id AS contact_id,"
    " m.mimetype AS mimetype, d.data1 AS data1, d.data2 AS data2, d.data3 AS data3,"
    " d.is_primary AS is_primary, r.display_name AS display_name, r.starred AS starred"
    " FROM data d JOIN raw_contacts r ON r._id = d.raw_contact_id"
    " JOIN mimetypes m ON m._id = d.mimetype_id WHERE r.deleted = 0")

_LEGACY_PHONES = (
    "(SELECT d._id AS _id, r.contact_id AS person, r.display_name AS display_name,"
    " d.data1 AS number, d.data2 AS type, d.data3 AS label, d.is_primary AS isprimary"
    " FROM data d JOIN raw_contacts r ON r._id = d.raw_contact_id"
    f" JOIN mimetypes m ON m._id = d.mimetype_id WHERE r.deleted = 0"
    f" AND m.mimetype = '{MIME_PHONE}')")


@dataclass(frozen=True, slots=True)
class Contact:
    id: int
    name: str
    phone: str
    email: str
    starred: bool
    phone_type: int = 2


class ContactsProvider(ContentProvider):
    authority = "com.android.contacts"
    path = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    schema = _SCHEMA
    paths = {
        "raw_contacts": Table(_RAW_CONTACTS, "raw_contacts", order="_id"),
        "contacts": Table(_CONTACTS, "raw_contacts", key="contact_id", order="_id"),
        "data": Table(f"({_DATA})", "data", order="_id"),
        "data/phones": Table(f"({_DATA} AND m.mimetype = '{MIME_PHONE}')", order="_id"),
        "data/emails": Table(f"({_DATA} AND m.mimetype = '{MIME_EMAIL}')", order="_id"),
    }
    #: android.provider.Contacts (the API before ContactsContract), which ContactsProvider2
    #: still answers and AndroidWorld's contact checks read: `phones` with
    #: `display_name` and `number`
    legacy = {"contacts": {"phones": Table(_LEGACY_PHONES, order="_id")}}

    # --- writes as ContactsProvider2 takes them --------------------------------------
    def _insert(self, table: str, values: dict[str, Any]) -> int:
        return super()._insert(table, self._translate(table, values, inserting=True))

    def update(self, path: str, values: dict[str, Any], where: str | None = None) -> int:
        spec = self._resolve(path)
        if path.strip("/") == "contacts":
            bad = set(values) - {"starred", "times_contacted", "display_name"}
            if bad:
                raise ContentError(f"Cannot update columns {sorted(bad)} of contacts")
        if spec.write is not None:
            values = self._translate(spec.write, values, inserting=False)
        return super().update(path, values, where)

    def _translate(self, table: str, values: dict[str, Any], inserting: bool) -> dict[str, Any]:
        """The URI's columns -> the table's: `mimetype` names a `mimetype_id`, a raw
        contact's `account_type`/`account_name` an `account_id` (the local account,
        NULL/NULL, when an insert names none)."""
        out = dict(values)
        if table == "data" and "mimetype" in out:
            out["mimetype_id"] = self._mimetype_id(out.pop("mimetype"))
        elif table == "data" and inserting:
            raise ContentError("mimetype is required")
        if table == "raw_contacts" and (inserting or {"account_type", "account_name"} & set(out)):
            out["account_id"] = self._account_id(out.pop("account_name", None),
                                                 out.pop("account_type", None))
        return out

    def _mimetype_id(self, mimetype: Any) -> int:
        if mimetype in MIME_IDS:
            return MIME_IDS[mimetype]
        if not isinstance(mimetype, str) or not mimetype:
            raise ContentError(f"Invalid mimetype {mimetype!r}")
        row = self.db.execute("SELECT _id FROM mimetypes WHERE mimetype = ?", (mimetype,)).fetchone()
        if row is not None:
            return int(row[0])
        return int(self.db.execute("INSERT INTO mimetypes (mimetype) VALUES (?)",
                                   (mimetype,)).lastrowid or 0)

    def _account_id(self, name: Any, kind: Any) -> int:
        if name is None and kind is None:
            return LOCAL_ACCOUNT_ID
        row = self.db.execute("SELECT _id FROM accounts WHERE account_name IS ? AND account_type IS ?"
                              " AND data_set IS NULL", (name, kind)).fetchone()
        if row is not None:
            return int(row[0])
        return int(self.db.execute("INSERT INTO accounts (account_name, account_type) VALUES (?, ?)",
                                   (name, kind)).lastrowid or 0)

    # --- the app's API (fast, no shell parsing) ---------------------------
    def all(self) -> list[Contact]:
        phone, email = MIME_IDS[MIME_PHONE], MIME_IDS[MIME_EMAIL]
        rows = self.db.execute(
            "SELECT r._id, r.display_name, r.starred,"
            f" (SELECT data1 FROM data WHERE raw_contact_id=r._id AND mimetype_id={phone}"
            "  ORDER BY _id LIMIT 1),"
            f" (SELECT data1 FROM data WHERE raw_contact_id=r._id AND mimetype_id={email}"
            "  ORDER BY _id LIMIT 1),"
            f" (SELECT data2 FROM data WHERE raw_contact_id=r._id AND mimetype_id={phone}"
            "  ORDER BY _id LIMIT 1)"
            " FROM raw_contacts r WHERE r.deleted=0"
            " ORDER BY r.display_name COLLATE NOCASE, r._id"
        ).fetchall()
        return [
            Contact(r[0], r[1] or "", r[3] or "", r[4] or "", bool(r[2]), int(r[5] or 2))
            for r in rows
        ]

    def get(self, contact_id: int) -> Contact | None:
        for c in self.all():
            if c.id == contact_id:
                return c
        return None

    def add(self, name: str, phone: str = "", email: str = "", starred: bool = False,
            phone_type: int = 2) -> int:
        rid = self._insert("raw_contacts", {"starred": int(starred)})
        self._insert("data", {"raw_contact_id": rid, "mimetype": MIME_NAME, "data1": name})
        if phone:
            self._insert("data", {"raw_contact_id": rid, "mimetype": MIME_PHONE, "data1": phone,
                                  "data2": str(phone_type)})
        if email:
            self._insert("data", {"raw_contact_id": rid, "mimetype": MIME_EMAIL, "data1": email,
                                  "data2": "1"})
        return rid

    def save(self, contact_id: int, name: str, phone: str, email: str,
             phone_type: int | None = None) -> None:
        """Replace a contact's name, phone and email (the editor's Save); `phone_type`
        (a Phone.TYPE_*) relabels the number when given."""
        db = self.db
        db.execute(f"UPDATE data SET data1=? WHERE raw_contact_id=? AND {_IS_NAME}",
                   (name, contact_id))
        for mime, value in ((MIME_PHONE, phone), (MIME_EMAIL, email)):
            exists = db.execute("SELECT _id FROM data WHERE raw_contact_id=? AND mimetype_id=?",
                                (contact_id, self._mimetype_id(mime))).fetchone()
            label = None if mime != MIME_PHONE or phone_type is None else str(phone_type)
            if value and exists:
                db.execute("UPDATE data SET data1=?, data2=COALESCE(?, data2) WHERE _id=?",
                           (value, label, exists[0]))
            elif value:
                db.execute(
                    "INSERT INTO data (raw_contact_id, mimetype_id, data1, data2) VALUES (?,?,?,?)",
                    (contact_id, self._mimetype_id(mime), value,
                     label or ("2" if mime == MIME_PHONE else "1")),
                )
            elif exists:
                db.execute("DELETE FROM data WHERE _id=?", (exists[0],))
        self.revision += 1

    def set_starred(self, contact_id: int, starred: bool) -> None:
        self.db.execute("UPDATE raw_contacts SET starred=? WHERE _id=?", (int(starred), contact_id))
        self.revision += 1

    def remove(self, contact_id: int) -> None:
        self.db.execute("DELETE FROM raw_contacts WHERE _id=?", (contact_id,))
        self.revision += 1
