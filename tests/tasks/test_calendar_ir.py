"""Simple Calendar Pro's information-retrieval draws: the pools parse as AndroidWorld's
do, dates are worded as there, no random event collides with the answer (each
template's expected answer is recomputed here from the seeded events by what the
question asks), and a set-up phone answers the question from its events.db."""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.apps import calendar as cal
from antrap_gym.tasks.apps import calendar_ir_data as ir

UTC = dt.UTC
SEEDS = range(100)
IDS = sorted(t for t in TEMPLATES if t.startswith("SimpleCalendar") and TEMPLATES[t].answer_task)


def draw(tid: str, seed: int) -> dict:
    return TEMPLATES[tid].generate_params(np.random.default_rng(seed))


def spans(p: dict) -> list[tuple[dt.datetime, dt.datetime, dict]]:
    return [(*ir.span(e), e) for e in p["events"]]


def touching(p: dict, first: dt.date, last: dt.date) -> list[dict]:
    """Events that start or end on a day in [first, last]."""
    return [e for s, f, e in spans(p) if first <= s.date() <= last or first <= f.date() <= last]


def day_of(p: dict) -> dt.date:
    return ir.parse_date(p["day"])


# --- pools and wording -----------------------------------------------------------------------


def test_times_parse_in_androidworlds_three_formats():
    assert ir.parse_time("12am") == dt.time(0, 0)
    assert ir.parse_time("12pm") == dt.time(12, 0)
    assert ir.parse_time("12:00am") == dt.time(0, 0)
    assert ir.parse_time("9:15pm") == dt.time(21, 15)
    assert ir.parse_time("23:59") == dt.time(23, 59)
    with pytest.raises(ValueError):
        ir.parse_time("noonish")
    for pool in (ir.TIMES, ir.LATER_TODAY, ir.TIMES_WITH_REPEATS, ir.NEXT_WEEK_TIMES, ir.AFTER_TIMES,
                 ir.RANGE_STARTS):
        assert all(isinstance(ir.parse_time(t), dt.time) for t in pool)


def test_durations_are_hours_when_they_say_h_else_minutes():
    assert ir.parse_duration("1.5 hours") == 5400
    assert ir.parse_duration("2.5 hours") == 9000
    assert ir.parse_duration("45min") == 2700
    assert ir.parse_duration("30 m") == 1800
    assert ir.parse_duration("1 h") == 3600
    assert ir.parse_duration("75 minutes") == 4500
    assert sorted({ir.parse_duration(d) for d in ir.DURATIONS}) == [
        300, 600, 900, 1200, 1500, 1800, 2700, 3000, 3600, 4500, 5400, 7200, 9000, 10800]


def test_the_next_event_pool_is_all_after_the_reference_time():
    assert all(ir.parse_time(t) > ir.NOW.time() for t in ir.LATER_TODAY)


def _wordings(date: str) -> set[str]:
    return {ir.reworded(np.random.default_rng(s), date) for s in range(200)}


def test_dates_are_worded_as_androidworld_rewords_them():
    assert _wordings("October 15 2023") == {"October 15", "October 15 2023", "today"}
    assert _wordings("October 16 2023") == {"October 16", "October 16 2023", "tomorrow", "Monday",
                                            "this Monday"}
    assert _wordings("October 22 2023") == {"October 22", "October 22 2023", "Sunday", "this Sunday"}
    assert _wordings("October 29 2023") == {"October 29", "October 29 2023", "the Sunday after next"}


def test_without_replacement_removes_one_occurrence_of_each_used_value():
    pool = ("a", "b", "b", "c")
    seen = {ir.pick(np.random.default_rng(s), pool, ("b", "c")) for s in range(100)}
    assert seen == {"a", "b"}
    assert {ir.pick(np.random.default_rng(s), pool, ("a", "b", "b")) for s in range(50)} == {"c"}


# --- the exclusion conditions ------------------------------------------------------------------


def _ev(start: str, minutes: int, title: str = "Call with Bob") -> dict:
    s = dt.datetime.fromisoformat(start).replace(tzinfo=UTC)
    return {"start_ts": int(s.timestamp()), "end_ts": int(s.timestamp()) + 60 * minutes, "title": title}


def test_an_event_spanning_midnight_meets_a_date_condition_on_either_day():
    late = _ev("2023-10-20 23:50", 30)
    assert ir.excluded(late, [("start_date", "==", "October 20 2023")])
    assert ir.excluded(late, [("start_date", "==", "October 21 2023")])
    assert not ir.excluded(late, [("start_date", "==", "October 22 2023")])


def test_an_event_is_excluded_only_when_it_meets_every_condition():
    e = _ev("2023-10-20 10:00", 60)
    day, at_ten = ("start_date", "==", "October 20 2023"), ("start_time", "==", "10:00am")
    assert ir.excluded(e, [day, at_ten])
    assert not ir.excluded(e, [day, ("start_time", "==", "9:45am")])
    assert ir.excluded(e, [day, ("start_time", "==", "11:00am")])  # its end meets it
    assert not ir.excluded(e, [])
    assert ir.excluded(_ev("2023-10-02 09:00", 15, "Drinks with MIA"), [("title", "contains", "Mia")])


def test_random_events_fall_in_the_30_days_around_the_reference_time():
    rng = np.random.default_rng(0)
    events = [ir.random_event(rng) for _ in range(400)]
    lo, hi = ir.NOW - dt.timedelta(days=15), ir.NOW + dt.timedelta(days=15)
    assert all(lo <= ir.span(e)[0] < hi for e in events)
    assert {(e["end_ts"] - e["start_ts"]) // 60 for e in events} == {15, 30, 45, 60}
    assert all(e["title"].split(" ")[0] in {p.split(" ")[0] for p in cal.TITLE_PREFIXES} for e in events)


# --- every draw: its events answer the question with the expected answer -----------------------


@pytest.mark.parametrize("tid", IDS)
def test_draws_are_json_a_function_of_the_seed_with_75_extra_events(tid):
    for seed in range(5):
        p = draw(tid, seed)
        assert json.loads(json.dumps(p)) == p == draw(tid, seed)
        seeded = {"SimpleCalendarAnyEventsOnDate": 3, "SimpleCalendarEventsInNextWeek": 2}.get(tid, 1)
        assert len(p["events"]) == ir.EXTRA_EVENTS + seeded
    assert len({json.dumps(draw(tid, s)) for s in range(5)}) == 5


def _titles(events: list[dict]) -> list[str]:
    return sorted(e["title"] for e in events)


def test_events_on_date_the_answer_is_all_that_touches_the_day():
    for s in SEEDS:
        p = draw("SimpleCalendarEventsOnDate", s)
        d = day_of(p)
        assert _titles(touching(p, d, d)) == sorted(p["answers"]) == [p["title"]]


def test_any_events_on_date_three_distinct_titles_and_nothing_else_that_day():
    for s in SEEDS:
        p = draw("SimpleCalendarAnyEventsOnDate", s)
        d = day_of(p)
        on_day = touching(p, d, d)
        assert _titles(on_day) == sorted(p["answers"]) and len(set(p["answers"])) == 3
        assert p["title"] not in p["answers"]  # drawn without replacement past the parameter's own
        assert all(e["end_ts"] - e["start_ts"] == 3600 for e in on_day)


def test_next_event_is_the_first_to_start_after_now_and_nothing_is_under_way():
    for s in SEEDS:
        p = draw("SimpleCalendarNextEvent", s)
        later = sorted((st, e["title"]) for st, f, e in spans(p) if st > ir.NOW)
        assert later[0][1] == p["answers"][0] and later[0][0] < later[1][0], s
        assert not [e for st, f, e in spans(p) if st <= ir.NOW < f]


def test_event_at_a_time_is_the_only_one_on_the_schedule_then():
    for s in SEEDS:
        p = draw("SimpleCalendarEventOnDateAtTime", s)
        moment = ir.at(p["day"], p["time"])
        assert [e["title"] for st, f, e in spans(p) if st <= moment < f] == p["answers"], s


def test_the_person_is_in_one_event_title_and_the_answer_is_its_start():
    for s in SEEDS:
        p = draw("SimpleCalendarNextMeetingWithPerson", s)
        named = [(st, e) for st, f, e in spans(p) if p["person"].lower() in e["title"].lower()]
        assert len(named) == 1 and named[0][1]["title"] == f"Drinks with {p['person']}"
        assert p["answers"] == [f"{named[0][0]:%B %d %Y %H:%M}"]
        assert named[0][0] == ir.at(p["day"], p["time"])


def test_one_event_holds_the_title_and_the_answer_is_its_location():
    for s in SEEDS:
        p = draw("SimpleCalendarLocationOfEvent", s)
        hits = [e for e in p["events"] if p["title"].lower() in e["title"].lower()]
        assert [e["location"] for e in hits] == p["answers"], s
        assert all(e["location"] == "" for e in p["events"] if e not in hits)


def test_next_week_holds_exactly_the_two_events_on_two_days():
    mon, sun = dt.date(2023, 10, 16), dt.date(2023, 10, 22)
    for s in SEEDS:
        p = draw("SimpleCalendarEventsInNextWeek", s)
        week = touching(p, mon, sun)
        assert _titles(week) == sorted(p["answers"]) and len(set(p["answers"])) == 2, s
        assert len({ir.span(e)[0].date() for e in week}) == 2
        assert not touching(p, ir.NOW.date(), ir.NOW.date())
        assert "{person}" not in " ".join(p["answers"])


def test_first_event_after_a_time_every_other_event_that_day_is_over_before_it():
    for s in SEEDS:
        p = draw("SimpleCalendarFirstEventAfterStartTime", s)
        moment = ir.at(p["day"], p["time"])
        after = sorted((st, e["title"]) for st, f, e in spans(p) if st >= moment)
        assert after[0] == (moment, p["answers"][0]), s
        d = day_of(p)
        assert all(f < moment for st, f, e in spans(p) if d in (st.date(), f.date()) and st != moment)


def test_time_range_holds_only_the_answer():
    for s in SEEDS:
        p = draw("SimpleCalendarEventsInTimeRange", s)
        lo, hi = ir.at(p["day"], p["start_time"]), ir.at(p["day"], "8pm")
        inside = [e["title"] for st, f, e in spans(p) if st <= hi and f >= lo]
        assert inside == p["answers"], s


# --- on the phone ------------------------------------------------------------------------------


def test_set_up_puts_the_events_in_events_db_and_the_answer_is_graded_as_androidworld_does():
    dev = SimDevice()
    cls = TEMPLATES["SimpleCalendarNextMeetingWithPerson"]
    task = cls(draw(cls.task_id(), 3))
    before = cal.state(dev)
    task.setup(dev)
    title = f"Drinks with {task.params['person']}"
    out = dev.shell(f"sqlite3 {cal.EVENTS_DB} \"SELECT start_ts FROM events WHERE title = '{title}'\"")
    start = dt.datetime.fromtimestamp(int(out.stdout.strip()), UTC)
    assert len(cal.read_events(dev)) == ir.EXTRA_EVENTS + 1
    right = f"{start:%B %d %Y %H:%M}"
    assert task.is_successful(dev, right) == 1.0
    assert task.is_successful(dev, f"{start:%B} {start.day}, {start.year} {start:%H:%M}") == 1.0
    assert task.is_successful(dev, f"{start + dt.timedelta(hours=1):%B %d %Y %H:%M}") == 0.0
    assert task.is_successful(dev, f"{start + dt.timedelta(days=1):%B %d %Y %H:%M}") == 0.0
    task.teardown(dev)
    assert cal.state(dev) == before


def test_a_list_answer_needs_every_title_once_in_any_order():
    dev = SimDevice()
    cls = TEMPLATES["SimpleCalendarAnyEventsOnDate"]
    task = cls(draw(cls.task_id(), 1))
    task.setup(dev)
    a, b, c = task.params["answers"]
    assert task.is_successful(dev, f"{c}, {a}, {b}") == 1.0
    assert task.is_successful(dev, f"{a.lower()}, {b}, {c}") == 1.0
    assert task.is_successful(dev, f"{a}, {b}") == 0.0
    assert task.is_successful(dev, f"{a}, {b}, {c}, Haircut") == 0.0
    task.teardown(dev)


# --- the oracle answers from the screen that shows the answer ---------------------------------


def _shown_when_answering(tid: str, seed: int) -> tuple[str, list[str]]:
    """The oracle's answer and the texts on screen when it gave it."""
    from antrap_gym.agents import OracleAgent
    from antrap_gym.registration import make_env

    env = make_env(task=tid, obs_mode="text")
    obs, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env, obs, info, seed=seed)
    try:
        for _ in range(env.unwrapped.budget):
            action = agent.act(obs, info)
            if action["action_type"] == "answer":
                dev = env.unwrapped.device
                return action["text"], [e.text for e in dev.ui_elements() if e.text]
            obs, *_, info = env.step(action)
    finally:
        env.close()
    raise AssertionError(f"{tid} seed {seed}: the oracle never answered")


@pytest.mark.parametrize("tid", IDS)
def test_the_oracle_answers_with_the_answer_on_screen(tid):
    for seed in (0, 1):
        answer, texts = _shown_when_answering(tid, seed)
        if tid == "SimpleCalendarNextMeetingWithPerson":  # a search result: its date and times
            start = dt.datetime.strptime(answer, "%B %d %Y %H:%M")
            day, hhmm = f"{start:%a}, {start:%B} {start.day} {start.year}", f"{start:%I:%M %p} -"
            assert any(day in t and hhmm in t for t in texts), texts
            continue
        for item in answer.split(", "):
            assert item in texts, (tid, seed, item, texts)
