"""Tasks.org's screens: the "My Tasks" list and the task editor.

The list shows each open task as a row (title; due date chip and priority underneath;
the completion checkbox), soonest due first; completed tasks are hidden unless the
overflow menu's "Show completed" is on, when they follow under a "Completed" header.
Tapping a task opens the editor (title, due date, priority chips, description,
completed checkbox), which saves when left, as the app does.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.tasks_org.storage import (
    PKG,
    PRIORITIES,
    SHOW_COMPLETED,
    TasksDatabase,
    prefs,
)
from antrap_gym.device.sim.toolkit.popups import Choice

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
DAY_MS = 86_400_000


def _date(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC)


def has_due_time(due_ms: int) -> bool:
    """Tasks.org's rule: a due date with a time carries seconds (a whole minute is a day)."""
    return due_ms > 0 and due_ms % 60_000 > 0


def due_chip(due_ms: int, now_ms: int) -> str:
    """The due date as the list's chip shows it: Today / Tomorrow / Yesterday or
    "Wed, Oct 18", with the time when the task has one."""
    if due_ms <= 0:
        return ""
    day, today = _date(due_ms).date(), _date(now_ms).date()
    delta = (day - today).days
    text = {0: "Today", 1: "Tomorrow", -1: "Yesterday"}.get(delta)
    if text is None:
        text = f"{day:%a}, {day:%b} {day.day}" + ("" if day.year == today.year else f", {day.year}")
    if has_due_time(due_ms):
        t = _date(due_ms)
        text += f" {t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"
    return text


def summary(task: dict, now_ms: int) -> str | None:
    """What a row shows under the title: the due chip and the priority (the colour of
    the real app's checkbox, spelt out)."""
    parts = [due_chip(task["due"], now_ms)]
    imp = task["importance"]
    if imp in (0, 1, 2):
        parts.append(f"{PRIORITIES[imp]} priority")
    return " · ".join(p for p in parts if p) or None


def _order(task: dict) -> tuple:
    return (task["due"] <= 0, task["due"], task["importance"], (task["title"] or "").casefold())


class MainActivity(Activity):
    package = PKG
    name = "com.todoroo.astrid.activity.MainActivity"

    def build(self, ui: UI, phone: Phone) -> None:
        show = prefs(phone).get_bool(SHOW_COMPLETED, False)
        ui.toolbar("My Tasks", menu=[Choice("Hide completed" if show else "Show completed",
                                            "toggle_completed")], rid=RID + "toolbar")
        tasks = TasksDatabase.of(phone).tasks()
        now = phone.clock_ms
        open_ = sorted((t for t in tasks if not t["completed"]), key=_order)
        done = sorted((t for t in tasks if t["completed"]), key=lambda t: -t["completed"])
        if not open_ and not (show and done):
            ui.empty("No tasks")
        with ui.scroll("list", rid=RID + "recycler_view"):
            for t in open_:
                self._row(ui, phone, t, now)
            if show and done:
                ui.header("Completed")
                for t in done:
                    self._row(ui, phone, t, now)
        ui.fab("add", "Create new task", lambda: None, rid=RID + "fab")

    def _row(self, ui: UI, phone: Phone, t: dict, now: int) -> None:
        tid = t["id"]
        ui.row(t["title"] or "", summary(t, now), rid=RID + "rowBody",
               trailing=("checkbox", bool(t["completed"]),
                         lambda: self.set_done(phone, tid, not bool(
                             (TasksDatabase.of(phone).task(tid) or {}).get("completed")))),
               on_click=lambda: phone.start_activity(TaskEditActivity(tid)))

    def set_done(self, phone: Phone, task_id: int, done: bool) -> None:
        TasksDatabase.of(phone).complete(task_id, done, phone.clock_ms)

    def toggle_completed(self, phone: Phone) -> None:
        p = prefs(phone)
        p.put(SHOW_COMPLETED, not p.get_bool(SHOW_COMPLETED, False))

    def title(self, phone: Phone) -> str:
        return "My Tasks"


class TaskEditActivity(Activity):
    package = PKG
    name = "org.tasks.activities.TaskEditActivity"

    def __init__(self, task_id: int = 0) -> None:
        super().__init__()
        self.task_id = task_id
        self.loaded = False
        self.importance = 3

    def _load(self, phone: Phone) -> dict | None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is not None and not self.loaded:
            self.loaded = True
            self.fields["title"] = task["title"] or ""
            self.fields["notes"] = task["notes"] or ""
            self.importance = int(task["importance"])
        return task

    def build(self, ui: UI, phone: Phone) -> None:
        task = self._load(phone)
        ui.toolbar("", back=True, actions=[("check", "Save", lambda: phone.finish_activity(self))],
                   rid=RID + "toolbar")
        if task is None:
            ui.empty("Task not found")
            return
        with ui.scroll("form"):
            ui.row("Completed", trailing=("checkbox", bool(task["completed"]),
                                          lambda: self.toggle_done(phone)), rid=RID + "completeBox")
            ui.edit("title", "Task name", rid=RID + "title")
            chip = due_chip(task["due"], phone.clock_ms)
            ui.row(chip or "No due date", "Due date", rid=RID + "due_date")
            ui.header("Priority")
            ui.chips("priority", list(PRIORITIES), self.importance, self.set_priority,
                     rid=RID + "priority_row")
            ui.edit("notes", "Description", multiline=True, rid=RID + "notes")

    def set_priority(self, index: int) -> None:
        self.importance = index

    def toggle_done(self, phone: Phone) -> None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is not None:
            TasksDatabase.of(phone).complete(self.task_id, not task["completed"], phone.clock_ms)

    def on_finish(self, phone: Phone) -> None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is None or not self.loaded:
            return
        new = {"title": self.fields.get("title", ""), "notes": self.fields.get("notes", "") or None,
               "importance": self.importance}
        if any(new[k] != task[k] for k in new):
            TasksDatabase.of(phone).update(self.task_id, phone.clock_ms, **new)

    def title(self, phone: Phone) -> str:
        return self.fields.get("title", "") or "Task"
