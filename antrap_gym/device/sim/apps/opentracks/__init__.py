"""OpenTracks: recorded activities with their statistics over database.db (`de.dennisguse.opentracks`).

- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.opentracks.app import OpenTracks

APP = OpenTracks

__all__ = ["APP", "OpenTracks"]
