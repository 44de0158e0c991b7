"""OpenTracks on the simulated phone: database.db at its path with OpenTracks' tables,
the track list and a track's statistics driven through taps and keys and read back
from the element list, and the SportsTracker draws checked against the seeded file
(every expected answer recomputed from the pulled `tracks` table)."""

from __future__ import annotations

import datetime as dt
import sqlite3

import numpy as np
import pytest

import antrap_gym.tasks.opentracks_tasks  # noqa: F401  (registers the templates)
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import opentracks as ot
from antrap_gym.tasks.registry import TEMPLATES
from tests.screen import tap, texts

DB = "/data/data/de.dennisguse.opentracks/databases/database.db"
DAY = 86_400_000


def activity(name: str, category: str, start: dt.datetime, minutes: int, metres: int) -> dict:
    return {"name": name, "description": "", "category": category,
            "start": int(start.replace(tzinfo=dt.UTC).timestamp()) * 1000, "minutes": minutes,
            "distance": metres, "gain": 120, "loss": 80}


RUN = activity("Morning Run", "running", dt.datetime(2023, 10, 14, 7, 30), 95, 12_345)
SWIM = activity("Lap Swim", "swimming", dt.datetime(2023, 10, 12, 18, 0), 45, 1_500)


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


def sql(dev: SimDevice, statement: str) -> str:
    res = dev.shell(f"sqlite3 {DB} \"{statement}\"")
    assert res.exit_code == 0, res.stderr
    return res.stdout


def pulled_rows(dev: SimDevice, tmp_path) -> list[dict]:
    local = tmp_path / "database.db"
    local.write_bytes(dev.pull(DB))
    con = sqlite3.connect(local)
    con.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in con.execute("SELECT * FROM tracks ORDER BY _id")]
    finally:
        con.close()


# --- storage -------------------------------------------------------------------------------------


def test_a_fresh_install_has_opentracks_tables_empty_and_the_list_says_so(dev):
    tables = sql(dev, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").split()
    assert {"tracks", "trackpoints", "markers"} <= set(tables)
    cols = [line.split("|")[1] for line in sql(dev, "PRAGMA table_info(tracks)").splitlines()]
    assert cols[:6] == ["_id", "name", "description", "category", "activity_type", "starttime"]
    assert {"totaldistance", "totaltime", "movingtime", "avgspeed", "elevationgain", "uuid"} <= set(cols)
    assert sql(dev, "SELECT count(*) FROM tracks").strip() == "0"
    dev.launch("de.dennisguse.opentracks")
    assert any(t.startswith("No tracks yet") for t in texts(dev))


def test_seeded_tracks_read_back_from_the_pulled_file_as_androidworld_writes_them(dev, tmp_path):
    ot.SeedTracks([RUN, SWIM]).apply(dev)
    rows = pulled_rows(dev, tmp_path)
    assert [r["name"] for r in rows] == ["Morning Run", "Lap Swim"]
    run = rows[0]
    assert run["category"] == run["activity_type"] == "running"
    assert run["totaltime"] == run["movingtime"] == run["stoptime"] - run["starttime"] == 95 * 60_000
    assert run["totaldistance"] == 12_345.0
    assert run["avgspeed"] == pytest.approx(12_345 / (95 * 60))
    assert len(run["uuid"]) == 16 and run["uuid"] != rows[1]["uuid"]


def test_tear_down_puts_back_the_tracks_that_were_there(dev, tmp_path):
    sql(dev, "INSERT INTO tracks (name, category, starttime, totaltime) VALUES ('Old ride', 'cycling', 1, 2)")
    before = pulled_rows(dev, tmp_path)
    recipe = ot.SeedTracks([RUN, SWIM])
    recipe.apply(dev)
    recipe.apply(dev)
    assert len(pulled_rows(dev, tmp_path)) == 2
    recipe.undo(dev)
    assert pulled_rows(dev, tmp_path) == before
    assert sql(dev, "SELECT seq FROM sqlite_sequence WHERE name = 'tracks'").strip() == "1"


# --- screens -------------------------------------------------------------------------------------


def test_the_list_shows_each_track_newest_first_with_type_distance_time_and_date(dev):
    ot.SeedTracks([SWIM, RUN]).apply(dev)
    dev.launch("de.dennisguse.opentracks")
    shown = texts(dev)
    assert shown.index("Morning Run") < shown.index("Lap Swim")
    assert "running · 12.35 km · 1:35:00" in shown and "Oct 14" in shown
    assert "swimming · 1.50 km · 0:45:00" in shown and "Oct 12" in shown


def test_a_track_row_opens_its_statistics_and_back_returns_to_the_list(dev):
    ot.SeedTracks([RUN, SWIM]).apply(dev)
    dev.launch("de.dennisguse.opentracks")
    tap(dev, "Morning Run")
    shown = texts(dev)
    for label, value in (("Distance", "12.35 km"), ("Total time", "1:35:00"),
                         ("Moving time", "1:35:00"), ("Average speed", "7.8 km/h"),
                         ("Elevation gain", "120 m"), ("Start time", "Oct 14, 2023 7:30 AM")):
        assert label in shown and value in shown
    assert "running" in shown and "Statistics" in shown
    dev.key("back")
    assert "Lap Swim" in texts(dev)


def test_a_track_changed_through_the_shell_shows_changed_on_screen(dev):
    ot.SeedTracks([RUN]).apply(dev)
    dev.launch("de.dennisguse.opentracks")
    sql(dev, "UPDATE tracks SET name = 'Evening Run', totaldistance = 5000 WHERE _id = 1")
    shown = texts(dev)
    assert "Evening Run" in shown and "running · 5.00 km · 1:35:00" in shown


def test_search_filters_by_name_or_type_and_back_clears_it(dev):
    ot.SeedTracks([RUN, SWIM]).apply(dev)
    dev.launch("de.dennisguse.opentracks")
    el = next(e for e in dev.ui_elements() if e.content_description == "Search")
    dev.tap(*el.center)
    dev.type_text("swim")
    shown = texts(dev)
    assert "Lap Swim" in shown and "Morning Run" not in shown
    dev.key("back")  # closes the search, not the app
    shown = texts(dev)
    assert "Lap Swim" in shown and "Morning Run" in shown and "swim" not in shown


def test_the_record_button_says_recording_is_unavailable(dev):
    dev.launch("de.dennisguse.opentracks")
    el = next(e for e in dev.ui_elements() if e.content_description == "Record")
    dev.tap(*el.center)
    assert dev.phone.wm.toast is not None and "Recording" in dev.phone.wm.toast[0]


# --- the templates' draws ------------------------------------------------------------------------


def _date(r: dict) -> dt.date:
    return dt.datetime.fromtimestamp(r["starttime"] / 1000, tz=dt.UTC).date()


def _unword(s: str) -> dt.date:
    """The date a goal's wording names (the inverse of the rewording)."""
    today = dt.date(2023, 10, 15)
    if s in ("today", "yesterday"):
        return today - dt.timedelta(days=int(s == "yesterday"))
    past = {(today - dt.timedelta(days=i)).strftime("%A"): today - dt.timedelta(days=i)
            for i in range(1, 7)}
    if s in past:
        return past[s]
    return dt.datetime.strptime(s if s.endswith("2023") else s + " 2023", "%B %d %Y").date()


def _expected(tid: str, p: dict, rows: list[dict]) -> list:
    """The answer recomputed from the whole table as the goal words it (this week:
    Monday October 9 to Sunday October 15)."""
    def kind(r: dict) -> bool:
        return p["category"].replace(" ", "") in r["category"].replace(" ", "")

    def within(first: dt.date, last: dt.date) -> list[dict]:
        return [r for r in rows if first <= _date(r) <= last and kind(r)]

    week = (dt.date(2023, 10, 9), dt.date(2023, 10, 15))
    if tid == "SportsTrackerActivitiesOnDate":
        return sorted(r["category"] for r in rows if _date(r) == _unword(p["date"]))
    if tid == "SportsTrackerActivitiesCountForWeek":
        return [len(within(*week))]
    if tid == "SportsTrackerTotalDurationForCategoryThisWeek":
        return [sum(r["totaltime"] for r in within(*week)) // 60_000]
    if tid == "SportsTrackerLongestDistanceActivity":
        return [round(max(r["totaldistance"] for r in within(*week)))]
    if tid == "SportsTrackerActivityDuration":
        (r,) = within(_unword(p["date"]), _unword(p["date"]))
        assert r["name"] == p["activity_name"]
        return [r["totaltime"] // 60_000]
    inside = within(_unword(p["start_date"]), _unword(p["end_date"]))
    return [round(sum(r["totaldistance"] for r in inside))]


@pytest.mark.parametrize("tid", sorted(t for t in TEMPLATES if t.startswith("SportsTracker")))
def test_each_drawn_answer_is_what_the_seeded_table_gives(dev, tmp_path, tid):
    cls = TEMPLATES[tid]
    for seed in range(6):
        p = cls.generate_params(np.random.default_rng(seed))
        recipe = ot.SeedTracks(p["activities"])
        recipe.apply(dev)
        rows = pulled_rows(dev, tmp_path)
        assert len(rows) == len(p["activities"]) >= 21
        want = sorted(p["answer"]) if tid == "SportsTrackerActivitiesOnDate" else p["answer"]
        assert _expected(tid, p, rows) == want
        recipe.undo(dev)


def test_dates_are_worded_relative_to_sunday_october_15():
    rng = np.random.default_rng(0)
    seen = {ot.reworded(rng, dt.date(2023, 10, 14)) for _ in range(60)}
    assert seen == {"October 14", "October 14 2023", "yesterday", "Saturday"}
    seen = {ot.reworded(rng, dt.date(2023, 10, 8)) for _ in range(60)}
    assert seen == {"October 8", "October 8 2023"}  # "Sunday" would read as today
    assert "today" in {ot.reworded(rng, dt.date(2023, 10, 15)) for _ in range(60)}


def test_background_activities_never_meet_every_exclusion_condition():
    rng = np.random.default_rng(3)
    day = dt.date(2023, 10, 12)
    acts = ot.background(rng, ot.on(day), ot.same_kind("snow boarding"), n=300)
    assert not [a for a in acts if ot.date_of(a) == day and "snowboard" in a["category"]]
    assert all(ot.NOW - dt.timedelta(days=14) <= dt.datetime.fromtimestamp(a["start"] / 1000, dt.UTC)
               < ot.NOW for a in acts)
    assert all(a["distance"] % 10 == 0 for a in acts)  # what the km display shows, exactly
