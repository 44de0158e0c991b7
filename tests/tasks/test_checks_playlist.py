"""The playlist and queue checks (tasks/checks/playlist.py) on rows written with the
phone's `sqlite3` and read back by pulling the database, as on an emulator."""

from __future__ import annotations

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import retro_music as rm
from antrap_gym.tasks.checks.playlist import InOrder, PlaylistLength, PlaylistMatches


def sql(dev: SimDevice, db: str, statements: str) -> None:
    res = dev.shell(f'sqlite3 {db} "{statements}"')
    assert res.ok, res.stderr


def playlist(dev: SimDevice, pid: int, name: str, songs: list[tuple[str, int]]) -> None:
    """A playlist row and its songs (title, ms), in song_key order."""
    sql(dev, rm.PLAYLIST_DB, f"INSERT INTO PlaylistEntity VALUES ({pid}, '{name}');" + "".join(
        f"INSERT INTO SongEntity (playlist_creator_id, id, title, track_number, year, duration, data,"
        f" date_modified, album_id, album_name, artist_id, artist_name) VALUES ({pid}, {100 * pid + i},"
        f" '{t}', 0, 0, {ms}, '/x', 0, 0, '', 0, '');" for i, (t, ms) in enumerate(songs)))


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


def test_playlist_matches_reads_name_fuzzily_and_files_exactly_in_order(dev):
    playlist(dev, 1, "Road Trip 12", [("Slow Tide", 1), ("Blue Hour", 1)])
    playlist(dev, 2, "Other", [("Kite Season", 1)])
    check = PlaylistMatches(rm.PLAYLIST_ROWS, "road trip 12", ["Slow Tide", "Blue Hour"])
    assert check(dev) == 1.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Road Trip 1", ["Slow Tide", "Blue Hour"])(dev) == 1.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Road Trip 12", ["Blue Hour", "Slow Tide"])(dev) == 0.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Road Trip 12", ["Slow Tide"])(dev) == 0.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Road Trip 12", ["slow tide", "Blue Hour"])(dev) == 0.0
    assert PlaylistMatches(rm.PLAYLIST_ROWS, "Sunday Brunch", ["Slow Tide", "Blue Hour"])(dev) == 0.0


def test_playlist_length_adds_up_durations_and_refuses_other_playlists(dev):
    check = PlaylistLength(rm.PLAYLIST_ROWS, "Long", rm.LOW_MS, rm.HIGH_MS)
    assert check(dev) == 0.0  # no rows: 0 minutes
    playlist(dev, 1, "Long", [("A", 20 * 60_000), ("B", 27 * 60_000)])
    assert check(dev) == 1.0
    assert PlaylistLength(rm.PLAYLIST_ROWS, "long", rm.LOW_MS, rm.HIGH_MS)(dev) == 0.0  # exact name
    playlist(dev, 2, "Short", [("C", 1000)])
    assert check(dev) == 0.0
    sql(dev, rm.PLAYLIST_DB, "DELETE FROM SongEntity WHERE playlist_creator_id = 2;"
                             "INSERT INTO SongEntity (playlist_creator_id, id, title, track_number, year,"
                             " duration, data, date_modified, album_id, album_name, artist_id,"
                             " artist_name) VALUES (1, 9, 'D', 0, 0, 181000, '/x', 0, 0, '', 0, '')")
    assert check(dev) == 0.0  # 50 minutes and a second


def test_in_order_compares_the_queue_exactly(dev):
    sql(dev, rm.PLAYBACK_DB, "INSERT INTO playing_queue (_id, _data, title, track, year, duration,"
                             " date_modified, album_id, album, artist_id, artist) VALUES"
                             " (1, '/a', 'One', 0, 0, 1, 0, 0, '', 0, ''), (2, '/b', 'Two', 0, 0, 1, 0,"
                             " 0, '', 0, '')")
    assert InOrder(rm.QUEUE_ROWS, "title", ["One", "Two"])(dev) == 1.0
    assert InOrder(rm.QUEUE_ROWS, "title", ["Two", "One"])(dev) == 0.0
    assert InOrder(rm.QUEUE_ROWS, "title", ["One"])(dev) == 0.0
