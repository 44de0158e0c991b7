"""Broccoli: recipes over the broccoli database (`com.flauschcode.broccoli`).

- `store`: the `broccoli` database (recipes, categories);
- `screens`: its activities (list, details, editor);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.broccoli.app import Broccoli

APP = Broccoli

__all__ = ["APP", "Broccoli"]
