"""Reference templates over OsmAnd (AndroidWorld's single/osmand.py): a favourite, a map
marker and a planned route through several places, under their class names, parameter
draws and checks; the complexities are the catalog's.

The oracle passes the first-run wizard ("Skip download"), grants the location prompt,
finds each place with the search and works from its context card or the Plan a route
panel.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import osmand as om
from antrap_gym.tasks.binding import DONE, F
from antrap_gym.tasks.checks import RowsExist
from antrap_gym.tasks.checks.gpx import GpxTrackThrough, GpxWaypoint
from antrap_gym.tasks.checks.match import Near
from antrap_gym.tasks.steps import Step, Tap, Target
from antrap_gym.tasks.template import template

aw = partial(template, source="AndroidWorld")
MAP_SEARCH = Target(rid="map_search_button", desc="Search")


def _location(rng) -> dict:
    return {"location": om.random_location(rng)}


def _point(p) -> dict:
    lat, lon = om.coords_of(p["location"])
    return {"lat": lat, "lon": lon, "coords": (lat, lon), "result": om.result_title(p["location"])}


def _to_card() -> list[Step]:
    """From the app's start: past the first run, the place found and its card open."""
    return [om.open_app(), om.skip_wizard(),
            *om.find_steps("{location}", "{result}", MAP_SEARCH, done=DONE)]


# === OsmAndFavorite ==============================================================================

OsmAndFavorite = aw(
    id="OsmAndFavorite", apps=(om.PKG,), kind="action", split="train", complexity=1.3,
    doc="AndroidWorld's draw: one of the twelve preloaded places, as 'Name, Liechtenstein' or "
        "(one time in two) as its coordinates. Set-up takes every waypoint out of "
        "favorites.gpx, as there; the check pulls the file and passes a `wpt` whose name "
        "contains the location, or that lies within 0.001 degrees of its point. AndroidWorld "
        "compares coordinates only when the location is written as coordinates, so a "
        "favourite named 'Balzers' at Balzers fails its check; the place's coordinates are "
        "looked up here as its marker check does.",
    goal="In the OsmAnd maps app, save {location} as a favorite location.",
    params=_location, derived=_point,
    setup=[om.ClearFavorites()],
    check=GpxWaypoint(om.FAVORITES, "{location}", F(lambda p: p["coords"])),
    solution=[*_to_card(),
              Tap(screen=om.MAP, target=Target(text="Favorite"), requires=om.card_of("{result}"),
                  done=DONE),
              Tap(screen=om.MAP + "|Add favorite", target=Target(text="Save"), done=DONE)])


# === OsmAndMarker ================================================================================

OsmAndMarker = aw(
    id="OsmAndMarker", apps=(om.PKG,), kind="action", split="test", complexity=2.0,
    doc="AndroidWorld's draw (a place's name or its coordinates); the check pulls "
        "map_markers_db and passes a map_markers row whose marker_lat and marker_lon are "
        "within 0.001 degrees of the place. Set-up also empties the table (AndroidWorld "
        "leaves earlier markers, which could pass the check before the agent acts).",
    goal="Put a map marker on {location} in the OsmAnd maps app.",
    params=_location, derived=_point,
    setup=[om.ClearMarkers()],
    check=RowsExist(om.MARKERS, ({"marker_lat": Near(F(lambda p: p["lat"]), 0.001),
                                  "marker_lon": Near(F(lambda p: p["lon"]), 0.001)},)),
    solution=[*_to_card(),
              Tap(screen=om.MAP, target=Target(text="Marker"), requires=om.card_of("{result}"),
                  done=DONE)])


# === OsmAndTrack =================================================================================


def _waypoints(rng) -> dict:
    names = om.sample_locations(rng, int(rng.integers(2, 5)))
    return {"waypoints": names, "track_name": f"{names[0]} to {names[-1]}",
            "listed": ", ".join(names)}


def _route(p) -> dict:
    return {"targets": tuple(om.LOCATIONS[n] for n in p["waypoints"])}


PLAN = Target(rid="toolbar_title", text="Plan a route")


def _track_solution(p) -> list[Step]:
    """Plan a route from the menu; each place: search it (the crosshair lands on it), Add
    point; then Save under the name offered."""
    planning = om.RouteHas(())  # the Plan a route panel is up
    steps: list[Step] = [om.open_app(), om.skip_wizard(),
                         Tap(screen=om.MAP, target=Target(rid="map_menu_button"), done=planning),
                         Tap(screen=om.MAP + "|menu", target=Target(text="Plan a route"),
                             done=planning)]
    names = [n.split(",")[0] for n in p["waypoints"]]
    for i, (query, name) in enumerate(zip(p["waypoints"], names)):
        added = om.RouteHas(tuple(names[:i + 1]))
        steps += om.find_steps(query, name, Target(desc="Search"), requires=PLAN, done=added)
        steps.append(Tap(screen=om.MAP, target=Target(rid="add_point_button"), requires=PLAN,
                         done=added))
    steps += [Tap(screen=om.MAP, target=Target(rid="save_button"), requires=PLAN, done=DONE),
              Tap(screen=om.MAP + "|Save as new track", target=Target(text="Save"), done=DONE)]
    return steps


OsmAndTrack = aw(
    id="OsmAndTrack", apps=(om.PKG,), kind="action", split="train", complexity=12,
    doc="AndroidWorld's draw: 2-4 different preloaded places by name (and a track name the "
        "goal does not use). Set-up empties the tracks folder, as there; the check lists it, "
        "pulls each file and passes a track whose trk/trkseg/trkpt points pass within 0.001 "
        "degrees of each place in the listed order (any points between).",
    goal="In the OsmAnd maps app, plan a route through {listed}, in that order, and save it "
         "as a track.",
    params=_waypoints, derived=_route,
    setup=[om.ClearTracks()],
    check=GpxTrackThrough(om.TRACKS, F(lambda p: p["targets"])),
    solution=_track_solution)
