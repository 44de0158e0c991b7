"""State-layer trap: a pop-up appears over the app and swallows input until dismissed.

On the simulated phone it is a real system overlay in the window manager. On a
backend that cannot host one, it is a *virtual overlay*: composited into the
screenshot, its elements replace the focused window's, and this wrapper
intercepts the agent's actions until one of its buttons (or BACK) closes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from antrap_gym.device.sim.wm import Overlay, OverlayButton
from antrap_gym.traps import words
from antrap_gym.traps.base import NO_OP, TrapWrapper
from antrap_gym.traps.taxonomy import register_trap

STYLES = ("permission", "dialog", "banner", "fullscreen_ad")
OVERLAY_PACKAGE = "com.android.systemui"
POINTED = ("click", "double_tap", "long_press")


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


@register_trap
class ExternalInterruption(TrapWrapper):
    """Permission dialog, centre dialog, top banner or full-screen ad (with an
    optional countdown before its close button appears)."""

    trap_type = "external_interruption"
    defaults = {"styles": STYLES, "countdown_p": 0.3}

    def on_reset(self) -> None:
        self._virtual: VirtualOverlay | None = None
        self._events: dict[str, dict[str, Any]] = {}
        phone = getattr(self.base.device, "phone", None)
        self._seen_log = len(phone.wm.overlay_log) if phone is not None else 0

    def recovery_blocked(self) -> bool:
        # a virtual overlay is not on the phone: the phone underneath looks untouched
        # while the pop-up still swallows every tap
        return self._virtual is not None

    # --- firing -----------------------------------------------------------------------
    def before_observation(self, t, obs):
        self._collect_results()
        hit = self.firing_at(t)
        if hit is not None:
            obs = self._fire(t, *hit)
        if self._virtual is not None:
            obs = self._virtual.composite(obs)
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
        self._events[ident] = event
        if not native:
            dark = base.device.shell("settings get secure ui_night_mode").stdout.strip() == "2"
            self._virtual = VirtualOverlay(ov, base.screen_size, dark=dark)
        self.check_solvable(event)
        return self.refresh()

    def _collect_results(self) -> None:
        """Read how native overlays were closed from the window manager's log."""
        phone = getattr(self.base.device, "phone", None)
        if phone is None:
            return
        log = phone.wm.overlay_log
        for entry in log[self._seen_log:]:
            if entry.ident in self._events:
                self._events[entry.ident]["substituted"]["result"] = entry.result
        self._seen_log = len(log)

    # --- virtual overlays: intercept what the agent does -------------------------------------
    def before_action(self, t, action):
        v = self._virtual
        if v is None:
            return action
        act = self.parse_action(action)
        if act is None:
            return NO_OP  # the overlay has focus: nothing reaches the app
        kind = act.action_type
        if kind in ("status", "answer"):
            return action
        result = None
        if kind in POINTED:
            if act.index is not None:
                el = v.elements[act.index] if 0 <= act.index < len(v.elements) else None
                point = el.center if el is not None else None
            else:
                point = (act.x, act.y)
            if point is not None and kind != "long_press":
                result = v.press(point)
        elif kind == "navigate_back" and v.overlay.back_dismisses:
            result = "back"
        v.tick()
        if result is not None:
            self._events[v.overlay.ident]["substituted"]["result"] = result
            self._virtual = None
        return NO_OP


class VirtualOverlay:
    """An overlay drawn over another backend's screenshots, with its own elements."""

    def __init__(self, overlay: Overlay, screen: tuple[int, int], dark: bool = False) -> None:
        from antrap_gym.device.sim.phone import Phone

        self.overlay = overlay
        self.host = Phone(*screen)  # lays out and paints the overlay exactly as natively
        if dark:
            self.host.settings.put("secure", "ui_night_mode", "2")
        self.host.show_overlay(overlay)
        self.elements = self.host.ui_elements()

    def __deepcopy__(self, memo) -> VirtualOverlay:
        """A fresh host phone showing a copy of the overlay (phones hold SQLite handles)."""
        import copy

        ov = copy.deepcopy(self.overlay, memo)
        return VirtualOverlay(ov, (self.host.width, self.host.height), dark=self.host.dark)

    def tick(self) -> None:
        self.host.advance()  # the ad's countdown runs on agent steps
        self.elements = self.host.ui_elements()

    def press(self, point: tuple[float, float]) -> str | None:
        """The result of a tap at `point`, or None if it only hit the scrim."""
        for b in self.overlay.buttons:
            label = b.desc or b.label
            el = next((e for e in self.elements if e.is_clickable
                       and label in (e.text, e.content_description)), None)
            if el is not None and el.bbox_pixels.contains(*point):
                return b.result
        return None

    def composite(self, obs: dict[str, Any]) -> dict[str, Any]:
        from antrap_gym.device.elements import serialize_elements
        from antrap_gym.device.sim.render.painter import DARK, LIGHT, Painter

        new = dict(obs)
        new["ui_elements"] = serialize_elements(self.elements)
        if "screenshot" in obs:
            img = obs["screenshot"].copy()
            host = self.host
            p = Painter(img, DARK if host.dark else LIGHT, host.density, {})
            for win in host.windows():
                if win.name == "overlay":
                    p.draw(win.root, None, None)
            new["screenshot"] = img
        return new
