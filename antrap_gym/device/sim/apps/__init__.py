"""The apps installed on the simulated phone: each is one package here.

An app's package holds its screens, its storage (databases, content providers),
its intents and its launcher entry, and exports its `App` class as `APP`.
`INSTALLED` is the one place an app is registered: adding an app adds a package
and one name here, and touches no other app (see docs/adding-an-app.md).
"""

from __future__ import annotations

import importlib

from antrap_gym.device.sim.apps.base import Activity, App

#: the app packages a fresh phone installs, in install order
INSTALLED: tuple[str, ...] = (
    "launcher", "settings", "contacts", "markor", "calendar", "sms", "expense", "broccoli",
    "tasks_org", "joplin", "opentracks", "gallery",
    "files",
    "chrome",
    "retro_music", "vlc",
    "clock", "camera", "audio_recorder", "dialer",
    "osmand", "simple_draw",
)


def default_apps() -> list[type[App]]:
    return [importlib.import_module(f"{__name__}.{name}").APP for name in INSTALLED]


__all__ = ["INSTALLED", "Activity", "App", "default_apps"]
