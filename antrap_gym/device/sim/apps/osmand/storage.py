"""What OsmAnd keeps, where it keeps it on Android:

- favourites: a GPX file on shared storage, `Android/data/net.osmand/files/favorites/
  favorites.gpx` (one `wpt` per favourite; `/data/media/0/...` is the same file);
- map markers: the SQLite database `/data/data/net.osmand/databases/map_markers_db`,
  table `map_markers` with OsmAnd's columns (MapMarkersDbHelper, database version 13);
- tracks: GPX files under `Android/data/net.osmand/files/tracks/` (`trk/trkseg/trkpt`);
- its settings: a SharedPreferences file (whether the first-run screens were shown).

The screens read the files on every build, so a file the shell changes shows at once.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "net.osmand"
VERSION = "4.6.13"
FILES = f"/sdcard/Android/data/{PKG}/files"
FAVORITES = FILES + "/favorites/favorites.gpx"
TRACKS = FILES + "/tracks"
MARKERS_DB = f"/data/data/{PKG}/databases/map_markers_db"
PREFS = f"/data/data/{PKG}/shared_prefs/net.osmand.settings.xml"
GPX_NS = "http://www.topografix.com/GPX/1/1"
#: the settings keys (our own names)
WIZARD_DONE = "first_usage_wizard_done"
LOCATION_ASKED = "location_permission_asked"


class MarkersDb(SqliteStore):
    path = MARKERS_DB
    version = 13
    schema = """
CREATE TABLE IF NOT EXISTS map_markers (marker_id TEXT PRIMARY KEY, marker_lat double,
  marker_lon double, marker_description TEXT, marker_active int, marker_added long,
  marker_visited long, group_name TEXT, group_key TEXT, marker_color int,
  marker_next_key TEXT, marker_disabled int, marker_selected int, marker_map_object_name TEXT);
"""


class Settings(SharedPreferences):
    path = PREFS


def markers_db(phone: PhoneContext) -> MarkersDb:
    return phone.databases[MARKERS_DB]  # type: ignore[return-value]


@dataclass(frozen=True)
class Point:
    """A favourite, a marker or a route point."""

    name: str
    lat: float
    lon: float


# --- favourites ----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def parse_waypoints(data: bytes) -> tuple[Point, ...]:
    """The `wpt` elements of a GPX file (namespaced or not); nothing when it does not
    parse (OsmAnd shows no favourites rather than failing)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return ()
    out = []
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] != "wpt":
            continue
        name = next((c.text or "" for c in el if c.tag.rsplit("}", 1)[-1] == "name"), "")
        try:
            out.append(Point(name, float(el.get("lat", "")), float(el.get("lon", ""))))
        except ValueError:
            continue
    return tuple(out)


def favorites(phone: PhoneContext) -> tuple[Point, ...]:
    fs = phone.fs
    if not fs.isfile(FAVORITES):
        return ()
    return parse_waypoints(fs.read(FAVORITES))


def _iso(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, tz=dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _header(name: str) -> list[str]:
    return ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
            f'<gpx version="1.1" creator="OsmAnd~ {VERSION}" xmlns="{GPX_NS}" '
            'xmlns:osmand="https://osmand.net">',
            "  <metadata>", f"    <name>{escape(name)}</name>", "  </metadata>"]


def favorites_gpx(points: tuple[Point, ...] | list[Point], now: int) -> bytes:
    """The favourites file OsmAnd writes: one `wpt` per favourite (name, time, its star)."""
    lines = _header("favorites")
    for p in points:
        lines += [f"  <wpt lat={quoteattr(repr(p.lat))} lon={quoteattr(repr(p.lon))}>",
                  f"    <time>{_iso(now)}</time>", f"    <name>{escape(p.name)}</name>",
                  "    <extensions>", "      <osmand:icon>special_star</osmand:icon>",
                  "      <osmand:background>circle</osmand:background>",
                  "      <osmand:color>#eecc22</osmand:color>", "    </extensions>", "  </wpt>"]
    lines.append("</gpx>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def add_favorite(phone: PhoneContext, point: Point) -> None:
    """Append a favourite to the file (made, with its folder, when missing)."""
    fs = phone.fs
    now = phone.now
    fs.mkdir(posixpath.dirname(FAVORITES), now, parents=True)
    fs.write(FAVORITES, favorites_gpx([*favorites(phone), point], now), now)


def remove_favorite(phone: PhoneContext, index: int) -> None:
    points = list(favorites(phone))
    if 0 <= index < len(points):
        del points[index]
        phone.fs.write(FAVORITES, favorites_gpx(points, phone.now), phone.now)


# --- map markers ---------------------------------------------------------------------------------


def markers(phone: PhoneContext) -> list[Point]:
    """The active markers, oldest first."""
    rows = markers_db(phone).db.execute(
        "SELECT marker_map_object_name, marker_description, marker_lat, marker_lon "
        "FROM map_markers WHERE marker_active = 1 ORDER BY marker_added, rowid").fetchall()
    out = []
    for name, desc, lat, lon in rows:
        label = name or (desc or "").partition("#")[2] or (desc or "")
        try:
            out.append(Point(label, float(lat), float(lon)))
        except (TypeError, ValueError):
            continue
    return out


def add_marker(phone: PhoneContext, point: Point, kind: str) -> None:
    """A new active marker, as MapMarkersDbHelper.insertLast writes it (the description
    is OsmAnd's serialised point description, `type#name`)."""
    db = markers_db(phone)
    marker_id = f"{point.lat:.7f}_{point.lon:.7f}_{phone.clock_ms}"
    db.db.execute(
        "INSERT OR REPLACE INTO map_markers (marker_id, marker_lat, marker_lon, marker_description,"
        " marker_active, marker_added, marker_visited, group_name, group_key, marker_color,"
        " marker_next_key, marker_disabled, marker_selected, marker_map_object_name)"
        " VALUES (?, ?, ?, ?, 1, ?, 0, NULL, NULL, 0, NULL, 0, 0, ?)",
        (marker_id, point.lat, point.lon, f"{kind}#{point.name}", phone.clock_ms, point.name))
    db.revision += 1


def remove_marker(phone: PhoneContext, point: Point) -> None:
    db = markers_db(phone)
    db.db.execute("DELETE FROM map_markers WHERE marker_active = 1 AND marker_lat = ? AND "
                  "marker_lon = ?", (point.lat, point.lon))
    db.revision += 1


# --- tracks --------------------------------------------------------------------------------------


def track_gpx(name: str, points: list[Point] | tuple[Point, ...], now: int) -> bytes:
    """A planned route as OsmAnd saves it: one track, one segment, a point per route
    point (straight lines between them)."""
    lines = _header(name)
    lines += ["  <trk>", f"    <name>{escape(name)}</name>", "    <trkseg>"]
    for p in points:
        lines += [f"      <trkpt lat={quoteattr(repr(p.lat))} lon={quoteattr(repr(p.lon))}>",
                  f"        <time>{_iso(now)}</time>", "      </trkpt>"]
    lines += ["    </trkseg>", "  </trk>", "</gpx>"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def track_path(name: str) -> str:
    return f"{TRACKS}/{name}.gpx"


def save_track(phone: PhoneContext, name: str, points: list[Point] | tuple[Point, ...]) -> str:
    fs = phone.fs
    now = phone.now
    fs.mkdir(TRACKS, now, parents=True)
    path = track_path(name)
    fs.write(path, track_gpx(name, points, now), now)
    return path


def tracks(phone: PhoneContext) -> list[str]:
    """The saved tracks' names (files ending .gpx in the tracks folder), by name."""
    fs = phone.fs
    if not fs.isdir(TRACKS):
        return []
    return sorted(n[:-4] for n in fs.listdir(TRACKS)
                  if n.lower().endswith(".gpx") and fs.isfile(f"{TRACKS}/{n}"))
