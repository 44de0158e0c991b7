"""Reference templates in Retro Music (`code.name.monkey.retromusic`): AndroidWorld's four
playlist and queue tasks (single/retro_music.py), under their class names and complexity,
as data.

Each draw writes 15 songs to /sdcard/Music (tasks/apps/retro_music.py); the checks pull
playlist.db or music_playback_state.db and read them as AndroidWorld does. The oracle
selects the songs (a long press, then each song's check box, in order) and adds them at
once; it first deletes a playlist of the asked name that holds the wrong songs, or
empties a queue that does.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from antrap_gym.tasks.apps import retro_music as rm
from antrap_gym.tasks.apps.gallery import Absent
from antrap_gym.tasks.apps.selection import Not, tab_target
from antrap_gym.tasks.binding import DONE, F
from antrap_gym.tasks.checks import Either, FileExists, Holds, MeanOf
from antrap_gym.tasks.checks.playlist import InOrder, PlaylistLength, PlaylistMatches
from antrap_gym.tasks.steps import Step, Tap, Target, TypeText
from antrap_gym.tasks.template import template

aw = partial(template, source="AndroidWorld", apps=(rm.PKG,), kind="action")
SETUP = [rm.seed_songs(F(lambda p: rm.song_files(p["songs"]))), rm.clear_playlists(), rm.clear_queue()]


def _draw(rng) -> dict[str, Any]:
    """AndroidWorld's draw, and the titles as the goal lists them."""
    p = rm.draw_songs(rng)
    return {**p, "names": ", ".join(p["titles"])}


def _create(p: dict[str, Any]) -> list[Step]:
    made = Holds(PlaylistMatches(rm.PLAYLIST_ROWS, p["playlist_name"], p["titles"]))
    return [rm.open_app(), *rm.create_playlist_steps(p["playlist_name"], p["titles"], made,
                                                     rm.other_titles(p, p["titles"]))]


def _create_long(p: dict[str, Any]) -> list[Step]:
    """The targets in the order the Songs tab lists them (any order adds up the same)."""
    made = Holds(PlaylistLength(rm.PLAYLIST_ROWS, p["playlist_name"], rm.LOW_MS, rm.HIGH_MS))
    titles = sorted(p["titles"], key=str.casefold)
    return [rm.open_app(), *rm.create_playlist_steps(p["playlist_name"], titles, made,
                                                     rm.other_titles(p, titles), ordered=False)]


RetroCreatePlaylist = aw(
    id="RetroCreatePlaylist", split="train", complexity=2.4,
    doc="AndroidWorld's: 15 songs in Music, 2..5 of them the playlist's; the check joins "
        "PlaylistEntity and SongEntity (songs numbered in song_key order): the rows of the "
        "playlist whose name matches (difflib >= 0.9) are exactly the titles, each at its place.",
    goal='In Retro Music, make a playlist called "{playlist_name}" that holds these songs in '
         "this order: {names}",
    params=_draw, setup=SETUP, check=rm.playlist_check(), solution=_create)


def _queue(p: dict[str, Any]) -> list[Step]:
    clean = Holds(rm.QueueClean(p["titles"]))
    queued = Holds(InOrder(rm.QUEUE_ROWS, "title", p["titles"]))
    # the queue is emptied after selecting: a tap that played a song before the long
    # press filled it, and once selecting, a tap only ticks
    others = rm.other_titles(p, p["titles"])
    return [rm.open_app(), *rm.select_steps(p["titles"], queued, others), *rm.clear_queue_steps(clean),
            Tap(screen=rm.MAIN, target=Target(desc="More options"), requires=(rm.SELECTING, rm.SONGS_TAB),
                done=queued),
            Tap(screen=rm.MAIN + "|menu", target=Target(text="Add to playing queue"), done=DONE)]


RetroPlayingQueue = aw(
    id="RetroPlayingQueue", split="train", complexity=3.2,
    doc="AndroidWorld's: the titles of playing_queue (music_playback_state.db), in order, are "
        "exactly the songs asked for. The queue starts empty (ours: a queue an earlier task "
        "left would make the goal unreachable by adding).",
    goal="Put these songs in my playing queue in Retro Music, in this order: {names}",
    params=_draw, setup=SETUP, check=rm.queue_check(), solution=_queue)

_SAVED = rm.DOWNLOAD + "/{playlist_name}.m3u"


def _save(p: dict[str, Any]) -> list[Step]:
    name = p["playlist_name"]
    made = Holds(PlaylistMatches(rm.PLAYLIST_ROWS, name, p["titles"]))
    # saving waits for the playlist (the oracle must not jump to it while selecting)
    saved = Either(Holds(FileExists(f"{rm.DOWNLOAD}/{name}.m3u")), Not(made))
    return [rm.open_app(), *rm.create_playlist_steps(name, p["titles"], made,
                                                     rm.other_titles(p, p["titles"])),
            rm.tab("Playlists", saved),
            Tap(screen=rm.MAIN, target=Target(desc="More options", row=name), done=saved,
                requires=tab_target("Playlists")),
            Tap(screen=rm.MAIN + "|menu", target=Target(text="Save as file"),
                requires=Target(rid="title", text=name), done=saved),
            TypeText(screen=rm.MAIN + "|Save as file", target=Target(cls="EditText"), text=name,
                     done=saved),
            Tap(screen=rm.MAIN + "|Save as file", target=Target(text="Save"), done=saved)]


RetroSavePlaylist = aw(
    id="RetroSavePlaylist", split="test", complexity=5.0,
    doc="AndroidWorld's: the mean of the RetroCreatePlaylist check and `<name>.m3u` existing "
        "in Download (0, 0.5 or 1). The playlist's overflow menu has Save as file, which "
        "saves the .m3u in Download.",
    goal='In Retro Music, make a playlist called "{playlist_name}" that holds these songs in '
         "this order: {names}. Then export the playlist to the Download folder of the phone.",
    params=_draw, setup=[*SETUP, Absent(_SAVED)],
    check=MeanOf(rm.playlist_check(), FileExists(_SAVED)), solution=_save)


RetroPlaylistDuration = aw(
    id="RetroPlaylistDuration", split="train", complexity=3.0,
    doc="AndroidWorld's: 9..11 songs whose lengths add up to 47.5 minutes (cut at random "
        "points, so one may be very short) among 15; the check: every playlist row belongs "
        "to the playlist of that name, and their durations add up to 45..50 minutes.",
    goal='In Retro Music, make a playlist called "{playlist_name}" from the songs on the phone, '
         "between 45 and 50 minutes long in total.",
    params=rm.draw_duration_songs, setup=SETUP,
    check=PlaylistLength(rm.PLAYLIST_ROWS, "{playlist_name}", rm.LOW_MS, rm.HIGH_MS),
    solution=_create_long)
