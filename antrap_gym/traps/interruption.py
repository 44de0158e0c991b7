"""State-layer trap: a pop-up appears over the app and swallows input until dismissed.

The pop-up goes up through the Device protocol (`show_overlay`): a real system
overlay in the simulated phone's window manager, or a *virtual overlay* on a
backend that cannot host one, which the device composites into its screenshots
and elements and which takes the taps and BACK meant for the screen
(`antrap_gym.device.virtual`). How it was closed is read from `overlay_log`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from antrap_gym.device import UIElement
from antrap_gym.device.overlay import SYSTEM_UI, Overlay, OverlayButton
from antrap_gym.traps import words
from antrap_gym.traps.base import NO_OP, TrapWrapper
from antrap_gym.traps.registry import register_trap

STYLES = ("permission", "dialog", "banner", "fullscreen_ad")
OVERLAY_PACKAGE = SYSTEM_UI
#: the actions that reach a virtual pop-up as one tap at their point
TAPS = ("click", "double_tap")


def make_overlay(style: str, app: str, rng: np.random.Generator, countdown_p: float,
                 ident: str) -> Overlay:
    """A pop-up of a style with content drawn from the template pools for `app`."""

    def pick(pool):
        return pool[int(rng.integers(len(pool)))]

    if style == "permission":
        what = pick(words.PERMISSIONS)
        buttons = [OverlayButton(label, result, rid="com.android.permissioncontroller:id/"
                                 f"permission_{result}_button")
                   for label, result in pick(words.PERMISSION_BUTTONS)]
        return Overlay("permission", f"Allow {app} to {what}?", buttons=buttons,
                       package="com.android.permissioncontroller", ident=ident, icon="shield")
    if style == "dialog":
        title, message, buttons = pick(words.DIALOGS)
        return Overlay("dialog", title.format(app=app), message.format(app=app),
                       [OverlayButton(label, result, rid=f"android:id/button{i + 1}")
                        for i, (label, result) in enumerate(buttons)],
                       package=OVERLAY_PACKAGE, ident=ident)
    if style == "banner":
        title, message = pick(words.BANNERS)
        return Overlay("banner", title.format(app=app), message.format(app=app),
                       [OverlayButton("X", "dismiss", desc="Dismiss notification")],
                       package=OVERLAY_PACKAGE, ident=ident)
    title, message = pick(words.ADS)
    countdown = int(rng.integers(2, 4)) if rng.random() < countdown_p else 0
    return Overlay("fullscreen_ad", title.format(app=app), message.format(app=app),
                   [OverlayButton("X", "dismiss", desc="Close ad"),
                    OverlayButton("Learn more", "accept")],
                   package="com.google.android.gms.ads", ident=ident, countdown=countdown)


class Shown(NamedTuple):
    """This trap's pop-up while the device shows it virtually, as the agent last saw it."""

    ident: str
    overlay: Overlay
    elements: list[UIElement]


@register_trap
class ExternalInterruption(TrapWrapper):
    """Permission dialog, centre dialog, top banner or full-screen ad (with an
    optional countdown before its close button appears)."""

    trap_type = "external_interruption"
    defaults = {"styles": STYLES, "countdown_p": 0.3}

    def on_reset(self) -> None:
        #: the pop-up a device shows virtually, while it is up
        self._virtual: Shown | None = None
        #: events whose pop-up has not been closed yet, by overlay ident
        self._open: dict[str, dict[str, Any]] = {}
        self._log_start = len(self.base.device.overlay_log())

    def recovery_blocked(self) -> bool:
        # a virtual overlay is not on the phone: the phone underneath looks untouched
        # while the pop-up still swallows every tap
        self._collect_results()
        return self._virtual is not None

    # --- firing -----------------------------------------------------------------------
    def before_observation(self, t, obs):
        self._collect_results()
        hit = self.firing_at(t)
        if hit is not None:
            obs = self._fire(t, *hit)
        if self._virtual is not None:
            self._virtual = self._virtual._replace(elements=self.base.elements)
        return obs

    def _fire(self, t: int, k: int, firing) -> dict[str, Any]:
        base = self.base
        rng = self.firing_rng(k)
        styles = list(self.params["styles"])
        style = styles[int(rng.integers(len(styles)))]
        pre = self.where()
        labels = {pkg: label for label, pkg in base.device.app_packages().items()}
        app = labels[pre.screen[0]].title() if pre.screen[0] in labels else "Your phone"
        ident = f"{self.trap_type}#{k}"
        ov = make_overlay(style, app, rng, float(self.params["countdown_p"]), ident)
        native = base.device.show_overlay(ov)
        event = self.record(t, 1, params={"style": style, "title": ov.title,
                                          "buttons": [b.label for b in ov.buttons],
                                          "countdown": ov.countdown,
                                          "virtual": not native},
                            substituted={"result": None}, pre=pre, k=k)
        self._open[ident] = event
        if not native:
            self._virtual = Shown(ident, ov, [])
        self.check_solvable(event)
        return self.refresh()

    def _collect_results(self) -> None:
        """Read how this trap's pop-ups were closed from the device's overlay log."""
        if not self._open:
            return
        for entry in self.base.device.overlay_log()[self._log_start:]:
            event = self._open.pop(entry.ident, None)
            if event is not None:
                event["substituted"]["result"] = entry.result
                if self._virtual is not None and self._virtual.ident == entry.ident:
                    self._virtual = None

    # --- virtual overlays: one agent action, one touch -------------------------------------
    def before_action(self, t, action):
        """While a virtual pop-up is up the device gets one tap (at the point a click
        or double tap names) or BACK, or nothing: the pop-up has the focus."""
        v = self._virtual
        if v is None:
            return action
        act = self.parse_action(action)
        if act is None:
            return action  # the env reports it; nothing reaches the device
        kind = act.action_type
        if kind in ("status", "answer"):
            return action
        if kind == "navigate_back":
            return {"action_type": "navigate_back"}
        if kind in TAPS:
            point = self._point(act, v)
            if point is not None:
                return {"action_type": "click", "x": point[0], "y": point[1]}
        return NO_OP  # swallowed (the wait still ticks an ad's countdown)

    def _point(self, act, v: Shown) -> tuple[int, int] | None:
        if act.index is not None:
            return v.elements[act.index].center if 0 <= act.index < len(v.elements) else None
        w, h = self.base.screen_size
        return (int(act.x), int(act.y)) if 0 <= act.x < w and 0 <= act.y < h else None
