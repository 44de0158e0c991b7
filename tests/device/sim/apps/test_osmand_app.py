"""OsmAnd on the simulated phone, driven as a user drives it: the first-run screens, the
map of Liechtenstein (its places at their real coordinates, pan and zoom), the search,
favourites, map markers and Plan a route; what the app stores is read back through the
shell and `Device.pull` at the paths AndroidWorld reads (favorites.gpx through
/data/media/0, map_markers_db, the tracks folder), and checked with the template
checks."""

from __future__ import annotations

import io
import sqlite3
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import osmand as om
from antrap_gym.tasks.checks.gpx import GpxTrackThrough, GpxWaypoint
from tests.screen import find_all, need, tap

PKG = "net.osmand"
RID = PKG + ":id/"
MAP = PKG + "/net.osmand.plus.activities.MapActivity"
CONTROLLER = "com.google.android.permissioncontroller"
SDCARD_FAVORITES = "/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx"
GPX = {"gpx": "http://www.topografix.com/GPX/1/1"}
PLACES = [name.split(",")[0] for name in om.LOCATIONS]


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


def by_rid(dev: SimDevice, rid: str) -> list[UIElement]:
    return find_all(dev, rid=RID + rid)


def label(dev: SimDevice, name: str) -> UIElement:
    return need(dev, name, rid=RID + "map_label")


def open_map(dev: SimDevice) -> None:
    """Launch on a factory phone: past the first run, as AndroidWorld's set-up leaves it."""
    assert dev.launch(PKG).ok
    assert by_rid(dev, "map_label")


def search(dev: SimDevice, query: str, opener: str = "map_search_button") -> None:
    tap(dev, rid=RID + opener) if opener else tap(dev, desc="Search")
    field = by_rid(dev, "searchEditText")[0]
    dev.tap(*field.center)
    dev.type_text(query)


def results(dev: SimDevice) -> list[str]:
    """The result rows' titles (the first text of each row, below the field)."""
    field_y = by_rid(dev, "searchEditText")[0].center[1]
    return [e.text for e in dev.ui_elements()
            if e.text and e.class_name == "android.widget.TextView" and e.center[1] > field_y
            and "Liechtenstein" not in e.text and e.text != "Location"]


def choose(dev: SimDevice, title: str) -> None:
    field_y = by_rid(dev, "searchEditText")[0].center[1]
    row = next(e for e in dev.ui_elements() if e.text == title and e.center[1] > field_y)
    dev.tap(*row.center)


def db_rows(dev: SimDevice, sql: str) -> list[tuple]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "map_markers_db"
        path.write_bytes(dev.pull(om.MARKERS_DB))
        con = sqlite3.connect(path)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()


# --- first run --------------------------------------------------------------------------------


def test_after_pm_clear_it_asks_to_download_then_for_the_location_once(dev):
    open_map(dev)  # a factory phone: straight to the map
    assert dev.shell(f"pm clear {PKG}").ok
    assert dev.launch(PKG).ok
    assert dev.foreground() == tuple(MAP.split("/"))
    assert find_all(dev, text="Download map") and not by_rid(dev, "map_label")
    tap(dev, text="Skip download")
    assert dev.foreground()[0] == CONTROLLER
    assert find_all(dev, text="Allow OsmAnd to access this device's location?")
    tap(dev, text="While using the app")
    assert dev.foreground() == tuple(MAP.split("/")) and by_rid(dev, "map_label")
    assert "android.permission.ACCESS_FINE_LOCATION: granted=true" in dev.shell(
        f"dumpsys package {PKG}").stdout
    assert 'first_usage_wizard_done" value="true"' in dev.shell(f"cat {om.PREFS}").stdout
    dev.shell(f"am force-stop {PKG}")
    assert dev.launch(PKG).ok  # no wizard, no prompt the second time
    assert dev.foreground() == tuple(MAP.split("/")) and by_rid(dev, "map_label")


def test_back_on_the_wizard_leaves_it_to_do_and_a_denied_location_is_not_asked_again(dev):
    dev.shell(f"pm clear {PKG}")
    assert dev.launch(PKG).ok
    dev.key("KEYCODE_BACK")
    assert dev.foreground()[0] != PKG
    assert dev.launch(PKG).ok
    tap(dev, text="Skip download")
    tap(dev, text="Don't allow")
    dev.shell(f"am force-stop {PKG}")
    assert dev.launch(PKG).ok
    assert dev.foreground()[0] == PKG and by_rid(dev, "map_label")
    assert "ACCESS_FINE_LOCATION: granted=false" in dev.shell(f"dumpsys package {PKG}").stdout


# --- the map ----------------------------------------------------------------------------------


def test_the_twelve_places_are_on_the_map_at_their_real_coordinates(dev):
    open_map(dev)
    shown = {e.text for e in by_rid(dev, "map_label")}
    assert set(PLACES) <= shown
    for name, (lat, lon) in om.LOCATIONS.items():
        tap(dev, text=name.split(",")[0], rid=RID + "map_label")
        assert by_rid(dev, "context_menu_line1")[0].text == name.split(",")[0]
        assert by_rid(dev, "context_menu_coordinates")[0].text == f"{lat:.5f}, {lon:.5f}"
        dev.shell(f"am force-stop {PKG}")  # the card centred the map there: start over
        assert dev.launch(PKG).ok
    # north is up, east is right
    assert label(dev, "Ruggell").center[1] < label(dev, "Schaan").center[1] < label(dev, "Balzers").center[1]
    assert label(dev, "Malbun").center[0] > label(dev, "Balzers").center[0]


def test_the_buttons_zoom_and_a_swipe_pans_the_map(dev):
    open_map(dev)

    def spread() -> int:
        return label(dev, "Vaduz").center[1] - label(dev, "Schaan").center[1]

    wide = spread()
    tap(dev, desc="Zoom out")
    assert abs(spread() * 2 - wide) <= 2
    tap(dev, desc="Zoom in")
    tap(dev, desc="Zoom in")
    assert abs(spread() - 2 * wide) <= 2
    before = label(dev, "Planken").center
    dev.swipe(600, 1200, 400, 1100)  # the map follows the finger
    after = label(dev, "Planken").center
    assert (after[0] - before[0], after[1] - before[1]) == (-200, -100)


def test_the_map_is_drawn(dev):
    open_map(dev)
    frame = dev.screenshot()
    dot = label(dev, "Balzers")
    x, y = dot.bbox_pixels.x_min - 16, dot.center[1]  # the place's dot left of its name
    assert tuple(frame[y, x]) == (90, 90, 90)
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 20  # land, water, roads, labels


# --- search -----------------------------------------------------------------------------------


def test_search_finds_places_by_name_prefix_accents_and_coordinates(dev):
    open_map(dev)
    search(dev, "planken")
    assert results(dev) == ["Planken", "Oberplanken"]
    tap(dev, desc="Navigate up")
    search(dev, "Schonberg, Liechtenstein")
    assert results(dev) == ["Schönberg"]
    tap(dev, desc="Navigate up")
    search(dev, "47.1303814, 9.5930117")
    assert find_all(dev, text="47.13038, 9.59301") and find_all(dev, text="Location")
    tap(dev, desc="Navigate up")
    search(dev, "Zurich")
    assert find_all(dev, text="Nothing found")


def test_a_result_opens_its_card_on_the_map(dev):
    open_map(dev)
    search(dev, "Malbun, Liechtenstein")
    choose(dev, "Malbun")
    assert dev.foreground() == tuple(MAP.split("/"))
    assert by_rid(dev, "context_menu_line1")[0].text == "Malbun"
    assert by_rid(dev, "context_menu_line2")[0].text == "Village · Liechtenstein"


# --- favourites -------------------------------------------------------------------------------


def test_a_favourite_is_a_wpt_in_favorites_gpx_under_data_media(dev):
    open_map(dev)
    search(dev, "Triesen")
    choose(dev, "Triesen")
    tap(dev, text="Favorite")
    assert find_all(dev, text="Add favorite") and find_all(dev, text="Triesen")  # named after the place
    field = need(dev, rid="android:id/edit")
    dev.tap(*field.center)
    dev.type_text(" home")
    tap(dev, text="Save")
    data = dev.pull(om.FAVORITES)
    assert data == dev.pull(SDCARD_FAVORITES)  # /data/media/0 is shared storage's folder
    root = ET.fromstring(data)
    (wpt,) = root.findall("gpx:wpt", GPX)
    assert wpt.find("gpx:name", GPX).text == "Triesen home"
    assert (float(wpt.get("lat")), float(wpt.get("lon"))) == om.LOCATIONS["Triesen, Liechtenstein"]
    assert GpxWaypoint(om.FAVORITES, "Triesen, Liechtenstein",
                       om.LOCATIONS["Triesen, Liechtenstein"]).score(dev, None) == 1.0
    assert GpxWaypoint(om.FAVORITES, "Balzers, Liechtenstein",
                       om.LOCATIONS["Balzers, Liechtenstein"]).score(dev, None) == 0.0
    tap(dev, desc="Close")
    tap(dev, desc="Menu")
    tap(dev, text="My Places")
    assert find_all(dev, text="Triesen home")


def test_an_empty_favourite_name_is_refused_and_the_dialog_stays(dev):
    open_map(dev)
    tap(dev, text="Vaduz", rid=RID + "map_label")
    tap(dev, text="Favorite")
    field = need(dev, rid="android:id/edit")
    dev.tap(*field.center)
    dev.shell("input keyevent KEYCODE_MOVE_END")
    for _ in range(len(field.text)):
        dev.shell("input keyevent KEYCODE_DEL")
    assert need(dev, rid="android:id/edit").text in (None, "")
    tap(dev, text="Save")
    assert find_all(dev, text="Add favorite")
    assert dev.shell(f"test -e {om.FAVORITES}").exit_code != 0


def test_favourites_written_through_the_shell_show_in_my_places(dev):
    gpx = ('<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1">'
           '<wpt lat="47.2" lon="9.5"><name>Pushed</name></wpt></gpx>')
    assert dev.shell(f"mkdir -p {om.FILES}/favorites && echo '{gpx}' > {om.FAVORITES}").ok
    open_map(dev)
    tap(dev, desc="Menu")
    tap(dev, text="My Places")
    assert find_all(dev, text="Pushed")


# --- map markers ------------------------------------------------------------------------------


def test_a_marker_is_a_row_of_map_markers_db(dev):
    open_map(dev)
    search(dev, "Bendern")
    choose(dev, "Bendern")
    tap(dev, text="Marker")
    cols = [r[1] for r in db_rows(dev, "PRAGMA table_info(map_markers)")]
    assert cols == ["marker_id", "marker_lat", "marker_lon", "marker_description", "marker_active",
                    "marker_added", "marker_visited", "group_name", "group_key", "marker_color",
                    "marker_next_key", "marker_disabled", "marker_selected",
                    "marker_map_object_name"]
    assert db_rows(dev, "PRAGMA user_version") == [(13,)]
    rows = db_rows(dev, "SELECT marker_lat, marker_lon, marker_description, marker_active, "
                        "marker_map_object_name FROM map_markers")
    lat, lon = om.LOCATIONS["Bendern, Liechtenstein"]
    assert rows == [(lat, lon, "poi#Bendern", 1, "Bendern")]
    shell = dev.shell(f"sqlite3 {om.MARKERS_DB} 'SELECT marker_map_object_name FROM map_markers'")
    assert shell.stdout.strip() == "Bendern"
    tap(dev, desc="Close")
    tap(dev, desc="Menu")
    tap(dev, text="Map markers")
    assert find_all(dev, text="Bendern")


# --- plan a route -----------------------------------------------------------------------------


def start_plan(dev: SimDevice) -> None:
    open_map(dev)
    tap(dev, desc="Menu")
    tap(dev, text="Plan a route")
    assert by_rid(dev, "toolbar_title")[0].text == "Plan a route"


def route(dev: SimDevice) -> str:
    return by_rid(dev, "measurement_points_text_view")[0].text


def test_plan_a_route_adds_points_by_search_and_by_tapping_places_and_saves_a_track(dev):
    start_plan(dev)
    search(dev, "Balzers", opener="")
    choose(dev, "Balzers")
    tap(dev, text="Add point")
    tap(dev, text="Vaduz", rid=RID + "map_label")  # a tap on a place adds it
    search(dev, "Ruggell", opener="")
    choose(dev, "Ruggell")
    tap(dev, text="Add point")
    assert route(dev) == "Balzers – Vaduz – Ruggell"
    tap(dev, text="Undo")
    assert route(dev) == "Balzers – Vaduz"
    tap(dev, text="Add point")  # the crosshair is still on Ruggell
    tap(dev, rid=RID + "save_button")
    field = need(dev, rid="android:id/edit")
    assert field.text == "2023-10-15_15-34_Sun"  # OsmAnd's date-and-time name to start with
    dev.tap(*field.center)
    dev.shell("input keyevent KEYCODE_MOVE_END")
    for _ in range(len(field.text)):
        dev.shell("input keyevent KEYCODE_DEL")
    dev.type_text("Down the valley")
    tap(dev, text="Save")
    assert not by_rid(dev, "measurement_points_text_view")  # back to the map
    assert dev.shell(f"ls {om.TRACKS}").stdout.split("\n")[0] == "Down the valley.gpx"
    root = ET.fromstring(dev.pull(om.TRACKS + "/Down the valley.gpx"))
    pts = [(float(p.get("lat")), float(p.get("lon")))
           for p in root.findall("gpx:trk/gpx:trkseg/gpx:trkpt", GPX)]
    assert pts == [om.LOCATIONS["Balzers, Liechtenstein"], (47.141, 9.5215),
                   om.LOCATIONS["Ruggell, Liechtenstein"]]
    names = ("Balzers, Liechtenstein", "Ruggell, Liechtenstein")
    assert GpxTrackThrough(om.TRACKS, tuple(om.LOCATIONS[n] for n in names)).score(dev, None) == 1.0
    assert GpxTrackThrough(om.TRACKS, tuple(om.LOCATIONS[n] for n in names[::-1])).score(dev, None) == 0.0
    tap(dev, desc="Menu")
    tap(dev, text="My Places")
    tap(dev, text="Tracks")
    assert find_all(dev, text="Down the valley")


def test_a_track_name_with_a_slash_is_refused(dev):
    start_plan(dev)
    tap(dev, text="Schaan", rid=RID + "map_label")
    tap(dev, rid=RID + "save_button")
    dev.tap(*need(dev, rid="android:id/edit").center)
    dev.type_text("a/b")
    tap(dev, text="Save")
    assert find_all(dev, text="Save as new track")  # still asking
    assert dev.shell(f"test -e {om.TRACKS}").exit_code != 0


def test_leaving_a_route_with_points_asks_first(dev):
    start_plan(dev)
    tap(dev, text="Nendeln", rid=RID + "map_label")
    dev.key("KEYCODE_BACK")
    assert find_all(dev, text="Exit without saving?")
    tap(dev, text="Exit")
    assert not by_rid(dev, "measurement_points_text_view") and by_rid(dev, "map_search_button")


# --- the task adapter's set-up --------------------------------------------------------------------


def test_clearing_favourites_keeps_the_rest_of_the_file_and_tear_down_puts_it_back(dev):
    open_map(dev)
    tap(dev, text="Schaan", rid=RID + "map_label")
    tap(dev, text="Favorite")
    tap(dev, text="Save")
    before = dev.pull(om.FAVORITES)
    recipe = om.ClearFavorites()
    recipe.apply(dev)
    cleared = ET.parse(io.BytesIO(dev.pull(om.FAVORITES))).getroot()
    assert cleared.findall("gpx:wpt", GPX) == [] and cleared.find("gpx:metadata", GPX) is not None
    recipe.undo(dev)
    assert dev.pull(om.FAVORITES) == before
