"""The contacts provider (`content://com.android.contacts/...`).

A trimmed version of ContactsContract: raw contacts, typed data rows (name,
phone, email) with Android's mimetypes, and the read views `contacts`,
`data`, `data/phones`, `data/emails` with the real column names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from antrap_gym.device.sim.storage.content import ContentError, ContentProvider

MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
#: ContactsContract.CommonDataKinds.Phone.TYPE_*
PHONE_TYPES = {1: "Home", 2: "Mobile", 3: "Work", 7: "Other"}

_SCHEMA = f"""
CREATE TABLE raw_contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    display_name TEXT,
    starred INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    account_type TEXT,
    account_name TEXT,
    times_contacted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE data (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    raw_contact_id INTEGER NOT NULL REFERENCES raw_contacts(_id) ON DELETE CASCADE,
    mimetype TEXT NOT NULL,
    data1 TEXT,
    data2 TEXT,
    data3 TEXT,
    is_primary INTEGER NOT NULL DEFAULT 0
);
CREATE VIEW contacts AS
    SELECT r._id AS _id, r.display_name AS display_name, r.starred AS starred,
           EXISTS(SELECT 1 FROM data d WHERE d.raw_contact_id = r._id
                  AND d.mimetype = '{MIME_PHONE}') AS has_phone_number,
           r.times_contacted AS times_contacted
    FROM raw_contacts r WHERE r.deleted = 0;
CREATE VIEW data_view AS
    SELECT d._id AS _id, d.raw_contact_id AS raw_contact_id, d.raw_contact_id AS contact_id,
           d.mimetype AS mimetype, d.data1 AS data1, d.data2 AS data2, d.data3 AS data3,
           d.is_primary AS is_primary, r.display_name AS display_name, r.starred AS starred
    FROM data d JOIN raw_contacts r ON r._id = d.raw_contact_id WHERE r.deleted = 0;
CREATE VIEW phones AS SELECT * FROM data_view WHERE mimetype = '{MIME_PHONE}';
CREATE VIEW emails AS SELECT * FROM data_view WHERE mimetype = '{MIME_EMAIL}';
CREATE TRIGGER name_sync AFTER INSERT ON data WHEN NEW.mimetype = '{MIME_NAME}' BEGIN
    UPDATE raw_contacts SET display_name = NEW.data1 WHERE _id = NEW.raw_contact_id;
END;
CREATE TRIGGER name_sync_upd AFTER UPDATE ON data WHEN NEW.mimetype = '{MIME_NAME}' BEGIN
    UPDATE raw_contacts SET display_name = NEW.data1 WHERE _id = NEW.raw_contact_id;
END;
CREATE TRIGGER raw_delete AFTER DELETE ON raw_contacts BEGIN
    DELETE FROM data WHERE raw_contact_id = OLD._id;
END;
"""


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
    #: where `sqlite3` finds it (the schema is this provider's, not AOSP's contacts2.db)
    db_path = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    schema = _SCHEMA
    paths = {
        "raw_contacts": ("raw_contacts", "raw_contacts"),
        "contacts": ("contacts", "raw_contacts"),
        "data": ("data_view", "data"),
        "data/phones": ("phones", None),
        "data/emails": ("emails", None),
    }

    def delete(self, path: str, where: str | None = None) -> int:
        # contacts/data deletes must go through ids the view exposes
        if path.strip("/") == "data" and where:
            ids = [r[0] for r in self.query("data", ["_id"], where)[1]]
            if not ids:
                return 0
            return super().delete("data", "_id IN (" + ",".join(map(str, ids)) + ")")
        return super().delete(path, where)

    def update(self, path: str, values: dict[str, Any], where: str | None = None) -> int:
        if path.strip("/") == "contacts":
            bad = set(values) - {"starred", "times_contacted", "display_name"}
            if bad:
                raise ContentError(f"Cannot update columns {sorted(bad)} of contacts")
        return super().update(path, values, where)

    # --- the app's API (fast, no shell parsing) ---------------------------
    def all(self) -> list[Contact]:
        rows = self.db.execute(
            "SELECT r._id, r.display_name, r.starred,"
            f" (SELECT data1 FROM data WHERE raw_contact_id=r._id AND mimetype='{MIME_PHONE}'"
            "  ORDER BY _id LIMIT 1),"
            f" (SELECT data1 FROM data WHERE raw_contact_id=r._id AND mimetype='{MIME_EMAIL}'"
            "  ORDER BY _id LIMIT 1),"
            f" (SELECT data2 FROM data WHERE raw_contact_id=r._id AND mimetype='{MIME_PHONE}'"
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

    def save(self, contact_id: int, name: str, phone: str, email: str) -> None:
        """Replace a contact's name, phone and email (the editor's Save)."""
        db = self.db
        db.execute("UPDATE data SET data1=? WHERE raw_contact_id=? AND mimetype=?",
                   (name, contact_id, MIME_NAME))
        for mime, value in ((MIME_PHONE, phone), (MIME_EMAIL, email)):
            exists = db.execute("SELECT _id FROM data WHERE raw_contact_id=? AND mimetype=?",
                                (contact_id, mime)).fetchone()
            if value and exists:
                db.execute("UPDATE data SET data1=? WHERE _id=?", (value, exists[0]))
            elif value:
                db.execute(
                    "INSERT INTO data (raw_contact_id, mimetype, data1, data2) VALUES (?,?,?,?)",
                    (contact_id, mime, value, "2" if mime == MIME_PHONE else "1"),
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
