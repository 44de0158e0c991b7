"""Window-manager state: app tasks and back stacks, recents, overlays, toasts, IME.

Plain data, snapshotted with the rest of the phone (the overlays are
`antrap_gym.device.overlay` values: any backend shows them). The phone
(`phone.py`) owns the behaviour; this module only holds and edits the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from antrap_gym.device.overlay import SYSTEM_UI, Overlay, OverlayButton, OverlayEvent
from antrap_gym.device.sim.apps.base import Activity

__all__ = ["LAUNCHER", "SYSTEM_UI", "Overlay", "OverlayButton", "OverlayEvent", "WindowState"]

LAUNCHER = "com.google.android.apps.nexuslauncher"


@dataclass(slots=True)
class WindowState:
    tasks: dict[str, list[Activity]] = field(default_factory=dict)
    recents: list[str] = field(default_factory=list)  # most recent first, launcher excluded
    top: str = LAUNCHER
    recents_open: bool = False
    overlays: list[Overlay] = field(default_factory=list)
    overlay_log: list[OverlayEvent] = field(default_factory=list)
    toast: tuple[str, int] | None = None  # (text, expires at clock ms)
    ime_shown: bool = False

    def top_activity(self) -> Activity | None:
        stack = self.tasks.get(self.top)
        return stack[-1] if stack else None

    def bring_to_front(self, package: str) -> None:
        self.top = package
        if package != LAUNCHER:
            if package in self.recents:
                self.recents.remove(package)
            self.recents.insert(0, package)
