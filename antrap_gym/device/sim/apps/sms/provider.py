"""The telephony provider's SMS side (`content://sms/...`) and its database.

The database is AOSP's `mmssms.db` at its real path
(`/data/data/com.android.providers.telephony/databases/mmssms.db`), trimmed to the
tables SMS needs -- `sms`, `threads`, `canonical_addresses` -- with their real
column names, so a check that pulls the file and reads it with sqlite3 works here as
on a device. As there, every message belongs to a thread (one per address, found or
made when the message is written, whoever writes it: the app, `content insert`, or
`sqlite3 ... "INSERT INTO sms ..."`), and a thread keeps its latest date, snippet
and message count; a thread left with no message is dropped.

The URIs are SmsProvider's: `content://sms` (every message), `sms/inbox` (type 1),
`sms/sent` (2), `sms/draft` (3), `sms/outbox` (4), `sms/failed` (5), `sms/queued`
(6), newest first; an insert into a box gets the box's type, and the device time as
its date when it binds none. `sms/conversations` lists one row per thread
(`thread_id`, `msg_count`, `snippet`).

Incoming texts: AndroidWorld receives them through the emulator console's `sms send`;
the Device protocol has no console, so set-up writes them as the phone would file
them, `content insert --uri content://sms/inbox --bind address:s:+1... --bind
body:s:... --bind date:l:...` (a rooted emulator takes the same command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from antrap_gym.device.sim.storage.content import ContentProvider, Table

#: Telephony.TextBasedSmsColumns.MESSAGE_TYPE_*
INBOX, SENT, DRAFT, OUTBOX, FAILED, QUEUED = 1, 2, 3, 4, 5, 6
BOXES = {"inbox": INBOX, "sent": SENT, "draft": DRAFT, "outbox": OUTBOX, "failed": FAILED,
         "queued": QUEUED}

_CANONICAL = "(SELECT _id FROM canonical_addresses WHERE address = NEW.address)"
_THREAD_OF = f"(SELECT _id FROM threads WHERE recipient_ids = CAST({_CANONICAL} AS TEXT))"
_REFRESH = """
    UPDATE threads SET
        message_count = (SELECT COUNT(*) FROM sms WHERE thread_id = threads._id),
        date = COALESCE((SELECT date FROM sms WHERE thread_id = threads._id
                         ORDER BY date DESC, _id DESC LIMIT 1), 0),
        snippet = (SELECT body FROM sms WHERE thread_id = threads._id
                   ORDER BY date DESC, _id DESC LIMIT 1),
        read = NOT EXISTS (SELECT 1 FROM sms WHERE thread_id = threads._id AND read = 0)
        WHERE _id = {tid};
"""

_SCHEMA = f"""
CREATE TABLE sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT, person INTEGER,
    date INTEGER, date_sent INTEGER DEFAULT 0, protocol INTEGER, read INTEGER DEFAULT 0,
    status INTEGER DEFAULT -1, type INTEGER, reply_path_present INTEGER, subject TEXT,
    body TEXT, service_center TEXT, locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1,
    error_code INTEGER DEFAULT -1, creator TEXT, seen INTEGER DEFAULT 0);
CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, date INTEGER DEFAULT 0,
    message_count INTEGER DEFAULT 0, recipient_ids TEXT, snippet TEXT,
    snippet_cs INTEGER DEFAULT 0, read INTEGER DEFAULT 1, archived INTEGER DEFAULT 0,
    type INTEGER DEFAULT 0, error INTEGER DEFAULT 0, has_attachment INTEGER DEFAULT 0);
CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT);

CREATE TRIGGER sms_thread_on_insert AFTER INSERT ON sms WHEN NEW.thread_id IS NULL BEGIN
    INSERT INTO canonical_addresses (address) SELECT NEW.address
        WHERE NOT EXISTS (SELECT 1 FROM canonical_addresses WHERE address = NEW.address);
    INSERT INTO threads (recipient_ids) SELECT CAST({_CANONICAL} AS TEXT)
        WHERE {_THREAD_OF} IS NULL;
    UPDATE sms SET thread_id = {_THREAD_OF} WHERE _id = NEW._id;
END;
CREATE TRIGGER sms_update_thread_on_insert AFTER INSERT ON sms WHEN NEW.thread_id IS NOT NULL
BEGIN {_REFRESH.format(tid="NEW.thread_id")} END;
CREATE TRIGGER sms_update_thread_on_update AFTER UPDATE ON sms BEGIN
    {_REFRESH.format(tid="OLD.thread_id")} {_REFRESH.format(tid="NEW.thread_id")}
END;
CREATE TRIGGER sms_update_thread_on_delete AFTER DELETE ON sms BEGIN
    {_REFRESH.format(tid="OLD.thread_id")}
    DELETE FROM threads WHERE _id = OLD.thread_id AND message_count = 0;
END;
"""

_NEWEST = "date DESC, _id DESC"
_CONVERSATIONS = (
    "(SELECT t._id AS thread_id, t.message_count AS msg_count, t.snippet AS snippet,"
    " t.date AS date FROM threads t WHERE t.message_count > 0)")


@dataclass(frozen=True, slots=True)
class Message:
    id: int
    thread_id: int
    address: str
    body: str
    date: int
    type: int
    read: bool

    @property
    def outgoing(self) -> bool:
        return self.type != INBOX


@dataclass(frozen=True, slots=True)
class Thread:
    id: int
    address: str
    snippet: str
    date: int
    read: bool


class SmsProvider(ContentProvider):
    authority = "sms"
    path = "/data/data/com.android.providers.telephony/databases/mmssms.db"
    schema = _SCHEMA
    version = 67
    paths: ClassVar[dict[str, Table | tuple[str, str | None]]] = {
        "": Table("sms", "sms", order=_NEWEST),
        **{box: Table(f"(SELECT * FROM sms WHERE type = {t})", "sms", order=_NEWEST)
           for box, t in BOXES.items()},
        "conversations": Table(_CONVERSATIONS, order="date DESC"),
    }

    def __init__(self) -> None:
        super().__init__()
        #: the device clock in ms (the phone sets it at install): an insert's default date
        self.clock: Callable[[], int] = lambda: 0

    # --- writes as SmsProvider takes them --------------------------------------------------
    def insert(self, path: str, values: dict[str, Any]) -> int:
        box = BOXES.get(path.strip("/"))
        out = dict(values)
        if box is not None:
            out["type"] = box
        out.setdefault("type", INBOX)
        out.setdefault("date", self.clock())
        if out["type"] != INBOX:
            out.setdefault("read", 1)
            out.setdefault("seen", 1)
        return super().insert(path, out)

    # --- the app's API (fast, no shell parsing) ------------------------------------------
    def threads(self) -> list[Thread]:
        rows = self.db.execute(
            "SELECT t._id, c.address, t.snippet, t.date, t.read FROM threads t"
            " LEFT JOIN canonical_addresses c ON CAST(c._id AS TEXT) = t.recipient_ids"
            " WHERE t.message_count > 0 ORDER BY t.date DESC, t._id DESC").fetchall()
        return [Thread(r[0], r[1] or "", r[2] or "", int(r[3] or 0), bool(r[4])) for r in rows]

    def thread_of(self, address: str) -> int | None:
        row = self.db.execute(
            "SELECT t._id FROM threads t JOIN canonical_addresses c"
            " ON CAST(c._id AS TEXT) = t.recipient_ids WHERE c.address = ?", (address,)).fetchone()
        return int(row[0]) if row else None

    def messages(self, thread_id: int) -> list[Message]:
        """A thread's messages, oldest first (as the conversation shows them)."""
        rows = self.db.execute(
            "SELECT _id, thread_id, address, body, date, type, read FROM sms WHERE thread_id = ?"
            " ORDER BY date, _id", (thread_id,)).fetchall()
        return [Message(r[0], r[1], r[2] or "", r[3] or "", int(r[4] or 0), int(r[5] or 0),
                        bool(r[6])) for r in rows]

    def get(self, message_id: int) -> Message | None:
        r = self.db.execute("SELECT _id, thread_id, address, body, date, type, read FROM sms"
                            " WHERE _id = ?", (message_id,)).fetchone()
        return None if r is None else Message(r[0], r[1], r[2] or "", r[3] or "", int(r[4] or 0),
                                               int(r[5] or 0), bool(r[6]))

    def send(self, address: str, body: str) -> int:
        """A sent message (type 2) at the device time, as the app files one."""
        now = self.clock()
        return self.insert("sent", {"address": address, "body": body, "date": now,
                                    "date_sent": now, "creator": "com.simplemobiletools.smsmessenger"})

    def mark_read(self, thread_id: int) -> None:
        if self.db.execute("SELECT 1 FROM sms WHERE thread_id = ? AND read = 0",
                           (thread_id,)).fetchone():
            self.update("", {"read": 1, "seen": 1}, f"thread_id = {int(thread_id)}")

    def remove(self, message_id: int) -> None:
        self.delete("", f"_id = {int(message_id)}")

    def remove_thread(self, thread_id: int) -> None:
        self.delete("", f"thread_id = {int(thread_id)}")
