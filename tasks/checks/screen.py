"""Text on the screen, from the accessibility elements (`ui_elements`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.match import squash

if TYPE_CHECKING:
    from antrap_gym.device import Device


@dataclasses.dataclass
class ScreenShows(Check):
    """Some element shows `text` (its text or content description; whole text unless
    `contains`), optionally only in `package`'s window (the focused app)."""

    text: str
    contains: bool = False
    package: str | None = None

    def score(self, device: Device, answer: str | None) -> float:
        if self.package is not None and device.foreground()[0] != self.package:
            return 0.0
        want = squash(self.text)
        for el in device.ui_elements():
            for shown in (el.text, el.content_description):
                if shown and (want in squash(shown) if self.contains else squash(shown) == want):
                    return 1.0
        return 0.0
