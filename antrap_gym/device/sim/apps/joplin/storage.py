"""Joplin's database (`/data/data/net.cozic.joplin/databases/joplin.sqlite`).

`folders` are the notebooks, `notes` the notes and to-dos (`is_todo`, `todo_completed`
a completion time in ms or 0), `notes_normalized` the copy the search reads (lower-case
title). Ids are 32 hex digits; times are epoch ms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "net.cozic.joplin"
DB_PATH = f"/data/data/{PKG}/databases/joplin.sqlite"

_SCHEMA = """
CREATE TABLE folders (
  id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', created_time INT NOT NULL,
  updated_time INT NOT NULL, user_created_time INT NOT NULL DEFAULT 0,
  user_updated_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT '',
  encryption_applied INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT '',
  is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT '',
  master_key_id TEXT NOT NULL DEFAULT '', icon TEXT NOT NULL DEFAULT '',
  user_data TEXT NOT NULL DEFAULT '', deleted_time INT NOT NULL DEFAULT 0
);
CREATE TABLE notes (
  id TEXT PRIMARY KEY, parent_id TEXT NOT NULL DEFAULT '', title TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '', created_time INT NOT NULL, updated_time INT NOT NULL,
  is_conflict INT NOT NULL DEFAULT 0, latitude NUMERIC NOT NULL DEFAULT 0,
  longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0,
  author TEXT NOT NULL DEFAULT '', source_url TEXT NOT NULL DEFAULT '',
  is_todo INT NOT NULL DEFAULT 0, todo_due INT NOT NULL DEFAULT 0,
  todo_completed INT NOT NULL DEFAULT 0, source TEXT NOT NULL DEFAULT '',
  source_application TEXT NOT NULL DEFAULT '', application_data TEXT NOT NULL DEFAULT '',
  "order" NUMERIC NOT NULL DEFAULT 0, user_created_time INT NOT NULL DEFAULT 0,
  user_updated_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT '',
  encryption_applied INT NOT NULL DEFAULT 0, markup_language INT NOT NULL DEFAULT 1,
  is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT '',
  conflict_original_id TEXT NOT NULL DEFAULT '', master_key_id TEXT NOT NULL DEFAULT '',
  user_data TEXT NOT NULL DEFAULT '', deleted_time INT NOT NULL DEFAULT 0
);
CREATE INDEX notes_title ON notes (title);
CREATE INDEX notes_updated_time ON notes (updated_time);
CREATE INDEX notes_is_todo ON notes (is_todo);
CREATE INDEX notes_parent_id ON notes (parent_id);
CREATE TABLE notes_normalized (
  id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '',
  user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0,
  is_todo INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0,
  parent_id TEXT NOT NULL DEFAULT '', latitude NUMERIC NOT NULL DEFAULT 0,
  longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0,
  source_url TEXT NOT NULL DEFAULT '', todo_due INT NOT NULL DEFAULT 0
);
CREATE TABLE version (version INT NOT NULL, table_fields_version INT NOT NULL DEFAULT 0);
INSERT INTO version (version) VALUES (41);
"""


class JoplinDatabase(SqliteStore):
    """Joplin's database; the screens read notebooks and notes through it."""

    path = DB_PATH
    schema = _SCHEMA

    @classmethod
    def of(cls, phone: PhoneContext) -> JoplinDatabase:
        return phone.databases[cls.path]  # type: ignore[return-value]

    def folders(self) -> list[tuple[str, str]]:
        """(id, title) of every notebook, by title (the side menu's order)."""
        return self.db.execute("SELECT id, title FROM folders WHERE deleted_time = 0"
                               " ORDER BY title COLLATE NOCASE").fetchall()

    def notes(self, folder: str | None = None, search: str | None = None) -> list[dict]:
        """Notes of one notebook (None: all), newest first, optionally those whose title
        or body holds `search` (the search screen)."""
        where, args = ["deleted_time = 0"], []
        if folder is not None:
            where.append("parent_id = ?")
            args.append(folder)
        if search:
            where.append("(title LIKE ? OR body LIKE ?)")
            args += [f"%{search}%"] * 2
        cur = self.db.execute("SELECT id, title, body, is_todo, todo_completed, parent_id FROM notes"
                              f" WHERE {' AND '.join(where)} ORDER BY updated_time DESC, title",
                              args)
        keys = ("id", "title", "body", "is_todo", "todo_completed", "parent_id")
        return [dict(zip(keys, r)) for r in cur.fetchall()]

    def note(self, note_id: str) -> dict | None:
        return next((n for n in self.notes() if n["id"] == note_id), None)

    def set_completed(self, note_id: str, done: bool, now_ms: int) -> None:
        """Tick or untick a to-do (the note and its search copy)."""
        value = now_ms if done else 0
        self.db.execute("UPDATE notes SET todo_completed = ?, updated_time = ?, user_updated_time = ?"
                        " WHERE id = ?", (value, now_ms, now_ms, note_id))
        self.db.execute("UPDATE notes_normalized SET todo_completed = ?, user_updated_time = ?"
                        " WHERE id = ?", (value, now_ms, note_id))
        self.revision += 1
