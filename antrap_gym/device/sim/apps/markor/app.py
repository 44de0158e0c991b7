"""Markor as the phone installs it: its notes live on shared storage, not in a database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.markor.screens import PKG, ROOT, DocumentActivity, MainActivity
from antrap_gym.device.sim.apps.markor.sorting import MarkorPrefs

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone


class Markor(App):
    package = PKG
    label = "Markor"
    version = "2.11.1"
    icon_color = (30, 136, 229)
    home_position = 1
    main = MainActivity
    activities = (DocumentActivity,)
    #: its preferences file (the browser's sort order)
    storage = (MarkorPrefs,)

    @classmethod
    def install(cls, phone: Phone) -> None:
        phone.fs.mkdir(ROOT, phone.now, parents=True)
