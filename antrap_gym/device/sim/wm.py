"""The window manager: app tasks and their back stacks, Home, Back and recents, pop-ups,
toasts and overlays.

It works on the phone's `WindowState` (`context.py`: plain data, snapshotted with the rest
of the phone) through the phone's context, and calls the activities' hooks (`on_back`,
`on_pause`, `on_finish`); the phone's own methods of the same names hand over to it.
"""

from __future__ import annotations

from typing import Protocol

from antrap_gym.device.overlay import SYSTEM_UI, Overlay, OverlayButton, OverlayEvent
from antrap_gym.device.sim.context import (
    LAUNCHER,
    PhoneContext,
    Screen,
    Window,
    WindowState,
)
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

__all__ = ["LAUNCHER", "SYSTEM_UI", "Overlay", "OverlayButton", "OverlayEvent", "Window", "WindowState"]

TOAST_MS = 3500


class WindowHost(PhoneContext, Protocol):
    """The phone as the window manager drives it: its context and its clock's tick."""

    def advance(self, ms: int = ...) -> None: ...


def press_back(phone: WindowHost, tick: bool = True) -> bool:
    if tick:
        phone.advance()
    wm = phone.wm
    phone.changed()
    if wm.overlays:
        ov = wm.overlays[-1]
        if ov.back_dismisses:
            remove_overlay(phone, len(wm.overlays) - 1, "back")
            return True
        return False
    if wm.recents_open:
        wm.recents_open = False
        return True
    if phone.ime_shown:
        wm.ime_shown = False
        return True
    act = wm.top_activity()
    if act is None:
        return False
    if act.popup is not None:
        back = getattr(act.popup, "on_back", None)  # a popup that answers BACK itself
        if back is not None:
            back(phone, act)
        else:
            act.popup = None
        return True
    if act.on_back(phone):
        return True
    if wm.top == LAUNCHER:
        return False
    finish_activity(phone, act)
    return True


def press_home(phone: WindowHost, tick: bool = True) -> bool:
    if tick:
        phone.advance()
    go_home(phone)
    return True


def press_recents(phone: WindowHost, tick: bool = True) -> bool:
    if tick:
        phone.advance()
    wm = phone.wm
    if not wm.recents_open:
        pause_top(phone)
    wm.recents_open = not wm.recents_open
    wm.ime_shown = False
    phone.changed()
    return True


def pause_top(phone: WindowHost) -> None:
    """Tell the activity in front that it is leaving the foreground."""
    act = phone.wm.top_activity()
    if act is not None and phone.wm.top != LAUNCHER:
        act.on_pause(phone)


def go_home(phone: WindowHost) -> None:
    pause_top(phone)
    wm = phone.wm
    wm.recents_open = False
    wm.ime_shown = False
    wm.top = LAUNCHER
    launcher = phone.apps.get(LAUNCHER)
    if launcher is not None:
        wm.tasks[LAUNCHER] = [launcher.main()]
    phone.changed()


def launch(phone: WindowHost, package: str, activity: str | None = None) -> str | None:
    """Start an app (or one of its activities); returns an error message or None."""
    app = phone.apps.get(package)
    if app is None:
        return f"unable to resolve Intent for package {package}"
    wm = phone.wm
    wm.recents_open = False
    wm.ime_shown = False
    if package == LAUNCHER:
        go_home(phone)
        return None
    cls = app.main if activity is None else app.activity_named(activity)
    if cls is None:
        return f"Activity class {{{package}/{activity}}} does not exist."
    if wm.top != package:
        pause_top(phone)
    stack = wm.tasks.get(package)
    if stack and (cls is app.main or any(type(a) is cls for a in stack)):
        # bring the existing task forward, as a launcher tap does
        if activity is not None and cls is not app.main:
            while type(stack[-1]) is not cls:
                stack.pop().on_finish(phone)
    elif stack and activity is not None:
        stack.append(cls())
    else:
        wm.tasks[package] = [cls()]
    wm.bring_to_front(package)
    phone.changed()
    return None


def switch_to(phone: WindowHost, package: str) -> None:
    """Bring a recent task to the front (a tap on its card in recents)."""
    wm = phone.wm
    wm.recents_open = False
    wm.ime_shown = False
    if wm.tasks.get(package):
        if wm.top != package:
            pause_top(phone)
        wm.bring_to_front(package)
    else:
        launch(phone, package)
    phone.changed()


def dismiss_recent(phone: WindowHost, package: str) -> bool:
    wm = phone.wm
    if package in wm.recents:
        wm.recents.remove(package)
    wm.tasks.pop(package, None)
    phone.changed()
    return True


def clear_recents(phone: WindowHost) -> None:
    wm = phone.wm
    for pkg in list(wm.recents):
        wm.tasks.pop(pkg, None)
    wm.recents.clear()
    go_home(phone)


def force_stop(phone: WindowHost, package: str) -> bool:
    wm = phone.wm
    had = wm.tasks.pop(package, None) is not None
    if package in wm.recents:
        wm.recents.remove(package)
    if wm.top == package:
        go_home(phone)
    phone.changed()
    return had


def start_activity(phone: WindowHost, act: Screen) -> None:
    """Push an activity onto its app's task and show it."""
    wm = phone.wm
    wm.ime_shown = False
    wm.tasks.setdefault(act.package, []).append(act)
    wm.bring_to_front(act.package)
    phone.changed()


def finish_activity(phone: WindowHost, act: Screen) -> None:
    wm = phone.wm
    stack = wm.tasks.get(act.package, [])
    if act in stack:
        stack.remove(act)
        act.on_finish(phone)
    wm.ime_shown = False
    if not stack:
        wm.tasks.pop(act.package, None)
        if wm.top == act.package:
            wm.top = LAUNCHER
            launcher = phone.apps.get(LAUNCHER)
            if launcher is not None:
                wm.tasks[LAUNCHER] = [launcher.main()]
    phone.changed()

# --- popups, toasts, overlays ----------------------------------------------------


def open_popup(phone: WindowHost, act: Screen, popup: Dialog | Menu) -> None:
    act.popup = popup
    phone.wm.ime_shown = False
    phone.changed()


def close_popup(phone: WindowHost, act: Screen) -> None:
    act.popup = None
    phone.changed()


def choose(phone: WindowHost, act: Screen, choice: Choice) -> None:
    act.popup = None
    getattr(act, choice.action)(phone, *choice.args)
    phone.changed()


def toast(phone: WindowHost, text: str) -> None:
    phone.wm.toast = (text, phone.clock_ms + TOAST_MS)
    phone.changed()


def show_overlay(phone: WindowHost, overlay: Overlay) -> None:
    phone.wm.overlays.append(overlay)
    phone.wm.ime_shown = False
    phone.changed()


def overlay_pressed(phone: WindowHost, index: int, button: int) -> None:
    ov = phone.wm.overlays[index]
    remove_overlay(phone, index, ov.buttons[button].result)


def remove_overlay(phone: WindowHost, index: int, result: str) -> None:
    """Take overlay `index` off the screen, logged as closed with `result`."""
    ov = phone.wm.overlays.pop(index)
    phone.wm.overlay_log.append(OverlayEvent(ov.ident, result, phone.clock_ms))
    phone.changed()
