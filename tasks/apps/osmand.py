"""OsmAnd (`net.osmand`) for tasks: AndroidWorld's twelve preloaded Liechtenstein
locations and its draw (a place's "Name, Liechtenstein", or half the time its
coordinates), set-up recipes that empty the favourites file, the map markers table and
the tracks folder through the shell (and put them back at tear-down), the checks'
paths and points, and the app's screens for solutions.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.device.protocol import DeviceFileError
from antrap_gym.tasks.apps.gallery import write_file_commands
from antrap_gym.tasks.checks.database import DatabaseTable, read_rows
from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "net.osmand"
APP_NAME = "OsmAnd"
MAP = "net.osmand.plus.activities.MapActivity"
#: AndroidWorld's paths: the app's files through /data/media/0 (shared storage's own folder)
FILES = "/data/media/0/Android/data/net.osmand/files"
FAVORITES = FILES + "/favorites/favorites.gpx"
TRACKS = FILES + "/tracks"
MARKERS_DB = "/data/data/net.osmand/databases/map_markers_db"
MARKERS = DatabaseTable(MARKERS_DB, "map_markers", key="marker_id")
PREFS = "/data/data/net.osmand/shared_prefs/net.osmand.settings.xml"
SEPARATOR = " – "  # between the route's points on the Plan a route panel

#: AndroidWorld's _PRELOADED_MAP_LOCATIONS
LOCATIONS: dict[str, tuple[float, float]] = {
    "Balzers, Liechtenstein": (47.0688832, 9.5061564),
    "Bendern, Liechtenstein": (47.2122151, 9.5062101),
    "Malbun, Liechtenstein": (47.1026191, 9.6083057),
    "Nendeln, Liechtenstein": (47.1973857, 9.5430636),
    "Oberplanken, Liechtenstein": (47.1784977, 9.5450163),
    "Planken, Liechtenstein": (47.1858882, 9.5452201),
    "Rotenboden, Liechtenstein": (47.1275785, 9.5387131),
    "Ruggell, Liechtenstein": (47.23976, 9.5262837),
    "Schaan, Liechtenstein": (47.1663432, 9.5103085),
    "Schaanwald, Liechtenstein": (47.2165476, 9.5699984),
    "Schönberg, Liechtenstein": (47.1303814, 9.5930117),
    "Triesen, Liechtenstein": (47.106997, 9.5274854),
}
NAMES = tuple(LOCATIONS)


# --- the draw ---------------------------------------------------------------------------------


def sample_locations(rng: np.random.Generator, n: int) -> list[str]:
    """n different location names (random.sample's shape)."""
    return [NAMES[int(i)] for i in rng.choice(len(NAMES), size=n, replace=False)]


def random_location(rng: np.random.Generator) -> str:
    """A location as AndroidWorld's _random_location_str draws it: a name, or (one time in
    two) the place's coordinates, "lat, lon"."""
    name = sample_locations(rng, 1)[0]
    if int(rng.integers(2)):
        return name
    lat, lon = LOCATIONS[name]
    return f"{lat}, {lon}"


_NUMBER = re.compile(r"-?\d*\.?\d+")


def coords_of(location: str) -> tuple[float, float]:
    """The point a location names: its two numbers, or the preloaded place's."""
    nums = _NUMBER.findall(location)
    if len(nums) == 2:
        return float(nums[0]), float(nums[1])
    return LOCATIONS[location]


def result_title(location: str) -> str:
    """The search result a location's query gives first: the place's name, or the point's
    coordinates to five places."""
    if location in LOCATIONS:
        return location.split(",")[0]
    lat, lon = coords_of(location)
    return f"{lat:.5f}, {lon:.5f}"


# --- set-up ------------------------------------------------------------------------------------


def _pull(device: Device, path: str) -> bytes | None:
    try:
        return device.pull(path)
    except DeviceFileError:
        return None


_WPT = re.compile(r"[ \t]*<(?:\w+:)?wpt\b(?:[^>]*/>|.*?</(?:\w+:)?wpt>)[ \t]*\n?", re.S)


def without_waypoints(data: bytes) -> bytes | None:
    """The favourites file with its `wpt` elements taken out, the rest as it was
    (AndroidWorld's _clear_favorites); None when it is no XML (then it is left alone)."""
    try:
        ET.fromstring(data)
        text = data.decode("utf-8")
    except (ET.ParseError, UnicodeDecodeError):
        return None
    return _WPT.sub("", text).encode("utf-8")


def _write(device: Device, path: str, data: bytes) -> None:
    for cmd in write_file_commands(path, data):
        sh(device, cmd)


@dataclasses.dataclass
class ClearFavorites(Recipe):
    """No favourite in favorites.gpx (the file, if there is one, keeps the rest); tear-down
    puts the file back as it was."""

    def save(self, device: Device) -> Any:
        return _pull(device, FAVORITES)

    def run(self, device: Device) -> None:
        data = _pull(device, FAVORITES)
        cleared = without_waypoints(data) if data is not None else None
        if cleared is not None and cleared != data:
            _write(device, FAVORITES, cleared)

    def restore(self, device: Device, saved: Any) -> None:
        if saved is None:
            sh(device, f"rm -f {q(FAVORITES)}")
        elif _pull(device, FAVORITES) != saved:
            _write(device, FAVORITES, saved)


@dataclasses.dataclass
class ClearTracks(Recipe):
    """The tracks folder empty (AndroidWorld's `rm -rf tracks/*`); tear-down puts back
    what was in it (and no folder when there was none)."""

    def save(self, device: Device) -> Any:
        return read_tree(device, TRACKS)

    def run(self, device: Device) -> None:
        sh(device, f"rm -rf {q(TRACKS)}/*")

    def restore(self, device: Device, saved: Any) -> None:
        if saved is None:
            sh(device, f"rm -rf {q(TRACKS)}")
            return
        sh(device, f"rm -rf {q(TRACKS)}/* && mkdir -p {q(TRACKS)}")
        for path in sorted(p for p, v in saved.items() if v is None):
            sh(device, f"mkdir -p {q(path)}")
        for path, data in sorted((p, v) for p, v in saved.items() if v is not None):
            _write(device, path, data)


def _lit(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    if isinstance(v, (bool, int, float)):
        return repr(v) if isinstance(v, float) else str(int(v))
    return "'" + str(v).replace("'", "''") + "'"


def write_markers(device: Device, rows: list[dict[str, Any]]) -> None:
    """Replace the map_markers table's rows, in one `sqlite3` call."""
    inserts = "".join(f"INSERT INTO map_markers ({', '.join(r)}) VALUES "
                      f"({', '.join(map(_lit, r.values()))});" for r in rows)
    sh(device, f"sqlite3 {MARKERS_DB} {q('BEGIN;DELETE FROM map_markers;' + inserts + 'COMMIT;')}")


def read_markers(device: Device) -> list[dict[str, Any]]:
    return read_rows(device, MARKERS_DB, "SELECT * FROM map_markers ORDER BY rowid")


@dataclasses.dataclass
class ClearMarkers(Recipe):
    """No map marker (the app force-stopped first, as it reads them at start); tear-down
    puts the rows back."""

    def save(self, device: Device) -> Any:
        return read_markers(device)

    def run(self, device: Device) -> None:
        sh(device, f"am force-stop {PKG}")
        write_markers(device, [])

    def restore(self, device: Device, saved: Any) -> None:
        sh(device, f"am force-stop {PKG}")
        write_markers(device, saved)


def state(device: Device) -> list[dict[str, Any]]:
    """What the contract compares before set-up and after tear-down: the markers (the
    favourites and tracks are files under /sdcard, compared with the rest)."""
    return read_markers(device)


# --- solution steps -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class WizardDone:
    """The first-run wizard is behind (OsmAnd's settings file says so; a root read)."""

    def __call__(self, device: Device) -> bool:
        res = device.shell(f"cat {PREFS}")
        return res.exit_code == 0 and 'name="first_usage_wizard_done" value="true"' in res.stdout


@dataclasses.dataclass(frozen=True)
class RouteHas:
    """The Plan a route panel lists `names` in this order (other points between them or
    after them are fine): what has been added so far."""

    names: tuple[str, ...]

    def __call__(self, device: Device) -> bool:
        el = next((e for e in device.ui_elements()
                   if (e.resource_name or "").endswith(":id/measurement_points_text_view")), None)
        if el is None or not el.text:
            return False
        it = iter(el.text.split(SEPARATOR))
        return all(any(p == n for p in it) for n in self.names)


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)


def skip_wizard() -> Tap:
    return Tap(screen=MAP, target=Target(text="Skip download"), done=WizardDone())


SEARCH_FIELD = Target(rid="searchEditText")


def find_steps(query: str, result: str, opener: Target, requires: Any = None,
               done: Any = None) -> list[Step]:
    """Open the search (with `opener`), type `query`, tap the result titled `result`
    (the typing is done when the field shows it: `done` is for the taps)."""
    return [Tap(screen=MAP, target=opener, requires=requires, done=done),
            TypeText(screen=MAP, target=SEARCH_FIELD, text=query, requires=SEARCH_FIELD),
            Tap(screen=MAP, target=Target(text=result, cls="TextView"), requires=SEARCH_FIELD,
                done=done)]


def card_of(title: str) -> Target:
    """The context card of the point titled so."""
    return Target(rid="context_menu_line1", text=title)
