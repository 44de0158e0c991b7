"""Simple Calendar Pro's information-retrieval templates: AndroidWorld's nine calendar
tasks of `information_retrieval/proto/tasks.textproto`, under their names, with their
goal wording, value pools, seeded events, exclusion conditions and answer formats
(tasks/apps/calendar_ir_data.py draws them).

Set-up fills events.db with the task's events and 75 random ones (one `sqlite3` call;
tear-down puts back what was there). The answer is graded as AndroidWorld's
`check_agent_answer` does: comma-separated items, as many as expected, titles and
locations fuzzy (>= 0.9), the meeting's date and time together ("October 22 2023 14:30").
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import calendar as cal
from antrap_gym.tasks.apps import calendar_ir_data as ir
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import AnswerIs
from antrap_gym.tasks.steps import Answer
from antrap_gym.tasks.template import template

TITLES = AnswerIs(P("answers"), kind="text", items=True)
LIST = " Answer with the titles only. If there are multiples titles, format your answer in a " \
       "comma separated list."
SOLUTION = [cal.open_app(), Answer(text="{answer}")]
WEAK_FUZZY = ("AndroidWorld's fuzzy match (ratio >= 0.9) lets a near title pass for another "
              "(\"Game night\" / \"Date night\").")

ir_template = partial(template, apps=(cal.PKG,), source="AndroidWorld", kind="answer",
                      complexity=1.0, setup=[cal.SeedEvents(P("events"))], solution=SOLUTION)

SimpleCalendarEventsOnDate = ir_template(
    id="SimpleCalendarEventsOnDate", split="train",
    goal="What events do I have {date} in Simple Calendar Pro? Answer with the titles only. "
         "If there are multiple titles, format your answer as a comma separated list.",
    params=ir.events_on_date, check=TITLES,
    doc="One event on the date; no random event starts or ends that day. The answer: its "
        "title. " + WEAK_FUZZY)

SimpleCalendarNextEvent = ir_template(
    id="SimpleCalendarNextEvent", split="train",
    goal="What is my next upcoming event in Simple Calendar Pro? Answer with the title only. "
         "If there are multiples titles, format your answer in a comma separated list.",
    params=ir.next_event, check=TITLES,
    doc="One event later today; no random event today starts or ends between 15:30 and it. "
        "The reference's time pool has 12:00am, midnight before the 15:34 reference time "
        "(its answer would not be the next event): left out here.")

SimpleCalendarEventOnDateAtTime = ir_template(
    id="SimpleCalendarEventOnDateAtTime", split="test",
    goal="What is on my schedule for {date} at {time} in Simple Calendar Pro?" + LIST,
    params=ir.event_on_date_at_time, check=TITLES,
    doc="One event at the date and time. The reference keeps random events that day off "
        "starting or ending at that minute; here also off being under way then (one that "
        "started earlier and runs past it is on the schedule too, a second right answer "
        "the reference would fail).")

SimpleCalendarAnyEventsOnDate = ir_template(
    id="SimpleCalendarAnyEventsOnDate", split="train",
    goal="Do I have any events {date} in Simple Calendar Pro?" + LIST,
    params=ir.any_events_on_date, check=TITLES,
    doc="Three one-hour events on the date with distinct titles (drawn without replacement, "
        "as are their times); no random event touches the day. The answer: the three titles. "
        + WEAK_FUZZY)

SimpleCalendarNextMeetingWithPerson = ir_template(
    id="SimpleCalendarNextMeetingWithPerson", split="test",
    goal="When is my next meeting with {person} in Simple Calendar Pro? Express your answer in "
         "the format <month name> <day> <year> <hour in 24-hour format>:<minutes>.",
    params=ir.next_meeting_with_person,
    check=AnswerIs(P("answers"), kind="datetime", items=True),
    doc="'Drinks with {person}' (30 minutes) at a date and time of October 15-29; no other "
        "event names the person (random titles never do). The answer: its start, 'October 22 "
        "2023 14:30' (date and time must both match). As in the reference, the meeting may be "
        "earlier today than the 15:34 reference time; it is the only one with the person.")

SimpleCalendarLocationOfEvent = ir_template(
    id="SimpleCalendarLocationOfEvent", split="train",
    goal="What is the location of my {title} event in Simple Calendar Pro? Answer with the "
         "location only.",
    params=ir.location_of_event, check=AnswerIs(P("answers"), kind="text", items=True),
    doc="One event of that title (30 minutes) with a location; no random title contains it. "
        "The answer: the location, fuzzy.")

SimpleCalendarEventsInNextWeek = ir_template(
    id="SimpleCalendarEventsInNextWeek", split="train",
    goal="What events do I have in the next week in Simple Calendar Pro? Assume the week starts "
         "from Monday." + LIST,
    params=ir.events_in_next_week, check=TITLES,
    doc="Two events on two different days of October 16-22, distinct titles; no random event "
        "touches October 15-22. The answer: both titles. " + WEAK_FUZZY)

SimpleCalendarFirstEventAfterStartTime = ir_template(
    id="SimpleCalendarFirstEventAfterStartTime", split="train",
    goal="What is my first event after {time} {date} in Simple Calendar Pro?" + LIST,
    params=ir.first_event_after, check=TITLES,
    doc="One event at the date and time; every random event that day is over before it. "
        "The answer: its title (an event at that very time counts as after, as there).")

SimpleCalendarEventsInTimeRange = ir_template(
    id="SimpleCalendarEventsInTimeRange", split="test",
    goal="Do I have any events between {start_time} and 8pm {date} in Simple Calendar Pro? Assume "
         "the week starts from Sunday." + LIST,
    params=ir.events_in_time_range, check=TITLES,
    doc="One event starting at the start time; no random event that day starts or ends "
        "between then and 8pm. The answer: its title.")
