"""Tasks.org's screens: the "My Tasks" list and the task editor.

The list shows each open task as a row, soonest due first: the completion box at the
left, the title, the due date at the right. As in the app, the priority is only the box's
colour (red high, amber medium, blue low, grey none; `PRIORITY_COLORS`): the box is an
ImageView with no text or content-desc, so a screen reader learns nothing of it.
Completed tasks are hidden unless the overflow menu's "Show completed" is on, when they
follow under a "Completed" header. Tapping a task opens the editor (title, due date, the
priority as a row of four radio buttons in those colours, None / Low / Medium / High from
left to right and unlabelled, description, completed checkbox), which saves when left,
as the app does.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.tasks_org.storage import (
    PKG,
    SHOW_COMPLETED,
    TasksDatabase,
    prefs,
)
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.popups import Choice

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
DAY_MS = 86_400_000
#: Tasks.org's priority colours (priority_1 .. priority_4: red_500, amber_500, blue_500,
#: grey_500) by importance, 0 high .. 3 none
PRIORITY_COLORS = {0: (0xF4, 0x43, 0x36), 1: (0xFF, 0xC1, 0x07), 2: (0x21, 0x96, 0xF3),
                   3: (0x9E, 0x9E, 0x9E)}


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


def _order(task: dict) -> tuple:
    return (task["due"] <= 0, task["due"], task["importance"], (task["title"] or "").casefold())


class MainActivity(Activity):
    package = PKG
    name = "com.todoroo.astrid.activity.MainActivity"

    def build(self, ui: UI, phone: PhoneContext) -> None:
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

    def _row(self, ui: UI, phone: PhoneContext, t: dict, now: int) -> None:
        """The completion box tinted by priority, the title, the due date at the right."""
        tid = t["id"]
        r = ui._take(ui.dp(56))
        if ui.culled(r):
            return
        row = ui.mk("row", r, rid=RID + "rowBody",
                    on_click=lambda: phone.start_activity(TaskEditActivity(tid)))
        box = ui.mk("tint_check", (r[0], r[1], r[0] + ui.dp(56), r[3]), row,
                    style="done" if t["completed"] else "", rid=RID + "completeBox",
                    on_click=lambda: self.set_done(phone, tid, not bool(
                        (TasksDatabase.of(phone).task(tid) or {}).get("completed"))))
        box.value = PRIORITY_COLORS.get(int(t["importance"]), PRIORITY_COLORS[3])
        due = due_chip(t["due"], now)
        right = r[2] - ui.dp(8)
        if due:
            w = txt.text_width(due, ui.sp(14)) + ui.dp(16)
            ui.mk("text", (right - w + ui.dp(8), r[1], right, r[3]), row, text=due,
                  style="summary", rid=RID + "due_date")
            right -= w
        ui.mk("text", (r[0] + ui.dp(56), r[1], right, r[3]), row, text=t["title"] or "",
              style="row_title", rid=RID + "title")

    def set_done(self, phone: PhoneContext, task_id: int, done: bool) -> None:
        TasksDatabase.of(phone).complete(task_id, done, phone.clock_ms)

    def toggle_completed(self, phone: PhoneContext) -> None:
        p = prefs(phone)
        p.put(SHOW_COMPLETED, not p.get_bool(SHOW_COMPLETED, False))

    def title(self, phone: PhoneContext) -> str:
        return "My Tasks"


class TaskEditActivity(Activity):
    package = PKG
    name = "org.tasks.activities.TaskEditActivity"

    def __init__(self, task_id: int = 0) -> None:
        super().__init__()
        self.task_id = task_id
        self.loaded = False
        self.importance = 3

    def _load(self, phone: PhoneContext) -> dict | None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is not None and not self.loaded:
            self.loaded = True
            self.fields["title"] = task["title"] or ""
            self.fields["notes"] = task["notes"] or ""
            self.importance = int(task["importance"])
        return task

    def build(self, ui: UI, phone: PhoneContext) -> None:
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
            self._priority_row(ui)
            ui.edit("notes", "Description", multiline=True, rid=RID + "notes")

    def _priority_row(self, ui: UI) -> None:
        """The flag, "Priority", and a radio button per priority in its colour, None at
        the left to High at the right (the app's PriorityRow: no labels, no descriptions)."""
        r = ui._take(ui.dp(64))
        if ui.culled(r):
            return
        s = ui.dp(24)
        cy = (r[1] + r[3]) // 2
        ui.mk("image", (r[0] + ui.dp(16), cy - s // 2, r[0] + ui.dp(16) + s, cy + s // 2),
              icon="flag")
        ui.mk("text", (r[0] + ui.dp(72), r[1], r[0] + ui.dp(160), r[3]), text="Priority",
              style="row_title")
        cell = ui.dp(48)
        x = r[2] - ui.dp(16) - 4 * cell
        for importance in (3, 2, 1, 0):
            v = ui.mk("radio", (x, cy - cell // 2, x + cell, cy + cell // 2), checkable=True,
                      checked=self.importance == importance,
                      on_click=lambda i=importance: self.set_priority(i))
            v.value = PRIORITY_COLORS[importance]
            x += cell

    def set_priority(self, index: int) -> None:
        self.importance = index

    def toggle_done(self, phone: PhoneContext) -> None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is not None:
            TasksDatabase.of(phone).complete(self.task_id, not task["completed"], phone.clock_ms)

    def on_finish(self, phone: PhoneContext) -> None:
        task = TasksDatabase.of(phone).task(self.task_id)
        if task is None or not self.loaded:
            return
        new = {"title": self.fields.get("title", ""), "notes": self.fields.get("notes", "") or None,
               "importance": self.importance}
        if any(new[k] != task[k] for k in new):
            TasksDatabase.of(phone).update(self.task_id, phone.clock_ms, **new)

    def title(self, phone: PhoneContext) -> str:
        return self.fields.get("title", "") or "Task"
