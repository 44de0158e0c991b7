"""The Pixel Launcher as the phone installs it (not itself in the app drawer)."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.launcher.screens import LauncherActivity
from antrap_gym.device.sim.wm import LAUNCHER


class Launcher(App):
    package = LAUNCHER
    label = "Pixel Launcher"
    main = LauncherActivity
    launchable = False
