"""Retro Music's screens: the library in tabs (Songs, Albums, Artists, Playlists), a
playlist, an album's or artist's songs, the playing queue, and the first-run screen.

A song's overflow button opens its menu (Play next, Add to playing queue, Add to
playlist, Details); a playlist's offers Play, Play next, Add to playing queue, Rename,
Save as file (an .m3u in Download) and Delete. Tapping a song plays the list it is in
from there: the list becomes the playing queue. Every change to the queue is saved at
once to music_playback_state.db, as the playback service does; playlists live in
playlist.db (storage.py). The songs are the audio files on shared storage (library.py).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.retro_music import library
from antrap_gym.device.sim.apps.retro_music.library import Song, fmt_duration
from antrap_gym.device.sim.apps.retro_music.storage import (
    KEY_INTRO_SHOWN,
    PKG,
    PlaybackStateDatabase,
    PlaylistDatabase,
    prefs,
)
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
TABS = ("Songs", "Albums", "Artists", "Playlists")
SONGS, ALBUMS, ARTISTS, PLAYLISTS = range(4)
#: where "Save as file" puts a playlist (the system's save dialog opens in Download)
DOWNLOAD = "/sdcard/Download"
KEY_POSITION = "POSITION"


def summary(song: Song) -> str:
    return f"{song.artist} • {fmt_duration(song.duration)}"


def plural(n: int, one: str) -> str:
    return f"{n} {one}" + ("" if n == 1 else "s")


# --- the playing queue (the playback service's state) ------------------------------------


def queue_songs(phone: PhoneContext) -> list[Song]:
    """The saved queue as songs of the library (a song whose file is gone drops out)."""
    ids = library.by_id(phone)
    return [ids[r[0]] for r in PlaybackStateDatabase.of(phone).queue() if r[0] in ids]


def position(phone: PhoneContext) -> int:
    v = prefs(phone).values.get(KEY_POSITION, 0)
    return v if isinstance(v, int) else 0


def open_queue(phone: PhoneContext, songs: list[Song], start: int) -> None:
    """Play `songs` from `start`: they become the queue."""
    PlaybackStateDatabase.of(phone).save(songs)
    prefs(phone).put(KEY_POSITION, start)


def play_next(phone: PhoneContext, songs: list[Song]) -> None:
    queue = queue_songs(phone)
    if not queue:
        open_queue(phone, songs, 0)
    else:
        at = min(position(phone), len(queue) - 1) + 1
        PlaybackStateDatabase.of(phone).save(queue[:at] + songs + queue[at:])
    phone.toast(f"Added {plural(len(songs), 'title')} to the playing queue")


def enqueue(phone: PhoneContext, songs: list[Song]) -> None:
    queue = queue_songs(phone)
    if not queue:
        open_queue(phone, songs, 0)
    else:
        PlaybackStateDatabase.of(phone).save(queue + songs)
    phone.toast(f"Added {plural(len(songs), 'title')} to the playing queue")


def m3u(rows: list[tuple[int, int, str, str, int, str]]) -> str:
    """A playlist as M3UWriter writes it: #EXTM3U, then #EXTINF and the path per song."""
    lines = ["#EXTM3U"]
    for _key, _id, title, artist, duration, data in rows:
        lines += [f"#EXTINF:{duration // 1000},{artist} - {title}", data]
    return "\n".join(lines) + "\n"


class RetroActivity(Activity):
    """What every Retro Music screen shares: song rows and their menu, the playlist
    dialogs, the mini player."""

    package = PKG

    def __init__(self) -> None:
        super().__init__()
        #: the songs the open "Add to playlist" dialog is for (song ids)
        self.pending: list[int] = []
        #: the playlist the open rename / save dialog is for
        self.target_playlist = 0
        #: the songs selected (a long press starts selecting), in the order they were
        self.selected: list[int] = []

    # --- rows and selection ----------------------------------------------------------------
    def song_rows(self, ui: UI, phone: PhoneContext, songs: list[Song], key: str,
                  bottom_gap: int = 0) -> None:
        """The songs; a long press starts selecting (each row then has a check box)."""
        height = max(0, ui.remaining - bottom_gap)
        picked = set(self.selected)
        with ui.scroll(key, height=height, rid=RID + "recycler_view"):
            for i, s in enumerate(songs):
                if picked:
                    ui.row(s.title, summary(s), icon="file", selected=s.id in picked,
                           on_click=lambda s=s: self.toggle(s.id),
                           trailing=("checkbox", s.id in picked, lambda s=s: self.toggle(s.id)),
                           rid=RID + "recycler_view_item")
                else:
                    ui.row(s.title, summary(s), icon="file",
                           on_click=lambda i=i: self.play_list(phone, songs, i),
                           on_long_click=lambda s=s: self.toggle(s.id),
                           trailing=("menu", None, lambda s=s: self.song_menu(phone, s),
                                     "More options", RID + "menu"),
                           rid=RID + "recycler_view_item")

    def toggle(self, song_id: int) -> None:
        if song_id in self.selected:
            self.selected.remove(song_id)
        else:
            self.selected.append(song_id)

    def selection_toolbar(self, ui: UI, phone: PhoneContext) -> None:
        """The contextual bar while songs are selected: how many, and what to do with them."""
        ids = tuple(self.selected)
        ui.toolbar(f"{len(ids)} selected", back=self.clear_selection, rid=RID + "toolbar", menu=[
            Choice("Play next", "selection_next", ids),
            Choice("Add to playing queue", "selection_enqueue", ids),
            Choice("Add to playlist", "ask_add_to_playlist", ids)])

    def clear_selection(self) -> None:
        self.selected = []

    def selection_next(self, phone: PhoneContext, *ids: int) -> None:
        self.selected = []
        play_next(phone, self._songs(phone, list(ids)))

    def selection_enqueue(self, phone: PhoneContext, *ids: int) -> None:
        self.selected = []
        enqueue(phone, self._songs(phone, list(ids)))

    def on_back(self, phone: PhoneContext) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False

    def play_list(self, phone: PhoneContext, songs: list[Song], i: int) -> None:
        open_queue(phone, songs, i)

    def mini_player(self, ui: UI, phone: PhoneContext) -> None:
        """The bar at the bottom while something is queued: the current song ("title •
        artist"); a tap opens the playing queue."""
        queue = queue_songs(phone)
        if not queue:
            return
        song = queue[min(position(phone), len(queue) - 1)]
        ui.divider()
        ui.row(f"{song.title} • {song.artist}", icon="file", rid=RID + "miniPlayerTitle",
               on_click=lambda: phone.start_activity(PlayingQueueActivity()))

    def mini_height(self, ui: UI, phone: PhoneContext) -> int:
        return ui.dp(57) if PlaybackStateDatabase.of(phone).queue() else 0

    # --- a song's menu ------------------------------------------------------------------
    def song_menu(self, phone: PhoneContext, song: Song) -> None:
        phone.open_popup(self, Menu([
            Choice("Play next", "do_play_next", (song.id,)),
            Choice("Add to playing queue", "do_enqueue", (song.id,)),
            Choice("Add to playlist", "ask_add_to_playlist", (song.id,)),
            Choice("Details", "show_details", (song.id,)),
        ], (phone.width // 2, phone.height // 3), title=song.title))

    def _songs(self, phone: PhoneContext, ids: list[int]) -> list[Song]:
        by_id = library.by_id(phone)
        return [by_id[i] for i in ids if i in by_id]

    def do_play_next(self, phone: PhoneContext, song_id: int) -> None:
        play_next(phone, self._songs(phone, [song_id]))

    def do_enqueue(self, phone: PhoneContext, song_id: int) -> None:
        enqueue(phone, self._songs(phone, [song_id]))

    def show_details(self, phone: PhoneContext, song_id: int) -> None:
        songs = self._songs(phone, [song_id])
        if not songs:
            return
        s = songs[0]
        phone.open_popup(self, Dialog("Details", (
            f"Title: {s.title}\nArtist: {s.artist}\nAlbum: {s.album}\n"
            f"Length: {fmt_duration(s.duration)}\nFile path: {s.path}"),
            buttons=[Choice("OK", "noop")]))

    # --- adding to a playlist -------------------------------------------------------------
    def ask_add_to_playlist(self, phone: PhoneContext, *song_ids: int) -> None:
        self.pending = list(song_ids)
        self.selected = []
        lists = PlaylistDatabase.of(phone).playlists()
        phone.open_popup(self, Dialog(
            "Add to playlist",
            choices=[Choice("New playlist", "ask_new_playlist")]
            + [Choice(name, "add_pending_to", (pid,)) for pid, name, _n in lists],
            buttons=[Choice("Cancel", "noop")]))

    def ask_new_playlist(self, phone: PhoneContext, name: str = "") -> None:
        self.set_field("playlist_name", name)
        phone.open_popup(self, Dialog("New playlist", field_name="playlist_name",
                                      field_hint="Playlist name",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Create", "create_playlist")]))

    def create_playlist(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("playlist_name", "").strip()
        db = PlaylistDatabase.of(phone)
        if not name:
            phone.toast("Playlist name can't be empty")
            return
        if any(n == name for _pid, n, _c in db.playlists()):
            phone.toast("Playlist exists")
            return
        pid = db.create(name)
        songs = self._songs(phone, self.pending)
        self.pending = []
        if songs:
            db.add(pid, songs)
        phone.toast(f"Created playlist {name}")

    def add_pending_to(self, phone: PhoneContext, playlist_id: int) -> None:
        db = PlaylistDatabase.of(phone)
        n = db.add(playlist_id, self._songs(phone, self.pending))
        self.pending = []
        phone.toast(f"Added {plural(n, 'song')} to {db.name_of(playlist_id)}")

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        action = {"playlist_name": self.create_playlist, "rename": self.do_rename,
                  "file_name": self.save_file}.get(field)
        if action is not None and self.popup is not None:
            self.popup = None
            action(phone)

    # --- a playlist's menu ----------------------------------------------------------------
    def playlist_choices(self, playlist_id: int) -> list[Choice]:
        return [Choice("Play", "play_playlist", (playlist_id,)),
                Choice("Play next", "playlist_next", (playlist_id,)),
                Choice("Add to playing queue", "playlist_enqueue", (playlist_id,)),
                Choice("Rename", "ask_rename", (playlist_id,)),
                Choice("Save as file", "ask_save", (playlist_id,)),
                Choice("Delete", "ask_delete", (playlist_id,), destructive=True)]

    def playlist_songs(self, phone: PhoneContext, playlist_id: int) -> list[Song]:
        return self._songs(phone, [r[1] for r in PlaylistDatabase.of(phone).songs(playlist_id)])

    def play_playlist(self, phone: PhoneContext, playlist_id: int) -> None:
        songs = self.playlist_songs(phone, playlist_id)
        if songs:
            open_queue(phone, songs, 0)

    def playlist_next(self, phone: PhoneContext, playlist_id: int) -> None:
        songs = self.playlist_songs(phone, playlist_id)
        if songs:
            play_next(phone, songs)

    def playlist_enqueue(self, phone: PhoneContext, playlist_id: int) -> None:
        songs = self.playlist_songs(phone, playlist_id)
        if songs:
            enqueue(phone, songs)

    def ask_rename(self, phone: PhoneContext, playlist_id: int) -> None:
        self.target_playlist = playlist_id
        self.set_field("rename", PlaylistDatabase.of(phone).name_of(playlist_id) or "")
        phone.open_popup(self, Dialog("Rename playlist", field_name="rename",
                                      field_hint="Playlist name",
                                      buttons=[Choice("Cancel", "noop"), Choice("Rename", "do_rename")]))

    def do_rename(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("rename", "").strip()
        if name:
            PlaylistDatabase.of(phone).rename(self.target_playlist, name)

    def ask_save(self, phone: PhoneContext, playlist_id: int) -> None:
        """Save as file: the name to save under (the playlist's), in Download."""
        self.target_playlist = playlist_id
        self.set_field("file_name", PlaylistDatabase.of(phone).name_of(playlist_id) or "")
        phone.open_popup(self, Dialog("Save as file", "The playlist is saved in Download.",
                                      field_name="file_name", field_hint="File name",
                                      buttons=[Choice("Cancel", "noop"), Choice("Save", "save_file")]))

    def save_file(self, phone: PhoneContext) -> None:
        self.focus = None
        name = self.fields.get("file_name", "").strip()
        if not name:
            return
        if not name.lower().endswith(".m3u"):
            name += ".m3u"
        rows = PlaylistDatabase.of(phone).songs(self.target_playlist)
        try:
            phone.fs.write_text(posixpath.join(DOWNLOAD, name), m3u(rows), phone.now)
        except FsError as e:
            phone.toast(str(e))
            return
        phone.toast(f"Saved playlist to {name}")

    def ask_delete(self, phone: PhoneContext, playlist_id: int) -> None:
        name = PlaylistDatabase.of(phone).name_of(playlist_id) or ""
        phone.open_popup(self, Dialog("Delete playlist", f"Delete the playlist {name}?",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "do_delete", (playlist_id,),
                                                      destructive=True)]))

    def do_delete(self, phone: PhoneContext, playlist_id: int) -> None:
        PlaylistDatabase.of(phone).delete(playlist_id)


# --- the library --------------------------------------------------------------------------


class MainActivity(RetroActivity):
    """The library in four tabs, with the mini player under them."""

    name = "code.name.monkey.retromusic.activities.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.tab = SONGS

    def title(self, phone: PhoneContext) -> str:
        return "Retro Music"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if not prefs(phone).get_bool(KEY_INTRO_SHOWN, False):
            # as MainActivity does without its permission: the first-run screen instead
            phone.start_activity(PermissionActivity())
            phone.finish_activity(self)
            phone.request_relayout()
            return
        if self.selected and self.tab == SONGS:  # (kept while another tab is shown)
            self.selection_toolbar(ui, phone)
        else:
            menu = [Choice("New playlist", "ask_new_playlist")] if self.tab == PLAYLISTS else None
            ui.toolbar("Retro Music", menu=menu, rid=RID + "toolbar",
                       actions=[("search", "Search", lambda: phone.start_activity(SearchActivity()))])
        ui.tabs(list(TABS), self.tab, lambda i: self.select(phone, i))
        gap = self.mini_height(ui, phone)
        songs = library.songs(phone)
        if self.tab == SONGS:
            if not songs:
                ui.empty("No songs")
            else:
                self.song_rows(ui, phone, songs, "songs", gap)
        elif self.tab == ALBUMS:
            self.group_rows(ui, phone, songs, "album", gap)
        elif self.tab == ARTISTS:
            self.group_rows(ui, phone, songs, "artist", gap)
        else:
            self.playlist_rows(ui, phone, gap)
        ui.set_y(ui.rect[3] - gap)
        self.mini_player(ui, phone)

    def select(self, phone: PhoneContext, i: int) -> None:
        self.tab = i

    def on_back(self, phone: PhoneContext) -> bool:
        """BACK ends a selection on the Songs tab (it is kept while another tab shows);
        on another tab it goes back to Songs."""
        if self.tab != SONGS:
            self.tab = SONGS
            return True
        return super().on_back(phone)

    def group_rows(self, ui: UI, phone: PhoneContext, songs: list[Song], by: str, gap: int) -> None:
        groups: dict[str, list[Song]] = {}
        for s in songs:
            groups.setdefault(getattr(s, by), []).append(s)
        if not groups:
            ui.empty("No albums" if by == "album" else "No artists")
            return
        with ui.scroll(by + "s", height=max(0, ui.remaining - gap), rid=RID + "recycler_view"):
            for name in sorted(groups, key=str.casefold):
                members = groups[name]
                info = (f"{members[0].artist} • {plural(len(members), 'song')}" if by == "album"
                        else plural(len(members), "song"))
                ui.row(name, info, icon="folder",
                       on_click=lambda n=name: phone.start_activity(SongListActivity(by, n)))

    def playlist_rows(self, ui: UI, phone: PhoneContext, gap: int) -> None:
        lists = PlaylistDatabase.of(phone).playlists()
        if not lists:
            ui.empty("No playlists")
            return
        with ui.scroll("playlists", height=max(0, ui.remaining - gap), rid=RID + "recycler_view"):
            for pid, name, n in lists:
                ui.row(name, plural(n, "song"), icon="folder",
                       on_click=lambda p=pid: phone.start_activity(PlaylistDetailActivity(p)),
                       trailing=("menu", None, lambda p=pid, nm=name: self.playlist_menu(phone, p, nm),
                                 "More options", RID + "menu"))

    def playlist_menu(self, phone: PhoneContext, playlist_id: int, name: str) -> None:
        phone.open_popup(self, Menu(self.playlist_choices(playlist_id),
                                    (phone.width // 2, phone.height // 3), title=name))


class SongListActivity(RetroActivity):
    """An album's or an artist's songs."""

    name = "code.name.monkey.retromusic.activities.AlbumDetailsActivity"

    def __init__(self, by: str = "album", key: str = "") -> None:
        super().__init__()
        self.by = by
        self.key = key

    def title(self, phone: PhoneContext) -> str:
        return self.key

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if self.selected:
            self.selection_toolbar(ui, phone)
        else:
            ui.toolbar(self.key, back=True, rid=RID + "toolbar")
        songs = [s for s in library.songs(phone) if getattr(s, self.by) == self.key]
        gap = self.mini_height(ui, phone)
        if not songs:
            ui.empty("No songs")
        else:
            self.song_rows(ui, phone, songs, "songs", gap)
        ui.set_y(ui.rect[3] - gap)
        self.mini_player(ui, phone)


class SearchActivity(RetroActivity):
    """The library searched as one types: the songs whose title, artist or album holds
    the query (case ignored)."""

    name = "code.name.monkey.retromusic.activities.SearchActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Search"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Search", back=True, rid=RID + "toolbar")
        ui.search("query", "Search your library…", rid=RID + "searchView")
        query = self.fields.get("query", "").strip().casefold()
        if not query:
            return
        found = [s for s in library.songs(phone)
                 if any(query in v.casefold() for v in (s.title, s.artist, s.album))]
        if not found:
            ui.empty("No results")
        else:
            self.song_rows(ui, phone, found, "results")


class PlaylistDetailActivity(RetroActivity):
    """One playlist's songs in order; the toolbar's menu has the playlist's actions."""

    name = "code.name.monkey.retromusic.activities.PlaylistDetailActivity"

    def __init__(self, playlist_id: int = 0) -> None:
        super().__init__()
        self.playlist_id = playlist_id

    def title(self, phone: PhoneContext) -> str:
        return PlaylistDatabase.of(phone).name_of(self.playlist_id) or "Playlist"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        db = PlaylistDatabase.of(phone)
        name = db.name_of(self.playlist_id)
        if name is None:  # deleted
            ui.toolbar("Playlist", back=True, rid=RID + "toolbar")
            ui.empty("This playlist no longer exists")
            return
        ui.toolbar(name, back=True, menu=self.playlist_choices(self.playlist_id), rid=RID + "toolbar")
        rows = db.songs(self.playlist_id)
        by_id = library.by_id(phone)
        gap = self.mini_height(ui, phone)
        if not rows:
            ui.empty("No songs")
        else:
            songs = [by_id[r[1]] for r in rows if r[1] in by_id]
            with ui.scroll("songs", height=max(0, ui.remaining - gap), rid=RID + "recycler_view"):
                for key, sid, title, artist, duration, _data in rows:
                    ui.row(title, f"{artist} • {fmt_duration(duration)}", icon="file",
                           on_click=lambda s=sid: self.play_from(phone, songs, s),
                           trailing=("menu", None, lambda k=key, t=title: self.entry_menu(phone, k, t),
                                     "More options", RID + "menu"),
                           rid=RID + "recycler_view_item")
        ui.set_y(ui.rect[3] - gap)
        self.mini_player(ui, phone)

    def play_from(self, phone: PhoneContext, songs: list[Song], song_id: int) -> None:
        ids = [s.id for s in songs]
        if song_id in ids:
            open_queue(phone, songs, ids.index(song_id))

    def entry_menu(self, phone: PhoneContext, song_key: int, title: str) -> None:
        phone.open_popup(self, Menu([Choice("Remove from playlist", "remove_entry", (song_key,),
                                            destructive=True)],
                                    (phone.width // 2, phone.height // 3), title=title))

    def remove_entry(self, phone: PhoneContext, song_key: int) -> None:
        PlaylistDatabase.of(phone).remove(song_key)


class PlayingQueueActivity(RetroActivity):
    """The playing queue; the current song is marked; the menu clears it."""

    name = "code.name.monkey.retromusic.activities.PlayingQueueActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Playing queue"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Playing queue", back=True, menu=[Choice("Clear playing queue", "clear_queue")],
                   rid=RID + "toolbar")
        queue = queue_songs(phone)
        if not queue:
            ui.empty("The playing queue is empty")
            return
        now = min(position(phone), len(queue) - 1)
        with ui.scroll("queue", rid=RID + "recycler_view"):
            for i, s in enumerate(queue):
                ui.row(s.title, summary(s), icon="file", selected=i == now,
                       on_click=lambda i=i: prefs(phone).put(KEY_POSITION, i),
                       trailing=("menu", None, lambda i=i, t=s.title: self.queue_menu(phone, i, t),
                                 "More options", RID + "menu"))

    def queue_menu(self, phone: PhoneContext, index: int, title: str) -> None:
        phone.open_popup(self, Menu([Choice("Remove from playing queue", "remove_at", (index,))],
                                    (phone.width // 2, phone.height // 3), title=title))

    def remove_at(self, phone: PhoneContext, index: int) -> None:
        queue = queue_songs(phone)
        if 0 <= index < len(queue):
            del queue[index]
            PlaybackStateDatabase.of(phone).save(queue)
            pos = position(phone)
            if index < pos or pos >= len(queue):
                prefs(phone).put(KEY_POSITION, max(0, pos - 1))

    def clear_queue(self, phone: PhoneContext) -> None:
        PlaybackStateDatabase.of(phone).save([])
        prefs(phone).put(KEY_POSITION, 0)


# --- the first run ---------------------------------------------------------------------------


class PermissionActivity(RetroActivity):
    """The first-run screen: storage access to grant, then "Let's go"."""

    name = "code.name.monkey.retromusic.activities.PermissionActivity"

    def __init__(self) -> None:
        super().__init__()
        self.granted = False

    def title(self, phone: PhoneContext) -> str:
        return "Welcome"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(48)
        ui.text("Welcome to Retro Music", style="title", rid=RID + "title")
        ui.text("To play the music on this device, Retro Music needs access to it.")
        ui.spacer(16)
        ui.row("Storage access", "Granted" if self.granted else "Read the music on this device",
               icon="folder", rid=RID + "storagePermission",
               trailing=("text", "✓") if self.granted else None)
        if not self.granted:
            ui.button("Grant", lambda: self.ask(phone), rid=RID + "storagePermission_button")
        ui.spacer(32)
        ui.button("Let's go", lambda: self.finish_intro(phone), rid=RID + "finish",
                  enabled=self.granted)

    def ask(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog(
            "Allow Retro Music to access music and audio on this device?",
            buttons=[Choice("Don't allow", "noop"), Choice("Allow", "allow")]))

    def allow(self, phone: PhoneContext) -> None:
        self.granted = True

    def finish_intro(self, phone: PhoneContext) -> None:
        prefs(phone).put(KEY_INTRO_SHOWN, True)
        phone.start_activity(MainActivity())
        phone.finish_activity(self)
