"""OpenTracks: recorded activities with their statistics over database.db (`de.dennisguse.opentracks`).

- `store`: database.db (the `tracks` table) and how the screens format its values;
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.opentracks.app import OpenTracks
from antrap_gym.device.sim.apps.opentracks.store import DB_PATH, TracksDb

APP = OpenTracks

__all__ = ["APP", "DB_PATH", "OpenTracks", "TracksDb"]
