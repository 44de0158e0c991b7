"""Templates in Tasks.org (`org.tasks`): AndroidWorld's six information-retrieval tasks
(tasks.textproto), as data.

Each draw seeds the relevant tasks and 20 random ones that escape the template's
exclusion condition (tasks/apps/tasks_org.py), so the expected answer follows from the
parameters; the goal words the date as AndroidWorld does (today, this Friday, October
22...). Answers are graded as there: comma-separated items, as many as expected, each
fuzzy-matching a different title (or the count as a number).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from antrap_gym.tasks.apps import tasks_org as to
from antrap_gym.tasks.apps.tasks_org import (
    HIGH_TIMES,
    HIGH_TITLES,
    NOTES,
    NOTES_LONG,
    TIMES,
    TITLES,
    TITLES_LONG,
    day_of,
    due_day,
    due_ms,
    october,
    pick,
    picks,
    task_row,
    with_distractors,
)
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import AnswerIs
from antrap_gym.tasks.steps import Answer
from antrap_gym.tasks.template import template

_WEAK_HIDE = (" The simulated list shows tasks whose hide-until date is still ahead (the real "
              "app's My Tasks hides them), so every seeded task can be read there.")
#: where the simulated app shows more than the real one (`differs`)
HIDDEN_SHOWN = {"app": "The simulated task list shows tasks whose hide-until date is still "
                       "ahead, which the real app's My Tasks hides."}
ANSWER = Answer(text="{answer}")
tasks_q = partial(template, apps=(to.PKG,), source="AndroidWorld", kind="answer", complexity=1.0,
                  setup=[to.SeedTasks(P("rows"))], solution=[to.open_app(), ANSWER])
TITLES_CHECK = AnswerIs(P("answer"), kind="text", items=True)
#: the relevant tasks' hide-until days and times in AndroidWorld's rows
HIDES = (("October 10 2023", "8:00"), ("October 9 2023", "10:00"), ("October 11 2023", "9:00"))


def _params(rng: np.random.Generator, date: str, relevant: list[dict], excluded, answer) -> dict:
    rows = with_distractors(rng, relevant, excluded)
    return {"date": to.reworded(rng, date) if date else "", "day": date, "rows": rows,
            "answer": answer}


def _due_on(rng: np.random.Generator) -> dict:
    date = pick(rng, october(15, 29))
    titles, imps, notes = picks(rng, TITLES, 3), picks(rng, (0, 0, 1, 1, 2, 2, 3, 3), 3), picks(rng, NOTES, 3)
    rows = [task_row(t, i, due_ms(date), due_ms(h, at) - 1000, notes=n)
            for t, i, n, (h, at) in zip(titles, imps, notes, HIDES)]
    return _params(rng, date, rows, lambda r: due_day(r) == day_of(date), titles)


TasksDueOnDate = tasks_q(
    id="TasksDueOnDate", split="train", family="TasksDueOnDate",
    goal="What tasks do I have due {date} in Tasks app? Answer with the titles only. If there are "
         "multiples titles, format your answer in a comma separated list.",
    params=_due_on, check=TITLES_CHECK,
    doc="AndroidWorld's: three tasks due on the day among 20 random ones due on other days; "
        "the titles, fuzzy, in any order." + _WEAK_HIDE, differs=HIDDEN_SHOWN)


def _high(rng: np.random.Generator) -> dict:
    title, notes = pick(rng, TITLES), pick(rng, NOTES)
    due, time = pick(rng, october(16, 22)), pick(rng, TIMES)
    hide = pick(rng, october(10, 15))
    row = task_row(title, 0, due_ms(due, time), due_ms(hide, time) - 1000, notes=notes)
    return _params(rng, "", [row], lambda r: r["importance"] == 0, [title])


TasksHighPriorityTasks = tasks_q(
    id="TasksHighPriorityTasks", split="train", family="TasksHighPriorityTasks",
    goal="What are my high priority tasks in Tasks app? Answer with the titles only. If there are "
         "multiples titles, format your answer in a comma separated list.",
    params=_high, check=TITLES_CHECK,
    doc="AndroidWorld's: one high-priority task (importance 0) among 20 random tasks of other "
        "priorities, completed or not; its title." + _WEAK_HIDE, differs=HIDDEN_SHOWN)


def _high_on(rng: np.random.Generator) -> dict:
    date, time, title = pick(rng, october(15, 29)), pick(rng, HIGH_TIMES), pick(rng, HIGH_TITLES)
    row = task_row(title, 0, due_ms(date, time))
    return _params(rng, date, [row], lambda r: due_day(r) == day_of(date) and r["importance"] == 0,
                   [title])


TasksHighPriorityTasksDueOnDate = tasks_q(
    id="TasksHighPriorityTasksDueOnDate", split="test", family="TasksHighPriorityTasksDueOnDate",
    goal="Which tasks with high priority are due {date} in the Tasks app? Answer with the title "
         "only. If there are multiples titles, format your answer in a comma separated list.",
    params=_high_on, check=TITLES_CHECK,
    doc="AndroidWorld's: one high-priority task due on the day (at a time); no other random "
        "task is both high priority and due that day. Its title.")


def _next_week(rng: np.random.Generator) -> dict:
    titles, notes = picks(rng, TITLES_LONG, 6), picks(rng, NOTES_LONG, 6)
    days = picks(rng, october(16, 22), 6)
    hides = (*HIDES, *[HIDES[2]] * 3)
    rows = [task_row(t, 2, due_ms(d), due_ms(h, at) - 1000, notes=n)
            for t, d, n, (h, at) in zip(titles, days, notes, hides)]
    week = (day_of("October 16 2023"), day_of("October 22 2023"))
    return _params(rng, "", rows, lambda r: week[0] <= due_day(r) <= week[1], [6])


TasksDueNextWeek = tasks_q(
    id="TasksDueNextWeek", split="train", family="TasksDueNextWeek",
    goal="How many tasks do I have due next week in Tasks app? Assume the week starts from Monday. "
         "Express your answer as a single integer.",
    params=_next_week, check=AnswerIs(P("answer"), kind="number", items=True),
    doc="AndroidWorld's: six tasks due on different days of October 16-22 among 20 random ones "
        "due outside that week; the count. Weak as there: the answer is always 6 (only the "
        "tasks change), so an agent that learnt the number passes without looking.")


def _completed_for(rng: np.random.Generator) -> dict:
    date, done_day = pick(rng, october(10, 20)), pick(rng, october(10, 15))
    titles, notes = picks(rng, TITLES_LONG, 3), picks(rng, NOTES_LONG, 3)
    times = picks(rng, TIMES, 6)
    days = ("October 10 2023", "October 9 2023", "October 11 2023")
    rows = [task_row(t, 2, due_ms(date), due_ms(h, times[i]) - 1000, due_ms(done_day, times[3 + i]) - 1000,
                     notes=n) for i, (t, n, h) in enumerate(zip(titles, notes, days))]
    return _params(rng, date, rows, lambda r: due_day(r) == day_of(date), titles)


TasksCompletedTasksForDate = tasks_q(
    id="TasksCompletedTasksForDate", split="test",
    goal="Which tasks have I completed for {date} in Tasks app? Answer with the titles only. If "
         "there are multiples titles, format your answer in a comma separated list.",
    params=_completed_for, check=TITLES_CHECK,
    solution=[to.open_app(), *to.show_completed(), ANSWER],
    doc="AndroidWorld's: three tasks due on the day, all completed, among 20 random tasks due "
        "on other days; their titles. Completed tasks show once the list's overflow menu has "
        "'Show completed' on, as in the app.")


def _incomplete_on(rng: np.random.Generator) -> dict:
    date = pick(rng, october(15, 29))
    titles, imps, notes = picks(rng, TITLES_LONG, 3), picks(rng, (0, 1, 2, 3), 3), picks(rng, NOTES_LONG, 3)
    times = picks(rng, TIMES, 3)
    days = ("October 10 2023", "October 9 2023", "October 11 2023")
    rows = [task_row(t, i, due_ms(date), due_ms(h, at) - 1000, notes=n)
            for t, i, n, h, at in zip(titles, imps, notes, days, times)]
    return _params(rng, date, rows, lambda r: due_day(r) <= day_of(date) and not r["completed"],
                   titles)


TasksIncompleteTasksOnDate = tasks_q(
    id="TasksIncompleteTasksOnDate", split="train", family="TasksIncompleteTasksOnDate",
    goal="What incomplete tasks do I have still have to do by {date} in Tasks app? Answer with the "
         "titles only. If there are multiples titles, format your answer in a comma separated list.",
    params=_incomplete_on, check=TITLES_CHECK,
    doc="AndroidWorld's: three open tasks due on the day; no random task is open and due by "
        "then. Their titles (the goal's grammar is AndroidWorld's)." + _WEAK_HIDE, differs=HIDDEN_SHOWN)
