"""VLC (`org.videolan.vlc`) for tasks: AndroidWorld's video draws (file names, playlist
names), the videos written as MP4s whose single picture shows a random 10-character
string (media_files.text_video), playlists read from the media library by pulling it,
and the app's screens for solutions.

Set-up, as AndroidWorld's: the videos folder (/storage/emulated/0/VLCVideos, shown as
Internal memory > VLCVideos) holds only the drawn videos, and the media library's
Playlist, Media and PlaylistMediaRelation tables are emptied (with File and Folder,
which point at Media rows).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps import media_files as mf
from antrap_gym.tasks.apps import selection
from antrap_gym.tasks.apps.media_seed import ClearTables, SeedFolder, dump
from antrap_gym.tasks.checks import DatabaseQuery, Either, Holds
from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.playlist import PlaylistMatches
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "org.videolan.vlc"
APP_NAME = "VLC"
VIDEOS = "/sdcard/VLCVideos"
DB = f"/data/data/{PKG}/app_db/vlc_media.db"
MAIN = "org.videolan.vlc.gui.MainActivity"
PLAYER = "org.videolan.vlc.gui.video.VideoPlayerActivity"
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

# --- pools (AndroidWorld's shapes, our own words) ------------------------------------------------

FILE_PREFIXES = ("clip", "video", "shot", "take", "reel", "vlog", "cut")
FILE_SUFFIXES = ("", "HD", "4K", "final", "edit")
MODIFIERS = ("backup", "copy", "final", "edited")
PLAYLIST_THEMES = ("Holiday Clips", "Cooking Tips", "Nature Walks", "Family Moments",
                   "Workout Videos", "Tutorials", "Concert Footage", "Pet Videos", "Travel Diaries",
                   "Science Shorts", "Sports Highlights", "Birthday Party", "Garden Projects")
PLAYLIST_QUALIFIERS = ("Collection", "Picks", "Favorites", "Reel", "Mix", "Series", "Archive")


def _pick(rng: np.random.Generator, pool: tuple[str, ...]) -> str:
    return pool[int(rng.integers(len(pool)))]


def random_string(rng: np.random.Generator, n: int) -> str:
    """Letters and digits (AndroidWorld's generate_random_string)."""
    return "".join(_ALNUM[int(i)] for i in rng.integers(len(_ALNUM), size=n))


def _date(rng: np.random.Generator) -> str:
    """A day of 2023 before the device date, as YYYY_MM_DD."""
    day = np.datetime64("2023-01-01") + np.timedelta64(int(rng.integers(0, 287)), "D")
    return str(day).replace("-", "_")


def file_name(rng: np.random.Generator) -> str:
    """prefix_number[_suffix].mp4 with a date, a random 4 characters or a word added
    before or after the name (AndroidWorld's generate_file_name and
    generate_modified_file_name)."""
    parts = [_pick(rng, FILE_PREFIXES), str(int(rng.integers(1, 100)))]
    suffix = _pick(rng, FILE_SUFFIXES)
    if suffix:
        parts.append(suffix)
    base = "_".join(parts)
    kind = int(rng.integers(3))
    mod = _date(rng) if kind == 0 else random_string(rng, 4) if kind == 1 else _pick(rng, MODIFIERS)
    return (f"{mod}_{base}" if rng.random() < 0.5 else f"{base}_{mod}") + ".mp4"


def file_names(rng: np.random.Generator, n: int, avoid: set[str] | None = None) -> list[str]:
    """n distinct file names, none of `avoid`."""
    out: list[str] = []
    taken = set(avoid or ())
    while len(out) < n:
        name = file_name(rng)
        if name not in taken:
            taken.add(name)
            out.append(name)
    return out


def playlist_name(rng: np.random.Generator) -> str:
    return f"{_pick(rng, PLAYLIST_THEMES)} {_pick(rng, PLAYLIST_QUALIFIERS)}"


def noise_video(rng: np.random.Generator) -> dict[str, Any]:
    """What a video shows: one random 10-character string for 20..180 s."""
    return {"messages": [random_string(rng, 10)], "seconds": int(rng.integers(20, 181))}


def draw_playlist(rng: np.random.Generator, avoid: set[str] | None = None) -> dict[str, Any]:
    """AndroidWorld's VlcCreatePlaylist draw: a name, 2..5 files and as many noise files,
    each with what its picture shows: {playlist_name, files, noise_files, videos}."""
    n = int(rng.integers(2, 6))
    names = file_names(rng, 2 * n, avoid)
    return {"playlist_name": playlist_name(rng), "files": names[:n], "noise_files": names[n:],
            "videos": {name: noise_video(rng) for name in names}}


def video_files(videos: dict[str, dict[str, Any]]) -> dict[str, bytes]:
    """name -> the MP4 bytes of each drawn video."""
    return {name: mf.text_video(tuple(v["messages"]), int(v["seconds"])) for name, v in videos.items()}


# --- set-up and state ---------------------------------------------------------------------------

TABLES = {
    "Playlist": ("id_playlist", "name", "creation_date", "artwork_mrl", "nb_video", "nb_audio",
                 "nb_unknown", "nb_present_video", "nb_present_audio", "nb_present_unknown",
                 "duration", "nb_duration_unknown", "is_favorite"),
    "PlaylistMediaRelation": ("media_id", "playlist_id", "position"),
    "Media": ("id_media", "type", "subtype", "duration", "last_position", "last_time", "play_count",
              "last_played_date", "insertion_date", "release_date", "title", "filename",
              "is_favorite", "is_present", "device_id", "nb_playlists", "folder_id", "import_type",
              "group_id", "forced_title", "artist_id", "genre_id", "track_number", "album_id",
              "disc_number", "lyrics", "is_public", "nb_subscriptions", "description"),
    "File": ("id_file", "media_id", "playlist_id", "mrl", "type", "last_modification_date", "size",
             "folder_id", "is_removable", "is_external", "is_network"),
    "Folder": ("id_folder", "path", "name", "parent_id", "is_banned", "device_id", "is_removable",
               "nb_audio", "nb_video", "duration", "is_public", "is_favorite"),
}


def seed_videos(videos: Any) -> SeedFolder:
    return SeedFolder(VIDEOS, videos, exclusive=True, stop=PKG)


def clear_library() -> ClearTables:
    return ClearTables(DB, TABLES, stop=PKG)


def state(device: Device) -> str:
    """What the contract compares before set-up and after tear-down: the media library's
    playlists and media."""
    return dump(device, DB, TABLES)


# --- what the checks read ------------------------------------------------------------------------

#: AndroidWorld's query: every playlist item with its playlist's name and file name
PLAYLIST_ROWS = DatabaseQuery(DB, """
    SELECT Playlist.name AS playlist_name, Media.filename AS media_file_name,
           PlaylistMediaRelation.position AS order_in_playlist
    FROM PlaylistMediaRelation
    INNER JOIN Playlist ON Playlist.id_playlist = PlaylistMediaRelation.playlist_id
    INNER JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id
    ORDER BY Playlist.name, PlaylistMediaRelation.position""")


def playlist_check(name: str, files: Any) -> PlaylistMatches:
    return PlaylistMatches(PLAYLIST_ROWS, name, files)


@dataclasses.dataclass
class PlaylistClean(Check):
    """No playlist of this name, or one holding a first part of the files in order."""

    name: str
    files: Any

    def score(self, device: Device, answer: str | None) -> float:
        got = [r["media_file_name"] for r in PLAYLIST_ROWS.rows(device)
               if str(r["playlist_name"]).casefold() == self.name.casefold()]
        return float(got == [str(f) for f in self.files][:len(got)])


# --- solution steps ----------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)


def title_of(file: str) -> str:
    """A video's title in the library: its file name without the extension."""
    return file.rsplit(".", 1)[0]


def tab(name: str, done: Any = None) -> Tap:
    """Show the tab `name` (skipped when it is shown, or when `done` holds)."""
    shown = selection.TabShown(name)
    return Tap(screen=MAIN, target=Target(text=name, cls="TextView"),
               done=shown if done is None else Either(done, shown))


SELECTING = Target(cls="CheckBox")
VIDEO_TAB = selection.tab_target("Video")


def delete_playlist_steps(name: str, clean: Any) -> list[Step]:
    """Delete a playlist of that name holding the wrong videos (skipped when clean)."""
    return [tab("Playlists", clean),
            Tap(screen=MAIN, target=Target(desc="More Actions", row=name), done=clean,
                requires=selection.tab_target("Playlists")),
            Tap(screen=MAIN + "|menu", target=Target(text="Delete"), requires=Target(rid="title", text=name),
                done=clean),
            Tap(screen=MAIN + "|Delete playlist", target=Target(text="Delete"), done=clean)]


def create_playlist_steps(name: str, files: list[str], done: Any,
                          others: list[str] | tuple[str, ...] = ()) -> list[Step]:
    """Select the videos in order on the Video tab, delete a playlist of that name holding
    the wrong ones (the selection stays while the Playlists tab shows), then Add to
    playlist, the new playlist's name and Create (which adds to one of that name there).
    `others` are the other videos listed (a stray touch ticking one is undone)."""
    clean = Holds(PlaylistClean(name, files))
    titles = [title_of(f) for f in files]
    strays = tuple(title_of(f) for f in others if f not in files)
    return [tab("Video", done), *selection.select_steps(MAIN, titles, done, strays, "Video"),
            *delete_playlist_steps(name, Either(done, clean)),
            Tap(screen=MAIN, target=Target(desc="More options"), requires=(SELECTING, VIDEO_TAB),
                done=done),
            Tap(screen=MAIN + "|menu", target=Target(text="Add to playlist"), done=done),
            TypeText(screen=MAIN + "|Add to playlist", target=Target(cls="EditText"), text=name,
                     done=done),
            Tap(screen=MAIN + "|Add to playlist", target=Target(text="Create"), done=done)]
