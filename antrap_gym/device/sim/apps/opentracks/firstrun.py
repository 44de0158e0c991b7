"""OpenTracks' first run, after install or `pm clear`: Android's prompts for the location
(While using the app / Only this time / Don't allow), for notifications, and for nearby
devices (its Bluetooth sensors). AndroidWorld's set-up grants the first two with
`pm grant` and answers the third with Allow; the app's preferences remember a prompt
answered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.permissions import (
    COARSE_LOCATION,
    FINE_LOCATION,
    POST_NOTIFICATIONS,
)
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.toolkit import firstrun as fr

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.base import Activity
    from antrap_gym.device.sim.context import PhoneContext

PKG = "de.dennisguse.opentracks"
PREFS = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"
BLUETOOTH_SCAN = "android.permission.BLUETOOTH_SCAN"
BLUETOOTH_CONNECT = "android.permission.BLUETOOTH_CONNECT"
PERMISSIONS = (FINE_LOCATION, COARSE_LOCATION, POST_NOTIFICATIONS, BLUETOOTH_SCAN,
               BLUETOOTH_CONNECT)
#: the prompts in the order the app raises them: (preference, what, permission, one-time)
ASKS = (
    ("location_permission_asked", "access this device's location", FINE_LOCATION, True),
    ("notification_permission_asked", "send you notifications", POST_NOTIFICATIONS, False),
    ("bluetooth_permission_asked", "find, connect to, and determine the relative position of "
     "nearby devices", BLUETOOTH_SCAN, False),
)


class OpenTracksPrefs(SharedPreferences):
    path = PREFS


def first_run(phone: PhoneContext, act: Activity) -> None:
    """Raise the first prompt still to answer (one at a time, over the track list)."""
    for key, what, perm, one_time in ASKS:
        if fr.ask_once(phone, act, PREFS, key, "OpenTracks", what, perm, one_time):
            return


def past_first_run(phone: PhoneContext) -> None:
    """The factory phone: every permission granted, as AndroidWorld's set-up leaves it."""
    for perm in PERMISSIONS:
        phone.state.permissions.grant(PKG, perm)
