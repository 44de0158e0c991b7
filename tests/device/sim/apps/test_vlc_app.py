"""VLC on the simulated phone: the videos on storage, playlists made by selecting videos
(read back from the pulled media library), the player showing the picture of the current
position as the clock runs, Browse, a VIEW intent, and the first-run screens -- through
the public device interface. The generated videos are real MP4 files: their boxes are
walked here independently and every picture opens with Pillow."""

from __future__ import annotations

import io
import sqlite3
import struct

import numpy as np
import pytest
from PIL import Image

from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import vlc
from antrap_gym.tasks.apps.media_files import text_frame, text_video
from antrap_gym.tasks.checks.playlist import PlaylistMatches
from tests.screen import find_all, need, tap, texts

PKG = vlc.PKG
RID = PKG + ":id/"
VIDEOS = {"clip_5_HD.mp4": {"messages": ["Ana", "Wei"], "seconds": 8},
          "take_12_edit.mp4": {"messages": ["x7Kq2LmP0a"], "seconds": 30},
          "reel_3.mp4": {"messages": ["Zoe"], "seconds": 20}}


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    vlc.seed_videos(vlc.video_files(VIDEOS)).apply(d)
    return d


def row_widget(dev: SimDevice, title: str, cls: str) -> UIElement:
    label = need(dev, text=title)
    return next(e for e in dev.ui_elements() if (e.class_name or "").endswith(cls)
                and e.bbox_pixels.y_min <= label.center[1] <= e.bbox_pixels.y_max + 60)


def rows(dev: SimDevice, sql: str) -> list[tuple]:
    con = sqlite3.connect(":memory:")
    con.deserialize(dev.pull(vlc.DB))
    return con.execute(sql).fetchall()


# --- the files ------------------------------------------------------------------------------


def boxes(data: bytes, start: int = 0, end: int | None = None) -> dict[bytes, tuple[int, int]]:
    out, at, end = {}, start, len(data) if end is None else end
    while at < end:
        size, kind = struct.unpack_from(">I4s", data, at)
        assert size >= 8 and at + size <= end, (kind, size)
        out[kind] = (at + 8, at + size)
        at += size
    assert at == end
    return out


def test_a_generated_video_is_an_mp4_whose_pictures_open_with_pillow():
    data = text_video(("Ana", "Wei", "Zoe"), 8)
    top = boxes(data)
    assert list(top) == [b"ftyp", b"moov", b"mdat"] and data[8:12] == b"isom"
    trak = boxes(data, *boxes(data, *top[b"moov"])[b"trak"])
    stbl = boxes(data, *boxes(data, *boxes(data, *trak[b"mdia"])[b"minf"])[b"stbl"])
    s, _ = stbl[b"stsd"]
    assert data[s + 12:s + 16] == b"jpeg"
    s, _ = stbl[b"stts"]
    assert struct.unpack_from(">III", data, s + 4) == (3, 1, 8000)  # 3 entries of 8 s
    s, _ = stbl[b"stsz"]
    sizes = struct.unpack_from(">5I", data, s + 4)[2:]
    s, _ = stbl[b"stco"]
    offsets = struct.unpack_from(">4I", data, s + 4)[1:]
    mdat = top[b"mdat"]
    assert offsets[0] == mdat[0] and offsets[-1] + sizes[-1] == mdat[1]
    for off, size, word in zip(offsets, sizes, ("Ana", "Wei", "Zoe")):
        pic = data[off:off + size]
        assert pic == text_frame(word)
        with Image.open(io.BytesIO(pic)) as im:
            assert im.format == "JPEG" and im.size == (320, 240)


# --- the library ------------------------------------------------------------------------------


def test_video_tab_lists_the_videos_on_storage_by_title_with_their_length(dev):
    dev.shell("mkdir -p /sdcard/Download && cp /sdcard/VLCVideos/reel_3.mp4 /sdcard/Download/a_walk.mp4")
    dev.launch(PKG)
    assert dev.foreground() == (PKG, vlc.MAIN)
    shown = texts(dev)
    titles = [t for t in shown if t in {"a_walk", "clip_5_HD", "reel_3", "take_12_edit"}]
    assert titles == ["a_walk", "clip_5_HD", "reel_3", "take_12_edit"]
    assert shown[shown.index("clip_5_HD") + 1] == "0:16" and shown[shown.index("take_12_edit") + 1] == "0:30"


def test_browse_walks_internal_memory_to_the_videos_folder_and_plays(dev):
    dev.launch(PKG)
    tap(dev, text="Browse")
    tap(dev, text="Internal memory")
    assert "Download" in texts(dev)
    for _ in range(3):  # the folders are by name: VLCVideos is last
        if find_all(dev, text="VLCVideos"):
            break
        dev.swipe(540, 1800, 540, 700)
    tap(dev, text="VLCVideos")
    assert [t for t in texts(dev) if t.endswith(".mp4")] == ["clip_5_HD.mp4", "reel_3.mp4",
                                                             "take_12_edit.mp4"]
    tap(dev, text="reel_3.mp4")
    assert dev.foreground() == (PKG, vlc.PLAYER)


def test_selected_videos_go_to_a_new_playlist_in_the_order_they_were_selected(dev):
    dev.launch(PKG)
    dev.long_press(*need(dev, text="take_12_edit").center)
    dev.tap(*row_widget(dev, "clip_5_HD", "CheckBox").center)
    assert find_all(dev, text="2 selected")
    tap(dev, desc="More options")
    tap(dev, text="Add to playlist")
    tap(dev, cls="android.widget.EditText")
    dev.type_text("Tutorials Mix")
    tap(dev, text="Create")
    got = rows(dev, "SELECT p.name, m.filename, r.position, f.mrl FROM PlaylistMediaRelation r"
                    " JOIN Playlist p ON p.id_playlist = r.playlist_id"
                    " JOIN Media m ON m.id_media = r.media_id JOIN File f ON f.media_id = m.id_media"
                    " ORDER BY r.position")
    assert got == [("Tutorials Mix", "take_12_edit.mp4", 0, "file:///storage/emulated/0/VLCVideos/take_12_edit.mp4"),
                   ("Tutorials Mix", "clip_5_HD.mp4", 1, "file:///storage/emulated/0/VLCVideos/clip_5_HD.mp4")]
    assert rows(dev, "SELECT nb_video, duration FROM Playlist") == [(2, 46_000)]
    in_order, swapped = ["take_12_edit.mp4", "clip_5_HD.mp4"], ["clip_5_HD.mp4", "take_12_edit.mp4"]
    assert PlaylistMatches(vlc.PLAYLIST_ROWS, "tutorials mix", in_order)(dev) == 1.0
    assert PlaylistMatches(vlc.PLAYLIST_ROWS, "Tutorials Mix", swapped)(dev) == 0.0
    # a video's own menu adds it to the playlist there is, at the end
    dev.tap(*row_widget(dev, "reel_3", "ImageButton").center)
    tap(dev, text="Add to playlist")
    tap(dev, text="Tutorials Mix")
    assert rows(dev, "SELECT position FROM PlaylistMediaRelation ORDER BY position") == [(0,), (1,), (2,)]
    tap(dev, text="Playlists")
    assert "3 items" in texts(dev)
    tap(dev, text="Tutorials Mix")
    assert [t for t in texts(dev) if t in ("take_12_edit", "clip_5_HD", "reel_3")] == [
        "take_12_edit", "clip_5_HD", "reel_3"]
    dev.tap(*row_widget(dev, "clip_5_HD", "ImageButton").center)
    tap(dev, text="Remove")
    assert rows(dev, "SELECT m.filename, r.position FROM PlaylistMediaRelation r JOIN Media m"
                     " ON m.id_media = r.media_id ORDER BY r.position") == [("take_12_edit.mp4", 0),
                                                                            ("reel_3.mp4", 1)]


# --- the player -------------------------------------------------------------------------------


def picture(dev: SimDevice) -> np.ndarray:
    b = need(dev, rid=RID + "player_surface_frame").bbox_pixels
    return dev.screenshot()[b.y_min:b.y_max, b.x_min:b.x_max].copy()


def clock(dev: SimDevice) -> str:
    return next(t for t in texts(dev) if " / " in t)


def player_of(name: str, messages: list[str], seconds: int) -> np.ndarray:
    """What a one-video phone's player shows at its start (the reference picture)."""
    d = SimDevice()
    vlc.seed_videos({name: text_video(tuple(messages), seconds)}).apply(d)
    d.launch(PKG)
    tap(d, text=name.rsplit(".", 1)[0])
    return picture(d)


def test_the_player_shows_the_picture_of_the_current_position_as_time_runs(dev):
    first, second = player_of("a.mp4", ["Ana"], 8), player_of("b.mp4", ["Wei"], 8)
    assert not np.array_equal(first, second)
    dev.launch(PKG)
    tap(dev, text="clip_5_HD")
    assert dev.foreground() == (PKG, vlc.PLAYER)
    assert clock(dev) == "0:00 / 0:16"
    assert np.array_equal(picture(dev), first)
    dev.wait(9)
    assert clock(dev) == "0:09 / 0:16"
    assert np.array_equal(picture(dev), second)
    tap(dev, text="Pause")  # (a tap takes its own second)
    paused = clock(dev)
    assert paused == "0:10 / 0:16" and find_all(dev, text="Play")
    dev.wait(30)
    assert clock(dev) == paused
    bar = need(dev, rid=RID + "player_overlay_seekbar").bbox_pixels
    dev.tap(bar.x_min + 2, (bar.y_min + bar.y_max) // 2)  # seek to the start
    assert clock(dev) == "0:00 / 0:16"
    assert np.array_equal(picture(dev), first)
    tap(dev, text="Play")
    dev.wait(40)  # playback stops at the end, on the last picture
    assert clock(dev) == "0:16 / 0:16" and find_all(dev, text="Play")
    assert np.array_equal(picture(dev), second)
    assert rows(dev, "SELECT filename, play_count FROM Media") == [("clip_5_HD.mp4", 1)]


def test_a_view_intent_of_a_video_opens_the_player(dev):
    res = dev.shell("am start -a android.intent.action.VIEW -d file:///sdcard/VLCVideos/reel_3.mp4 "
                    "-t video/mp4")
    assert res.ok, res.stderr
    assert dev.foreground() == (PKG, vlc.PLAYER)
    assert need(dev, rid=RID + "toolbar_title").text == "reel_3"
    assert clock(dev) == "0:00 / 0:20"


# --- first run --------------------------------------------------------------------------------


def test_pm_clear_brings_back_the_welcome_and_permission_screens(dev):
    assert dev.shell(f"pm clear {PKG}").ok
    dev.launch(PKG)
    assert dev.foreground() == (PKG, "org.videolan.vlc.gui.onboarding.OnboardingActivity")
    assert "Welcome to VLC!" in texts(dev)
    tap(dev, text="Skip")
    tap(dev, text="GRANT PERMISSION")
    tap(dev, text="Allow")
    tap(dev, text="Done")
    assert dev.foreground() == (PKG, vlc.MAIN)
    assert "clip_5_HD" in texts(dev)
    prefs = dev.shell(f"cat /data/data/{PKG}/shared_prefs/{PKG}_preferences.xml").stdout
    assert '"app_onboarding_done" value="true"' in prefs


def test_search_lists_the_videos_whose_title_holds_the_query(dev):
    dev.launch(PKG)
    tap(dev, desc="Search")
    tap(dev, cls="android.widget.EditText")
    dev.type_text("_5_")
    assert [t for t in texts(dev) if t in ("clip_5_HD", "reel_3", "take_12_edit")] == ["clip_5_HD"]
    tap(dev, text="clip_5_HD")
    assert dev.foreground() == (PKG, vlc.PLAYER)


def test_a_file_that_is_no_mp4_lists_without_a_length_and_plays_no_picture(dev):
    assert dev.shell("printf 'not a video' > /sdcard/VLCVideos/broken.mp4").ok
    dev.launch(PKG)
    shown = texts(dev)
    assert shown[shown.index("broken") + 1] == "VLCVideos"  # no length: its folder instead
    tap(dev, text="broken")
    assert dev.foreground() == (PKG, vlc.PLAYER) and clock(dev) == "0:00 / --:--"
    dev.wait(5)
    assert dev.foreground() == (PKG, vlc.PLAYER)
