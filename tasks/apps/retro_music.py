"""Retro Music (`code.name.monkey.retromusic`) for tasks: AndroidWorld's song draws (15
songs from a title list, the targets first), the songs written to /sdcard/Music as MP3s
with their tags (media_files.mp3), playlists and the queue read from the app's databases
by pulling them, and the app's screens for solutions.

Set-up, as AndroidWorld's: the Music folder holds only the drawn songs (it clears
internal storage), the playlist tables are emptied, and (ours) so is the playing queue,
so a queue left by an earlier task cannot stand in the way of the one asked for.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps import media_files as mf
from antrap_gym.tasks.apps import selection
from antrap_gym.tasks.apps.media_seed import ClearTables, SeedFolder, dump
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import DatabaseQuery, Either, Holds
from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.playlist import InOrder, PlaylistMatches
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "code.name.monkey.retromusic"
APP_NAME = "Retro Music"
MUSIC = "/sdcard/Music"
DOWNLOAD = "/sdcard/Download"
PLAYLIST_DB = f"/data/data/{PKG}/databases/playlist.db"
PLAYBACK_DB = f"/data/data/{PKG}/databases/music_playback_state.db"
MAIN = "code.name.monkey.retromusic.activities.MainActivity"
QUEUE = "code.name.monkey.retromusic.activities.PlayingQueueActivity"

# --- pools (AndroidWorld's shapes, our own words) ------------------------------------------------

SONG_TITLES = (
    "Paper Lanterns", "Neon Harbor", "Slow Tide", "Midnight Orchard", "Glass Rivers",
    "Velvet Static", "Northern Porch", "Summer Engines", "Quiet Satellite", "Copper Moon",
    "Falling Upward", "Wild Clover", "Lighthouse Keeper", "Dust and Gold", "Open Highway",
    "Silver Lining Blues", "Kite Season", "Hollow Pines", "City After Rain", "Morning Ferry",
    "Static Hearts", "Ember Line", "Coastal Drive", "Blue Hour", "Winter Postcard",
    "Electric Meadow", "Harbor Lights", "Amber Skies", "Lost Frequencies", "Feather Light",
    "Tin Roof Rain", "Golden Thread", "Sleepless Avenue", "Echo Valley", "Riverbend",
)
ARTISTS = ("Ana Ruiz", "Milo Grant", "Sade Okoro", "Theo Lind", "Iris Vega", "Noor Haddad",
           "Kai Moreno", "Lena Fischer")
ALBUMS = ("Night Sessions", "Open Roads", "Blue Rooms", "Small Hours", "Harbor Songs")
PLAYLIST_THEMES = (
    "Chill Evenings", "Morning Run", "Deep Focus", "Road Trip", "Sunday Brunch", "Late Night Drive",
    "Rainy Day", "Workout Mix", "Dinner Party", "Study Break", "Throwback Hits", "Acoustic Corner",
    "Summer Nights", "Quiet Mornings", "Weekend Vibes", "Indie Finds", "Coffee Shop", "Sleep Sounds",
)
#: the songs' lengths: 3..5 minutes
MIN_MS, MAX_MS = 3 * 60 * 1000, 5 * 60 * 1000
#: RetroPlaylistDuration: the targets add up to 47.5 minutes, the goal asks for 45..50
TARGET_TOTAL_MS = 2_850_000
LOW_MS, HIGH_MS = 45 * 60 * 1000, 50 * 60 * 1000


def _pick(rng: np.random.Generator, pool: tuple[str, ...]) -> str:
    return pool[int(rng.integers(len(pool)))]


def playlist_name(rng: np.random.Generator) -> str:
    """A theme and a number 1..999 (AndroidWorld's shape)."""
    return f"{_pick(rng, PLAYLIST_THEMES)} {int(rng.integers(1, 1000))}"


def song(rng: np.random.Generator, title: str, duration: int | None = None) -> dict[str, Any]:
    return {"file": title + ".mp3", "title": title, "artist": _pick(rng, ARTISTS),
            "album": _pick(rng, ALBUMS),
            "duration": int(rng.integers(MIN_MS, MAX_MS + 1)) if duration is None else int(duration)}


def draw_songs(rng: np.random.Generator, lo: int = 2, hi: int = 5) -> dict[str, Any]:
    """15 songs of the title list, the first lo..hi the targets, each 3..5 minutes:
    {playlist_name, files, titles, songs} (AndroidWorld's RetroCreatePlaylist draw)."""
    order = [SONG_TITLES[int(i)] for i in rng.permutation(len(SONG_TITLES))[:15]]
    n = int(rng.integers(lo, hi + 1))
    songs = [song(rng, t) for t in order]
    return {"playlist_name": playlist_name(rng), "files": [s["file"] for s in songs[:n]],
            "titles": order[:n], "songs": songs}


def split_sum(rng: np.random.Generator, total: int, parts: int) -> list[int]:
    """`parts` non-negative integers adding up to `total` (cuts at sorted random points)."""
    cuts = sorted(int(c) for c in rng.integers(0, total + 1, size=parts - 1))
    edges = [0, *cuts, total]
    return [edges[i + 1] - edges[i] for i in range(parts)]


def draw_duration_songs(rng: np.random.Generator) -> dict[str, Any]:
    """RetroPlaylistDuration's draw: 9..11 targets whose lengths add up to 47.5 minutes,
    the rest of 15 songs 3..5 minutes each."""
    order = [SONG_TITLES[int(i)] for i in rng.permutation(len(SONG_TITLES))[:15]]
    n = int(rng.integers(9, 12))
    lengths = split_sum(rng, TARGET_TOTAL_MS, n)
    songs = [song(rng, t, lengths[i] if i < n else None) for i, t in enumerate(order)]
    return {"playlist_name": playlist_name(rng), "files": [s["file"] for s in songs[:n]],
            "titles": order[:n], "songs": songs}


def song_files(songs: list[dict[str, Any]]) -> dict[str, bytes]:
    """The MP3 files for the drawn songs (name -> bytes)."""
    return {s["file"]: mf.mp3(s["title"], s["artist"], s["album"], s["duration"]) for s in songs}


# --- set-up ---------------------------------------------------------------------------------------

SONG_COLUMNS = ("title", "track_number", "year", "duration", "data", "date_modified", "album_id",
                "album_name", "artist_id", "artist_name", "composer", "album_artist")
PLAYLIST_TABLES = {"PlaylistEntity": ("playlist_id", "playlist_name"),
                   "SongEntity": ("song_key", "playlist_creator_id", "id", *SONG_COLUMNS)}
QUEUE_COLUMNS = ("_id", "_data", "title", "track", "year", "duration", "date_modified", "album_id",
                 "album", "artist_id", "artist", "composer", "album_artist")
QUEUE_TABLES = {"playing_queue": QUEUE_COLUMNS, "original_playing_queue": QUEUE_COLUMNS}


def seed_songs(songs: Any) -> SeedFolder:
    """The Music folder holds exactly the drawn songs."""
    return SeedFolder(MUSIC, songs, exclusive=True, stop=PKG)


def clear_playlists() -> ClearTables:
    return ClearTables(PLAYLIST_DB, PLAYLIST_TABLES, stop=PKG)


def clear_queue() -> ClearTables:
    return ClearTables(PLAYBACK_DB, QUEUE_TABLES, stop=PKG)


def state(device: Device) -> dict[str, str]:
    """What the contract compares before set-up and after tear-down: the playlists and
    the queues."""
    return {"playlists": dump(device, PLAYLIST_DB, PLAYLIST_TABLES),
            "queue": dump(device, PLAYBACK_DB, QUEUE_TABLES)}


# --- what the checks read -------------------------------------------------------------------------

#: AndroidWorld's query: each playlist's songs, numbered from 0 in song_key order
PLAYLIST_ROWS = DatabaseQuery(PLAYLIST_DB, """
    SELECT pe.playlist_name AS playlist_name, se.title AS media_file_name,
           se.duration AS duration_ms,
           ROW_NUMBER() OVER (PARTITION BY pe.playlist_name ORDER BY se.song_key) - 1
             AS order_in_playlist
    FROM PlaylistEntity pe JOIN SongEntity se ON pe.playlist_id = se.playlist_creator_id
    ORDER BY pe.playlist_name, order_in_playlist""")
QUEUE_ROWS = DatabaseQuery(PLAYBACK_DB, "SELECT title FROM playing_queue")


def playlist_check() -> PlaylistMatches:
    return PlaylistMatches(PLAYLIST_ROWS, "{playlist_name}", P("titles"))


def queue_check() -> InOrder:
    return InOrder(QUEUE_ROWS, "title", P("titles"))


@dataclasses.dataclass
class PlaylistClean(Check):
    """No playlist of this name, or one holding only a first part of the titles, in order
    (a partly made playlist a retry can finish): what the oracle's clean-up leaves."""

    name: str
    titles: Any

    def score(self, device: Device, answer: str | None) -> float:
        got = [r["media_file_name"] for r in PLAYLIST_ROWS.rows(device) if r["playlist_name"] == self.name]
        return float(got == [str(t) for t in self.titles][:len(got)])


@dataclasses.dataclass
class PlaylistExists(Check):
    name: str

    def score(self, device: Device, answer: str | None) -> float:
        rows = DatabaseQuery(PLAYLIST_DB, "SELECT playlist_name FROM PlaylistEntity").rows(device)
        return float(any(r["playlist_name"] == self.name for r in rows))


@dataclasses.dataclass
class QueueClean(Check):
    """The playing queue is empty, or already the titles asked for."""

    titles: Any

    def score(self, device: Device, answer: str | None) -> float:
        got = [r["title"] for r in QUEUE_ROWS.rows(device)]
        return float(not got or got == [str(t) for t in self.titles])


# --- solution steps ---------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)


def tab(name: str, done: Any = None) -> Tap:
    """Show the tab `name` (skipped when it is shown, or when `done` holds)."""
    shown = selection.TabShown(name)
    return Tap(screen=MAIN, target=Target(text=name, cls="TextView"),
               done=shown if done is None else Either(done, shown))


SELECTING = Target(cls="CheckBox")
SONGS_TAB = selection.tab_target("Songs")


def select_steps(titles: list[str], done: Any, others: tuple[str, ...] = (),
                 ordered: bool = True) -> list[Step]:
    """On the Songs tab: long-press the first song (selecting starts), tick the others
    (unticking any of `others`, the songs not wanted, a stray touch ticked)."""
    return [tab("Songs", done), *selection.select_steps(MAIN, titles, done, others, "Songs", ordered)]


def other_titles(p: dict[str, Any], wanted: list[str]) -> tuple[str, ...]:
    """The drawn songs not in `wanted`."""
    return tuple(s["title"] for s in p["songs"] if s["title"] not in wanted)


def delete_playlist_steps(name: str, clean: Any) -> list[Step]:
    """Delete a playlist of that name that holds the wrong songs (skipped when clean)."""
    return [tab("Playlists", clean),
            Tap(screen=MAIN, target=Target(desc="More options", row=name), done=clean,
                requires=selection.tab_target("Playlists")),
            Tap(screen=MAIN + "|menu", target=Target(text="Delete"), requires=Target(rid="title", text=name),
                done=clean),
            Tap(screen=MAIN + "|Delete playlist", target=Target(text="Delete"), done=clean)]


def create_playlist_steps(name: str, titles: list[str], done: Any,
                          others: tuple[str, ...] = (), ordered: bool = True) -> list[Step]:
    """Select the songs in order, delete a playlist of that name holding the wrong songs
    (the selection stays while the Playlists tab shows), then Add to playlist > New
    playlist > name > Create, or the playlist itself when it is there (a partly made one)."""
    clean = Holds(PlaylistClean(name, titles))
    exists = Holds(PlaylistExists(name))
    return [
        *select_steps(titles, done, others, ordered),
        *delete_playlist_steps(name, Either(done, clean)),
        # (back on the Songs tab by the first steps: no tab step here that the oracle could
        # jump to while selecting, leaving rows unticked)
        Tap(screen=MAIN, target=Target(desc="More options"), requires=(SELECTING, SONGS_TAB), done=done),
        Tap(screen=MAIN + "|menu", target=Target(text="Add to playlist"), done=done),
        Tap(screen=MAIN + "|Add to playlist", target=Target(text="New playlist"), done=Either(done, exists)),
        TypeText(screen=MAIN + "|New playlist", target=Target(cls="EditText"), text=name,
                 done=Either(done, exists)),
        Tap(screen=MAIN + "|New playlist", target=Target(text="Create"), done=Either(done, exists)),
        Tap(screen=MAIN + "|Add to playlist", target=Target(text=name), done=done),
    ]


def clear_queue_steps(clean: Any) -> list[Step]:
    """Empty a queue that holds the wrong songs: the mini player > More options > Clear."""
    return [Tap(screen=MAIN, target=Target(rid="miniPlayerTitle"), done=clean),
            Tap(screen=QUEUE, target=Target(desc="More options"), done=clean),
            Tap(screen=QUEUE + "|menu", target=Target(text="Clear playing queue"), done=clean)]
