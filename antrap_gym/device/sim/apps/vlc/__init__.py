"""VLC: the videos on shared storage, playlists in its media library, and a player that
shows a video's pictures (`org.videolan.vlc`).

- `video`: a video file's length and pictures (MP4, Motion JPEG);
- `storage`: the media library (vlc_media.db) and its preferences;
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.vlc.app import Vlc

APP = Vlc

__all__ = ["APP", "Vlc"]
