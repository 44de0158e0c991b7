"""Virtual overlays: system pop-ups on a backend whose window manager cannot host them.

Nothing outside a real phone can make its window manager show a system
overlay, so such a backend (`AdbDevice`; `SimDevice(host_overlays=False)` acts
one out) shows it itself. A private simulated phone lays the pop-up out and
paints it exactly as the simulated phone shows its own; the backend composites
it into its screenshots, elements and XML, and hands it the input meant for the
screen, which it takes as the simulated phone's window manager does: a tap (or
long press) on one of its buttons, or BACK when it allows, closes it; HOME,
recents, the volume keys and launches go to the phone beneath, the pop-up
staying up; any other input is swallowed; each input is one tick of an ad's
countdown. One difference: a tap meets the pop-up as it is before that tick (the
phone's meets it after). `shell` always reaches the phone beneath.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from antrap_gym.device.elements import UIElement
from antrap_gym.device.overlay import Overlay, OverlayEvent

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone

#: keys a system overlay lets through to the phone beneath (Android's keycodes)
PASS_KEYS = {"HOME": 3, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "APP_SWITCH": 187}
_NAMES = {4: "BACK", **{code: name for name, code in PASS_KEYS.items()}}


class Saved(NamedTuple):
    """What a snapshot keeps of a backend's virtual overlays (plain, picklable values)."""

    overlays: tuple[Overlay, ...]
    log: tuple[OverlayEvent, ...]
    dark: bool


def key_name(keycode: str | int) -> str:
    """`KEYCODE_BACK`, `back` or 4 -> "BACK" (the names that matter here; others as given)."""
    s = str(keycode).strip().upper().removeprefix("KEYCODE_")
    return _NAMES.get(int(s), s) if s.isdigit() else s


class VirtualOverlays:
    """The overlays one backend shows virtually, topmost last.

    True while one is up: the backend then takes its observations from here
    (`composite`, `elements`, `xml`) and routes input here (`tap`, `key`, `swallow`).
    """

    def __init__(self, screen_size: tuple[int, int]) -> None:
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        self._host: Phone | None = None
        #: changes whenever what they show may have changed (observation tokens)
        self.revision = 0

    def __bool__(self) -> bool:
        host = self._host
        return host is not None and bool(host.wm.overlays)

    @property
    def host(self) -> Phone:
        """The private phone that lays the overlays out (made on first use)."""
        if self._host is None:
            from antrap_gym.device.sim.phone import Phone

            self._host = Phone(*self.screen_size)
        return self._host

    @property
    def log(self) -> list[OverlayEvent]:
        """How they were closed, oldest first."""
        return self._host.wm.overlay_log if self._host is not None else []

    # --- showing and closing ---------------------------------------------------------------
    def show(self, overlay: Overlay, dark: bool = False) -> None:
        host = self.host
        host.settings.put("secure", "ui_night_mode", "2" if dark else "1")
        host.show_overlay(overlay)
        self._changed()

    def dismiss(self, ident: str, result: str = "dismiss") -> bool:
        """Close the topmost overlay put up as `ident`, logged with `result`."""
        return bool(self) and remove_overlay(self.host, ident, result) and self._changed()

    # --- what the backend shows ------------------------------------------------------------
    def elements(self) -> list[UIElement]:
        """The topmost overlay's elements (they replace the focused window's)."""
        return list(self.host.ui_elements())

    def xml(self) -> str:
        from antrap_gym.device.sim.uixml import dump_xml

        return dump_xml(self.host)

    def composite(self, screenshot: np.ndarray) -> np.ndarray:
        """A copy of `screenshot` with the overlays drawn over it."""
        img = np.array(screenshot, copy=True)
        paint_overlays(img, self.host)
        return img

    # --- input -------------------------------------------------------------------------------
    def tap(self, x: float, y: float) -> None:
        """A tap or a long press: presses the topmost overlay's button under it, if
        any (else the overlay swallows it), then one tick."""
        host = self.host
        i = self._button_at(x, y)
        if i is not None:
            host.overlay_pressed(len(host.wm.overlays) - 1, i)
        self._tick()

    def key(self, keycode: str | int) -> bool:
        """A key (one tick): BACK closes the topmost overlay when it allows; True when
        the overlay took it, False for a key the phone beneath must get (`PASS_KEYS`)."""
        name = key_name(keycode)
        if name == "BACK":
            self.host.press_back(tick=False)
        self._tick()
        return name not in PASS_KEYS

    def swallow(self, inputs: int = 1) -> None:
        """Inputs that reach nothing (a swipe, typing, a wait): one tick each."""
        for _ in range(inputs):
            self._tick()

    def _button_at(self, x: float, y: float) -> int | None:
        """The index of the topmost overlay's button whose element contains (x, y)."""
        host = self.host
        els = host.ui_elements()
        for i, b in enumerate(host.wm.overlays[-1].buttons):
            label = b.desc or b.label
            el = next((e for e in els if e.is_clickable
                       and label in (e.text, e.content_description)), None)
            if el is not None and el.bbox_pixels.contains(x, y):
                return i
        return None

    def _tick(self) -> None:
        self.host.advance()  # an ad's countdown runs on inputs
        self._changed()

    def _changed(self) -> bool:
        self.revision += 1
        return True

    # --- snapshots ---------------------------------------------------------------------------
    def save(self) -> Saved | None:
        """What a snapshot keeps (None: nothing shown, nothing logged)."""
        host = self._host
        if host is None or not (host.wm.overlays or host.wm.overlay_log):
            return None
        return Saved(tuple(copy.deepcopy(host.wm.overlays)), tuple(copy.deepcopy(host.wm.overlay_log)),
                     host.dark)

    def load(self, saved: Saved | None) -> None:
        """Show exactly what `saved` held (None: nothing)."""
        if saved is None and self._host is None:
            return
        host = self.host
        host.wm.overlays = list(copy.deepcopy(saved.overlays)) if saved else []
        host.wm.overlay_log = list(copy.deepcopy(saved.log)) if saved else []
        host.settings.put("secure", "ui_night_mode", "2" if saved and saved.dark else "1")
        host.changed()
        self._changed()


def remove_overlay(phone: Phone, ident: str, result: str) -> bool:
    """Take the topmost overlay put up as `ident` off a simulated phone, logged with `result`."""
    for i in range(len(phone.wm.overlays) - 1, -1, -1):
        if phone.wm.overlays[i].ident == ident:
            phone.remove_overlay(i, result)  # the phone's own removal (log, repaint)
            return True
    return False


def paint_overlays(img: np.ndarray, phone: Phone) -> None:
    """Draw a simulated phone's overlay windows (scrim and all) over `img`, in place."""
    from antrap_gym.device.sim.render.painter import DARK, LIGHT, Painter

    p = Painter(img, DARK if phone.dark else LIGHT, phone.density, {})
    for win in phone.windows():
        if win.name == "overlay":
            p.draw(win.root, None, None)
