"""Window-manager state: app tasks and back stacks, recents, overlays, toasts, IME, and
the windows a screen is made of.

Plain data, snapshotted with the rest of the phone (the overlays are
`antrap_gym.device.overlay` values: any backend shows them). The phone
(`phone.py`) owns the behaviour; this module only holds and edits the state. It
knows nothing of what a back stack holds (`WindowState` is generic in it: the
phone's screens, `context.Screen`), so it sits below everything that does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from antrap_gym.device.overlay import SYSTEM_UI, Overlay, OverlayButton, OverlayEvent
from antrap_gym.device.sim.toolkit.views import View

__all__ = ["LAUNCHER", "SYSTEM_UI", "Overlay", "OverlayButton", "OverlayEvent", "Window", "WindowState"]

LAUNCHER = "com.google.android.apps.nexuslauncher"

#: what a back stack holds (an activity)
S = TypeVar("S")


class Window(NamedTuple):
    name: str  # app | popup | recents | ime | overlay | status_bar | nav_bar
    root: View
    package: str
    focusable: bool  # may own the accessibility focus (its tree is the dump)


@dataclass(slots=True)
class WindowState(Generic[S]):
    tasks: dict[str, list[S]] = field(default_factory=dict)
    recents: list[str] = field(default_factory=list)  # most recent first, launcher excluded
    top: str = LAUNCHER
    recents_open: bool = False
    overlays: list[Overlay] = field(default_factory=list)
    overlay_log: list[OverlayEvent] = field(default_factory=list)
    toast: tuple[str, int] | None = None  # (text, expires at clock ms)
    ime_shown: bool = False

    def top_activity(self) -> S | None:
        stack = self.tasks.get(self.top)
        return stack[-1] if stack else None

    def bring_to_front(self, package: str) -> None:
        self.top = package
        if package != LAUNCHER:
            if package in self.recents:
                self.recents.remove(package)
            self.recents.insert(0, package)
