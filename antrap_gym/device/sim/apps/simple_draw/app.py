"""Simple Draw Pro as the phone installs it: package, launcher entry, activity.

It has no storage of its own: a drawing is kept while the app runs and saved as an
image file on shared storage (Pictures by default)."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.simple_draw.screens import PKG, MainActivity


class SimpleDraw(App):
    package = PKG
    label = "Simple Draw Pro"
    version = "6.7.2"
    icon_color = (245, 124, 0)
    main = MainActivity
