"""Tasks.org's Room database (`/data/data/org.tasks/databases/database`) and its preferences.

The `tasks` table keeps Tasks.org's columns and encodings: times in epoch ms,
`importance` 0 (high) .. 3 (none), `completed`/`deleted` 0 while not done, and a due
date without a time stored at noon of that day with whole seconds (a due date with a
time carries one extra second, which is how the app tells the two apart).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "org.tasks"
DB_PATH = f"/data/data/{PKG}/databases/database"
PREFS_PATH = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
#: the preference behind the list's "Show completed" / "Hide completed"
SHOW_COMPLETED = "show_completed_tasks"
COLUMNS = ("_id", "title", "importance", "dueDate", "hideUntil", "created", "modified", "completed",
           "deleted", "notes", "estimatedSeconds", "elapsedSeconds", "timerStart",
           "notificationFlags", "lastNotified", "recurrence", "repeat_from", "calendarUri",
           "remoteId", "collapsed", "parent")

_SCHEMA = """
CREATE TABLE tasks (
  _id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  title TEXT,
  importance INTEGER NOT NULL DEFAULT 2,
  dueDate INTEGER NOT NULL DEFAULT 0,
  hideUntil INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL DEFAULT 0,
  modified INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0,
  notes TEXT,
  estimatedSeconds INTEGER NOT NULL DEFAULT 0,
  elapsedSeconds INTEGER NOT NULL DEFAULT 0,
  timerStart INTEGER NOT NULL DEFAULT 0,
  notificationFlags INTEGER NOT NULL DEFAULT 0,
  lastNotified INTEGER NOT NULL DEFAULT 0,
  recurrence TEXT,
  repeat_from INTEGER NOT NULL DEFAULT 0,
  calendarUri TEXT,
  remoteId TEXT,
  collapsed INTEGER NOT NULL DEFAULT 0,
  parent INTEGER NOT NULL DEFAULT 0,
  read_only INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX t_rid ON tasks (remoteId);
CREATE INDEX active_and_visible ON tasks (completed, deleted, hideUntil);
CREATE INDEX tasks_parent ON tasks (parent);
"""

PRIORITIES = ("High", "Medium", "Low", "None")


class TasksDatabase(SqliteStore):
    """Tasks.org's database; the screens read it through `tasks()` and write through
    `complete()` / `update()`."""

    path = DB_PATH
    schema = _SCHEMA
    version = 88

    @classmethod
    def of(cls, phone: PhoneContext) -> TasksDatabase:
        return phone.databases[cls.path]  # type: ignore[return-value]

    def tasks(self) -> list[dict]:
        """Every task not deleted, as a dict of the columns the screens show."""
        cur = self.db.execute("SELECT _id, title, importance, dueDate, completed, notes, hideUntil"
                              " FROM tasks WHERE deleted = 0")
        keys = ("id", "title", "importance", "due", "completed", "notes", "hide_until")
        return [dict(zip(keys, r)) for r in cur.fetchall()]

    def task(self, task_id: int) -> dict | None:
        return next((t for t in self.tasks() if t["id"] == task_id), None)

    def complete(self, task_id: int, done: bool, now_ms: int) -> None:
        self.sql(f"UPDATE tasks SET completed = {now_ms if done else 0}, modified = {now_ms}"
                 f" WHERE _id = {int(task_id)}")

    def update(self, task_id: int, now_ms: int, **values: object) -> None:
        """Write the editor's fields (title, importance, notes) back."""
        cols = {k: v for k, v in values.items() if k in ("title", "importance", "notes")}
        if not cols:
            return
        sets = ", ".join(f"{k} = ?" for k in cols)
        self.db.execute(f"UPDATE tasks SET {sets}, modified = ? WHERE _id = ?",
                        (*cols.values(), now_ms, int(task_id)))
        self.revision += 1


class TasksPrefs(SharedPreferences):
    """The list's view choices (whether completed tasks show)."""

    path = PREFS_PATH


def prefs(phone: PhoneContext) -> SharedPreferences:
    return phone.databases[TasksPrefs.path]  # type: ignore[return-value]
