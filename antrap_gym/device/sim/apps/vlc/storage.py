"""VLC's storage at its real paths: the media library (app_db/vlc_media.db) and its
preferences.

vlc_media.db is libvlc's medialibrary. The tables the app's playlists use are kept with
medialibrary's columns: `Media` (one row per media file it knows: id_media, type, title,
filename, duration...), `File` (the file behind a media: its mrl), `Folder`, `Playlist`
(id_playlist, name, counters) and `PlaylistMediaRelation` (media_id, playlist_id,
position: 0 for the first item). `Media.filename` is declared without medialibrary's
own FILENAME collation, which stock sqlite3 lacks. A file gets its Media row when the
app first plays it or puts it in a playlist.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "org.videolan.vlc"
DB_PATH = f"/data/data/{PKG}/app_db/vlc_media.db"
PREFS = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
#: set once the first-run screens (welcome, storage access) have been gone through
KEY_ONBOARDING_DONE = "app_onboarding_done"
#: medialibrary's IMedia::Type
TYPE_VIDEO, TYPE_AUDIO = 1, 2

_SCHEMA = """
CREATE TABLE Device(id_device INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT COLLATE NOCASE,
  scheme TEXT, is_removable BOOLEAN, is_present BOOLEAN, last_seen UNSIGNED INTEGER,
  is_network BOOLEAN, UNIQUE(uuid, scheme) ON CONFLICT FAIL);
CREATE TABLE Folder(id_folder INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT, name TEXT COLLATE NOCASE,
  parent_id UNSIGNED INTEGER, is_banned BOOLEAN NOT NULL DEFAULT 0, device_id UNSIGNED INTEGER,
  is_removable BOOLEAN NOT NULL, nb_audio UNSIGNED INTEGER NOT NULL DEFAULT 0,
  nb_video UNSIGNED INTEGER NOT NULL DEFAULT 0, duration UNSIGNED INTEGER NOT NULL DEFAULT 0,
  is_public BOOLEAN NOT NULL DEFAULT 0, is_favorite BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE Media(id_media INTEGER PRIMARY KEY AUTOINCREMENT, type INTEGER,
  subtype INTEGER NOT NULL DEFAULT 0, duration INTEGER DEFAULT -1, last_position REAL DEFAULT -1,
  last_time INTEGER DEFAULT -1, play_count UNSIGNED INTEGER NOT NULL DEFAULT 0,
  last_played_date UNSIGNED INTEGER, insertion_date UNSIGNED INTEGER, release_date UNSIGNED INTEGER,
  title TEXT COLLATE NOCASE, filename TEXT, is_favorite BOOLEAN NOT NULL DEFAULT 0,
  is_present BOOLEAN NOT NULL DEFAULT 1, device_id INTEGER,
  nb_playlists UNSIGNED INTEGER NOT NULL DEFAULT 0, folder_id UNSIGNED INTEGER,
  import_type UNSIGNED INTEGER NOT NULL, group_id UNSIGNED INTEGER,
  forced_title BOOLEAN NOT NULL DEFAULT 0, artist_id UNSIGNED INTEGER, genre_id UNSIGNED INTEGER,
  track_number UNSIGNED INTEGER, album_id UNSIGNED INTEGER, disc_number UNSIGNED INTEGER,
  lyrics TEXT, is_public BOOLEAN NOT NULL DEFAULT FALSE,
  nb_subscriptions UNSIGNED INTEGER NOT NULL DEFAULT 0, description TEXT);
CREATE TABLE File(id_file INTEGER PRIMARY KEY AUTOINCREMENT, media_id UNSIGNED INT DEFAULT NULL,
  playlist_id UNSIGNED INT DEFAULT NULL, mrl TEXT, type UNSIGNED INTEGER,
  last_modification_date UNSIGNED INT, size UNSIGNED INT, folder_id UNSIGNED INTEGER,
  is_removable BOOLEAN NOT NULL, is_external BOOLEAN NOT NULL, is_network BOOLEAN NOT NULL,
  FOREIGN KEY(media_id) REFERENCES Media(id_media) ON DELETE CASCADE,
  FOREIGN KEY(folder_id) REFERENCES Folder(id_folder) ON DELETE CASCADE);
CREATE TABLE Playlist(id_playlist INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT COLLATE NOCASE,
  creation_date UNSIGNED INT NOT NULL, artwork_mrl TEXT,
  nb_video UNSIGNED INT NOT NULL DEFAULT 0, nb_audio UNSIGNED INT NOT NULL DEFAULT 0,
  nb_unknown UNSIGNED INT NOT NULL DEFAULT 0,
  nb_present_video UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_video <= nb_video),
  nb_present_audio UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_audio <= nb_audio),
  nb_present_unknown UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_unknown <= nb_unknown),
  duration UNSIGNED INT NOT NULL DEFAULT 0, nb_duration_unknown UNSIGNED INT NOT NULL DEFAULT 0,
  is_favorite BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE PlaylistMediaRelation(media_id INTEGER, playlist_id INTEGER, position INTEGER,
  FOREIGN KEY(media_id) REFERENCES Media(id_media) ON DELETE NO ACTION,
  FOREIGN KEY(playlist_id) REFERENCES Playlist(id_playlist) ON DELETE CASCADE);
CREATE INDEX playlist_position_pl_id_index ON PlaylistMediaRelation(playlist_id, position);
CREATE TABLE Settings(db_model_version UNSIGNED INTEGER NOT NULL,
  max_task_attempts UNSIGNED INTEGER NOT NULL, max_link_task_attempts UNSIGNED INTEGER NOT NULL);
INSERT INTO Settings VALUES (37, 2, 6);
INSERT INTO Device(uuid, scheme, is_removable, is_present, last_seen, is_network)
  VALUES ('00000000-0000-0000-0000-000000000000', 'file://', 0, 1, 0, 0);
"""


class MediaLibrary(SqliteStore):
    """vlc_media.db; the screens read and change playlists through it."""

    path = DB_PATH
    schema = _SCHEMA

    @classmethod
    def of(cls, phone: PhoneContext) -> MediaLibrary:
        return phone.databases[cls.path]  # type: ignore[return-value]

    # --- media ----------------------------------------------------------------------------
    def media_id(self, path: str, kind: int, duration: int, size: int, now: int) -> int:
        """The Media row of the file at `path` (/sdcard/...), made when there is none."""
        mrl = "file:///storage/emulated/0" + path[len("/sdcard"):]
        row = self.db.execute("SELECT media_id FROM File WHERE mrl = ? AND media_id IS NOT NULL",
                              (mrl,)).fetchone()
        if row is not None and self.db.execute("SELECT 1 FROM Media WHERE id_media = ?",
                                               (row[0],)).fetchone():
            return int(row[0])
        folder = posixpath.dirname(path)
        frow = self.db.execute("SELECT id_folder FROM Folder WHERE path = ?", (folder,)).fetchone()
        if frow is None:
            fid = self.db.execute(
                "INSERT INTO Folder(path, name, device_id, is_removable) VALUES (?, ?, 1, 0)",
                (folder, posixpath.basename(folder))).lastrowid
        else:
            fid = frow[0]
        name = posixpath.basename(path)
        mid = self.db.execute(
            "INSERT INTO Media(type, duration, insertion_date, title, filename, device_id, folder_id,"
            " import_type) VALUES (?, ?, ?, ?, ?, 1, ?, 0)",
            (kind, duration or -1, now, posixpath.splitext(name)[0], name, fid)).lastrowid
        self.db.execute(
            "INSERT INTO File(media_id, mrl, type, last_modification_date, size, folder_id,"
            " is_removable, is_external, is_network) VALUES (?, ?, 1, ?, ?, ?, 0, 0, 0)",
            (mid, mrl, now, size, fid))
        self.revision += 1
        return int(mid)

    def played(self, media_id: int, now: int) -> None:
        self.db.execute("UPDATE Media SET play_count = play_count + 1, last_played_date = ?"
                        " WHERE id_media = ?", (now, media_id))
        self.revision += 1

    # --- playlists --------------------------------------------------------------------------
    def playlists(self) -> list[tuple[int, str, int]]:
        """(id, name, number of items) of every playlist, by name."""
        return self.cached("playlists", lambda: self.db.execute(
            "SELECT p.id_playlist, p.name, COUNT(r.playlist_id) FROM Playlist p"
            " LEFT JOIN PlaylistMediaRelation r ON r.playlist_id = p.id_playlist"
            " GROUP BY p.id_playlist ORDER BY p.name COLLATE NOCASE, p.id_playlist").fetchall())

    def name_of(self, playlist_id: int) -> str | None:
        row = self.db.execute("SELECT name FROM Playlist WHERE id_playlist = ?",
                              (playlist_id,)).fetchone()
        return row[0] if row else None

    def create(self, name: str, now: int) -> int:
        pid = self.db.execute("INSERT INTO Playlist(name, creation_date) VALUES (?, ?)",
                              (name, now)).lastrowid
        self.revision += 1
        return int(pid)

    def items(self, playlist_id: int) -> list[tuple[int, int, str, str]]:
        """(position, media id, title, mrl) of a playlist's items, in order."""
        return self.cached(("items", playlist_id), lambda: self.db.execute(
            "SELECT r.position, r.media_id, m.title, f.mrl FROM PlaylistMediaRelation r"
            " JOIN Media m ON m.id_media = r.media_id"
            " LEFT JOIN File f ON f.media_id = m.id_media"
            " WHERE r.playlist_id = ? ORDER BY r.position", (playlist_id,)).fetchall())

    def append(self, playlist_id: int, media: list[tuple[int, int]]) -> None:
        """Add (media id, duration) items at the end, in order."""
        n = self.db.execute("SELECT COUNT(*) FROM PlaylistMediaRelation WHERE playlist_id = ?",
                            (playlist_id,)).fetchone()[0]
        for i, (mid, duration) in enumerate(media):
            self.db.execute("INSERT INTO PlaylistMediaRelation(media_id, playlist_id, position)"
                            " VALUES (?, ?, ?)", (mid, playlist_id, n + i))
            self.db.execute("UPDATE Media SET nb_playlists = nb_playlists + 1 WHERE id_media = ?",
                            (mid,))
            self.db.execute("UPDATE Playlist SET nb_video = nb_video + 1,"
                            " nb_present_video = nb_present_video + 1, duration = duration + ?"
                            " WHERE id_playlist = ?", (max(0, duration), playlist_id))
        self.revision += 1

    def remove(self, playlist_id: int, position: int) -> None:
        """Take out the item at `position`; the ones after it move up."""
        row = self.db.execute("SELECT media_id FROM PlaylistMediaRelation WHERE playlist_id = ?"
                              " AND position = ?", (playlist_id, position)).fetchone()
        if row is None:
            return
        self.db.execute("DELETE FROM PlaylistMediaRelation WHERE playlist_id = ? AND position = ?",
                        (playlist_id, position))
        self.db.execute("UPDATE PlaylistMediaRelation SET position = position - 1"
                        " WHERE playlist_id = ? AND position > ?", (playlist_id, position))
        self.db.execute("UPDATE Media SET nb_playlists = MAX(0, nb_playlists - 1) WHERE id_media = ?",
                        (row[0],))
        self.db.execute("UPDATE Playlist SET nb_video = MAX(0, nb_video - 1),"
                        " nb_present_video = MAX(0, nb_present_video - 1) WHERE id_playlist = ?",
                        (playlist_id,))
        self.revision += 1

    def delete(self, playlist_id: int) -> None:
        self.db.execute("DELETE FROM PlaylistMediaRelation WHERE playlist_id = ?", (playlist_id,))
        self.db.execute("DELETE FROM Playlist WHERE id_playlist = ?", (playlist_id,))
        self.revision += 1


class VlcPrefs(SharedPreferences):
    path = PREFS


def prefs(phone: PhoneContext) -> SharedPreferences:
    return phone.databases[VlcPrefs.path]  # type: ignore[return-value]
