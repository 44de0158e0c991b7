"""Reference templates in VLC (`org.videolan.vlc`): AndroidWorld's two playlist tasks
(single/vlc.py) and MarkorTranscribeVideo (single/markor.py: watch a video in VLC, write
what its pictures show into a Markor note), under their class names and complexity.

The videos are real MP4s whose pictures show text (tasks/apps/vlc.py); the playlist
checks pull vlc_media.db and read it as AndroidWorld does. The oracle selects the videos
on the Video tab (a long press, then each one's check box, in order) and adds them to a
new playlist at once, after deleting a playlist of that name that holds the wrong ones.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps import vlc
from antrap_gym.tasks.apps.media_seed import SeedFolder
from antrap_gym.tasks.apps.selection import Not, tab_target
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import Either, FileContent, FileExists, Holds, MeanOf
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target
from antrap_gym.tasks.template import template

aw = partial(template, source="AndroidWorld", kind="action")


def _one(rng: np.random.Generator) -> dict[str, Any]:
    """AndroidWorld's draw, and the files as the goal lists them."""
    p = vlc.draw_playlist(rng)
    return {**p, "names": ", ".join(p["files"])}


def _create(p: dict[str, Any]) -> list[Step]:
    made = Holds(vlc.playlist_check(p["playlist_name"], p["files"]))
    return [vlc.open_app(), *vlc.create_playlist_steps(p["playlist_name"], p["files"], made,
                                                       list(p["videos"]))]


VlcCreatePlaylist = aw(
    id="VlcCreatePlaylist", apps=(vlc.PKG,), split="train", complexity=2.8,
    doc="AndroidWorld's: 2..5 videos and as many others in VLCVideos, each showing a random "
        "10-character string; the check joins PlaylistMediaRelation, Playlist and Media: the "
        "rows of the playlist whose name matches (difflib >= 0.9) are exactly the files, each "
        "at its position.",
    goal='In VLC, create a playlist named "{playlist_name}" with these videos from Internal '
         "memory/VLCVideos, in this order: {names}",
    params=_one,
    setup=[vlc.seed_videos(F(lambda p: vlc.video_files(p["videos"]))), vlc.clear_library()],
    check=vlc.playlist_check("{playlist_name}", P("files")), solution=_create)


def _two(rng: np.random.Generator) -> dict[str, Any]:
    a = vlc.draw_playlist(rng)
    b = vlc.draw_playlist(rng, avoid=set(a["videos"]))
    while b["playlist_name"] == a["playlist_name"]:
        b["playlist_name"] = vlc.playlist_name(rng)
    return {"playlist_name1": a["playlist_name"], "files1": a["files"],
            "noise_files1": a["noise_files"], "playlist_name2": b["playlist_name"],
            "files2": b["files"], "noise_files2": b["noise_files"],
            "videos": {**a["videos"], **b["videos"]},
            "names1": ", ".join(a["files"]), "names2": ", ".join(b["files"])}


def _create_two(p: dict[str, Any]) -> list[Step]:
    first = Holds(vlc.playlist_check(p["playlist_name1"], p["files1"]))
    # the second playlist's steps wait for the first (no jumping ahead to them meanwhile)
    second = Either(Holds(vlc.playlist_check(p["playlist_name2"], p["files2"])), Not(first))
    return [vlc.open_app(),
            *vlc.create_playlist_steps(p["playlist_name1"], p["files1"], first, list(p["videos"])),
            *vlc.create_playlist_steps(p["playlist_name2"], p["files2"], second, list(p["videos"]))]


VlcCreateTwoPlaylists = aw(
    id="VlcCreateTwoPlaylists", apps=(vlc.PKG,), split="test", complexity=4.8,
    doc="AndroidWorld's: two VlcCreatePlaylist draws in one VLCVideos folder; the check is "
        "the mean of the two playlist checks (0, 0.5 or 1).",
    goal='In VLC, create a playlist named "{playlist_name1}" with these videos from Internal '
         "memory/VLCVideos, in this order: {names1}. Then create a playlist named "
         '"{playlist_name2}" with these videos, in this order: {names2}.',
    params=_two,
    setup=[vlc.seed_videos(F(lambda p: vlc.video_files(p["videos"]))), vlc.clear_library()],
    check=MeanOf(vlc.playlist_check("{playlist_name1}", P("files1")),
                 vlc.playlist_check("{playlist_name2}", P("files2"))),
    solution=_create_two)


# === MarkorTranscribeVideo (single/markor.py) ===================================================

DOWNLOAD = "/sdcard/Download"
#: how long each name shows in the video (AndroidWorld: 8 s)
SHOW_S = 8


def _transcribe(rng: np.random.Generator) -> dict[str, Any]:
    """2..4 given names shown 8 s each in a video in Download, with 5..20 other videos
    (one random 10-character string each); the note is <video>_transcription.txt."""
    messages = mk.pick(rng, ct.FIRST_NAMES, int(rng.integers(2, 5)))
    video = vlc.file_name(rng)
    noise = vlc.file_names(rng, int(rng.integers(5, 21)), avoid={video})
    return {"file_name": f"{video.split('.')[0]}_transcription.txt", "text": ",".join(messages),
            "messages": messages, "video_name": video, "noise_files": noise,
            "noise": {n: vlc.noise_video(rng) for n in noise}}


def _download_videos(p: dict[str, Any]) -> dict[str, bytes]:
    videos = {p["video_name"]: {"messages": p["messages"], "seconds": SHOW_S}, **p["noise"]}
    return vlc.video_files(videos)


_NOTE = mk.note_path("{file_name}")


def _transcribe_steps(p: dict[str, Any]) -> list[Step]:
    made = Holds(FileExists(mk.note_path(p["file_name"])))
    return [OpenApp(app=vlc.APP_NAME, package=vlc.PKG, done=made),
            vlc.tab("Video", made),
            Tap(screen=vlc.MAIN, target=Target(text=vlc.title_of(p["video_name"])), done=made,
                requires=tab_target("Video")),
            mk.open_app(),
            *mk.create_note_steps(p["file_name"], p["text"], made, DONE)]


MarkorTranscribeVideo = aw(
    id="MarkorTranscribeVideo", apps=(vlc.PKG, mk.PKG), split="train", complexity=2.0,
    doc="AndroidWorld's: a video in Download shows 2..4 given names, 8 s each (5..20 other "
        "videos there show a random 10-character string each); the check is its CreateFile: "
        "the note in the Markor folder holds the names joined by commas (difflib ratio >= 0.9, "
        "casefolded). The Markor folder starts empty, as there.",
    goal="Watch the video {video_name} in VLC (it is in Download) and write the text shown on "
         "its frames, in order, to a new Markor file named {file_name}, as a comma-separated "
         'list. For instance, if the first frame reads "Maya" and the next one "Omar", the file '
         'holds only "Maya, Omar".',
    params=_transcribe,
    setup=[mk.SeedFiles({}), SeedFolder(DOWNLOAD, F(_download_videos), exclusive=False, stop=vlc.PKG)],
    check=FileContent(_NOTE, "{text}", fuzzy=0.9), solution=_transcribe_steps)
