"""Settings (`com.android.settings`), as on a Pixel with Android 13.

- `screens`: the settings home and its pages (each row reads and writes the
  settings key a real phone uses);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`),
  with the `android.settings.*` intents it answers.
"""

from antrap_gym.device.sim.apps.settings.app import Settings

APP = Settings

__all__ = ["APP", "Settings"]
