"""Simple SMS Messenger as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.sms.screens import PKG, MainActivity


class SimpleSms(App):
    package = PKG
    label = "Simple SMS Messenger"
    version = "5.17.5"
    icon_color = (25, 118, 210)
    main = MainActivity
