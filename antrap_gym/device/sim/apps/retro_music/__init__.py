"""Retro Music: the songs on shared storage, playlists and the playing queue
(`code.name.monkey.retromusic`).

- `library`: the audio files and their tags (mutagen);
- `storage`: playlist.db, music_playback_state.db and its preferences;
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.retro_music.app import RetroMusic

APP = RetroMusic

__all__ = ["APP", "RetroMusic"]
