"""OsmAnd's screens: the map (with its first-run wizard, the context card of a chosen
point and the Plan a route mode), the search, and My Places.

As in the real app, the map, the search and Plan a route are one activity
(`MapActivity`; the others are its fragments there), so `dumpsys window` names it for
all three; My Places is an activity of its own.

- The map pans with a swipe, zooms with "Zoom in" / "Zoom out", and shows the places'
  names; a tap on a name opens its context card ("Favorite", "Marker").
- Search: type a place's name (or "lat, lon"); a tap on a result centres the map on it
  with its card (in Plan a route: under the crosshair, ready for "Add point").
- Plan a route: "Add point" adds the point under the crosshair (a tap on the map or on a
  place's name adds that one); "Save" writes the route as a GPX track.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.osmand import mapview as mv
from antrap_gym.device.sim.apps.osmand import places as pl
from antrap_gym.device.sim.apps.osmand import storage as st
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.storage.permissions import FINE_LOCATION
from antrap_gym.device.sim.toolkit import card
from antrap_gym.device.sim.toolkit import firstrun as fr
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import View

PKG = st.PKG
RID = PKG + ":id/"
MAP = "net.osmand.plus.activities.MapActivity"
MY_PLACES = "net.osmand.plus.myplaces.MyPlacesActivity"
APP_NAME = "OsmAnd"
FAVORITE_TITLE = "Add favorite"
SAVE_TITLE = "Save as new track"
EXIT_TITLE = "Exit without saving?"
SEPARATOR = " – "
#: a tap this close to a place (dp) is a tap on it
TAP_SLOP_DP = 16
Selected = tuple[str, float, float, str]  # name, lat, lon, what it is


class OsmAndActivity(Activity):
    package = PKG


def _map_below(phone: PhoneContext) -> MapActivity | None:
    for act in reversed(phone.wm.tasks.get(PKG, [])):
        if isinstance(act, MapActivity):
            return act
    return None


def _describe(kind: str) -> str:
    return f"{kind} · {pl.COUNTRY}" if kind != "Location" else "Location"


# --- the map ---------------------------------------------------------------------------------


class MapActivity(fr.FirstRun, OsmAndActivity):
    name = MAP

    def __init__(self) -> None:
        super().__init__()
        self.lat, self.lon = pl.HOME
        self.zoom = mv.DEFAULT_ZOOM
        self.selected: Selected | None = None
        self.planning = False
        self.plan: list[tuple[str, float, float]] = []
        #: the place search put under the crosshair (Add point names the point after it)
        self.target: str | None = None

    def title(self, phone: PhoneContext) -> str:
        return APP_NAME

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if not fr.done(phone, st.PREFS, st.WIZARD_DONE):
            self._build_wizard(ui, phone)
            return
        fr.ask_once(phone, self, st.PREFS, st.LOCATION_ASKED, APP_NAME,
                    "access this device's location", FINE_LOCATION, one_time=True)
        if self.planning:
            self._build_plan(ui, phone)
        else:
            self._build_browse(ui, phone)

    # --- first run ---------------------------------------------------------------------------
    def _build_wizard(self, ui: UI, phone: PhoneContext) -> None:
        """The first-run wizard's offer to download the region's map (BACK leaves the app
        with the wizard still to do)."""
        fr.page(ui, "Download map", "OsmAnd works offline: download the map of your region to "
                "see it without an internet connection.",
                [("Search for another region", lambda: phone.toast("No internet connection")),
                 ("Skip download", lambda: self.skip_wizard(phone))], icon="place")

    def skip_wizard(self, phone: PhoneContext) -> None:
        """Past the wizard: the map shows (and asks for the location, once)."""
        fr.mark(phone, st.PREFS, st.WIZARD_DONE)

    def on_back(self, phone: PhoneContext) -> bool:
        if self.planning:
            self.leave_plan(phone)
            return True
        if self.selected is not None:
            self.selected = None
            return True
        return False

    # --- shared by both modes ----------------------------------------------------------------
    def _projection(self, ui: UI, rect) -> mv.Projection:
        return mv.Projection(rect[2] - rect[0], rect[3] - rect[1], self.lat, self.lon, self.zoom,
                             ui.density)

    def _draw_map(self, ui: UI, phone: PhoneContext, rect, extra: tuple) -> View:
        """The map in `rect` with the places' names on it (its children: the floating
        buttons and cards laid over it go there too, so they blend over the map)."""
        proj = self._projection(ui, rect)
        shapes = (mv.base_shapes(proj) + mv.point_shapes(proj, st.favorites(phone), mv.FAVORITE)
                  + mv.point_shapes(proj, st.markers(phone), mv.MARKER) + extra)
        view = ui.vector(shapes, background=mv.OUTSIDE, rect=rect, rid=RID + "map_view", desc="Map",
                  cls="net.osmand.plus.views.OsmandMapTileView",
                  on_gesture=lambda x0, y0, x1, y1: self.touch(phone, proj, rect, x0, y0, x1, y1))
        self._labels(ui, phone, proj, rect, view)
        return view

    def _labels(self, ui: UI, phone: PhoneContext, proj: mv.Projection, rect, view: View) -> None:
        size = ui.sp(14)
        h = ui.dp(22)
        for p in pl.PLACES:
            x, y = proj.to_view(p.lat, p.lon)
            x, y = x + rect[0], y + rect[1]
            x0 = x + ui.dp(6)
            box = (x0, y - h // 2, x0 + txt.text_width(p.name, size) + ui.dp(4), y + h - h // 2)
            if ui.culled(box) or not (rect[0] <= x < rect[2] and rect[1] <= y < rect[3]):
                continue
            ui.mk("text", box, view, text=p.name, style="summary", rid=RID + "map_label",
                  on_click=lambda p=p: self.tap_place(phone, p))

    def _fab(self, ui: UI, on: View, rect, icon: str, desc: str, rid: str, on_click) -> None:
        ui.mk("fab", rect, on, desc=desc, icon=icon, rid=RID + rid, on_click=on_click)

    def touch(self, phone: PhoneContext, proj: mv.Projection, rect, x0: int, y0: int, x1: int,
              y1: int) -> bool:
        """A swipe pans the map; a tap closes the card (browse) or adds a point (plan)."""
        if (x0, y0) != (x1, y1):
            self.lat, self.lon = proj.panned(x1 - x0, y1 - y0)
            self.target = None
            return True
        if self.planning:
            lat, lon = proj.to_map(x0 - rect[0], y0 - rect[1])
            near = pl.nearest(lat, lon, phone.density * TAP_SLOP_DP / proj.sx)
            if near is not None:
                self.add_point(phone, near.name, near.lat, near.lon)
            else:
                self.add_point(phone, pl.format_coordinates(lat, lon), lat, lon)
            return True
        if self.selected is not None:
            self.selected = None
            return True
        return False

    def tap_place(self, phone: PhoneContext, p: pl.Place) -> None:
        if self.planning:
            self.add_point(phone, p.name, p.lat, p.lon)
        else:
            self.select(p.name, p.lat, p.lon, p.kind)

    def select(self, name: str, lat: float, lon: float, kind: str) -> None:
        """Centre the map on a point and open its context card."""
        self.selected = (name, lat, lon, kind)
        self.lat, self.lon = lat, lon

    def zoom_by(self, phone: PhoneContext, step: int) -> None:
        self.zoom = max(mv.MIN_ZOOM, min(mv.MAX_ZOOM, self.zoom + step))

    def open_search(self, phone: PhoneContext) -> None:
        phone.start_activity(SearchActivity(for_plan=self.planning))

    # --- browsing ----------------------------------------------------------------------------
    def _build_browse(self, ui: UI, phone: PhoneContext) -> None:
        r = ui.rect
        sel = self.selected
        extra = mv.selected_pin(self._projection(ui, r), sel[1], sel[2]) if sel else ()
        view = self._draw_map(ui, phone, r, extra)
        s, m = ui.dp(56), ui.dp(16)
        self._fab(ui, view, (r[0] + m, r[1] + m, r[0] + m + s, r[1] + m + s), "search", "Search",
                  "map_search_button", lambda: self.open_search(phone))
        if sel is not None:
            self._build_card(ui, phone, sel, view)
            return
        zy = r[3] - m - 2 * s - ui.dp(8)
        self._fab(ui, view, (r[2] - m - s, zy, r[2] - m, zy + s), "add", "Zoom in", "map_zoom_in_button",
                  lambda: self.zoom_by(phone, 1))
        self._fab(ui, view, (r[2] - m - s, zy + s + ui.dp(8), r[2] - m, zy + 2 * s + ui.dp(8)), "remove",
                  "Zoom out", "map_zoom_out_button", lambda: self.zoom_by(phone, -1))
        by = r[3] - m - s
        self._fab(ui, view, (r[0] + m, by, r[0] + m + s, by + s), "menu", "Menu", "map_menu_button",
                  lambda: self.open_menu(phone, (r[0] + m + s, by)))

    def _build_card(self, ui: UI, phone: PhoneContext, sel: Selected, view: View) -> None:
        name, lat, lon, kind = sel
        r = ui.rect
        h = ui.dp(188)
        box = (r[0], r[3] - h, r[2], r[3])
        sheet = ui.mk("card", box, view, style="banner", rid=RID + "context_menu_main")
        sheet.clickable = True  # the card takes the touches that land on it
        pad = ui.dp(24)
        y = box[1] + ui.dp(16)
        ui.mk("text", (box[0] + pad, y, box[2] - ui.dp(72), y + ui.dp(32)), sheet, text=name,
              style="card_title", rid=RID + "context_menu_line1")
        ui.mk("icon_button", (box[2] - ui.dp(60), y - ui.dp(4), box[2] - ui.dp(12), y + ui.dp(44)),
              sheet, icon="close", desc="Close", rid=RID + "context_menu_close_btn_view",
              on_click=lambda: self.close_card(phone))
        y += ui.dp(32)
        ui.mk("text", (box[0] + pad, y, box[2] - pad, y + ui.dp(24)), sheet, text=_describe(kind),
              style="summary", rid=RID + "context_menu_line2")
        y += ui.dp(24)
        ui.mk("text", (box[0] + pad, y, box[2] - pad, y + ui.dp(24)), sheet,
              text=pl.format_coordinates(lat, lon), style="summary",
              rid=RID + "context_menu_coordinates")
        y += ui.dp(36)
        cells = card.split((box[0] + pad, y, box[2] - pad, y + ui.dp(48)), 2, ui.dp(12))
        ui.mk("button", cells[0], sheet, text="Favorite", style="tonal",
              rid=RID + "context_menu_fav_text_view", on_click=lambda: self.ask_favorite(phone))
        ui.mk("button", cells[1], sheet, text="Marker", style="tonal",
              rid=RID + "context_menu_marker_text_view", on_click=lambda: self.add_marker(phone))

    def close_card(self, phone: PhoneContext) -> None:
        self.selected = None

    def open_menu(self, phone: PhoneContext, anchor: tuple[int, int]) -> None:
        phone.open_popup(self, Menu([Choice("Search", "open_search"),
                                     Choice("My Places", "open_my_places"),
                                     Choice("Map markers", "open_markers"),
                                     Choice("Plan a route", "start_plan")], anchor))

    def open_my_places(self, phone: PhoneContext) -> None:
        phone.start_activity(MyPlacesActivity())

    def open_markers(self, phone: PhoneContext) -> None:
        phone.start_activity(MyPlacesActivity(tab=2))

    # --- favourites and markers ----------------------------------------------------------------
    def ask_favorite(self, phone: PhoneContext) -> None:
        if self.selected is None:
            return
        self.set_field("favorite_name", self.selected[0])
        self.focus = None
        phone.open_popup(self, Dialog(FAVORITE_TITLE, buttons=[
            Choice("Cancel", "noop"), Choice("Save", "save_favorite")],
            field_name="favorite_name", field_hint="Name"))

    def save_favorite(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("favorite_name", "").strip()
        if self.selected is None:
            return
        if not name:
            phone.toast("Name is empty")
            self.ask_favorite(phone)
            self.set_field("favorite_name", "")
            return
        _, lat, lon, _ = self.selected
        try:
            st.add_favorite(phone, st.Point(name, lat, lon))
        except FsError:
            phone.toast("Could not save the favorite")
            return
        phone.toast(f"Favorite {name} added")

    def add_marker(self, phone: PhoneContext) -> None:
        if self.selected is None:
            return
        name, lat, lon, kind = self.selected
        st.add_marker(phone, st.Point(name, lat, lon), "location" if kind == "Location" else "poi")
        phone.toast(f"{name} added to map markers")

    # --- plan a route ------------------------------------------------------------------------
    def start_plan(self, phone: PhoneContext) -> None:
        self.planning, self.plan, self.selected = True, [], None
        self.target = None

    def add_point(self, phone: PhoneContext, name: str, lat: float, lon: float) -> None:
        self.plan.append((name, lat, lon))

    def add_centre(self, phone: PhoneContext) -> None:
        """Add point: the point under the crosshair, named after the place search put
        there, else after a place right under it, else by its coordinates."""
        near = pl.BY_NAME.get(self.target or "") or pl.nearest(self.lat, self.lon, 1e-6)
        if near is not None and (near.lat, near.lon) == (self.lat, self.lon):
            self.add_point(phone, near.name, near.lat, near.lon)
        elif self.target is not None:
            self.add_point(phone, self.target, self.lat, self.lon)
        else:
            self.add_point(phone, pl.format_coordinates(self.lat, self.lon), self.lat, self.lon)

    def undo_point(self, phone: PhoneContext) -> None:
        if self.plan:
            self.plan.pop()

    def leave_plan(self, phone: PhoneContext) -> None:
        if self.plan:
            phone.open_popup(self, Dialog(EXIT_TITLE, "The route will be lost.", buttons=[
                Choice("Cancel", "noop"), Choice("Exit", "discard_plan", destructive=True)]))
        else:
            self.discard_plan(phone)

    def discard_plan(self, phone: PhoneContext) -> None:
        self.planning, self.plan, self.target = False, [], None

    def _distance_km(self) -> float:
        total = 0.0
        for (_, a_lat, a_lon), (_, b_lat, b_lon) in zip(self.plan, self.plan[1:]):
            dy = (b_lat - a_lat) * 111.2
            dx = (b_lon - a_lon) * 111.2 * math.cos(math.radians((a_lat + b_lat) / 2))
            total += math.hypot(dx, dy)
        return total

    def _build_plan(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Plan a route", back=lambda: self.leave_plan(phone),
                   actions=[("search", "Search", lambda: self.open_search(phone))],
                   rid=RID + "toolbar")
        r = ui.rect
        panel_h = ui.dp(184)
        map_rect = (r[0], ui.y, r[2], r[3] - panel_h)
        proj = self._projection(ui, map_rect)
        points = [st.Point(n, lat, lon) for n, lat, lon in self.plan]
        self._draw_map(ui, phone, map_rect, mv.route_shapes(proj, points) + mv.crosshair(proj))
        ui.set_y(map_rect[3])
        n = len(self.plan)
        ui.text(f"Points: {n} · {self._distance_km():.2f} km", style="small",
                rid=RID + "measurement_distance_text_view")
        ui.text(SEPARATOR.join(name for name, _, _ in self.plan) if self.plan else
                "Add points to plan a route", style="body", rid=RID + "measurement_points_text_view")
        y = max(ui.y, r[3] - ui.dp(64))
        cells = card.split((r[0] + ui.dp(16), y + ui.dp(8), r[2] - ui.dp(16), y + ui.dp(56)), 3,
                           ui.dp(8))
        ui.mk("button", cells[0], text="Undo", style="outlined", enabled=n > 0,
              rid=RID + "undo_point_button", on_click=lambda: self.undo_point(phone))
        ui.mk("button", cells[1], text="Add point", style="tonal", rid=RID + "add_point_button",
              on_click=lambda: self.add_centre(phone))
        ui.mk("button", cells[2], text="Save", style="filled", enabled=n > 0,
              rid=RID + "save_button", on_click=lambda: self.open_save(phone))

    def open_save(self, phone: PhoneContext, name: str | None = None) -> None:
        """Save: the file name (a date-and-time one to start with), Cancel / Save."""
        if not self.plan:
            return
        if name is None:
            when = dt.datetime.fromtimestamp(phone.now, tz=dt.UTC)
            name = when.strftime("%Y-%m-%d_%H-%M_%a")
        self.set_field("track_name", name)
        self.focus = None
        phone.open_popup(self, Dialog(SAVE_TITLE, buttons=[
            Choice("Cancel", "noop"), Choice("Save", "save_plan")],
            field_name="track_name", field_hint="File name"))

    def save_plan(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("track_name", "").strip()
        if not name or "/" in name or name in (".", ".."):
            phone.toast("Enter a valid file name")
            self.open_save(phone, name)
            return
        try:
            st.save_track(phone, name, [st.Point(n, lat, lon) for n, lat, lon in self.plan])
        except FsError:
            phone.toast("Could not save the track")
            return
        phone.wm.ime_shown = False
        phone.toast(f"Saved: {name}.gpx")
        self.discard_plan(phone)
        self.focus = None


# --- search -----------------------------------------------------------------------------------


class SearchActivity(OsmAndActivity):
    """OsmAnd's quick search (a fragment of MapActivity there): the query, then what it
    finds; a tap on a result shows it on the map."""

    name = MAP

    def __init__(self, for_plan: bool = False) -> None:
        super().__init__()
        self.for_plan = for_plan

    def title(self, phone: PhoneContext) -> str:
        return "Search"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Search", back=True, rid=RID + "toolbar")
        ui.search("query", "Search", rid=RID + "searchEditText")
        query = self.fields.get("query", "")
        coords = pl.parse_coordinates(query)
        found = pl.search(query)
        if not query.strip():
            ui.text("Type a place name, or coordinates as latitude, longitude.", style="small",
                    rid=RID + "search_hint")
            return
        if coords is None and not found:
            ui.empty("Nothing found")
            return
        with ui.scroll("results", rid=RID + "search_results"):
            if coords is not None:
                lat, lon = coords
                ui.row(pl.format_coordinates(lat, lon), "Location", icon="place",
                       rid=RID + "search_result",
                       on_click=lambda: self.choose(phone, pl.format_coordinates(lat, lon), lat,
                                                    lon, "Location"))
            for p in found:
                ui.row(p.name, _describe(p.kind), icon="place", rid=RID + "search_result",
                       on_click=lambda p=p: self.choose(phone, p.name, p.lat, p.lon, p.kind))

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        phone.wm.ime_shown = False

    def choose(self, phone: PhoneContext, name: str, lat: float, lon: float, kind: str) -> None:
        phone.finish_activity(self)
        m = _map_below(phone)
        if m is None:
            return
        if self.for_plan and m.planning:
            m.lat, m.lon, m.target = lat, lon, name
        else:
            m.select(name, lat, lon, kind)


# --- my places --------------------------------------------------------------------------------


TABS = ("Favorites", "Tracks", "Markers")


class MyPlacesActivity(OsmAndActivity):
    name = MY_PLACES

    def __init__(self, tab: int = 0) -> None:
        super().__init__()
        self.tab = tab

    def title(self, phone: PhoneContext) -> str:
        return "My Places"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("My Places", back=True, rid=RID + "toolbar")
        ui.tabs(list(TABS), self.tab, lambda i: setattr(self, "tab", i))
        if self.tab == 0:
            items = [(p.name, pl.format_coordinates(p.lat, p.lon), p) for p in st.favorites(phone)]
            empty = "No favorites yet"
        elif self.tab == 1:
            items = [(n, n + ".gpx", None) for n in st.tracks(phone)]
            empty = "No tracks yet"
        else:
            items = [(p.name, pl.format_coordinates(p.lat, p.lon), p) for p in st.markers(phone)]
            empty = "No map markers"
        if not items:
            ui.empty(empty)
            return
        with ui.scroll(f"tab{self.tab}", rid=RID + "list"):
            for i, (title, summary, point) in enumerate(items):
                ui.row(title, summary, icon="star" if self.tab == 0 else "flag",
                       rid=RID + "title",
                       on_click=(lambda p=point: self.show(phone, p)) if point else None,
                       on_long_click=(lambda i=i, p=point: self.ask_delete(phone, i, p))
                       if point else None)

    def show(self, phone: PhoneContext, p: st.Point) -> None:
        phone.finish_activity(self)
        m = _map_below(phone)
        if m is not None:
            m.select(p.name, p.lat, p.lon, "Location")

    def ask_delete(self, phone: PhoneContext, index: int, p: st.Point) -> None:
        phone.open_popup(self, Dialog(f"Delete {p.name}?", buttons=[
            Choice("Cancel", "noop"), Choice("Delete", "delete", (index, p.lat, p.lon),
                                              destructive=True)]))

    def delete(self, phone: PhoneContext, index: int, lat: float, lon: float) -> None:
        if self.tab == 0:
            try:
                st.remove_favorite(phone, index)
            except FsError:
                phone.toast("Could not delete the favorite")
        else:
            st.remove_marker(phone, st.Point("", lat, lon))
