"""Checks on GPX files (a map app's favourites and tracks), read as AndroidWorld reads
OsmAnd's: the file pulled from the phone (`Device.pull`; a folder listed with `ls`),
parsed with `xml.etree`, elements in the GPX 1.1 namespace.

Two points match when both their latitudes and their longitudes differ by less than
the tolerance (0.001 degrees, about 100 m in Liechtenstein: AndroidWorld's).
"""

from __future__ import annotations

import dataclasses
import posixpath
import shlex
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from antrap_gym.device import DeviceError, DeviceLostError
from antrap_gym.tasks.checks.base import Check

if TYPE_CHECKING:
    from antrap_gym.device import Device

NS = {"gpx": "http://www.topografix.com/GPX/1/1"}
TOLERANCE = 0.001
Coords = tuple[float, float]


def near(a: Sequence[float], b: Sequence[float], tolerance: float = TOLERANCE) -> bool:
    """Both coordinates within `tolerance` (strictly), as AndroidWorld's _coords_match."""
    return abs(a[0] - b[0]) < tolerance and abs(a[1] - b[1]) < tolerance


def pull_xml(device: Device, path: str) -> ET.Element | None:
    """The parsed file at `path`, or None when there is none or it is no XML."""
    try:
        data = device.pull(path)
    except DeviceLostError:
        raise
    except DeviceError:
        return None
    try:
        return ET.fromstring(data)
    except ET.ParseError:
        return None


def waypoints(root: ET.Element) -> Iterator[tuple[str, Coords]]:
    """(name, (lat, lon)) of each `wpt` (a bad coordinate skips the point)."""
    for w in root.findall("gpx:wpt", NS):
        name = w.find("gpx:name", NS)
        try:
            yield (name.text or "") if name is not None else "", (float(w.get("lat", "")),
                                                                  float(w.get("lon", "")))
        except ValueError:
            continue


def track_points(root: ET.Element) -> Iterator[Coords]:
    """Every `trk/trkseg/trkpt`, in order."""
    for trk in root.findall("gpx:trk", NS):
        for seg in trk.findall("gpx:trkseg", NS):
            for pt in seg.findall("gpx:trkpt", NS):
                try:
                    yield float(pt.get("lat", "")), float(pt.get("lon", ""))
                except ValueError:
                    continue


def passes_through(points: Sequence[Coords], targets: Sequence[Coords],
                   tolerance: float = TOLERANCE) -> bool:
    """The targets are met in order along the points: a point near target 1, a later one
    near target 2, ... (any points between; AndroidWorld's _track_matches)."""
    if not targets:
        return False
    i = 0
    for p in points:
        if near(p, targets[i], tolerance):
            i += 1
            if i == len(targets):
                return True
    return False


@dataclasses.dataclass
class GpxWaypoint(Check):
    """The GPX file at `path` holds a waypoint whose name contains `name`, or that lies
    within `tolerance` of `coords` (when given)."""

    path: str
    name: str
    coords: Coords | None = None
    tolerance: float = TOLERANCE

    def score(self, device: Device, answer: str | None) -> float:
        root = pull_xml(device, self.path)
        if root is None:
            return 0.0
        for name, at in waypoints(root):
            if (self.name and self.name in name) or (
                    self.coords is not None and near(at, self.coords, self.tolerance)):
                return 1.0
        return 0.0


@dataclasses.dataclass
class GpxTrackThrough(Check):
    """A GPX file in `folder` has a track passing through `targets` in order."""

    folder: str
    targets: tuple[Coords, ...]
    tolerance: float = TOLERANCE

    def score(self, device: Device, answer: str | None) -> float:
        res = device.shell(f"ls -1 {shlex.quote(self.folder)}")
        if res.exit_code != 0:
            return 0.0
        targets = [tuple(t) for t in self.targets]
        for name in res.stdout.split("\n"):
            if not name.strip():
                continue
            root = pull_xml(device, posixpath.join(self.folder, name))
            if root is not None and passes_through(list(track_points(root)), targets,
                                                   self.tolerance):
                return 1.0
        return 0.0
