"""Joplin: notebooks and notes over joplin.sqlite (`net.cozic.joplin`).

- `storage`: joplin.sqlite (notes, folders, notes_normalized);
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.joplin.app import Joplin

APP = Joplin

__all__ = ["APP", "Joplin"]
