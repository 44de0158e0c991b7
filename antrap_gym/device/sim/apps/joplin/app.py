"""Joplin as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.joplin.screens import PKG, MainActivity, NoteActivity, SearchActivity
from antrap_gym.device.sim.apps.joplin.storage import JoplinDatabase


class Joplin(App):
    package = PKG
    label = "Joplin"
    home_position = 4
    version = "2.13.0"
    icon_color = (23, 117, 209)
    main = MainActivity
    activities = (NoteActivity, SearchActivity)
    storage = (JoplinDatabase,)
