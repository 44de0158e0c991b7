"""OpenTracks' database.db: the `tracks` table with OpenTracks' columns (plus the
`activity_type` column AndroidWorld's rows carry), and the empty `trackpoints` and
`markers` tables, at `/data/data/de.dennisguse.opentracks/databases/database.db`.

Times are epoch milliseconds (UTC), distances metres, speeds metres per second, as
OpenTracks stores them; `fmt_*` turn them into what its screens show (metric units).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "de.dennisguse.opentracks"
DB_PATH = f"/data/data/{PKG}/databases/database.db"


class TracksDb(SqliteStore):
    path = DB_PATH
    version = 35
    schema = """
CREATE TABLE tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT,
  category TEXT, activity_type TEXT, starttime INTEGER, stoptime INTEGER, numpoints INTEGER,
  totaldistance FLOAT, totaltime INTEGER, movingtime INTEGER, avgspeed FLOAT,
  avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, maxelevation FLOAT,
  elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, starttime_offset INTEGER);
CREATE UNIQUE INDEX tracks_uuid_index ON tracks(uuid);
CREATE TABLE trackpoints (_id INTEGER PRIMARY KEY AUTOINCREMENT, trackid INTEGER,
  longitude INTEGER, latitude INTEGER, time INTEGER, elevation FLOAT, accuracy FLOAT,
  speed FLOAT, bearing FLOAT, sensor_heartrate FLOAT, sensor_cadence FLOAT,
  sensor_power FLOAT, elevation_gain FLOAT, elevation_loss FLOAT, type TEXT,
  sensor_distance FLOAT, accuracy_vertical FLOAT, altitude_msl FLOAT);
CREATE INDEX trackpoints_trackid_index ON trackpoints(trackid);
CREATE TABLE markers (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT,
  category TEXT, icon TEXT, trackid INTEGER, longitude INTEGER, latitude INTEGER,
  time INTEGER, elevation FLOAT, accuracy FLOAT, bearing FLOAT, photoUrl TEXT);
CREATE INDEX markers_trackid_index ON markers(trackid);
"""


@dataclasses.dataclass(frozen=True)
class Track:
    """One recorded track as the screens show it."""

    id: int
    name: str
    description: str
    category: str
    starttime: int
    stoptime: int
    distance: float
    totaltime: int
    movingtime: int
    avgspeed: float
    avgmovingspeed: float
    maxspeed: float
    gain: float
    loss: float


_COLS = ("_id, name, description, category, starttime, stoptime, totaldistance, totaltime,"
         " movingtime, avgspeed, avgmovingspeed, maxspeed, elevationgain, elevationloss")


def _track(r: tuple) -> Track:
    return Track(int(r[0]), r[1] or "", r[2] or "", r[3] or "", int(r[4] or 0), int(r[5] or 0),
                 float(r[6] or 0), int(r[7] or 0), int(r[8] or 0), float(r[9] or 0),
                 float(r[10] or 0), float(r[11] or 0), float(r[12] or 0), float(r[13] or 0))


def db(phone: PhoneContext) -> TracksDb:
    return phone.databases[DB_PATH]  # type: ignore[return-value]


def tracks(phone: PhoneContext) -> list[Track]:
    """Every track, newest first (the track list's order)."""
    rows = db(phone).db.execute(f"SELECT {_COLS} FROM tracks ORDER BY starttime DESC, _id DESC")
    return [_track(r) for r in rows.fetchall()]


def track(phone: PhoneContext, track_id: int) -> Track | None:
    r = db(phone).db.execute(f"SELECT {_COLS} FROM tracks WHERE _id = ?", (track_id,)).fetchone()
    return _track(r) if r else None


# --- what the screens show ----------------------------------------------------------------------


def fmt_distance(metres: float) -> str:
    return f"{metres / 1000:.2f} km"


@lru_cache(maxsize=4096)
def fmt_duration(ms: int) -> str:
    s = max(0, int(ms) // 1000)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def fmt_speed(mps: float) -> str:
    return f"{mps * 3.6:.1f} km/h"


def fmt_elevation(metres: float) -> str:
    return f"{round(metres)} m"


def _when(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


@lru_cache(maxsize=4096)
def fmt_date(ms: int) -> str:
    d = _when(ms)
    return f"{d:%b} {d.day}, {d.year}"


@lru_cache(maxsize=4096)
def fmt_day(ms: int) -> str:
    """The list's short date: `Oct 14` (the year shows on the track's statistics)."""
    d = _when(ms)
    return f"{d:%b} {d.day}"


@lru_cache(maxsize=4096)
def fmt_time(ms: int) -> str:
    d = _when(ms)
    return f"{d.hour % 12 or 12}:{d:%M} {'AM' if d.hour < 12 else 'PM'}"
