"""OpenTracks' screens, laid out like OpenTracks 4.x: the track list (its main screen,
a search in the app bar, the record button) and a recorded track's statistics.

Screens read database.db when they are built (`store.tracks`), so `sqlite3` on the
file and the screens agree; recording itself is not modelled (the record button says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.opentracks import firstrun, store
from antrap_gym.device.sim.apps.opentracks.store import PKG, Track
from antrap_gym.device.sim.toolkit.builder import BarAction
from antrap_gym.device.sim.toolkit.firstrun import FirstRun
from antrap_gym.device.sim.toolkit.popups import Choice

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
NO_RECORDING = "Recording needs a location fix (GPS is off)"
#: the statistics screen's tabs, as TrackRecordedActivity has them
TABS = ("Statistics", "Intervals", "Chart")


def matches(t: Track, query: str) -> bool:
    """The list's search: name, activity type or description, ignoring case."""
    q = query.strip().casefold()
    return not q or any(q in s.casefold() for s in (t.name, t.category, t.description))


class OpenTracksActivity(Activity):
    package = PKG

    def about(self, phone: PhoneContext) -> None:
        phone.toast("OpenTracks 4.10.0")


class MainActivity(FirstRun, OpenTracksActivity):
    """The track list: each track's name, activity type, distance, total time and date,
    newest first; a search in the app bar; the record button (the first run's permission
    prompts over it: `firstrun`)."""

    name = "de.dennisguse.opentracks.TrackListActivity"

    def __init__(self) -> None:
        super().__init__()
        self.searching = False

    def title(self, phone: PhoneContext) -> str:
        return "OpenTracks"

    def toggle_search(self) -> None:
        self.searching = not self.searching
        if not self.searching:
            self.set_field("search", "")
            self.focus = None
        else:
            self.focus = "search"
        self.scroll["list"] = 0

    def build(self, ui: UI, phone: PhoneContext) -> None:
        firstrun.first_run(phone, self)
        ui.toolbar("OpenTracks", rid=RID + "track_list_toolbar", actions=[
            BarAction("search", "Search", self.toggle_search, rid=RID + "track_list_search"),
        ], menu=[Choice("Markers", "noop"), Choice("Aggregated statistics", "noop"),
                 Choice("Settings", "noop"), Choice("About", "about")])
        if self.searching:
            ui.search("search", "Search tracks", rid=RID + "search_src_text")
        query = self.fields.get("search", "") if self.searching else ""
        everything = store.tracks(phone)
        shown = [t for t in everything if matches(t, query)]
        if not shown:
            ui.empty(f'No tracks match "{query.strip()}"' if everything
                     else "No tracks yet\n\nTap the record button to start a track")
        else:
            with ui.scroll("list", rid=RID + "track_list"):
                for t in shown:
                    ui.row(t.name or "(unnamed)",
                           f"{t.category or 'unknown'} · {store.fmt_distance(t.distance)}"
                           f" · {store.fmt_duration(t.totaltime)}",
                           icon=_icon(t.category), trailing=("text", store.fmt_day(t.starttime)),
                           on_click=lambda i=t.id: phone.start_activity(TrackRecordedActivity(i)),
                           rid=RID + "track_list_item")
                ui.spacer(88)  # room under the record button
        ui.fab("record", "Record", lambda: phone.toast(NO_RECORDING),
               rid=RID + "track_list_fab_action")

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        self.focus = None

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        self.scroll["list"] = 0

    def on_back(self, phone: PhoneContext) -> bool:
        if self.searching:
            self.toggle_search()
            return True
        return False


def _icon(category: str) -> str:
    c = category.casefold()
    for word, icon in (("bik", "bike"), ("cycl", "bike"), ("run", "run"), ("walk", "walk"),
                       ("hik", "walk"), ("swim", "swim"), ("ski", "ski"), ("board", "ski")):
        if word in c:
            return icon
    return "track"


class TrackRecordedActivity(OpenTracksActivity):
    """One recorded track: its name and activity type, when it started, and the
    Statistics tab's figures (distance, times, speeds, elevation)."""

    name = "de.dennisguse.opentracks.TrackRecordedActivity"

    def __init__(self, track_id: int = 0) -> None:
        super().__init__()
        self.track_id = track_id
        self.tab = 0

    def title(self, phone: PhoneContext) -> str:
        t = store.track(phone, self.track_id)
        return t.name if t else "Track"

    def select_tab(self, i: int) -> None:
        self.tab = i
        self.scroll["stats"] = 0

    def build(self, ui: UI, phone: PhoneContext) -> None:
        t = store.track(phone, self.track_id)
        ui.toolbar(t.name if t else "", back=True, rid=RID + "track_detail_toolbar")
        if t is None:
            ui.empty("This track no longer exists")
            return
        ui.tabs(list(TABS), self.tab, self.select_tab)
        if self.tab != 0:
            ui.empty("Not enough data for this track")
            return
        with ui.scroll("stats", rid=RID + "stats_scroll"):
            ui.text(t.name, style="title", rid=RID + "stats_name")
            ui.text(t.category or "unknown", style="small", rid=RID + "stats_activity_type")
            if t.description:
                ui.text(t.description, style="body", rid=RID + "stats_description")
            ui.divider()
            for label, value, rid in (
                ("Start time", f"{store.fmt_date(t.starttime)} {store.fmt_time(t.starttime)}",
                 "stats_start_datetime"),
                ("Distance", store.fmt_distance(t.distance), "stats_distance_value"),
                ("Total time", store.fmt_duration(t.totaltime), "stats_total_time_value"),
                ("Moving time", store.fmt_duration(t.movingtime), "stats_moving_time_value"),
                ("Average speed", store.fmt_speed(t.avgspeed), "stats_average_speed_value"),
                ("Average moving speed", store.fmt_speed(t.avgmovingspeed),
                 "stats_average_moving_speed_value"),
                ("Max speed", store.fmt_speed(t.maxspeed), "stats_max_speed_value"),
                ("Elevation gain", store.fmt_elevation(t.gain), "stats_elevation_gain_value"),
                ("Elevation loss", store.fmt_elevation(t.loss), "stats_elevation_loss_value"),
            ):
                ui.row(label, trailing=("text", value), rid=RID + rid)
