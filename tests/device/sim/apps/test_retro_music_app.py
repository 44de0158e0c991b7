"""Retro Music on the simulated phone: the songs read from MP3 files' tags, selecting and
adding to playlists, the playing queue, saving a playlist as a file and the first-run
screen -- driven through the public device interface, the databases read back by pulling
them (as a check on a phone does) and the files through the shell."""

from __future__ import annotations

import io
import sqlite3

import pytest
from mutagen.mp3 import MP3

from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import retro_music as rm
from antrap_gym.tasks.apps.media_files import mp3
from antrap_gym.tasks.checks.playlist import InOrder, PlaylistMatches
from tests.screen import find_all, need, tap, texts

PKG = rm.PKG
RID = PKG + ":id/"
MAIN = PKG + "/" + rm.MAIN
#: (title, artist, album, length in ms)
SONGS = (("Night Drive", "Ana Ruiz", "Open Roads", 200_000),
         ("Blue Hour", "Milo Grant", "Small Hours", 245_500),
         ("Kite Season", "Ana Ruiz", "Open Roads", 3_723_000))


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    songs = [{"file": t + ".mp3", "title": t, "artist": a, "album": al, "duration": ms}
             for t, a, al, ms in SONGS]
    rm.seed_songs(rm.song_files(songs)).apply(d)
    return d


def row_button(dev: SimDevice, title: str, cls: str) -> UIElement:
    """The widget of class `cls` in the list row showing `title`."""
    label = need(dev, text=title)
    return next(e for e in dev.ui_elements() if (e.class_name or "").endswith(cls)
                and e.bbox_pixels.y_min <= label.center[1] <= e.bbox_pixels.y_max + 60)


def rows(dev: SimDevice, db: str, sql: str) -> list[tuple]:
    con = sqlite3.connect(":memory:")
    con.deserialize(dev.pull(db))
    return con.execute(sql).fetchall()


def select_and_add(dev: SimDevice, titles: list[str], playlist: str) -> None:
    dev.long_press(*need(dev, text=titles[0]).center)
    for t in titles[1:]:
        dev.tap(*row_button(dev, t, "CheckBox").center)
    assert find_all(dev, text=f"{len(titles)} selected")
    tap(dev, desc="More options")
    tap(dev, text="Add to playlist")
    tap(dev, text="New playlist")
    tap(dev, cls="android.widget.EditText")
    dev.type_text(playlist)
    tap(dev, text="Create")


# --- the library --------------------------------------------------------------------------


def test_the_pushed_mp3s_are_valid_and_carry_their_tags_and_length():
    data = mp3("Night Drive", "Ana Ruiz", "Open Roads", 200_000)
    f = MP3(io.BytesIO(data))
    assert str(f.tags["TIT2"]) == "Night Drive" and str(f.tags["TPE1"]) == "Ana Ruiz"
    assert str(f.tags["TALB"]) == "Open Roads" and str(f.tags["TLEN"]) == "200000"
    assert abs(f.info.length - 200.0) < 0.05  # from the Xing header's frame count
    assert len(data) < 2000


def test_songs_tab_lists_the_tags_of_the_files_in_music(dev):
    dev.launch(PKG)
    assert dev.foreground() == (PKG, rm.MAIN)
    shown = texts(dev)
    assert [t for t in shown if t in {s[0] for s in SONGS}] == ["Blue Hour", "Kite Season", "Night Drive"]
    assert "Milo Grant • 4:05" in shown and "Ana Ruiz • 1:02:03" in shown and "Ana Ruiz • 3:20" in shown
    tap(dev, text="Albums")
    assert "Open Roads" in texts(dev) and "Ana Ruiz • 2 songs" in texts(dev)
    tap(dev, text="Open Roads")
    assert [t for t in texts(dev) if t in {s[0] for s in SONGS}] == ["Kite Season", "Night Drive"]


def test_a_song_pushed_later_shows_up_and_an_untagged_file_is_named_by_its_file(dev):
    dev.launch(PKG)
    assert dev.shell("printf 'not audio' > /sdcard/Music/loose_track.mp3").ok
    assert "loose_track" in texts(dev)


# --- playlists ------------------------------------------------------------------------------


def test_selected_songs_go_to_a_new_playlist_in_the_order_they_were_selected(dev):
    dev.launch(PKG)
    select_and_add(dev, ["Night Drive", "Blue Hour"], "Road Trip 7")
    assert rows(dev, rm.PLAYLIST_DB, "SELECT playlist_name FROM PlaylistEntity") == [("Road Trip 7",)]
    got = rows(dev, rm.PLAYLIST_DB, "SELECT title, duration, artist_name, data FROM SongEntity"
                                    " ORDER BY song_key")
    assert got == [("Night Drive", 200_000, "Ana Ruiz", "/storage/emulated/0/Music/Night Drive.mp3"),
                   ("Blue Hour", 245_500, "Milo Grant", "/storage/emulated/0/Music/Blue Hour.mp3")]
    assert rows(dev, rm.PLAYLIST_DB, "SELECT id FROM room_master_table") == [(42,)]
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "road trip 7", ["Night Drive", "Blue Hour"])(dev) == 1.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Road Trip 7", ["Blue Hour", "Night Drive"])(dev) == 0.0


def test_a_song_added_to_a_playlist_twice_is_there_once_and_the_playlist_screen_lists_it(dev):
    dev.launch(PKG)
    select_and_add(dev, ["Blue Hour"], "Mix")
    dev.tap(*row_button(dev, "Blue Hour", "ImageButton").center)  # the song's own menu
    tap(dev, text="Add to playlist")
    tap(dev, text="Mix")
    assert rows(dev, rm.PLAYLIST_DB, "SELECT COUNT(*) FROM SongEntity") == [(1,)]
    tap(dev, text="Playlists")
    assert "1 song" in texts(dev)
    tap(dev, text="Mix")
    assert need(dev, rid=RID + "toolbar_title").text == "Mix"
    assert "Blue Hour" in texts(dev)
    dev.tap(*row_button(dev, "Blue Hour", "ImageButton").center)
    tap(dev, text="Remove from playlist")
    assert "No songs" in texts(dev)


def test_save_as_file_writes_the_playlist_as_m3u_in_download(dev):
    dev.launch(PKG)
    select_and_add(dev, ["Kite Season", "Night Drive"], "Evening 12")
    tap(dev, text="Playlists")
    dev.tap(*row_button(dev, "Evening 12", "ImageButton").center)
    tap(dev, text="Save as file")
    tap(dev, text="Save")
    res = dev.shell("cat '/storage/emulated/0/Download/Evening 12.m3u'")
    assert res.ok
    assert res.stdout.splitlines() == [
        "#EXTM3U", "#EXTINF:3723,Ana Ruiz - Kite Season", "/storage/emulated/0/Music/Kite Season.mp3",
        "#EXTINF:200,Ana Ruiz - Night Drive", "/storage/emulated/0/Music/Night Drive.mp3"]


# --- the playing queue ------------------------------------------------------------------------


def queue(dev: SimDevice) -> list[str]:
    return [r[0] for r in rows(dev, rm.PLAYBACK_DB, "SELECT title FROM playing_queue")]


def test_add_to_playing_queue_and_play_next_are_saved_in_the_playback_state(dev):
    dev.launch(PKG)
    for t in ("Night Drive", "Blue Hour"):
        dev.tap(*row_button(dev, t, "ImageButton").center)
        tap(dev, text="Add to playing queue")
    assert queue(dev) == ["Night Drive", "Blue Hour"]
    assert InOrder(rm.QUEUE_ROWS, "title", ["Night Drive", "Blue Hour"])(dev) == 1.0
    dev.tap(*row_button(dev, "Kite Season", "ImageButton").center)
    tap(dev, text="Play next")
    assert queue(dev) == ["Night Drive", "Kite Season", "Blue Hour"]
    assert rows(dev, rm.PLAYBACK_DB, "SELECT title FROM original_playing_queue") == [
        ("Night Drive",), ("Kite Season",), ("Blue Hour",)]
    tap(dev, rid=RID + "miniPlayerTitle")  # the mini player opens the queue
    assert dev.foreground() == (PKG, rm.QUEUE)
    tap(dev, desc="More options")
    tap(dev, text="Clear playing queue")
    assert queue(dev) == []


def test_tapping_a_song_plays_its_list_from_there(dev):
    dev.launch(PKG)
    tap(dev, text="Kite Season")
    assert queue(dev) == ["Blue Hour", "Kite Season", "Night Drive"]
    assert find_all(dev, rid=RID + "miniPlayerTitle")
    assert texts(dev)[-1] == "Kite Season • Ana Ruiz"


# --- first run -----------------------------------------------------------------------------


def test_pm_clear_brings_back_the_first_run_screen(dev):
    prefs = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
    assert '"intro_shown" value="true"' in dev.shell(f"cat {prefs}").stdout
    assert dev.shell(f"pm clear {PKG}").ok
    dev.launch(PKG)
    assert dev.foreground() == (PKG, "code.name.monkey.retromusic.activities.PermissionActivity")
    assert not need(dev, text="Let's go").is_enabled
    tap(dev, text="Grant")
    tap(dev, text="Allow")
    tap(dev, text="Let's go")
    assert dev.foreground() == (PKG, rm.MAIN)
    assert "Night Drive" in texts(dev)
    assert '"intro_shown" value="true"' in dev.shell(f"cat {prefs}").stdout


def test_search_finds_songs_by_title_artist_or_album(dev):
    dev.launch(PKG)
    tap(dev, desc="Search")
    tap(dev, cls="android.widget.EditText")
    dev.type_text("open roads")
    assert [t for t in texts(dev) if t in {s[0] for s in SONGS}] == ["Kite Season", "Night Drive"]
    dev.clear_text()
    dev.type_text("milo")
    assert [t for t in texts(dev) if t in {s[0] for s in SONGS}] == ["Blue Hour"]
