"""Phone (Google's dialer) as the phone installs it: a launcher entry and its main
activity, for tasks that only open it."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.dialer.screens import PKG, DialtactsActivity


class Dialer(App):
    package = PKG
    label = "Phone"
    version = "112.0.538386364"
    icon_color = (30, 136, 229)
    main = DialtactsActivity
    intents = {"android.intent.action.DIAL": None}
