"""Markor (`net.gsantner.markor`): Markdown notes as files under /sdcard/Documents/Markor.

- `screens`: the file browser and the note editor;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.markor.app import Markor

APP = Markor

__all__ = ["APP", "Markor"]
