"""AndroidWorld's app-opening templates: OpenAppTaskEval (single/system.py) and its
composite TurnOnWifiAndOpenApp (composite/system.py). The app is one of camera, clock,
contacts, settings and dialer; the check is the reference's: that app's package owns the
focused window (`dumpsys window`). A permission prompt in front is the permission
controller's window, so the prompts have to be answered first.

Set-up stops the five apps and goes to the home screen (the reference restores their
snapshots), and clears the Camera's data, so that it asks for its permissions on its
next start: the pop-ups the goal speaks of. Declared apps list the Camera last: an agent
that opens each of them in turn ends on its prompt.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import TYPE_CHECKING

from antrap_gym.tasks.apps import camera as cm
from antrap_gym.tasks.apps import clock as ck
from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.apps import dialer as dl
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.apps.grants import ClearApp
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import Holds, InForeground, MeanOf
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, SetChecked, Target
from antrap_gym.tasks.system_reference import WIFI, WIFI_ON
from antrap_gym.tasks.template import template

if TYPE_CHECKING:
    from antrap_gym.device import Device

#: AndroidWorld's app names -> (package, launcher label)
APPS = {"camera": (cm.PKG, cm.APP_NAME), "clock": (ck.PKG, ck.APP_NAME),
        "contacts": (ct.PKG, "Contacts"), "settings": (st.PKG, "Settings"),
        "dialer": (dl.PKG, dl.APP_NAME)}
PACKAGES = (st.PKG, ct.PKG, ck.PKG, dl.PKG, cm.PKG)  # the Camera last (see above)


@dataclasses.dataclass
class CloseApps(Recipe):
    """The apps stopped and the home screen in front (nothing to put back)."""

    packages: tuple[str, ...] = PACKAGES

    def run(self, device: Device) -> None:
        sh(device, " && ".join([*(f"am force-stop {q(p)}" for p in self.packages),
                                "input keyevent KEYCODE_HOME"]))


def _app(rng) -> dict[str, str]:
    return {"app_name": str(list(APPS)[int(rng.integers(len(APPS)))])}


def _named(p) -> dict[str, str]:
    pkg, label = APPS[p["app_name"]]
    return {"package": pkg, "label": label}


IN_FRONT = InForeground("{package}")
SETUP = [ClearApp(cm.PKG), CloseApps()]
aw = partial(template, apps=PACKAGES, source="AndroidWorld", params=_app, derived=_named)

OpenAppTaskEval = aw(
    id="OpenAppTaskEval", kind="action", complexity=1.0, split="train",
    goal="Open the {app_name} app. If pop-ups come up, clear them by granting the permissions "
         "it asks for.",
    setup=SETUP, check=IN_FRONT,
    solution=[OpenApp(app="{label}", package="{package}", done=DONE)],
    differs={"setup": "The reference restores the five apps' snapshots; ours stops them and "
                      "clears the Camera's data, whose start then asks for its permissions."},
    doc="The reference's check: the named app's package owns the focused window. The "
        "Camera asks for the camera, the microphone and the location first (the oracle "
        "grants them); the dialer is the Phone app (its launcher label).")

_WIFI_DONE = Holds(WIFI_ON)

TurnOnWifiAndOpenApp = aw(
    id="TurnOnWifiAndOpenApp", kind="composite", complexity=2.0, split="test",
    goal="Turn on Wi-Fi, then open the {app_name} app.",
    setup=[st.SetToggle(WIFI, False), *SETUP], check=MeanOf(WIFI_ON, IN_FRONT),
    solution=[st.open_app(),
              *(dataclasses.replace(s, done=_WIFI_DONE) for s in st.walk(WIFI.path)),
              SetChecked(screen=WIFI.screen, target=Target(row=WIFI.switch, cls="Switch"),
                         checked=True, done=_WIFI_DONE),
              OpenApp(app="{label}", package="{package}", done=DONE)],
    differs={"setup": "The reference restores the five apps' snapshots; ours stops them and "
                      "clears the Camera's data, whose start then asks for its permissions."},
    doc="Half a point each: Wi-Fi on (wifi_on 1 or 2; it starts off) and the named app's "
        "package owning the focused window.")
