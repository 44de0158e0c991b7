"""Simple Calendar Pro's information-retrieval templates: AndroidWorld's nine calendar
tasks of `information_retrieval/proto/tasks.textproto`, under their names, with their
goal wording, value pools, seeded events, exclusion conditions and answer formats
(tasks/apps/calendar_ir_data.py draws them).

Set-up fills events.db with the task's events and 75 random ones (one `sqlite3` call;
tear-down puts back what was there). The answer is graded as AndroidWorld's
`check_agent_answer` does: comma-separated items, as many as expected, titles and
locations fuzzy (>= 0.9), the meeting's date and time together ("October 22 2023 14:30").

The oracle answers from where the answer is shown: the asked day's day view (opened from
its month cell), the month view for the next week, the search results for a meeting with
someone, the event's editor for a location. Every step on the way is done once that
screen is in front, so from any other state of the app it goes back the same way.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.apps import calendar as cal
from antrap_gym.tasks.apps import calendar_ir_data as ir
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import AnswerIs
from antrap_gym.tasks.steps import Answer, Step, Tap, Target, TypeText
from antrap_gym.tasks.template import template

if TYPE_CHECKING:
    from antrap_gym.device import Device

TITLES = AnswerIs(P("answers"), kind="text", items=True)
LIST = " Answer with the titles only. If there are multiples titles, format your answer in a " \
       "comma separated list."


# --- where the answer is shown, and the way there ---------------------------------------------


@dataclasses.dataclass(frozen=True)
class Seen:
    """A step's `done`: the calendar is in front showing an element one of `targets`
    matches (each of them, with `every`)."""

    targets: tuple[Target, ...]
    every: bool = False

    def __call__(self, device: Device) -> bool:
        if device.foreground()[0] != cal.PKG:
            return False
        els = device.ui_elements()
        return (all if self.every else any)(t.find(els) is not None for t in self.targets)


def _marks(day: str) -> tuple[Target, Target]:
    """The month view's cell of `day` and the day view's heading for it."""
    ts = int(dt.datetime.combine(ir.parse_date(day), dt.time(), tzinfo=dt.UTC).timestamp())
    return Target(desc=cal.date_desc(ts)), Target(rid="top_value", text=cal.day_label(ts))


def to_month(day: str) -> list[Step]:
    """The month view holding `day` (or its day view) in front: back to today's month from
    another month or the event list, and the month view from the day or list view."""
    cell, heading = _marks(day)
    there = Seen((cell, heading))
    return [Tap(screen=cal.MAIN, requires=Target(desc="Next month"),
                target=Target(desc="Go to today"), done=there),
            Tap(screen=cal.MAIN, target=Target(desc="Change view"), done=there),
            Tap(screen=cal.MAIN + "|Change view", target=Target(text="Month view"), done=there)]


#: the month grid's weekday header (its "W"): the month view, not the day view or the event
#: list, is in front (a cell is tapped only there; the list would be scrolled for it)
MONTH_GRID = Target(text="W")


def to_day(day: str) -> list[Step]:
    """`day`'s day view in front (its events' titles and times): its month cell tapped. The
    last step only holds the answer back until the day is shown (the way there is redone
    when a tap went astray)."""
    cell, heading = _marks(day)
    shown = Seen((heading,))
    return [*to_month(day), Tap(screen=cal.MAIN, requires=MONTH_GRID, target=cell, done=shown),
            Tap(screen=cal.MAIN, requires=heading, target=heading, done=shown)]


def to_event(title: str, query: str) -> list[Step]:
    """The event titled `title` open in the editor (its location, start and end): found by
    searching for `query` and tapped in the results."""
    opened = Target(rid="event_title", text=title)
    field = Target(rid="search_query")
    return [Tap(screen=cal.MAIN, target=Target(desc="Search"), done=Seen((field, opened))),
            TypeText(screen=cal.MAIN, target=field, text=query, requires=field,
                     done=Seen((Target(rid="search_query", text=query), opened))),
            Tap(screen=cal.MAIN, target=Target(text=title, cls="TextView"), done=Seen((opened,))),
            Tap(screen=cal.EDITOR, requires=opened, target=opened, done=Seen((opened,)))]


def to_results(title: str, query: str) -> list[Step]:
    """The search results for `query` in front, listing the event titled `title` with its
    date and start and end times."""
    field = Target(rid="search_query")
    found = Seen((field, Target(text=title, cls="TextView")), every=True)
    return [Tap(screen=cal.MAIN, target=Target(desc="Search"), done=Seen((field,))),
            TypeText(screen=cal.MAIN, target=field, text=query, requires=field,
                     done=Seen((Target(rid="search_query", text=query),))),
            Tap(screen=cal.MAIN, requires=field, target=field, done=found)]


def solve(way: Callable[[Mapping[str, Any]], list[Step]]) -> Callable[[Mapping[str, Any]], list[Step]]:
    """Open the app, go `way`, answer."""
    return lambda ns: [cal.open_app(), *way(ns), Answer(text=str(ns["answer"]))]


ON_DAY = solve(lambda ns: to_day(ns["day"]))
WEAK_FUZZY = ("AndroidWorld's fuzzy match (ratio >= 0.9) lets a near title pass for another "
              "(\"Game night\" / \"Date night\").")

ir_template = partial(template, apps=(cal.PKG,), source="AndroidWorld", kind="answer",
                      complexity=1.0, setup=[cal.SeedEvents(P("events"))], solution=ON_DAY)

SimpleCalendarEventsOnDate = ir_template(
    id="SimpleCalendarEventsOnDate", split="train", family="SimpleCalendarEventsOnDate",
    goal="What events do I have {date} in Simple Calendar Pro? Answer with the titles only. "
         "If there are multiple titles, format your answer as a comma separated list.",
    params=ir.events_on_date, check=TITLES,
    doc="One event on the date; no random event starts or ends that day. The answer: its "
        "title. " + WEAK_FUZZY)

SimpleCalendarNextEvent = ir_template(
    id="SimpleCalendarNextEvent", split="train", family="SimpleCalendarNextEvent",
    goal="What is my next upcoming event in Simple Calendar Pro? Answer with the title only. "
         "If there are multiples titles, format your answer in a comma separated list.",
    params=ir.next_event, check=TITLES,
    doc="One event later today; no random event today starts or ends between 15:30 and it. "
        "The reference's time pool has 12:00am, midnight before the 15:34 reference time "
        "(its answer would not be the next event): left out here.",
    differs={"draw": "The time pool leaves out the reference's 12:00am (midnight before the "
                     "15:34 reference time, whose event is not the next one)."})

SimpleCalendarEventOnDateAtTime = ir_template(
    id="SimpleCalendarEventOnDateAtTime", split="test", family="SimpleCalendarEventOnDateAtTime",
    goal="What is on my schedule for {date} at {time} in Simple Calendar Pro?" + LIST,
    params=ir.event_on_date_at_time, check=TITLES,
    doc="One event at the date and time. The reference keeps random events that day off "
        "starting or ending at that minute; here also off being under way then (one that "
        "started earlier and runs past it is on the schedule too, a second right answer "
        "the reference would fail).",
    differs={"setup": "Random events are also kept off being under way at that time (the "
                      "reference keeps them off starting or ending then only, so one running "
                      "through it is a second right answer that its check fails)."})

SimpleCalendarAnyEventsOnDate = ir_template(
    id="SimpleCalendarAnyEventsOnDate", split="train", family="SimpleCalendarAnyEventsOnDate",
    goal="Do I have any events {date} in Simple Calendar Pro?" + LIST,
    params=ir.any_events_on_date, check=TITLES,
    doc="Three one-hour events on the date with distinct titles (drawn without replacement, "
        "as are their times); no random event touches the day. The answer: the three titles. "
        + WEAK_FUZZY)

SimpleCalendarNextMeetingWithPerson = ir_template(
    id="SimpleCalendarNextMeetingWithPerson", split="test", family="SimpleCalendarNextMeetingWithPerson",
    goal="When is my next meeting with {person} in Simple Calendar Pro? Express your answer in "
         "the format <month name> <day> <year> <hour in 24-hour format>:<minutes>.",
    params=ir.next_meeting_with_person,
    solution=solve(lambda ns: to_results(f"Drinks with {ns['person']}", ns["person"])),
    check=AnswerIs(P("answers"), kind="datetime", items=True),
    doc="'Drinks with {person}' (30 minutes) at a date and time of October 15-29; no other "
        "event names the person (random titles never do). The answer: its start, 'October 22 "
        "2023 14:30' (date and time must both match). As in the reference, the meeting may be "
        "earlier today than the 15:34 reference time; it is the only one with the person.")

SimpleCalendarLocationOfEvent = ir_template(
    id="SimpleCalendarLocationOfEvent", split="train", family="SimpleCalendarLocationOfEvent",
    goal="What is the location of my {title} event in Simple Calendar Pro? Answer with the "
         "location only.",
    params=ir.location_of_event, check=AnswerIs(P("answers"), kind="text", items=True),
    solution=solve(lambda ns: to_event(ns["title"], ns["title"])),
    doc="One event of that title (30 minutes) with a location; no random title contains it. "
        "The answer: the location, fuzzy.")

SimpleCalendarEventsInNextWeek = ir_template(
    id="SimpleCalendarEventsInNextWeek", split="train", family="SimpleCalendarEventsInNextWeek",
    goal="What events do I have in the next week in Simple Calendar Pro? Assume the week starts "
         "from Monday." + LIST,
    params=ir.events_in_next_week, check=TITLES,
    solution=solve(lambda ns: to_month(ns["day"])),
    doc="Two events on two different days of October 16-22, distinct titles; no random event "
        "touches October 15-22. The answer: both titles. " + WEAK_FUZZY)

SimpleCalendarFirstEventAfterStartTime = ir_template(
    id="SimpleCalendarFirstEventAfterStartTime", split="train",
    family="SimpleCalendarFirstEventAfterStartTime",
    goal="What is my first event after {time} {date} in Simple Calendar Pro?" + LIST,
    params=ir.first_event_after, check=TITLES,
    doc="One event at the date and time; every random event that day is over before it. "
        "The answer: its title (an event at that very time counts as after, as there).")

SimpleCalendarEventsInTimeRange = ir_template(
    id="SimpleCalendarEventsInTimeRange", split="test", family="SimpleCalendarEventsInTimeRange",
    goal="Do I have any events between {start_time} and 8pm {date} in Simple Calendar Pro? Assume "
         "the week starts from Sunday." + LIST,
    params=ir.events_in_time_range, check=TITLES,
    doc="One event starting at the start time; no random event that day starts or ends "
        "between then and 8pm. The answer: its title.")
