"""Simple Calendar Pro's information-retrieval draws (AndroidWorld's `tasks.textproto`
calendar tasks): the value pools, the goal's wording of a date, the events each task
seeds, the 75 random extra events kept clear of the answer by the task's exclusion
conditions, and the expected answer. Pure functions of the generator, testable alone.

AndroidWorld's rules, followed here:

- a parameter is one value of its pool, drawn uniformly (duplicates in a pool weigh
  double, as there); `{x_without_replacement}` draws from the pool less the values
  already used (the parameter's own and earlier draws);
- a seeded event starts at its date and time (UTC) and lasts its `duration`, or 30
  minutes when it has none;
- each extra event starts at a random minute in the 30 days around the device's
  reference time (2023-10-15 15:34 UTC), lasts 15/30/45/60 minutes, and takes
  AndroidWorld's generated title and description; it is redrawn while it meets *all*
  of the task's exclusion conditions, a date or time condition being met when the
  event's start or its end meets it (an event spanning midnight counts on both days);
- the goal says a date as AndroidWorld rewords it: "October 21", "October 21 2023",
  and where they apply "today", "tomorrow", the weekday and "this <weekday>" (within
  a week), "the <weekday> after next" (within two).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import calendar as cal

UTC = dt.UTC
#: the device's reference time (AndroidWorld's device_constants.DT)
NOW = dt.datetime(2023, 10, 15, 15, 34, tzinfo=UTC)
DATE_FORMAT = "%B %d %Y"
#: events without a duration last this long (calendar_utils.DEFAULT_DURATION_S)
DEFAULT_DURATION_S = 1800
#: random extra events per task, and the window (centred on NOW) they fall in
EXTRA_EVENTS = 75
WINDOW_MIN = 30 * 24 * 60
MAX_RETRIES = 100

# --- value pools (tasks.textproto) -----------------------------------------------------------

DATES = tuple(f"October {d} 2023" for d in range(15, 30))
NEXT_WEEK_DATES = tuple(f"October {d} 2023" for d in range(16, 23))
TIMES = ("11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12pm", "6:30am", "8:00pm",
         "12am", "5:20pm", "23:59", "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm",
         "11:30am", "20:00")
#: SimpleCalendarNextEvent's times, all after 15:34 -- less the reference's "12:00am",
#: which is midnight *before* the reference time (a goal whose answer would be false)
LATER_TODAY = ("3:53pm", "21:45", "5pm", "17:30", "16:00", "18:30", "18:45", "7pm", "7:15pm",
               "21:45", "8pm", "8:10pm", "5:20pm", "23:59", "4:00pm", "16:15", "9:15pm",
               "20:40", "22:35")
#: the pool of SimpleCalendarNextMeetingWithPerson and SimpleCalendarLocationOfEvent
TIMES_WITH_REPEATS = ("11:00", "1:30pm", "9:45am", "11:00am", "1:30pm", "9:45am", "21:45",
                      "10:00am", "3:15pm", "12pm", "6:30am", "8:00pm", "12am", "5:20pm", "23:59",
                      "7:45am", "4pm", "10:30am", "16:15", "2:45am", "9:15pm", "11:30am", "20:00")
NEXT_WEEK_TIMES = ("11:00am", "1:30pm", "9:45am", "21:45", "10:00am", "3:15pm", "12:00pm",
                   "6:30am", "8pm", "12:00am", "5:20pm", "23:59", "7:45am", "4pm", "10:30am",
                   "16:15", "2:45am", "9:15pm", "11:30am", "20:00")
AFTER_TIMES = ("18:05", "11:00am", "1:30pm", "9:45am", "10:00am", "3:15pm", "12pm", "6:30am",
               "8:00pm", "5:20pm", "7:45am", "4pm", "10:30am", "16:15", "9:15pm", "11:30am",
               "20:00")
#: SimpleCalendarEventsInTimeRange's start times (all before 8pm)
RANGE_STARTS = ("11:00am", "1:30pm", "9:45am", "10:00am", "3:15pm", "12pm", "6:30am", "5:20pm",
                "7:45am", "4pm", "10:30am", "4:15pm", "11:30am")
DURATIONS = ("30 m", "60 minutes", "45min", "1 h", "2 hours", "15 minutes", "1.5 hours",
             "90 min", "20 min", "3 h", "25 minutes", "10 min", "50 min", "2.5 hours",
             "75 minutes", "5 minutes")
_COMMON_TITLES = ("Product demo", "Team lunch", "Coffee with CEO", "Quarterly review",
                  "Scrum meeting", "Doctor's appointment", "Birthday party", "Coding challenge",
                  "Board meeting", "Marketing strategy workshop")
_FUN_TITLES = ("Movie night", "Dinner with friends", "Concert", "Game night", "Date night",
               "Weekend trip", "Family reunion", "Volunteer cleanup", "Sports game")
ON_DATE_TITLES = ("Data Dive", "Bug Bash", "Dan's Birthday Party", "Trivia Night",
                  *_COMMON_TITLES, *_FUN_TITLES)
TITLES = ("Team Meeting", "1-on-1 with Manager", *_COMMON_TITLES, *_FUN_TITLES)
LOCATION_TITLES = ("Marketing Brainstorm", "Lunch with Client", "Team Offsite",
                   *_COMMON_TITLES, *_FUN_TITLES)
NEXT_WEEK_TITLES = (*_COMMON_TITLES, "Meet with {person}", *_FUN_TITLES)
AFTER_TITLES = ("Sales Call", "Client Meeting", "Training Session", "Project Kickoff",
                "Team Brainstorming", "Dentist Appointment", "Haircut", "Grocery Shopping",
                "School Pickup", "Soccer Practice")
RANGE_TITLES = ("Gym", "Dinner with Friends", "Happy Hour", "Evening Walk", "Yoga Class",
                "Run in the Park", "Cooking Class", "Movie Night", "Grocery Shopping",
                "Pick up Kids from School")
LOCATIONS = ("Conference Room A", "McDonald's", "100 Main St Chicago", "City Park",
             "The Coffee Bean", "Sarah's apartment", "Conference Room A", "Zoom meeting",
             "Riverside Restaurant", "Local library", "Bowling alley", "Community center", "Online",
             "The beach", "John's backyard", "State Park", "Art Museum", "Hiking trail", "Downtown",
             "Mall", "The gym", "School auditorium", "Virtual")
PEOPLE = ("Amanda", "John", "David", "Lucas", "James", "Ava", "Isabella", "Mia", "Elijah",
          "Charlotte", "Emily", "Muhammad", "Sofia", "Mateo", "Aaliyah", "Isabella", "Daniel", "Mia")


# --- parsing what the pools say ---------------------------------------------------------------


def parse_date(text: str) -> dt.date:
    return dt.datetime.strptime(text, DATE_FORMAT).date()


def parse_time(text: str) -> dt.time:
    """"21:45", "1:30pm", "12pm", "12am" (AndroidWorld's three formats)."""
    for fmt in ("%H:%M", "%I:%M%p", "%I%p"):
        try:
            t = dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
        return dt.time(t.hour, t.minute)
    raise ValueError(f"not a time: {text!r}")


_DURATION = re.compile(r"^\s*([\d.]+)\s*([hm])")


def parse_duration(text: str) -> int:
    """Seconds in "1.5 hours", "45min", "30 m", "1 h" (hours when it says h, else minutes)."""
    m = _DURATION.match(text)
    if m is None:
        raise ValueError(f"not a duration: {text!r}")
    return int(float(m.group(1)) * (3600 if m.group(2) == "h" else 60))


def at(date: str, time: str) -> dt.datetime:
    return dt.datetime.combine(parse_date(date), parse_time(time), tzinfo=UTC)


def reworded(rng: np.random.Generator, date: str) -> str:
    """The date as the goal says it (datetime_utils.generate_reworded_date's options)."""
    day, today = parse_date(date), NOW.date()
    options = [f"{day:%B %d}", f"{day:{DATE_FORMAT}}"]
    if day == today:
        options.append("today")
    if day == today + dt.timedelta(days=1):
        options.append("tomorrow")
    if day == today - dt.timedelta(days=1):
        options.append("yesterday")
    ahead = (day - today).days
    if 0 < ahead <= 7:
        options += [f"{day:%A}", f"this {day:%A}"]
    elif 7 < ahead <= 14:
        options.append(f"the {day:%A} after next")
    elif -7 <= ahead < 0:
        options.append(f"{day:%A}")
    return options[int(rng.integers(len(options)))]


# --- drawing ---------------------------------------------------------------------------------


def pick(rng: np.random.Generator, pool: Sequence[str], used: Sequence[str] = ()) -> str:
    """One value of `pool`, less one occurrence of each `used` value (without replacement)."""
    left = list(pool)
    for u in used:
        if u in left:
            left.remove(u)
    return left[int(rng.integers(len(left)))]


def event(start: dt.datetime, title: str, duration: str | None = None, location: str = "",
          description: str = "") -> dict[str, Any]:
    """A seeded event as the calendar adapter's SeedEvents takes it."""
    ts = int(start.timestamp())
    length = parse_duration(duration) if duration else DEFAULT_DURATION_S
    return {"start_ts": ts, "end_ts": ts + length, "title": title, "location": location,
            "description": description}


def span(e: dict[str, Any]) -> tuple[dt.datetime, dt.datetime]:
    return (dt.datetime.fromtimestamp(int(e["start_ts"]), UTC),
            dt.datetime.fromtimestamp(int(e["end_ts"]), UTC))


#: an exclusion condition: (field, operation, value) with field start_date / start_time
#: / title, operation == >= <= contains, value as the pools write it
Condition = tuple[str, str, str]
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    "contains": lambda a, b: b in a,
}


def _compiled(conditions: Sequence[Condition]) -> list[tuple[str, Callable[[Any, Any], bool], Any]]:
    """The conditions with their values parsed once (a draw tests hundreds of events)."""
    parse = {"start_date": parse_date, "start_time": parse_time, "title": str.lower}
    out = []
    for field, op, value in conditions:
        if field not in parse:
            raise ValueError(f"unknown condition field {field!r}")
        out.append((field, _OPS[op], parse[field](value)))
    return out


def _meets_all(e: dict[str, Any], compiled: list[tuple[str, Callable[[Any, Any], bool], Any]]) -> bool:
    start, end = span(e)
    for field, test, want in compiled:
        if field == "start_date":
            ok = test(start.date(), want) or test(end.date(), want)
        elif field == "start_time":
            ok = test(start.time(), want) or test(end.time(), want)
        else:
            ok = test(str(e["title"]).lower(), want)
        if not ok:
            return False
    return True


def excluded(e: dict[str, Any], conditions: Sequence[Condition]) -> bool:
    """Whether `e` meets every condition (AndroidWorld's check_event_conditions, negated)."""
    return bool(conditions) and _meets_all(e, _compiled(conditions))


def random_events(rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
    """n extra-event candidates, each a random minute of the 30 days around NOW, 15-60
    minutes long, with AndroidWorld's generated title and description (the adapter's
    pools), drawn as arrays (a draw tests a hundred or so)."""
    first = int((NOW - dt.timedelta(minutes=WINDOW_MIN // 2)).timestamp())
    minute, length = rng.integers(WINDOW_MIN, size=n), rng.integers(len(cal.DURATIONS), size=n)
    prefix = rng.integers(len(cal.TITLE_PREFIXES), size=n)
    name, subject = rng.integers(len(cal.NAMES), size=n), rng.integers(len(cal.SUBJECTS), size=n)
    action, topic = rng.integers(len(cal.ACTIONS), size=n), rng.integers(len(cal.TOPICS), size=n)
    noted, note = rng.random(size=n) < 0.5, rng.integers(len(cal.NOTES), size=n)
    out = []
    for i in range(n):
        ts = first + 60 * int(minute[i])
        head = cal.TITLE_PREFIXES[prefix[i]]
        tail = cal.NAMES[name[i]] if "with" in head else cal.SUBJECTS[subject[i]]
        text = f"We will {cal.ACTIONS[action[i]]} {cal.TOPICS[topic[i]]}."
        out.append({"start_ts": ts, "end_ts": ts + 60 * cal.DURATIONS[length[i]],
                    "title": f"{head} {tail}", "location": "",
                    "description": f"{text} {cal.NOTES[note[i]]}" if noted[i] else text})
    return out


def random_event(rng: np.random.Generator) -> dict[str, Any]:
    """One extra-event candidate (see random_events)."""
    return random_events(rng, 1)[0]


def extra_events(rng: np.random.Generator, conditions: Sequence[Condition],
                 also: Callable[[dict[str, Any]], bool] = lambda e: False,
                 n: int = EXTRA_EVENTS) -> list[dict[str, Any]]:
    """n random events that do not meet all `conditions` (nor `also`): candidates are
    drawn in batches and the first n kept, as redrawing each until it passes would (the
    reference gives up after 100 failed draws in a row; so does this)."""
    compiled = _compiled(conditions)
    out: list[dict[str, Any]] = []
    misses = 0
    while len(out) < n:
        for e in random_events(rng, 2 * (n - len(out))):
            if (compiled and _meets_all(e, compiled)) or also(e):
                misses += 1
                if misses >= MAX_RETRIES:
                    raise ValueError("no random event meets the exclusion conditions")
                continue
            misses = 0
            out.append(e)
            if len(out) == n:
                break
    return out


def calendar(rng: np.random.Generator, seeded: list[dict[str, Any]],
             conditions: Sequence[Condition],
             also: Callable[[dict[str, Any]], bool] = lambda e: False) -> list[dict[str, Any]]:
    """The seeded events and the extra ones, shuffled (so ids say nothing)."""
    events = seeded + extra_events(rng, conditions, also)
    order = rng.permutation(len(events))
    return [events[int(i)] for i in order]


def when(start: dt.datetime) -> str:
    """SimpleCalendarNextMeetingWithPerson's answer format: "October 22 2023 14:30"."""
    return f"{start:{DATE_FORMAT} %H:%M}"


# --- one draw per template -------------------------------------------------------------------


def _out(rng: np.random.Generator, shown: dict[str, str], day: str | None,
         events: list[dict[str, Any]], answers: list[str]) -> dict[str, Any]:
    """The parameters: what the goal shows (`date` reworded), `day` (the date the answer
    is on, for the solution's navigation), the events and the expected answers."""
    out = dict(shown)
    if "date" in out:
        out["date"] = reworded(rng, out["date"])
    out.update(day=day, events=events, answers=answers)
    return out


def events_on_date(rng: np.random.Generator) -> dict[str, Any]:
    time, date = pick(rng, TIMES), pick(rng, DATES)
    duration, title = pick(rng, DURATIONS), pick(rng, ON_DATE_TITLES)
    seeded = [event(at(date, time), title, duration)]
    events = calendar(rng, seeded, [("start_date", "==", date)])
    return _out(rng, {"date": date, "time": time, "duration": duration, "title": title},
                date, events, [title])


def next_event(rng: np.random.Generator) -> dict[str, Any]:
    time, duration, title = pick(rng, LATER_TODAY), pick(rng, DURATIONS), pick(rng, TITLES)
    today = f"{NOW:{DATE_FORMAT}}"
    seeded = [event(at(today, time), title, duration)]
    conds = [("start_date", "==", today), ("start_time", "<=", time), ("start_time", ">=", "15:30")]
    return _out(rng, {"time": time, "duration": duration, "title": title}, today,
                calendar(rng, seeded, conds), [title])


def event_on_date_at_time(rng: np.random.Generator) -> dict[str, Any]:
    date, time = pick(rng, DATES), pick(rng, TIMES)
    duration, title = pick(rng, DURATIONS), pick(rng, TITLES)
    moment = at(date, time)
    seeded = [event(moment, title, duration)]

    def in_progress(e: dict[str, Any]) -> bool:  # under way at {time}: also on the schedule then
        start, end = span(e)
        return start <= moment < end

    events = calendar(rng, seeded, [("start_date", "==", date), ("start_time", "==", time)],
                      also=in_progress)
    return _out(rng, {"date": date, "time": time, "duration": duration, "title": title},
                date, events, [title])


def any_events_on_date(rng: np.random.Generator) -> dict[str, Any]:
    date, title, time = pick(rng, DATES), pick(rng, TITLES), pick(rng, TIMES)
    titles, times = [title], [time]
    seeded = []
    for _ in range(3):
        times.append(pick(rng, TIMES, times))
        titles.append(pick(rng, TITLES, titles))
        seeded.append(event(at(date, times[-1]), titles[-1], "1 hour"))
    events = calendar(rng, seeded, [("start_date", "==", date)])
    return _out(rng, {"date": date, "title": title, "time": time}, date, events, titles[1:])


def next_meeting_with_person(rng: np.random.Generator) -> dict[str, Any]:
    person, date, time = pick(rng, PEOPLE), pick(rng, DATES), pick(rng, TIMES_WITH_REPEATS)
    seeded = [event(at(date, time), f"Drinks with {person}")]
    events = calendar(rng, seeded, [("title", "contains", person), ("start_date", "==", date)])
    return _out(rng, {"person": person, "time": time}, date, events, [when(at(date, time))])


def location_of_event(rng: np.random.Generator) -> dict[str, Any]:
    title, location = pick(rng, LOCATION_TITLES), pick(rng, LOCATIONS)
    date, time = pick(rng, DATES), pick(rng, TIMES_WITH_REPEATS)
    seeded = [event(at(date, time), title, location=location)]
    events = calendar(rng, seeded, [("title", "contains", title)])
    return _out(rng, {"title": title, "location": location, "time": time}, date, events, [location])


def events_in_next_week(rng: np.random.Generator) -> dict[str, Any]:
    date, duration = pick(rng, NEXT_WEEK_DATES), pick(rng, DURATIONS)
    title, person = pick(rng, NEXT_WEEK_TITLES), pick(rng, PEOPLE)
    time = pick(rng, NEXT_WEEK_TIMES)
    pool = [t.format(person=person) for t in NEXT_WEEK_TITLES]
    title = title.format(person=person)
    dates, times, titles = [date], [time], [title]
    for _ in range(2):
        dates.append(pick(rng, NEXT_WEEK_DATES, dates))
        times.append(pick(rng, NEXT_WEEK_TIMES, times))
    titles.append(pick(rng, pool, titles))
    seeded = [event(at(dates[1], times[1]), title, duration), event(at(dates[2], times[2]), titles[1])]
    conds = [("start_date", "<=", "October 22 2023"), ("start_date", ">=", "October 15 2023")]
    # the drawn `date` and `time` only keep the two events off them, as in the reference
    return _out(rng, {"duration": duration, "title": title, "person": person, "time": time},
                min(dates[1:], key=parse_date), calendar(rng, seeded, conds), titles)


def first_event_after(rng: np.random.Generator) -> dict[str, Any]:
    date, title = pick(rng, DATES), pick(rng, AFTER_TITLES)
    time, duration = pick(rng, AFTER_TIMES), pick(rng, DURATIONS)
    seeded = [event(at(date, time), title, duration)]
    events = calendar(rng, seeded, [("start_date", "==", date), ("start_time", ">=", time)])
    return _out(rng, {"date": date, "title": title, "time": time, "duration": duration},
                date, events, [title])


def events_in_time_range(rng: np.random.Generator) -> dict[str, Any]:
    start_time, date = pick(rng, RANGE_STARTS), pick(rng, DATES)
    title, duration = pick(rng, RANGE_TITLES), pick(rng, DURATIONS)
    seeded = [event(at(date, start_time), title, duration)]
    conds = [("start_date", "==", date), ("start_time", ">=", start_time),
             ("start_time", "<=", "8pm")]
    return _out(rng, {"start_time": start_time, "date": date, "title": title, "duration": duration},
                date, calendar(rng, seeded, conds), [title])
