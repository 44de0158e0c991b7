"""Phone (`com.google.android.dialer`) for tasks: only ever opened (AndroidWorld's
OpenAppTaskEval names it "dialer"); it keeps no data a task reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.tasks.steps import OpenApp

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.google.android.dialer"
APP_NAME = "Phone"


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)


def state(device: Device) -> dict:
    """Nothing a task changes."""
    return {}
