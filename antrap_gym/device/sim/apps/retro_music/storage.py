"""Retro Music's storage at its real paths: the Room database of playlists (playlist.db),
the playback service's saved queue (music_playback_state.db) and its preferences.

playlist.db is RetroDatabase (Room, version 24): `PlaylistEntity` (playlist_id,
playlist_name), `SongEntity` (one row per song in a playlist: song_key, the row's
autoincrement key, is the song's place in its playlist; playlist_creator_id, the song's
MediaStore id and a copy of its columns), `HistoryEntity`, `PlayCountEntity` and Room's
`room_master_table`. music_playback_state.db is the queue store: `playing_queue` (the
queue as played) and `original_playing_queue` (before shuffling), with MediaStore's
audio columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.retro_music.library import Song
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "code.name.monkey.retromusic"
PLAYLIST_DB = f"/data/data/{PKG}/databases/playlist.db"
PLAYBACK_DB = f"/data/data/{PKG}/databases/music_playback_state.db"
PREFS = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
#: set once the first-run screen (storage access) has been gone through
KEY_INTRO_SHOWN = "intro_shown"

_SONG_COLUMNS = ("`title` TEXT NOT NULL, `track_number` INTEGER NOT NULL, `year` INTEGER NOT NULL,"
                 " `duration` INTEGER NOT NULL, `data` TEXT NOT NULL,"
                 " `date_modified` INTEGER NOT NULL, `album_id` INTEGER NOT NULL,"
                 " `album_name` TEXT NOT NULL, `artist_id` INTEGER NOT NULL,"
                 " `artist_name` TEXT NOT NULL, `composer` TEXT, `album_artist` TEXT")
_PLAYLIST_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS `PlaylistEntity` (`playlist_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  `playlist_name` TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS `SongEntity` (`song_key` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  `playlist_creator_id` INTEGER NOT NULL, `id` INTEGER NOT NULL, {_SONG_COLUMNS});
CREATE UNIQUE INDEX IF NOT EXISTS `index_SongEntity_playlist_creator_id_id`
  ON `SongEntity` (`playlist_creator_id`, `id`);
CREATE TABLE IF NOT EXISTS `HistoryEntity` (`id` INTEGER NOT NULL, {_SONG_COLUMNS},
  `time_played` INTEGER NOT NULL, PRIMARY KEY(`id`));
CREATE TABLE IF NOT EXISTS `PlayCountEntity` (`id` INTEGER NOT NULL, {_SONG_COLUMNS},
  `time_played` INTEGER NOT NULL, `play_count` INTEGER NOT NULL, PRIMARY KEY(`id`));
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
INSERT OR REPLACE INTO room_master_table (id, identity_hash)
  VALUES (42, '8e0b5d9e6d1a4c1c2b0f35f2a9a3d1e7');
"""
_QUEUE_COLUMNS = ("(_id LONG NOT NULL, _data STRING NOT NULL, title STRING NOT NULL,"
                  " track INT NOT NULL, year INT NOT NULL, duration LONG NOT NULL,"
                  " date_modified LONG NOT NULL, album_id LONG NOT NULL, album STRING NOT NULL,"
                  " artist_id LONG NOT NULL, artist STRING NOT NULL, composer STRING,"
                  " album_artist STRING)")
_PLAYBACK_SCHEMA = (f"CREATE TABLE IF NOT EXISTS playing_queue {_QUEUE_COLUMNS};"
                    f"CREATE TABLE IF NOT EXISTS original_playing_queue {_QUEUE_COLUMNS};")


def _song_values(s: Song) -> tuple:
    """A song's columns as SongEntity and the queue tables copy them."""
    return (s.title, 0, 0, s.duration, s.path, s.date_modified, s.album_id, s.album,
            s.artist_id, s.artist, None, None)


class PlaylistDatabase(SqliteStore):
    """playlist.db; the screens read and change playlists through it."""

    path = PLAYLIST_DB
    schema = _PLAYLIST_SCHEMA
    version = 24

    @classmethod
    def of(cls, phone: PhoneContext) -> PlaylistDatabase:
        return phone.databases[cls.path]  # type: ignore[return-value]

    def playlists(self) -> list[tuple[int, str, int]]:
        """(id, name, number of songs) of every playlist, by name."""
        return self.cached("playlists", lambda: self.db.execute(
            "SELECT p.playlist_id, p.playlist_name, COUNT(s.song_key) FROM PlaylistEntity p"
            " LEFT JOIN SongEntity s ON s.playlist_creator_id = p.playlist_id"
            " GROUP BY p.playlist_id ORDER BY p.playlist_name COLLATE NOCASE, p.playlist_id").fetchall())

    def name_of(self, playlist_id: int) -> str | None:
        row = self.db.execute("SELECT playlist_name FROM PlaylistEntity WHERE playlist_id = ?",
                              (playlist_id,)).fetchone()
        return row[0] if row else None

    def create(self, name: str) -> int:
        cur = self.db.execute("INSERT INTO PlaylistEntity (playlist_name) VALUES (?)", (name,))
        self.revision += 1
        return int(cur.lastrowid)

    def rename(self, playlist_id: int, name: str) -> None:
        self.db.execute("UPDATE PlaylistEntity SET playlist_name = ? WHERE playlist_id = ?",
                        (name, playlist_id))
        self.revision += 1

    def delete(self, playlist_id: int) -> None:
        self.db.execute("DELETE FROM SongEntity WHERE playlist_creator_id = ?", (playlist_id,))
        self.db.execute("DELETE FROM PlaylistEntity WHERE playlist_id = ?", (playlist_id,))
        self.revision += 1

    def songs(self, playlist_id: int) -> list[tuple[int, int, str, str, int, str]]:
        """(song_key, song id, title, artist, duration, data) of a playlist, in its order."""
        return self.cached(("songs", playlist_id), lambda: self.db.execute(
            "SELECT song_key, id, title, artist_name, duration, data FROM SongEntity"
            " WHERE playlist_creator_id = ? ORDER BY song_key", (playlist_id,)).fetchall())

    def add(self, playlist_id: int, songs: list[Song]) -> int:
        """Append songs the playlist does not hold yet; how many were added."""
        n = 0
        for s in songs:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO SongEntity (playlist_creator_id, id, title, track_number, year,"
                " duration, data, date_modified, album_id, album_name, artist_id, artist_name,"
                " composer, album_artist) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (playlist_id, s.id, *_song_values(s)))
            n += cur.rowcount
        self.revision += 1
        return n

    def remove(self, song_key: int) -> None:
        self.db.execute("DELETE FROM SongEntity WHERE song_key = ?", (song_key,))
        self.revision += 1


class PlaybackStateDatabase(SqliteStore):
    """music_playback_state.db: the queue the playback service saves on every change."""

    path = PLAYBACK_DB
    schema = _PLAYBACK_SCHEMA
    version = 12

    @classmethod
    def of(cls, phone: PhoneContext) -> PlaybackStateDatabase:
        return phone.databases[cls.path]  # type: ignore[return-value]

    def queue(self) -> list[tuple[int, str, str, int]]:
        """(song id, title, artist, duration) of the playing queue, in order."""
        return self.cached("queue", lambda: self.db.execute(
            "SELECT _id, title, artist, duration FROM playing_queue ORDER BY rowid").fetchall())

    def save(self, songs: list[Song]) -> None:
        """Replace both queues with `songs` (no shuffle: the original is the same)."""
        for table in ("playing_queue", "original_playing_queue"):
            self.db.execute(f"DELETE FROM {table}")
            self.db.executemany(
                f"INSERT INTO {table} (_id, title, track, year, duration, _data, date_modified,"
                " album_id, album, artist_id, artist, composer, album_artist)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(s.id, *_song_values(s)) for s in songs])
        self.revision += 1


class RetroPrefs(SharedPreferences):
    path = PREFS


def prefs(phone: PhoneContext) -> SharedPreferences:
    return phone.databases[RetroPrefs.path]  # type: ignore[return-value]
