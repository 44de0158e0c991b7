"""Broccoli as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.broccoli.screens import PKG, DetailsActivity, EditorActivity, MainActivity
from antrap_gym.device.sim.apps.broccoli.store import BroccoliDb


class Broccoli(App):
    package = PKG
    label = "Broccoli"
    home_position = 3
    version = "1.5.1"
    icon_color = (104, 159, 56)
    main = MainActivity
    activities = (DetailsActivity, EditorActivity)
    storage = (BroccoliDb,)
