"""What window is in front, from `dumpsys window` (the focused window's package and
activity), and how often a label shows on it, as AndroidWorld reads them for its
app-opening and Clock tasks."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check

if TYPE_CHECKING:
    from antrap_gym.device import Device


@dataclasses.dataclass
class InForeground(Check):
    """The focused window is `package`'s, and its activity name contains `activity`
    (any activity when empty). A permission prompt or any pop-up window of another
    package in front fails it."""

    package: str
    activity: str = ""

    def score(self, device: Device, answer: str | None) -> float:
        pkg, act = device.foreground()
        return float(pkg == self.package and self.activity in act)


@dataclasses.dataclass
class ShownTimes(Check):
    """Exactly `times` elements on screen show `text` as their whole text or content
    description (AndroidWorld's paused-stopwatch check counts the "Stopwatch" ones)."""

    text: str
    times: int

    def score(self, device: Device, answer: str | None) -> float:
        n = sum(1 for el in device.ui_elements()
                if el.text == self.text or el.content_description == self.text)
        return float(n == self.times)
