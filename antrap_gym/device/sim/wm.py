"""Window-manager state: app tasks and back stacks, recents, overlays, toasts, IME.

Plain data, snapshotted with the rest of the phone. The phone (`phone.py`)
owns the behaviour; this module only holds and edits the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from antrap_gym.device.sim.apps.base import Activity

LAUNCHER = "com.google.android.apps.nexuslauncher"
SYSTEM_UI = "com.android.systemui"


@dataclass(slots=True)
class OverlayButton:
    label: str
    #: what pressing it means: "dismiss", "accept", "deny", "open" ...
    result: str = "dismiss"
    desc: str | None = None  # content description (icon-only buttons, e.g. a close "X")
    rid: str | None = None


@dataclass(slots=True)
class Overlay:
    """A system-level window above every app (permission prompts, ads, banners).

    It swallows every touch outside its own buttons until one of them, or
    BACK when `back_dismisses`, removes it.
    """

    style: str  # permission | dialog | banner | fullscreen_ad | system_dialog
    title: str
    message: str = ""
    buttons: list[OverlayButton] = field(default_factory=list)
    package: str = SYSTEM_UI
    back_dismisses: bool = True
    countdown: int = 0  # steps before the ad's close button appears
    ident: str = ""  # who put it there (a trap id, "anr", ...)
    icon: str = ""


@dataclass(slots=True)
class OverlayEvent:
    ident: str
    result: str
    clock_ms: int


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
