"""Simple Calendar Pro on the simulated phone: events.db at its real path and schema,
the month / day / list views, search, the editor with the toolkit's date picker and
Material's clock-dial time picker, and delete, driven through SimDevice and read back
through the shell and a pulled database file."""

from __future__ import annotations

import math
import pickle
import sqlite3

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import calendar as cal
from tests.screen import need, tap, texts

RID = cal.PKG + ":id/"
OCT16_15H = 1697468400  # 2023-10-16 15:00 UTC, a Monday


def sql(d, q):
    res = d.shell(f"sqlite3 {cal.EVENTS_DB} \"{q}\"")
    assert res.exit_code == 0, res.stderr
    return res.stdout.strip()


@pytest.fixture
def phone():
    d = SimDevice()
    cal.seed_events(d, [
        {"start_ts": OCT16_15H, "end_ts": OCT16_15H + 1800, "title": "Call with Bob",
         "description": "We will plan the budget.", "location": "Room 4"},
        {"start_ts": OCT16_15H + 7200, "end_ts": OCT16_15H + 9000, "title": "Workshop on Campaign"},
        {"start_ts": OCT16_15H + 3 * 86400, "end_ts": OCT16_15H + 3 * 86400 + 900,
         "title": "Meeting with HR"},
    ])
    d.shell(f"monkey -p {cal.PKG} 1")
    return d


def test_events_db_has_the_apps_schema_and_is_pulled_as_a_sqlite_file(tmp_path):
    d = SimDevice()
    path = tmp_path / "events.db"
    path.write_bytes(d.pull(cal.EVENTS_DB))
    con = sqlite3.connect(path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(events)")]
    assert cols == ["id", *cal.EVENT_DEFAULTS]
    assert con.execute("SELECT id, title FROM event_types").fetchall() == [(1, "Regular event")]
    assert con.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)


def test_seeding_restores_rows_and_the_id_counter():
    d = SimDevice()
    rec = cal.SeedEvents(cal.noise_events(np.random.default_rng(3), 5))
    rec.apply(d)
    rec.apply(d)
    assert [r["id"] for r in cal.state(d)] == [1, 2, 3, 4, 5]
    rec.undo(d)
    assert cal.state(d) == []
    assert "events" not in sql(d, "SELECT name FROM sqlite_sequence")


def test_noise_follows_the_reference_generator():
    evs = cal.noise_events(np.random.default_rng(0), 20)
    assert len(evs) == 20
    for e in evs:
        start = cal.start_of(e)
        assert (start.year, start.month, start.minute) == (2023, 10, 0)
        assert (e["end_ts"] - e["start_ts"]) // 60 in cal.DURATIONS
        assert e["description"].startswith("We will ")


def test_month_view_shows_the_grid_with_event_titles(phone):
    assert need(phone, rid=RID + "top_value").text == "October 2023"
    cell = need(phone, desc="16 October 2023")
    assert cell.text == "16"
    assert "Call with Bob" in texts(phone) and "Meeting with HR" in texts(phone)
    tap(phone, desc="Next month")
    assert need(phone, rid=RID + "top_value").text == "November 2023"
    assert "Call with Bob" not in texts(phone)
    tap(phone, desc="Go to today")
    assert need(phone, rid=RID + "top_value").text == "October 2023"


def test_a_day_lists_its_events_and_back_returns_to_the_month(phone):
    tap(phone, desc="16 October 2023")
    assert need(phone, rid=RID + "top_value").text == "October 16 (Mon)"
    t = texts(phone)
    assert "Call with Bob" in t and "Workshop on Campaign" in t and "Meeting with HR" not in t
    phone.key("BACK")
    assert need(phone, rid=RID + "top_value").text == "October 2023"


def test_change_view_offers_the_simple_event_list(phone):
    tap(phone, desc="Change view")
    assert need(phone, rid="android:id/alertTitle").text == "Change view"
    tap(phone, text="Simple event list")
    t = texts(phone)
    assert "Mon, October 16 2023" in t and "Thu, October 19 2023" in t
    assert t.index("Call with Bob") < t.index("Workshop on Campaign") < t.index("Meeting with HR")


def test_search_finds_events_by_text(phone):
    tap(phone, desc="Search")
    phone.type_text("room 4")
    t = texts(phone)
    assert "Call with Bob" in t and "Workshop on Campaign" not in t


LABEL = "android.widget.TextView"
HOUR_CHIP, MINUTE_CHIP = RID + "material_hour_tv", RID + "material_minute_tv"


def _pick_time(d, hour: int, minute: int) -> None:
    """Pick hour:minute (24-hour values, minute a multiple of five) on the 12-hour dial by
    tapping the labels the accessibility tree shows, as a person would."""
    assert need(d, rid="android:id/alertTitle").text == "Select time"
    tap(d, desc=f"{hour % 12 or 12} o'clock", cls=LABEL)
    tap(d, text="AM" if hour < 12 else "PM")
    tap(d, desc=f"{minute:02d} minutes", cls=LABEL)
    tap(d, text="OK")


def _open_start_time(d) -> None:
    tap(d, desc="New event")
    tap(d, rid=RID + "event_start_time")


def _dial_point(d, value: int, of: int = 60) -> tuple[int, int]:
    """Where on the dial's ring a value (of `of` around it) lies: from the labels' places."""
    spots = [e.center for e in d.ui_elements() if e.class_name == LABEL and e.content_description]
    ys = [y for _, y in spots]
    top = next(x for x, y in spots if y == min(ys))
    cx, cy, r = top, (min(ys) + max(ys)) // 2, (max(ys) - min(ys)) // 2
    a = math.radians(value * 360 / of)
    return round(cx + r * math.sin(a)), round(cy - r * math.cos(a))


def test_new_event_through_the_pickers_is_written_to_events_db(phone):
    tap(phone, desc="New event")
    tap(phone, rid=RID + "event_title")
    phone.type_text("Dentist")
    tap(phone, rid=RID + "event_start_date")
    assert need(phone, rid="android:id/alertTitle").text == "Select date"
    assert need(phone, rid="android:id/date_picker_header_year").text == "2023"
    tap(phone, desc="Next month")
    tap(phone, desc="3 November 2023")
    tap(phone, text="OK")
    tap(phone, rid=RID + "event_start_time")
    _pick_time(phone, 9, 15)
    # the end moved with the start (the default hour long), then is set on its own
    assert need(phone, rid=RID + "event_start_time").text == "09:15 AM"
    assert need(phone, rid=RID + "event_end_time").text == "10:15 AM"
    tap(phone, rid=RID + "event_end_time")
    _pick_time(phone, 9, 45)
    tap(phone, rid=RID + "event_repetition")
    tap(phone, text="Weekly")
    tap(phone, desc="Save")
    start = 1698969600 + 9 * 3600 + 15 * 60   # 2023-11-03 (a Friday) 09:15 UTC
    assert sql(phone, "SELECT id, title, start_ts, end_ts, repeat_interval, repeat_rule FROM events"
                      " WHERE title = 'Dentist'") == f"4|Dentist|{start}|{start + 1800}|604800|16"


def test_the_dial_shows_hours_then_minutes_as_android_names_them(phone):
    _open_start_time(phone)   # a new event starts at the next whole hour: 4:00 PM
    labels = [e for e in phone.ui_elements() if e.class_name == LABEL and e.content_description]
    assert [e.text for e in labels] == ["12", *map(str, range(1, 12))]
    assert labels[10].content_description == "10 o'clock"
    assert [e.text for e in labels if e.is_selected] == ["4"]
    assert need(phone, rid=HOUR_CHIP).is_checked
    assert need(phone, text="PM").is_checked and not need(phone, text="AM").is_checked
    tap(phone, desc="10 o'clock", cls=LABEL)
    labels = [e for e in phone.ui_elements() if e.class_name == LABEL and e.content_description]
    assert [e.text for e in labels] == [f"{m:02d}" for m in range(0, 60, 5)]
    assert labels[6].content_description == "30 minutes"
    assert need(phone, rid=MINUTE_CHIP).is_checked
    assert need(phone, rid=HOUR_CHIP).text == "10"


def test_the_dial_picks_7_35_pm_by_taps(phone):
    _open_start_time(phone)
    tap(phone, text="AM")
    _pick_time(phone, 19, 35)
    assert need(phone, rid=RID + "event_start_time").text == "07:35 PM"
    assert need(phone, rid=RID + "event_end_time").text == "08:35 PM"


def test_a_tap_between_the_minute_labels_takes_the_nearest_five(phone):
    _open_start_time(phone)
    tap(phone, desc="7 o'clock", cls=LABEL)
    phone.tap(*_dial_point(phone, 37))
    assert need(phone, rid=MINUTE_CHIP).text == "35"


def test_the_dial_picks_7_37_pm_by_dragging(phone):
    _open_start_time(phone)
    tap(phone, desc="1 o'clock", cls=LABEL)   # to minutes: 1:00 PM
    tap(phone, rid=HOUR_CHIP)                               # back to the hours
    phone.swipe(*_dial_point(phone, 1, 12), *_dial_point(phone, 7, 12))
    assert need(phone, rid=HOUR_CHIP).text == "07"
    assert need(phone, rid=MINUTE_CHIP).is_checked        # it turned to minutes
    phone.swipe(*_dial_point(phone, 10), *_dial_point(phone, 37))
    assert need(phone, rid=MINUTE_CHIP).text == "37"
    tap(phone, text="OK")
    assert need(phone, rid=RID + "event_start_time").text == "07:37 PM"


def test_the_keyboard_mode_takes_7_35_pm(phone):
    _open_start_time(phone)
    tap(phone, desc="Switch to text input mode for the time input.")
    assert need(phone, rid="android:id/alertTitle").text == "Enter time"
    for rid, value in ((RID + "material_hour_text_input", "7"),
                       (RID + "material_minute_text_input", "35")):
        tap(phone, rid=rid)
        phone.clear_text()
        phone.type_text(value)
    tap(phone, text="PM")
    tap(phone, text="OK")
    assert need(phone, rid=RID + "event_start_time").text == "07:35 PM"


def test_a_bad_time_is_refused_in_the_keyboard_mode(phone):
    _open_start_time(phone)
    tap(phone, desc="Switch to text input mode for the time input.")
    tap(phone, rid=RID + "material_hour_text_input")
    phone.clear_text()
    phone.type_text("13")   # a 12-hour clock
    tap(phone, text="OK")
    assert "Enter a valid time" in texts(phone)
    assert need(phone, rid="android:id/alertTitle").text == "Enter time"
    tap(phone, desc="Switch to clock mode for the time input.")
    assert need(phone, rid="android:id/alertTitle").text == "Select time"
    assert need(phone, rid=HOUR_CHIP).text == "04"   # the bad value was dropped


def test_a_24_hour_phone_gets_the_two_ring_dial(phone):
    phone.shell("settings put system time_12_24 24")
    _open_start_time(phone)
    labels = {e.text: e for e in phone.ui_elements() if e.class_name == LABEL and e.content_description}
    assert set(labels) == {"00", *map(str, range(1, 24))}
    assert labels["19"].content_description == "19 hours"
    assert not any(e.text in ("AM", "PM") for e in phone.ui_elements())
    cx = labels["00"].center[0]
    # the afternoon on the inner ring, the night and morning on the outer one
    assert abs(labels["19"].center[0] - cx) < abs(labels["7"].center[0] - cx)
    tap(phone, desc="19 hours", cls=LABEL)
    tap(phone, desc="35 minutes", cls=LABEL)
    tap(phone, text="OK")
    assert need(phone, rid=RID + "event_start_time").text == "19:35"
    tap(phone, rid=RID + "event_end_time")
    tap(phone, desc="00 hours", cls=LABEL)
    assert need(phone, rid=HOUR_CHIP).text == "00"


def test_saving_without_a_title_or_with_the_end_first_is_refused(phone):
    tap(phone, desc="New event")
    tap(phone, desc="Save")
    assert sql(phone, "SELECT COUNT(*) FROM events") == "3"
    tap(phone, rid=RID + "event_title")
    phone.type_text("Late")
    tap(phone, rid=RID + "event_end_time")
    _pick_time(phone, 1, 0)
    tap(phone, desc="Save")
    assert sql(phone, "SELECT COUNT(*) FROM events") == "3"


def test_editing_and_deleting_an_event(phone):
    tap(phone, desc="16 October 2023")
    tap(phone, text="Call with Bob")
    assert need(phone, rid=RID + "event_location").text == "Room 4"
    tap(phone, rid=RID + "event_title")
    phone.clear_text()
    phone.type_text("Call with Alice")
    tap(phone, desc="Save")
    assert sql(phone, "SELECT title, start_ts FROM events WHERE id = 1") == \
        f"Call with Alice|{OCT16_15H}"
    tap(phone, text="Call with Alice")
    tap(phone, desc="Delete")
    assert need(phone, rid="android:id/alertTitle").text == "Delete event"
    tap(phone, text="Delete")
    assert sql(phone, "SELECT id FROM events ORDER BY id") == "2\n3"


def test_an_open_picker_pickles_with_the_phone(phone):
    tap(phone, desc="New event")
    tap(phone, rid=RID + "event_start_date")
    tap(phone, desc="20 October 2023")
    snap = phone.snapshot()
    pickle.dumps(snap)
    tap(phone, text="Cancel")
    phone.restore(snap)
    assert need(phone, desc="20 October 2023").is_checked


def test_repeating_events_show_on_their_repetitions():
    d = SimDevice()
    cal.seed_events(d, [{"start_ts": OCT16_15H, "end_ts": OCT16_15H + 900, "title": "Standup",
                         "repeat_interval": cal.WEEK, "repeat_rule": 1}])
    d.shell(f"monkey -p {cal.PKG} 1")
    tap(d, desc="23 October 2023")
    assert "Standup" in texts(d)
    tap(d, desc="Next day")
    assert "Standup" not in texts(d)


def test_the_month_and_list_views_place_events_on_the_days_they_fall_on():
    """`by_day` (a whole month at once) gives every day exactly what `on_day` gives it:
    one-off events over midnight and month ends, daily, weekly (rules), monthly, yearly."""
    import datetime as dt

    from antrap_gym.device.sim.apps.calendar.occurrences import by_day, on_day
    from antrap_gym.device.sim.apps.calendar.store import DAY, MONTH, WEEK, YEAR, Event

    rng = np.random.default_rng(7)
    base = int(dt.datetime(2023, 9, 20, tzinfo=dt.UTC).timestamp())
    events = []
    for i in range(120):
        start = base + int(rng.integers(0, 60 * DAY))
        length = int(rng.choice([15 * 60, 3600, 5 * 3600, DAY, 3 * DAY + 7]))
        iv = int(rng.choice([0, 0, 0, DAY, 2 * DAY, WEEK, 2 * WEEK, MONTH, YEAR]))
        rule = int(rng.integers(0, 128)) if iv % WEEK == 0 and iv else 0
        events.append(Event(i + 1, start, start + length, f"e{i}", "", "", iv, rule))
    first = dt.date(2023, 9, 24)
    days = by_day(events, first, 42)
    assert len(days) == 42
    for k in range(42):
        d = first + dt.timedelta(days=k)
        assert [e.id for e in days[d]] == [e.id for e in on_day(events, d)], d
