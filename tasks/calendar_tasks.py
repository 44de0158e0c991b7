"""Templates in Simple Calendar Pro (`com.simplemobiletools.calendar.pro`), as data.

Set-up seeds events.db with AndroidWorld's generated events (tasks/apps/calendar.py);
add checks compare the new `events` row's start_ts and end_ts exactly, its title and
description fuzzily (difflib >= 0.9, as AndroidWorld's validator) and repeat_interval /
repeat_rule exactly, with addition integrity; delete checks remove the seeded targets
by id, with removal integrity. Every AnTrap row reuses SimpleCalendarAddOneEvent's draw
and check with another target day or hour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import calendar as cal
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import Added, ElementShows, Eq, Fuzzy, Holds, Removed
from antrap_gym.tasks.steps import Step, Tap, Target, TypeText
from antrap_gym.tasks.template import template

TODAY = cal.TODAY.day   # 15
REPEATS = {"daily": cal.DAY, "weekly": cal.WEEK}


def _target(p: dict[str, Any]) -> dict[str, Any]:
    return p["events"][0]


def _when(p: dict[str, Any], ev: dict[str, Any], dur: bool = True) -> dict[str, Any]:
    start = cal.start_of(ev)
    out = {"year": start.year, "month": start.month, "day": start.day, "hour": start.hour,
           "day_of_week": start.strftime("%A")}
    if dur:
        out["duration_mins"] = (ev["end_ts"] - ev["start_ts"]) // 60
    return out


def add_draw(start_day: int = TODAY, end_day: int = 31, start_hour: int = 0,
             repeat: bool = False) -> Callable[[np.random.Generator], dict[str, Any]]:
    """AndroidWorld's SimpleCalendarAddOneEvent draw over a day / hour window: one
    event to create and 0-20 noise events (October, other titles)."""

    def draw(rng: np.random.Generator) -> dict[str, Any]:
        ev = cal.make_event(rng, cal.october_ts(rng, start_day, end_day, start_hour))
        extra: dict[str, Any] = {}
        if repeat:
            rule = sorted(REPEATS)[int(rng.integers(2))]
            ev = {**ev, "repeat_interval": REPEATS[rule],
                  "repeat_rule": cal.weekly_rule(ev["start_ts"]) if rule == "weekly" else 0}
            extra["repeat_rule"] = rule
        noise = cal.noise_events(rng, int(rng.integers(0, 21)),
                                 keep=lambda e: e["title"] != ev["title"])
        return {**_when({}, ev), "event_title": ev["title"],
                "event_description": ev["description"], **extra, "event": ev, "noise": noise}

    return draw


def _add_derived(p: dict[str, Any]) -> dict[str, Any]:
    ev = p["event"]
    return {"start_date": cal.date_desc(ev["start_ts"]), "end_date": cal.date_desc(ev["end_ts"]),
            "start_label": cal.editor_date(ev["start_ts"]), "end_label": cal.editor_date(ev["end_ts"]),
            **cal.time_parts("start", ev["start_ts"]), **cal.time_parts("end", ev["end_ts"])}


def _col(name: str) -> Eq:
    return Eq(F(lambda p, c=name: p["event"].get(c, 0)))


NEW_EVENT = {
    "start_ts": _col("start_ts"), "end_ts": _col("end_ts"),
    "title": Fuzzy("{event_title}", 0.9), "description": Fuzzy("{event_description}", 0.9),
    "repeat_interval": _col("repeat_interval"), "repeat_rule": _col("repeat_rule"),
}
ADDED = Added(cal.EVENTS, (NEW_EVENT,))
#: AndroidWorld's validator also compares the location (fuzzy) with the expected event's,
#: which is empty: an event saved with a location fails there
REFERENCE_ADDED = Added(cal.EVENTS, ({**NEW_EVENT, "location": Fuzzy("", 0.9)},))
LOCATION = {"check": "Ours does not look at the new event's location; AndroidWorld's "
                     "validate_event_addition_integrity compares it (fuzzy) with the expected "
                     "event's, which is empty, so an event saved with any location fails "
                     "there."}


#: the editor showing the start as set (what the end's steps and Save wait for)
START_SHOWN = (cal.shown("start", "date", "{start_label}"), cal.shown("start", "time", "{start_time}"))


def add_solution(repeat: bool = False) -> list[Step]:
    steps: list[Step] = [
        cal.open_app(),
        *cal.reopen_saved("{event_title}"),
        Tap(screen=cal.MAIN, target=Target(desc="New event"),
            done=Holds(cal.EventTitled("{event_title}"))),
        TypeText(screen=cal.EDITOR, target=cal.field("event_title"), text="{event_title}"),
        TypeText(screen=cal.EDITOR, target=cal.field("event_description"),
                 text="{event_description}"),
        *cal.set_when("start", "{start_date}", "{start_label}", "start"),
        *cal.set_when("end", "{end_date}", "{end_label}", "end", after=START_SHOWN),
    ]
    if repeat:
        repeats = Holds(ElementShows(({"resource_id": Eq(cal.RID + "event_repetition"),
                                       "text": Eq("{repeat_label}")},)))
        steps += [Tap(screen=cal.EDITOR, target=Target(rid="event_repetition"), done=repeats,
                      requires=(*START_SHOWN, cal.shown("end", "date", "{end_label}"),
                                cal.shown("end", "time", "{end_time}"))),
                  Tap(screen=cal.EDITOR + "|Repeat", target=Target(text="{repeat_label}"),
                      done=repeats)]
    form = (*START_SHOWN, cal.shown("end", "date", "{end_label}"),
            cal.shown("end", "time", "{end_time}"))
    if repeat:
        form += (Target(rid="event_repetition", text="{repeat_label}"),)
    return [*steps, Tap(screen=cal.EDITOR, target=Target(desc="Save"), done=DONE, requires=form)]


AW_TAIL = (" with the title '{event_title}' and the description '{event_description}'."
           " The event should last for {duration_mins} mins.")
ADD_DOC = ("AndroidWorld's check: one new events row with this start_ts and end_ts "
           "(exact), title and description fuzzy (>= 0.9), repeat_interval and repeat_rule "
           "as drawn (0 here), and no seeded row changed. {more}")


def add_template(id: str, source: str, when: str, draw, doc: str = "") -> type:
    """One of the add-an-event family (the same task on other days: all on the train side)."""
    return template(
        id=id, apps=(cal.PKG,), source=source, kind="action", split="train",
        family="SimpleCalendarAddEvent", complexity=3.4,
        goal="In Simple Calendar Pro, create a calendar event " + when + AW_TAIL,
        params=draw, setup=[cal.SeedEvents(P("noise"))], derived=_add_derived, check=ADDED,
        reference_check=REFERENCE_ADDED, differs=LOCATION, solution=add_solution(),
        doc=ADD_DOC.format(more=doc))


ADD_ROWS = (
    ("SimpleCalendarAddOneEvent", "AndroidWorld", "on {year}-{month}-{day} at {hour}h",
     add_draw(), "Any day Oct 15-31, any hour."),
    ("SimpleCalendarAddOneEventRelativeDay", "AndroidWorld",
     "for this {day_of_week} at {hour}h", add_draw(TODAY + 1, TODAY + 6),
     "Monday Oct 16 to Saturday Oct 21, named by weekday."),
    ("SimpleCalendarAddOneEventTomorrow", "AndroidWorld", "for tomorrow at {hour}h",
     add_draw(TODAY + 1, TODAY + 1), "Oct 16."),
    ("SimpleCalendarAddOneEventInTwoWeeks", "AndroidWorld",
     "in two weeks from today at {hour}h", add_draw(TODAY + 14, TODAY + 14), "Oct 29."),
    ("SimpleCalendarAddEventNextWeek", "AnTrap",
     "for next week (7 days from today) at {hour}h", add_draw(TODAY + 7, TODAY + 7), "Oct 22."),
    ("SimpleCalendarAddEventThisWeekend", "AnTrap",
     "for this weekend (Saturday or Sunday) at {hour}h", add_draw(21, 22),
     "Oct 21 or 22; the check wants the drawn day, though the goal allows either."),
    ("SimpleCalendarAddEventEvening", "AnTrap",
     "on {year}-{month}-{day} in the evening (after 6pm) at {hour}h",
     add_draw(start_hour=18), "Oct 15-31, 18h-23h."),
    ("SimpleCalendarAddEventInThreeDays", "AnTrap", "in three days from today at {hour}h",
     add_draw(TODAY + 3, TODAY + 3), "Oct 18."),
    ("SimpleCalendarAddEventInFiveDays", "AnTrap", "in five days from today at {hour}h",
     add_draw(TODAY + 5, TODAY + 5), "Oct 20."),
    ("SimpleCalendarAddEventInTenDays", "AnTrap", "in ten days from today at {hour}h",
     add_draw(TODAY + 10, TODAY + 10), "Oct 25."),
    ("SimpleCalendarAddEventOnLastDayOfMonth", "AnTrap", "on October 31 at {hour}h",
     add_draw(31, 31), "Oct 31."),
    ("SimpleCalendarAddEventOnHalloween", "AnTrap", "for Halloween (October 31) at {hour}h",
     add_draw(31, 31), "Oct 31 (the same draw as SimpleCalendarAddEventOnLastDayOfMonth)."),
)

for _row in ADD_ROWS:
    globals()[_row[0]] = add_template(*_row)


def _repeat_derived(p: dict[str, Any]) -> dict[str, Any]:
    return {**_add_derived(p), "repeat_label": p["repeat_rule"].capitalize()}


SimpleCalendarAddRepeatingEvent = template(
    id="SimpleCalendarAddRepeatingEvent", apps=(cal.PKG,), source="AndroidWorld", kind="action",
    split="train", complexity=3.4,
    goal="In Simple Calendar Pro, create a recurring calendar event titled '{event_title}'"
         " starting on {year}-{month}-{day} at {hour}h. The event recurs {repeat_rule}, forever,"
         " and lasts for {duration_mins} minutes each occurrence. The event description should"
         " be '{event_description}'.",
    params=add_draw(repeat=True), setup=[cal.SeedEvents(P("noise"))], derived=_repeat_derived,
    check=ADDED, reference_check=REFERENCE_ADDED, differs=LOCATION,
    solution=add_solution(repeat=True),
    doc=ADD_DOC.format(more="Daily: repeat_interval 86400, repeat_rule 0; weekly: 604800 and "
                            "the start's weekday bit (Mon=1 .. Sun=64)."))


# --- deletions -----------------------------------------------------------------------------------


def delete_draw(n: int, start_day: int = TODAY, end_day: int = 31, one: bool = False
                ) -> Callable[[np.random.Generator], dict[str, Any]]:
    """n target events on one random day (Oct start_day..end_day), seeded first (ids
    1..n), then 20 noise events: on other days, or (one) at another time and title."""

    def draw(rng: np.random.Generator) -> dict[str, Any]:
        day_ts = cal.october_ts(rng, start_day, end_day)
        day = cal.start_of({"start_ts": day_ts}).day
        if one:
            targets = [cal.make_event(rng, day_ts)]
        else:
            targets = [cal.make_event(rng, cal.october_ts(rng, day, day)) for _ in range(n)]
        t = targets[0]

        def keep(e: dict[str, Any]) -> bool:
            if one:
                return e["start_ts"] != t["start_ts"] and e["title"] != t["title"]
            return cal.start_of(e).day != day

        noise = cal.noise_events(rng, 20, keep=keep)
        first = targets[0]
        return {**_when({}, first, dur=False), "day": day, "event_title": first["title"],
                "titles": [e["title"] for e in targets], "events": [*targets, *noise]}

    return draw


def _delete_derived(p: dict[str, Any]) -> dict[str, Any]:
    ts = _target(p)["start_ts"]
    return {"day_desc": cal.date_desc(ts), "day_label": cal.day_label(ts), "day_ts": int(ts),
            **{f"title_{i}": t for i, t in enumerate(p["titles"])}}


def delete_solution(n: int) -> list[Step]:
    in_day = Target(rid="top_value", text="{day_label}")
    steps: list[Step] = [cal.open_app(),
                         Tap(screen=cal.MAIN, target=Target(desc="{day_desc}"))]
    for i in range(n):
        gone = Holds(cal.EventGone("{title_" + str(i) + "}", P("day_ts")))
        steps += [
            Tap(screen=cal.MAIN, requires=in_day, done=gone,
                target=Target(text="{title_" + str(i) + "}")),
            Tap(screen=cal.EDITOR, target=Target(desc="Delete"), done=gone),
            Tap(screen=cal.EDITOR + "|Delete event", target=Target(text="Delete"),
                done=DONE if i == n - 1 else gone),
        ]
    return steps


DELETE_DOC = ("AndroidWorld's check (removal integrity): the {n} seeded target events "
              "(ids 1..{n}) are gone and the 20 others unchanged, none added. {more}")

for _id, _n, _cx, _goal, _kw, _more in (
    ("SimpleCalendarDeleteEvents", 3, 1.4,
     "In Simple Calendar Pro, delete all the calendar events on {year}-{month}-{day}", {},
     "Three events on one day, the noise on other days."),
    ("SimpleCalendarDeleteOneEvent", 1, 1.2,
     "In Simple Calendar Pro, delete the calendar event on {year}-{month}-{day} at {hour}h"
     " with the title '{event_title}'", {"one": True},
     "The noise has other start times and titles (it may share the day)."),
    ("SimpleCalendarDeleteEventsOnRelativeDay", 2, 1.2,
     "In Simple Calendar Pro, delete all events scheduled for this {day_of_week}."
     " Assume the week starts from Sunday.", {"start_day": TODAY + 1, "end_day": TODAY + 6},
     "Two events on one day Monday Oct 16 .. Saturday Oct 21, the noise on other days."),
):
    globals()[_id] = template(
        id=_id, apps=(cal.PKG,), source="AndroidWorld", kind="action", split="test",
        family="SimpleCalendarDelete",
        complexity=_cx, goal=_goal, params=delete_draw(_n, **_kw),
        setup=[cal.SeedEvents(P("events"))], derived=_delete_derived,
        check=Removed(cal.EVENTS, {"id": cal.IdIn(tuple(range(1, _n + 1)))}),
        solution=delete_solution(_n), doc=DELETE_DOC.format(n=_n, more=_more))
