"""Markor as the phone installs it: its notes live on shared storage, not in a database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.markor.intro import VERSION, IntroActivity, past_first_run
from antrap_gym.device.sim.apps.markor.screens import PKG, ROOT, DocumentActivity, MainActivity
from antrap_gym.device.sim.apps.markor.sorting import MarkorPrefs
from antrap_gym.device.sim.toolkit.firstrun import MANAGE_EXTERNAL_STORAGE

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class Markor(App):
    package = PKG
    label = "Markor"
    version = VERSION
    icon_color = (30, 136, 229)
    home_position = 1
    main = MainActivity
    activities = (DocumentActivity, IntroActivity)
    #: its preferences file (the browser's sort order)
    storage = (MarkorPrefs,)
    #: all files access (its first run asks for it: `intro`)
    permissions = (MANAGE_EXTERNAL_STORAGE,)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        phone.fs.mkdir(ROOT, phone.now, parents=True)
        past_first_run(phone)
