"""OpenTracks (`de.dennisguse.opentracks`) for tasks: AndroidWorld's sports-activity
draws (its pools of categories, names, descriptions, start times, durations in
minutes, distances in metres, elevations, and 20 background activities that meet
none of a task's exclusion conditions), seeding database.db's `tracks` table through
one `sqlite3` call and restoring it at tear-down, and the app's screens for solutions.

An activity dict holds `name`, `description`, `category`, `start` (epoch ms, UTC),
`minutes`, `distance` (metres), `gain`, `loss`; `track_row` turns it into the row
AndroidWorld's `SportsActivity` writes (category = activity_type, moving time = total
time, average speeds from distance and time).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.checks.database import DatabaseTable, read_rows
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "de.dennisguse.opentracks"
DB = f"/data/data/{PKG}/databases/database.db"
LIST = ".TrackListActivity"
STATS = ".TrackRecordedActivity"
TRACKS = DatabaseTable(DB, "tracks")

#: the device clock's day (AndroidWorld's 2023-10-15 15:34 UTC, a Sunday)
TODAY = dt.date(2023, 10, 15)
NOW = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.UTC)
#: "this week" (it starts on Monday)
WEEK = (dt.date(2023, 10, 9), TODAY)

# --- AndroidWorld's pools (tasks.textproto, the SportsTracker tasks) -----------------------------
CATEGORIES = ("running", "cycling", "swimming", "hiking", "mountain biking", "kayaking", "skiing",
              "snow boarding", "skate boarding", "climbing", "inline skating", "sailing")
DURATIONS = (15, 30, 45, 60, 90, 120, 40, 50, 75, 80, 20, 105, 135, 150, 165, 180, 210, 240, 270)
DISTANCES = (100, 300, 500, 800, 1000, 1200, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 6000,
             7000, 8000, 9000, 10000, 12000)
START_TIMES = ("8:00am", "10:30am", "5:00pm", "6:30am", "9:45am", "2:15pm", "7:00am", "11:00am",
               "4:00pm", "1:30pm", "5:45pm", "6:15am", "7:30am", "3:45pm", "10:15am", "2:45pm",
               "8:45am", "9:15am", "12:00pm", "5:30pm")
ELEVATIONS = (50, 100, 250, 150, 75, 300, 200, 400, 350, 450, 550, 600, 800, 700, 900, 1000, 650,
              1100, 1200, 850)
NAMES = ("More tired than usual today", "Need more strength and conditioning", "Slow day",
         "Laps around the lake", "Trying and failing to keep up with John", "Quick outing",
         "Recovery day", "Active Rest Day", "Skill work", "Mindful Movement", "Outdoor Adventure",
         "Light Workout", "Intense day", "Quick Sweat", "Lunch Break Fitness")
DESCRIPTIONS = (
    "Shared laughs and made memories with friends.", "Enjoyed a fun outing with good company.",
    "Had a blast with my favorite people.", "Created lasting memories that I'll cherish.",
    "Experienced something unforgettable.", "Captured moments that will bring a smile to my face.",
    "Wandered off the beaten path.", "Ventured into uncharted territory.",
    "Stepped outside my comfort zone.", "Pushed my boundaries and tried something different.",
    "Tested my limits and grew as a person.", "Pushed myself harder than I thought I could.",
    "Gained new knowledge and skills.", "Expanded my understanding of the world.",
    "Opened my mind to new perspectives.", "Enjoyed the warmth of the sunshine on my skin.",
    "Relaxed and recharged under the sun.", "Embraced the rain and got soaked.",
    "Found joy in the downpour.", "Faced the weather head-on and conquered it.",
    "Showed resilience in the face of adversity.")
#: the background activities' categories, each with its activity names (activity_app_utils)
BACKGROUND: dict[str, tuple[str, ...]] = {
    "biking": ("Scenic Cycling", "Bike Tour", "Trail Ride", "Bicycle Adventure", "Pedal Excursion"),
    "running": ("Trail Run", "Road Run", "Jogging", "Sprint Session", "Morning Run", "Evening Run"),
    "hiking": ("Trail Hike", "Mountain Trek", "Nature Walk", "Scenic Hike", "Hill Walk"),
    "swimming": ("Pool Swim", "Open Water Swim", "Swim Workout", "Lap Swim", "Swim Training"),
    "walking": ("Neighborhood Walk", "Evening Stroll", "Morning Walk", "City Stroll", "Power Walk"),
    "skiing": ("Ski Trip", "Slope Session", "Alpine Skiing", "Powder Day", "Winter Skiing"),
    "snowboarding": ("Snowboard Trip", "Freestyle Session", "Slope Riding", "Powder Ride"),
    "kayaking": ("Kayak Tour", "Paddling Adventure", "River Paddle", "Sea Kayaking"),
    "rowing": ("Crew Session", "Lake Rowing", "River Rowing", "Sculling Session"),
    "sailing": ("Sailing Trip", "Sailboat Ride", "Yacht Sailing", "Windward Sailing"),
    "skateboarding": ("Urban Skate", "Skatepark Session", "Street Skateboarding"),
    "surfing": ("Surf Session", "Beach Surfing", "Wave Riding", "Surfboard Session"),
    "climbing": ("Rock Climbing", "Indoor Climbing", "Bouldering", "Crag Climbing"),
    "mountain biking": ("Mountain Bike Ride", "Trail Biking", "MTB Adventure", "Singletrack Session"),
    "road biking": ("Road Bike Ride", "Long Distance Ride", "Bike Commute", "Road Riding"),
    "trail running": ("Off-road Running", "Trail Jog", "Trail Run Session", "Off-road Run"),
    "trail hiking": ("Hiking Adventure", "Mountain Trail Hike", "Trail Trek", "Off-road Hike"),
    "cycling": ("Road Cycling", "Cycle Trip", "Off-road Cycling", "Bike Expedition"),
    "paddling": ("Boat Tour", "Lake Paddling", "Paddle Journey", "Canoeing Adventure"),
}
N_BACKGROUND = 20
Activity = dict[str, Any]


# --- dates and times ------------------------------------------------------------------------------


def day(d: dt.date) -> str:
    """`October 9 2023`: the pools' form of a date."""
    return f"{d:%B} {d.day} {d.year}"


def reworded(rng: np.random.Generator, d: dt.date) -> str:
    """AndroidWorld's natural wording of a date relative to the device's today: the
    month and day, with or without the year, today / yesterday, or the weekday within
    the past week (not 7 days back, whose weekday would read as today's)."""
    options = [f"{d:%B} {d.day}", day(d)]
    ago = (TODAY - d).days
    if ago == 0:
        options.append("today")
    elif ago == 1:
        options.append("yesterday")
    if 0 < ago < 7:
        options.append(f"{d:%A}")
    return options[int(rng.integers(len(options)))]


def clock(s: str) -> tuple[int, int]:
    """'5:45pm' -> (17, 45)."""
    hm, half = s[:-2], s[-2:]
    h, m = (int(x) for x in hm.split(":"))
    return (h % 12 + (12 if half == "pm" else 0), m)


def epoch_ms(d: dt.date, hour: int, minute: int) -> int:
    return int(dt.datetime(d.year, d.month, d.day, hour, minute, tzinfo=dt.UTC)
               .timestamp()) * 1000


def date_of(a: Activity) -> dt.date:
    return dt.datetime.fromtimestamp(a["start"] / 1000, tz=dt.UTC).date()


def displayed(metres: float) -> int:
    """The distance rounded as the app shows it (km, 2 decimals), back in metres:
    stored so, what the screen shows is exact (AndroidWorld does this through miles)."""
    return round(round(metres / 1000, 2) * 1000)


# --- draws ------------------------------------------------------------------------------------------


def pick(rng: np.random.Generator, pool: tuple, k: int = 1, avoid: tuple = ()) -> list:
    """k different values of `pool` (without replacement), none of `avoid`."""
    left = [v for v in pool if v not in avoid]
    return [left[int(i)] for i in rng.choice(len(left), size=k, replace=False)]


def relevant(rng: np.random.Generator, dates: list[dt.date], categories: list[str],
             minutes: list[int] | None = None, distances: list[int] | None = None) -> list[Activity]:
    """The task's own activities: names, descriptions and start times without
    replacement from AndroidWorld's pools; durations and distances as given or drawn."""
    n = len(dates)
    names, descs, times = pick(rng, NAMES, n), pick(rng, DESCRIPTIONS, n), pick(rng, START_TIMES, n)
    minutes = minutes or [int(v) for v in pick(rng, DURATIONS, n)]
    distances = distances or [int(v) for v in pick(rng, DISTANCES, n)]
    gains = pick(rng, ELEVATIONS, 2 * n)
    return [{"name": names[i], "description": descs[i], "category": categories[i],
             "start": epoch_ms(dates[i], *clock(times[i])), "minutes": int(minutes[i]),
             "distance": displayed(distances[i]), "gain": int(gains[2 * i]),
             "loss": int(gains[2 * i + 1])} for i in range(n)]


def _squash(s: str) -> str:
    return s.replace(" ", "").casefold()


def same_kind(category: str) -> Callable[[Activity], bool]:
    """AndroidWorld's CONTAINS on the category (spaces ignored here, so a background
    "snowboarding" counts as the task's "snow boarding")."""
    return lambda a: _squash(category) in _squash(a["category"])


def on(d: dt.date) -> Callable[[Activity], bool]:
    return lambda a: date_of(a) == d


def between(first: dt.date, last: dt.date) -> Callable[[Activity], bool]:
    return lambda a: first <= date_of(a) <= last


def background(rng: np.random.Generator, *excluded: Callable[[Activity], bool],
               n: int = N_BACKGROUND) -> list[Activity]:
    """`n` random activities, none meeting every exclusion condition: a random category
    and one of its names, a start in the two weeks before now (AndroidWorld: centred a
    week back, in the past), 1-299 minutes, 0-20 km, 0-500 m up and down."""
    cats = tuple(BACKGROUND)
    out: list[Activity] = []
    span = 14 * 24 * 60
    while len(out) < n:
        cat = cats[int(rng.integers(len(cats)))]
        names = BACKGROUND[cat]
        start = NOW - dt.timedelta(minutes=int(rng.integers(1, span)))
        a = {"name": names[int(rng.integers(len(names)))], "description": "", "category": cat,
             "start": int(start.timestamp()) * 1000, "minutes": int(rng.integers(1, 300)),
             "distance": displayed(int(rng.integers(0, 20001))),
             "gain": int(rng.integers(0, 501)), "loss": int(rng.integers(0, 501))}
        if not (excluded and all(cond(a) for cond in excluded)):
            out.append(a)
    return out


def shuffled(rng: np.random.Generator, activities: list[Activity]) -> list[Activity]:
    return [activities[int(i)] for i in rng.permutation(len(activities))]


# --- the shell side ---------------------------------------------------------------------------------


def track_row(a: Activity, i: int) -> dict[str, Any]:
    """A `tracks` row for activity `a` with id `i` (AndroidWorld's SportsActivity
    values; uuid made from the id so seeding is deterministic)."""
    ms = a["minutes"] * 60_000
    speed = a["distance"] / (ms / 1000) if ms else 0.0
    return {"_id": i, "name": a["name"], "description": a["description"],
            "category": a["category"], "activity_type": a["category"], "starttime": a["start"],
            "stoptime": a["start"] + ms, "numpoints": 0, "totaldistance": float(a["distance"]),
            "totaltime": ms, "movingtime": ms, "avgspeed": speed, "avgmovingspeed": speed,
            "maxspeed": speed, "minelevation": 0.0, "maxelevation": 0.0,
            "elevationgain": float(a["gain"]), "icon": "", "uuid": i.to_bytes(16, "big"),
            "elevationloss": float(a["loss"]), "starttime_offset": 0}


def _lit(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    if isinstance(v, (bool, int)):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def _insert(row: dict[str, Any]) -> str:
    return (f"INSERT INTO tracks ({', '.join(row)}) VALUES ({', '.join(map(_lit, row.values()))});")


def write_tracks(device: Device, rows: list[dict[str, Any]], seq: int | None) -> None:
    """Replace the tracks table with `rows` (ids included) and its id counter with `seq`,
    in one `sqlite3` call."""
    counter = "DELETE FROM sqlite_sequence WHERE name = 'tracks';" + (
        f"INSERT INTO sqlite_sequence (name, seq) VALUES ('tracks', {int(seq)});"
        if seq is not None else "")
    sql = "BEGIN;DELETE FROM tracks;" + "".join(map(_insert, rows)) + counter + "COMMIT;"
    sh(device, f"sqlite3 {DB} {q(sql)}")


def read_tracks(device: Device) -> list[dict[str, Any]]:
    """Every tracks row (all columns), by id."""
    return TRACKS.rows(device)


#: every tracks row with the table's id counter beside it, in one pull (a row of NULLs
#: when the table is empty, so the counter still comes back)
_SAVED_SQL = ("SELECT c.seq AS _counter, t.* FROM (SELECT (SELECT seq FROM sqlite_sequence"
              " WHERE name = 'tracks') AS seq) AS c LEFT JOIN tracks AS t ORDER BY t._id")


def _saved(device: Device) -> tuple[list[dict[str, Any]], int | None]:
    rows = read_rows(device, DB, _SAVED_SQL)
    seq = rows[0]["_counter"] if rows else None
    tracks = [{k: v for k, v in r.items() if k != "_counter"} for r in rows if r["_id"] is not None]
    return tracks, (int(seq) if seq is not None else None)


@dataclasses.dataclass
class SeedTracks(Recipe):
    """database.db holds exactly `activities` as tracks (ids 1..n); tear-down puts back
    the rows and the id counter that were there before."""

    activities: Any

    def apply(self, device: Device) -> None:
        if self.saved is UNSET:
            self.saved = _saved(device)
        rows = [track_row(a, i) for i, a in enumerate(self.activities or [], 1)]
        write_tracks(device, rows, len(rows) if rows else None)

    def restore(self, device: Device, saved: Any) -> None:
        write_tracks(device, *saved)


def state(device: Device) -> list[dict[str, Any]]:
    """What the contract compares before set-up and after tear-down: every tracks row."""
    return read_tracks(device)


# --- solution steps -------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="OpenTracks", package=PKG)


def open_track(name: str) -> Tap:
    """Open a track's statistics from the list (the solver scrolls to its row)."""
    return Tap(screen=LIST, target=Target(text=name))
