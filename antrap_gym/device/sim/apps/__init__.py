"""The apps installed on the simulated phone. A new app is one module here."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import Activity, App


def default_apps() -> list[type[App]]:
    from antrap_gym.device.sim.apps.contacts import Contacts
    from antrap_gym.device.sim.apps.launcher import Launcher
    from antrap_gym.device.sim.apps.markor import Markor
    from antrap_gym.device.sim.apps.settings import Settings

    return [Launcher, Settings, Contacts, Markor]


__all__ = ["Activity", "App", "default_apps"]
