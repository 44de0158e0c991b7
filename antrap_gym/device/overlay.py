"""System overlays as plain values: what a pop-up is, whatever shows it.

A trap (or a test) says what to show with an `Overlay`; `Device.show_overlay`
puts it up -- natively in the simulated phone's window manager, virtually on a
backend whose window manager cannot host one (`antrap_gym.device.virtual`) --
and `Device.overlay_log` says how each was closed (`OverlayEvent`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SYSTEM_UI = "com.android.systemui"
#: how an overlay looks: a permission prompt, a centred dialog, a top banner, a full-screen ad
STYLES = ("permission", "dialog", "banner", "fullscreen_ad", "system_dialog")


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

    style: str  # one of STYLES
    title: str
    message: str = ""
    buttons: list[OverlayButton] = field(default_factory=list)
    package: str = SYSTEM_UI
    back_dismisses: bool = True
    countdown: int = 0  # inputs before the ad's close button appears
    ident: str = ""  # who put it there (a trap id, "anr", ...)
    icon: str = ""


@dataclass(slots=True)
class OverlayEvent:
    """An overlay closed: by whom it was put up, how ("back", a button's result,
    or what `dismiss_overlay` was told), and when on the device's clock."""

    ident: str
    result: str
    clock_ms: int
