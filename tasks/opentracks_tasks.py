"""Templates in OpenTracks (`de.dennisguse.opentracks`): AndroidWorld's six SportsTracker
information-retrieval tasks (information_retrieval/proto/tasks.textproto), as data.

Each seeds database.db's `tracks` table with the task's own activities and 20 background
activities that meet none of its exclusion conditions (tasks/apps/opentracks.py), in
one `sqlite3` call; the answer is graded as AndroidWorld grades it: comma-separated
items, categories fuzzy-matched, minutes exactly, metres within 10. Dates in the goals
are worded relative to the device's today (Sunday October 15 2023) as AndroidWorld
rewords them; "this week" is Monday October 9 to today.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import opentracks as ot
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import AnswerIs
from antrap_gym.tasks.steps import Answer
from antrap_gym.tasks.template import template

ANSWER = Answer(text="{answer}")
tracker = partial(template, apps=(ot.PKG,), source="AndroidWorld", kind="answer",
                  setup=[ot.SeedTracks(P("activities"))])
WEEK_DAYS = [ot.WEEK[0] + dt.timedelta(days=i) for i in range(7)]


def _days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]


def _one(rng: np.random.Generator, pool: Any) -> Any:
    return pool[int(rng.integers(len(pool)))]


def _state(rng: np.random.Generator, mine: list[ot.Activity], *excluded) -> list[ot.Activity]:
    return ot.shuffled(rng, mine + ot.background(rng, *excluded))


def _on_date(rng: np.random.Generator) -> dict[str, Any]:
    d = _one(rng, _days(dt.date(2023, 9, 24), dt.date(2023, 10, 12)))
    category = _one(rng, ot.CATEGORIES)
    cats = ot.pick(rng, ot.CATEGORIES, 2, avoid=(category,))
    mine = ot.relevant(rng, [d, d], cats)
    return {"date": ot.reworded(rng, d), "activities": _state(rng, mine, ot.on(d)), "answer": cats}


def _count_week(rng: np.random.Generator) -> dict[str, Any]:
    category = _one(rng, ot.CATEGORIES)
    mine = ot.relevant(rng, ot.pick(rng, tuple(WEEK_DAYS), 2), [category] * 2)
    acts = _state(rng, mine, ot.same_kind(category), ot.between(*ot.WEEK))
    return {"category": category, "activities": acts, "answer": [len(mine)]}


def _duration(rng: np.random.Generator) -> dict[str, Any]:
    d = _one(rng, _days(dt.date(2023, 10, 5), ot.TODAY))
    category, minutes = _one(rng, ot.CATEGORIES), int(_one(rng, ot.DURATIONS))
    mine = ot.relevant(rng, [d], [category], minutes=[minutes],
                       distances=[int(_one(rng, ot.DISTANCES))])
    acts = _state(rng, mine, ot.on(d), ot.same_kind(category))
    return {"date": ot.reworded(rng, d), "category": category, "activity_name": mine[0]["name"],
            "activities": acts, "answer": [minutes]}


def _longest(rng: np.random.Generator) -> dict[str, Any]:
    category = _one(rng, ot.CATEGORIES)
    metres = ot.displayed(int(_one(rng, ot.DISTANCES)))
    mine = ot.relevant(rng, ot.pick(rng, tuple(WEEK_DAYS)), [category], distances=[metres])
    acts = _state(rng, mine, ot.same_kind(category), lambda a: a["distance"] >= metres,
                  ot.between(*ot.WEEK))
    return {"category": category, "activity_name": mine[0]["name"], "activities": acts,
            "answer": [metres]}


def _total_duration(rng: np.random.Generator) -> dict[str, Any]:
    category = _one(rng, ot.CATEGORIES)
    mine = ot.relevant(rng, ot.pick(rng, tuple(WEEK_DAYS), 2), [category] * 2)
    acts = _state(rng, mine, ot.same_kind(category), ot.between(*ot.WEEK))
    return {"category": category, "activities": acts, "answer": [sum(a["minutes"] for a in mine)]}


def _total_distance(rng: np.random.Generator) -> dict[str, Any]:
    first = _one(rng, _days(dt.date(2023, 10, 1), dt.date(2023, 10, 9)))
    last = _one(rng, _days(dt.date(2023, 10, 10), ot.TODAY))
    category = _one(rng, ot.CATEGORIES)
    mine = ot.relevant(rng, [first, first], [category] * 2)
    acts = _state(rng, mine, ot.same_kind(category), ot.between(first, last))
    return {"start_date": ot.reworded(rng, first), "end_date": ot.reworded(rng, last),
            "category": category, "activities": acts,
            "answer": [sum(a["distance"] for a in mine)]}


WEAK_COUNT = ("Weak as in the reference: the task always seeds two such activities, so the "
              "answer is always 2.")

SportsTrackerActivitiesOnDate = tracker(
    id="SportsTrackerActivitiesOnDate", split="train", family="SportsTrackerActivitiesOnDate",
    complexity=2, needs_scroll=True,
    goal="What activities did I do {date} in the OpenTracks app? Answer with the activity type "
         "only. If there are multiple types, format your answer in a comma separated list.",
    params=_on_date, check=AnswerIs(P("answer"), kind="text", items=True),
    solution=[ot.open_app(), ANSWER],
    doc="Two activities of different types on the date, no other activity that day; the "
        "answer is their two activity types (fuzzy, any order), read off the track list.")

SportsTrackerActivitiesCountForWeek = tracker(
    id="SportsTrackerActivitiesCountForWeek", split="train", family="SportsTrackerActivitiesCountForWeek",
    complexity=1, needs_scroll=True,
    goal="How many {category} activities did I do this week in the OpenTracks app? Assume the "
         "week starts from Monday. Express your answer as a single integer.",
    params=_count_week, check=AnswerIs(P("answer"), kind="number", items=True),
    solution=[ot.open_app(), ANSWER],
    doc="Two activities of the category this week (Monday October 9 to today), no other of "
        "that kind in the week. " + WEAK_COUNT)

SportsTrackerActivityDuration = tracker(
    id="SportsTrackerActivityDuration", split="test", complexity=1, needs_scroll=True,
    goal="How long was my {category} activity {date} in the OpenTracks app? Express your answer "
         "in minutes as a single integer.",
    params=_duration, check=AnswerIs(P("answer"), kind="number", items=True),
    solution=[ot.open_app(), ot.open_track("{activity_name}"), ANSWER],
    doc="One activity of the category on the date (no other of that kind that day); the "
        "answer is its duration in minutes, exact, as its statistics' total time shows it.")

SportsTrackerLongestDistanceActivity = tracker(
    id="SportsTrackerLongestDistanceActivity", split="train", complexity=1, needs_scroll=True,
    goal="What was the longest distance covered in a {category} activity in the OpenTracks app "
         "this week? Assume the week starts from Monday. Express your answer as a single number "
         "in meters rounded to the nearest integer.",
    params=_longest, check=AnswerIs(P("answer"), kind="number", items=True, tolerance=10),
    solution=[ot.open_app(), ot.open_track("{activity_name}"), ANSWER],
    doc="One activity of the category this week, any other of that kind this week shorter; "
        "the answer is its distance in metres, within 10 m (the app shows km to 2 decimals).")

SportsTrackerTotalDurationForCategoryThisWeek = tracker(
    id="SportsTrackerTotalDurationForCategoryThisWeek", split="test",
    family="SportsTrackerTotalDurationForCategoryThisWeek", complexity=1,
    needs_scroll=True,
    goal="What was the total duration of {category} activities in the OpenTracks app this week? "
         "Assume the week starts from Monday. Express your answer in minutes as a single integer.",
    params=_total_duration, check=AnswerIs(P("answer"), kind="number", items=True),
    solution=[ot.open_app(), ANSWER],
    doc="Two activities of the category this week with different durations, no other of that "
        "kind in the week; the answer is the sum of their minutes, exact.")

SportsTrackerTotalDistanceForCategoryOverInterval = tracker(
    id="SportsTrackerTotalDistanceForCategoryOverInterval", split="train", complexity=2,
    needs_scroll=True,
    goal="What was the total distance covered for {category} activities in the OpenTracks app "
         "from {start_date} to {end_date}? Express your answer as a single number in meters "
         "rounded to the nearest integer.",
    params=_total_distance, check=AnswerIs(P("answer"), kind="number", items=True, tolerance=10),
    solution=[ot.open_app(), ANSWER],
    doc="Two activities of the category on the first day of the interval, no other of that "
        "kind inside it; the answer is their distances' sum in metres, within 10 m.")
