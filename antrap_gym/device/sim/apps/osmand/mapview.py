"""The map as the screen shows it: a projection of the offline map around a centre and
a zoom level, and the shapes and labels it draws (`UI.vector` draws the shapes).

A local Mercator: a zoom level doubles the scale of the one below it, as OsmAnd's
tiles do; at the default zoom (12) the whole country fits a phone's screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from antrap_gym.device.sim.apps.osmand import places as pl

MIN_ZOOM, MAX_ZOOM, DEFAULT_ZOOM = 9, 17, 12
OUTSIDE = (226, 226, 220)
LAND = (242, 239, 233)
WATER = (170, 211, 223)
BORDER = (172, 146, 196)
ROAD_COLORS = {"main": (249, 178, 156), "minor": (255, 255, 255), "path": (170, 120, 80)}
ROAD_CASING = (190, 180, 170)
PLACE_DOT = (90, 90, 90)
FAVORITE = (238, 204, 34)
MARKER = (229, 57, 53)
ROUTE = (50, 120, 220)
SELECTED = (3, 118, 232)


@dataclass(frozen=True)
class Projection:
    """Map <-> view pixels for one view size, centre and zoom."""

    w: int
    h: int
    lat: float
    lon: float
    zoom: int
    density: float

    @property
    def sx(self) -> float:
        """Pixels per degree of longitude."""
        return 256 * 2 ** self.zoom / 360 * (self.density / 2.625) * 2

    @property
    def sy(self) -> float:
        """Pixels per degree of latitude (Mercator: the longitude's over cos(lat))."""
        return self.sx / math.cos(math.radians(self.lat))

    def to_view(self, lat: float, lon: float) -> tuple[int, int]:
        return (round(self.w / 2 + (lon - self.lon) * self.sx),
                round(self.h / 2 - (lat - self.lat) * self.sy))

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        return self.lat - (y - self.h / 2) / self.sy, self.lon + (x - self.w / 2) / self.sx

    def panned(self, dx: float, dy: float) -> tuple[float, float]:
        """The centre after the map is dragged by (dx, dy) pixels (the content follows
        the finger), kept over the country's surroundings."""
        lat = self.lat + dy / self.sy
        lon = self.lon - dx / self.sx
        return min(47.45, max(46.85, lat)), min(9.85, max(9.25, lon))


def _line(proj: Projection, pts: tuple[pl.Point, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(proj.to_view(lat, lon) for lat, lon in pts)


@lru_cache(maxsize=16)
def base_shapes(proj: Projection) -> tuple:
    """The land, the Rhine, the border, the roads and the place dots."""
    d = proj.density
    shapes: list[tuple] = [("polygon", _line(proj, pl.BORDER), LAND),
                           ("line", _line(proj, pl.RHINE), WATER, max(2, round(8 * d)))]
    border = _line(proj, pl.BORDER)
    shapes.append(("line", (*border, border[0]), BORDER, max(1, round(2 * d))))
    widths = {"main": 6, "minor": 4, "path": 2}
    for pts, kind in pl.ROADS:
        line = _line(proj, pts)
        if kind != "path":
            shapes.append(("line", line, ROAD_CASING, max(2, round((widths[kind] + 2) * d))))
        shapes.append(("line", line, ROAD_COLORS[kind], max(1, round(widths[kind] * d))))
    for p in pl.PLACES:
        x, y = proj.to_view(p.lat, p.lon)
        shapes.append(("dot", x, y, max(2, round(4 * d)), PLACE_DOT))
    return tuple(shapes)


def point_shapes(proj: Projection, points, color: tuple[int, int, int]) -> tuple:
    """A filled circle with a white ring at each point (favourites, markers)."""
    d = proj.density
    out = []
    for p in points:
        x, y = proj.to_view(p.lat, p.lon)
        out.append(("dot", x, y, round(8 * d), (255, 255, 255)))
        out.append(("dot", x, y, round(6 * d), color))
    return tuple(out)


def route_shapes(proj: Projection, points) -> tuple:
    d = proj.density
    line = tuple(proj.to_view(p.lat, p.lon) for p in points)
    out: list[tuple] = []
    if len(line) > 1:
        out.append(("line", line, ROUTE, max(2, round(4 * d))))
    for x, y in line:
        out.append(("dot", x, y, round(6 * d), ROUTE))
        out.append(("dot", x, y, round(3 * d), (255, 255, 255)))
    return tuple(out)


def crosshair(proj: Projection) -> tuple:
    """The plan-a-route target at the centre: where "Add point" puts the next point."""
    d = proj.density
    cx, cy, r = proj.w // 2, proj.h // 2, round(14 * d)
    w = max(1, round(2 * d))
    return (("ring", cx, cy, r, (40, 40, 40), w),
            ("line", ((cx - 2 * r, cy), (cx - r // 2, cy)), (40, 40, 40), w),
            ("line", ((cx + r // 2, cy), (cx + 2 * r, cy)), (40, 40, 40), w),
            ("line", ((cx, cy - 2 * r), (cx, cy - r // 2)), (40, 40, 40), w),
            ("line", ((cx, cy + r // 2), (cx, cy + 2 * r)), (40, 40, 40), w))


def selected_pin(proj: Projection, lat: float, lon: float) -> tuple:
    d = proj.density
    x, y = proj.to_view(lat, lon)
    return (("dot", x, y, round(10 * d), (255, 255, 255)), ("dot", x, y, round(8 * d), SELECTED))
