"""Simple Gallery Pro: the photos under /sdcard, in folders, opened full screen
(`com.simplemobiletools.gallery.pro`).

- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.gallery.app import SimpleGallery

APP = SimpleGallery

__all__ = ["APP", "SimpleGallery"]
