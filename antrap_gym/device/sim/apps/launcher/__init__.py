"""The home screen and app drawer (`com.google.android.apps.nexuslauncher`).

It shows every installed app's launcher entry (`App.label`, `icon_color`,
`icon_glyph`, `home_position`) and knows no app by name.
"""

from antrap_gym.device.sim.apps.launcher.app import Launcher

APP = Launcher

__all__ = ["APP", "Launcher"]
