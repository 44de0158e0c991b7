"""VLC's screens: the library in tabs (Video, Browse, Playlists), a playlist, the video
player, and the first-run screens.

The Video tab lists every video file on shared storage (medialibrary scans it all); a
video's overflow button opens its menu (Play, Add to playlist, Information), a long
press starts selecting videos (each row then has a check box) for the bar's Play / Add
to playlist. "Add to playlist" asks for a new playlist's name or one of the playlists
there are; items are appended in the order they were selected. Browse walks the folders
of the internal memory. The player shows the picture of the current position, which
runs with the phone's clock while playing; a seek bar and a play / pause button control
it, and playback stops on the last picture.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.vlc.storage import (
    KEY_ONBOARDING_DONE,
    PKG,
    TYPE_VIDEO,
    MediaLibrary,
    prefs,
)
from antrap_gym.device.sim.apps.vlc.video import fmt_time, read_video
from antrap_gym.device.sim.intents import local_path
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.intents import Intent
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
SDCARD = "/sdcard"
VIDEO_EXTS = (".mp4", ".m4v", ".mkv", ".webm", ".avi", ".mov", ".3gp")
TABS = ("Video", "Browse", "Playlists")
VIDEO, BROWSE, PLAYLISTS = range(3)
INTERNAL = "Internal memory"


def is_video(name: str) -> bool:
    return name.lower().endswith(VIDEO_EXTS) and not name.startswith(".")


def title_of(path: str) -> str:
    """A file's title as the media library gives it: its name without the extension."""
    return posixpath.splitext(posixpath.basename(path))[0]


def video_paths(phone: PhoneContext) -> list[str]:
    """Every video file on shared storage (none hidden, none under Android/), by title."""
    out = [p for p in phone.fs.files if p.startswith(SDCARD + "/") and "/." not in p
           and not p.startswith(SDCARD + "/Android/") and is_video(posixpath.basename(p))]
    return sorted(out, key=lambda p: (title_of(p).casefold(), p))


def duration_of(phone: PhoneContext, path: str) -> int:
    try:
        return read_video(phone.fs.read(path)).duration
    except Exception:  # gone or unreadable
        return 0


def media_for(phone: PhoneContext, path: str) -> int:
    """The media library's row for a file (made when there is none)."""
    size = len(phone.fs.read(path)) if phone.fs.isfile(path) else 0
    return MediaLibrary.of(phone).media_id(path, TYPE_VIDEO, duration_of(phone, path), size, phone.now)


class VlcActivity(Activity):
    """What VLC's list screens share: video rows, their menu, selection, playlists."""

    package = PKG

    def __init__(self) -> None:
        super().__init__()
        #: the selected videos (paths), in the order they were selected
        self.selected: list[str] = []
        #: the videos the open "Add to playlist" dialog is for
        self.pending: list[str] = []

    def video_rows(self, ui: UI, phone: PhoneContext, paths: list[str], key: str) -> None:
        picked = set(self.selected)
        with ui.scroll(key, rid=RID + "video_grid"):
            for p in paths:
                length = duration_of(phone, p)
                info = fmt_time(length) if length else posixpath.basename(posixpath.dirname(p))
                if picked:
                    ui.row(title_of(p), info, icon="file", selected=p in picked,
                           on_click=lambda p=p: self.toggle(p),
                           trailing=("checkbox", p in picked, lambda p=p: self.toggle(p)),
                           rid=RID + "ml_item")
                else:
                    ui.row(title_of(p), info, icon="file", rid=RID + "ml_item",
                           on_click=lambda p=p: self.play(phone, [p]),
                           on_long_click=lambda p=p: self.toggle(p),
                           trailing=("menu", None, lambda p=p: self.video_menu(phone, p),
                                     "More Actions", RID + "item_more"))

    def toggle(self, path: str) -> None:
        if path in self.selected:
            self.selected.remove(path)
        else:
            self.selected.append(path)

    def clear_selection(self) -> None:
        self.selected = []

    def on_back(self, phone: PhoneContext) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False

    def selection_toolbar(self, ui: UI) -> None:
        paths = tuple(self.selected)
        ui.toolbar(f"{len(paths)} selected", back=self.clear_selection, rid=RID + "main_toolbar",
                   menu=[Choice("Play", "play_paths", paths),
                         Choice("Add to playlist", "ask_add_to_playlist", paths)])

    # --- playing ----------------------------------------------------------------------
    def play(self, phone: PhoneContext, paths: list[str], start: int = 0) -> None:
        if paths:
            phone.start_activity(VideoPlayerActivity(paths[start], phone.clock_ms))

    def play_paths(self, phone: PhoneContext, *paths: str) -> None:
        self.selected = []
        self.play(phone, list(paths))

    # --- a video's menu -------------------------------------------------------------------
    def video_menu(self, phone: PhoneContext, path: str) -> None:
        phone.open_popup(self, Menu([Choice("Play", "play_paths", (path,)),
                                     Choice("Add to playlist", "ask_add_to_playlist", (path,)),
                                     Choice("Information", "show_info", (path,))],
                                    (phone.width // 2, phone.height // 3), title=title_of(path)))

    def show_info(self, phone: PhoneContext, path: str) -> None:
        size = len(phone.fs.read(path)) if phone.fs.isfile(path) else 0
        length = duration_of(phone, path)
        phone.open_popup(self, Dialog(title_of(path), (
            f"File: {posixpath.basename(path)}\nLocation: {posixpath.dirname(path)}\n"
            f"Length: {fmt_time(length) if length else 'unknown'}\nSize: {size} B"),
            buttons=[Choice("OK", "noop")]))

    # --- adding to a playlist ---------------------------------------------------------------
    def ask_add_to_playlist(self, phone: PhoneContext, *paths: str) -> None:
        self.pending = list(paths)
        self.selected = []
        self.set_field("new_playlist", "")
        phone.open_popup(self, Dialog(
            "Add to playlist",
            choices=[Choice(name, "add_pending_to", (pid,))
                     for pid, name, _n in MediaLibrary.of(phone).playlists()],
            field_name="new_playlist", field_hint="New playlist",
            buttons=[Choice("Cancel", "noop"), Choice("Create", "create_playlist")]))

    def create_playlist(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("new_playlist", "").strip()
        if not name:
            phone.toast("Please enter a name")
            return
        ml = MediaLibrary.of(phone)
        existing = next((pid for pid, n, _c in ml.playlists() if n.casefold() == name.casefold()), None)
        pid = existing if existing is not None else ml.create(name, phone.now)
        self.add_pending_to(phone, pid)

    def add_pending_to(self, phone: PhoneContext, playlist_id: int) -> None:
        ml = MediaLibrary.of(phone)
        items = [(media_for(phone, p), duration_of(phone, p)) for p in self.pending if phone.fs.isfile(p)]
        self.pending = []
        ml.append(playlist_id, items)
        phone.toast(f"{len(items)} item(s) added to {ml.name_of(playlist_id)}")

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == "new_playlist" and self.popup is not None:
            self.popup = None
            self.create_playlist(phone)
        elif field == "rename" and self.popup is not None:
            self.popup = None
            self.do_rename(phone)

    def do_rename(self, phone: PhoneContext) -> None:
        """(A playlist screen renames its playlist.)"""


# --- the library ------------------------------------------------------------------------


class MainActivity(VlcActivity):
    """Video, Browse and Playlists tabs."""

    name = "org.videolan.vlc.gui.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.tab = VIDEO
        #: the folder Browse shows (None: the storages)
        self.folder: str | None = None

    def title(self, phone: PhoneContext) -> str:
        return TABS[self.tab]

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if not prefs(phone).get_bool(KEY_ONBOARDING_DONE, False):
            # as StartActivity does on a first run: the welcome screens instead
            phone.start_activity(OnboardingActivity())
            phone.finish_activity(self)
            phone.request_relayout()
            return
        if self.selected and self.tab == VIDEO:  # (kept while another tab is shown)
            self.selection_toolbar(ui)
        elif self.tab == BROWSE and self.folder is not None:
            ui.toolbar(INTERNAL if self.folder == SDCARD else posixpath.basename(self.folder),
                       back=lambda: self.browse_up(phone), rid=RID + "main_toolbar")
        else:
            ui.toolbar(TABS[self.tab], rid=RID + "main_toolbar",
                       actions=[("search", "Search", lambda: phone.start_activity(SearchActivity()))])
        ui.tabs(list(TABS), self.tab, lambda i: self.select(i))
        if self.tab == VIDEO:
            paths = video_paths(phone)
            if not paths:
                ui.empty("No video found")
            else:
                self.video_rows(ui, phone, paths, "videos")
        elif self.tab == BROWSE:
            self.browse(ui, phone)
        else:
            self.playlist_rows(ui, phone)

    def select(self, i: int) -> None:
        self.tab = i

    def on_back(self, phone: PhoneContext) -> bool:
        """BACK ends a selection on the Video tab, goes up a folder in Browse, and from
        another tab back to Video."""
        if self.tab == BROWSE and self.folder is not None:
            self.browse_up(phone)
            return True
        if self.tab != VIDEO:
            self.tab = VIDEO
            return True
        return super().on_back(phone)

    # --- Browse --------------------------------------------------------------------------
    def browse(self, ui: UI, phone: PhoneContext) -> None:
        fs = phone.fs
        if self.folder is not None and not fs.isdir(self.folder):
            self.folder = None
        if self.folder is None:
            ui.header("Storages")
            ui.row(INTERNAL, SDCARD.replace("/sdcard", "/storage/emulated/0"), icon="folder",
                   on_click=lambda: self.open_folder(SDCARD), rid=RID + "dviv_title")
            return
        names = [n for n in fs.listdir(self.folder) if not n.startswith(".")]
        dirs = [n for n in names if fs.isdir(posixpath.join(self.folder, n)) and
                not (self.folder == SDCARD and n == "Android")]
        videos = [n for n in names if is_video(n) and fs.isfile(posixpath.join(self.folder, n))]
        if not dirs and not videos:
            ui.empty("Empty folder")
            return
        with ui.scroll("browse:" + self.folder, rid=RID + "network_list"):
            for n in sorted(dirs, key=str.casefold):
                path = posixpath.join(self.folder, n)
                ui.row(n, "Folder", icon="folder", on_click=lambda p=path: self.open_folder(p),
                       rid=RID + "dviv_title")
            for n in sorted(videos, key=str.casefold):
                path = posixpath.join(self.folder, n)
                ui.row(n, fmt_time(duration_of(phone, path)), icon="file",
                       on_click=lambda p=path: self.play(phone, [p]),
                       trailing=("menu", None, lambda p=path: self.video_menu(phone, p),
                                 "More Actions", RID + "item_more"), rid=RID + "dviv_title")

    def open_folder(self, path: str) -> None:
        self.folder = path

    def browse_up(self, phone: PhoneContext) -> None:
        self.folder = None if self.folder in (None, SDCARD) else posixpath.dirname(self.folder)

    # --- Playlists ----------------------------------------------------------------------
    def playlist_rows(self, ui: UI, phone: PhoneContext) -> None:
        lists = MediaLibrary.of(phone).playlists()
        if not lists:
            ui.empty("No playlists yet.\nAdd videos to a playlist from their menu.")
            return
        with ui.scroll("playlists", rid=RID + "audio_list"):
            for pid, name, n in lists:
                ui.row(name, f"{n} item" + ("" if n == 1 else "s"), icon="folder",
                       on_click=lambda p=pid: phone.start_activity(PlaylistActivity(p)),
                       trailing=("menu", None, lambda p=pid, nm=name: self.playlist_menu(phone, p, nm),
                                 "More Actions", RID + "item_more"), rid=RID + "ml_item")

    def playlist_menu(self, phone: PhoneContext, playlist_id: int, name: str) -> None:
        phone.open_popup(self, Menu([Choice("Play", "play_playlist", (playlist_id,)),
                                     Choice("Delete", "ask_delete", (playlist_id,), destructive=True)],
                                    (phone.width // 2, phone.height // 3), title=name))

    def play_playlist(self, phone: PhoneContext, playlist_id: int) -> None:
        items = MediaLibrary.of(phone).items(playlist_id)
        paths = [SDCARD + mrl[len("file:///storage/emulated/0"):] for *_rest, mrl in items if mrl]
        self.play(phone, paths)

    def ask_delete(self, phone: PhoneContext, playlist_id: int) -> None:
        name = MediaLibrary.of(phone).name_of(playlist_id) or ""
        phone.open_popup(self, Dialog("Delete playlist", f"Delete {name}?", buttons=[
            Choice("Cancel", "noop"), Choice("Delete", "do_delete", (playlist_id,), destructive=True)]))

    def do_delete(self, phone: PhoneContext, playlist_id: int) -> None:
        MediaLibrary.of(phone).delete(playlist_id)


class SearchActivity(VlcActivity):
    """The videos whose title holds the query (case ignored), as one types."""

    name = "org.videolan.vlc.gui.SearchActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Search"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Search", back=True, rid=RID + "main_toolbar")
        ui.search("query", "Search in the library", rid=RID + "search_edit_text")
        query = self.fields.get("query", "").strip().casefold()
        if not query:
            return
        found = [p for p in video_paths(phone) if query in title_of(p).casefold()]
        if not found:
            ui.empty("No results")
        else:
            self.video_rows(ui, phone, found, "results")


class PlaylistActivity(VlcActivity):
    """A playlist's items in order; an item's menu plays it or takes it out."""

    name = "org.videolan.vlc.gui.HeaderMediaListActivity"

    def __init__(self, playlist_id: int = 0) -> None:
        super().__init__()
        self.playlist_id = playlist_id

    def title(self, phone: PhoneContext) -> str:
        return MediaLibrary.of(phone).name_of(self.playlist_id) or "Playlist"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ml = MediaLibrary.of(phone)
        name = ml.name_of(self.playlist_id)
        ui.toolbar(name or "Playlist", back=True, rid=RID + "main_toolbar")
        if name is None:
            ui.empty("This playlist no longer exists")
            return
        items = ml.items(self.playlist_id)
        if not items:
            ui.empty("This playlist is empty")
            return
        with ui.scroll("items", rid=RID + "songs"):
            for pos, _mid, title, mrl in items:
                path = SDCARD + (mrl or "")[len("file:///storage/emulated/0"):]
                ui.row(title, fmt_time(duration_of(phone, path)) if phone.fs.isfile(path) else "",
                       icon="file", on_click=lambda p=path: self.play(phone, [p]),
                       trailing=("menu", None, lambda i=pos, t=title: self.item_menu(phone, i, t),
                                 "More Actions", RID + "item_more"), rid=RID + "ml_item")

    def item_menu(self, phone: PhoneContext, position: int, title: str) -> None:
        phone.open_popup(self, Menu([Choice("Remove", "remove_at", (position,), destructive=True)],
                                    (phone.width // 2, phone.height // 3), title=title))

    def remove_at(self, phone: PhoneContext, position: int) -> None:
        MediaLibrary.of(phone).remove(self.playlist_id, position)


# --- the player -----------------------------------------------------------------------------


class VideoPlayerActivity(Activity):
    """One video, playing from the start: its picture at the current position, the time,
    a seek bar and a play / pause button."""

    package = PKG
    name = "org.videolan.vlc.gui.video.VideoPlayerActivity"

    def __init__(self, path: str = "", started_at: int = 0) -> None:
        super().__init__()
        self.path = path
        #: the position at `anchor` (clock ms), and whether it runs from there
        self.pos = 0
        self.anchor = started_at
        self.playing = True
        #: read by the phone: while True, every tick of the clock redraws the screen
        self.live = True
        self.counted = False

    def on_intent(self, phone: PhoneContext, intent: Intent) -> None:
        """A VIEW of a video file (from Files, `am start -d`): play it."""
        path = local_path(intent.data)
        if path is not None:
            self.path, self.pos, self.anchor, self.playing, self.live = path, 0, phone.clock_ms, True, True

    def title(self, phone: PhoneContext) -> str:
        return title_of(self.path)

    def position(self, phone: PhoneContext, length: int) -> int:
        """Where playback is now; at the end it stops there."""
        if not self.playing:
            return self.pos
        at = self.pos + max(0, phone.clock_ms - self.anchor)
        if length and at >= length:
            self.pos, self.playing, self.live = length, False, False
            return length
        return at

    def build(self, ui: UI, phone: PhoneContext) -> None:
        data = phone.fs.read(self.path) if phone.fs.isfile(self.path) else None
        ui.toolbar(title_of(self.path), back=True, rid=RID + "player_overlay_title")
        if data is None:
            self.playing = self.live = False
            ui.empty("VLC can't open this file: it does not exist.")
            return
        if not self.counted:
            self.counted = True
            MediaLibrary.of(phone).played(media_for(phone, self.path), phone.now)
        video = read_video(data)
        now = self.position(phone, video.duration)
        controls_h = ui.dp(200)
        frame = video.frame_at(now)
        box = (ui.rect[0], ui.y, ui.rect[2], max(ui.y, ui.rect[3] - controls_h))
        pic = ui.mk("picture", box, rid=RID + "player_surface_frame", cls="android.view.SurfaceView",
                    style="fit", desc=title_of(self.path))
        pic.value = data[frame[0]:frame[0] + frame[1]] if frame is not None else b""
        ui.set_y(box[3])
        total = fmt_time(video.duration) if video.duration else "--:--"
        ui.slider(f"{fmt_time(now)} / {total}", now, 0, max(1, video.duration),
                  lambda v: self.seek(phone, int(v)), rid=RID + "player_overlay_seekbar", step=0)
        ui.button("Pause" if self.playing else "Play", lambda: self.play_pause(phone),
                  rid=RID + "player_overlay_play")

    def seek(self, phone: PhoneContext, ms: int) -> None:
        self.pos = max(0, ms)
        self.anchor = phone.clock_ms

    def play_pause(self, phone: PhoneContext) -> None:
        length = read_video(phone.fs.read(self.path)).duration if phone.fs.isfile(self.path) else 0
        if self.playing:
            self.pos = self.position(phone, length)
            self.playing = self.live = False
        else:
            if length and self.pos >= length:
                self.pos = 0  # from the start again
            self.anchor = phone.clock_ms
            self.playing = self.live = True


# --- the first run -------------------------------------------------------------------------


class OnboardingActivity(Activity):
    """Welcome, then access to the media files, then the library."""

    package = PKG
    name = "org.videolan.vlc.gui.onboarding.OnboardingActivity"

    def __init__(self) -> None:
        super().__init__()
        self.page = 0
        self.granted = False

    def title(self, phone: PhoneContext) -> str:
        return "Welcome"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(64)
        if self.page == 0:
            ui.text("Welcome to VLC!", style="title", rid=RID + "welcome_title")
            ui.text("VLC plays the videos and music on your device, network streams and more.")
            ui.spacer(32)
            ui.button_bar([("Skip", lambda: self.skip(), "text"), ("Next", lambda: self.skip(), "filled")])
            return
        ui.text("Access to your media", style="title", rid=RID + "permission_title")
        ui.text("VLC needs the permission to read the media files on this device to show them "
                "in its library.")
        ui.spacer(16)
        if self.granted:
            ui.text("Permission granted.")
            ui.button("Done", lambda: self.done(phone), rid=RID + "next_button")
        else:
            ui.button("GRANT PERMISSION", lambda: self.ask(phone), rid=RID + "grant_permission_button")

    def skip(self) -> None:
        self.page = 1

    def ask(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog("Allow access to manage all files",
                                      "VLC reads and plays the media files on your storage.",
                                      buttons=[Choice("Don't allow", "noop"), Choice("Allow", "allow")]))

    def allow(self, phone: PhoneContext) -> None:
        self.granted = True

    def done(self, phone: PhoneContext) -> None:
        prefs(phone).put(KEY_ONBOARDING_DONE, True)
        phone.start_activity(MainActivity())
        phone.finish_activity(self)
