"""Simple Gallery Pro as the phone installs it: package, launcher entry, activities.

It has no storage of its own: its pictures are the image files under /sdcard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.gallery.firstrun import PERMISSIONS, past_first_run
from antrap_gym.device.sim.apps.gallery.screens import (
    PKG,
    MainActivity,
    MediaActivity,
    ViewPagerActivity,
)

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class SimpleGallery(App):
    package = PKG
    label = "Simple Gallery Pro"
    version = "6.26.3"
    icon_color = (255, 152, 0)
    main = MainActivity
    activities = (MediaActivity, ViewPagerActivity)
    permissions = PERMISSIONS

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        past_first_run(phone)
