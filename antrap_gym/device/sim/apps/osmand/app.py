"""OsmAnd as the phone installs it: package, launcher entry, activities, storage, and
the state AndroidWorld's set-up leaves it in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.osmand import storage as st
from antrap_gym.device.sim.apps.osmand.screens import MapActivity, MyPlacesActivity, SearchActivity
from antrap_gym.device.sim.apps.osmand.storage import PKG, VERSION, MarkersDb, Settings
from antrap_gym.device.sim.storage.permissions import (
    COARSE_LOCATION,
    FINE_LOCATION,
    POST_NOTIFICATIONS,
)
from antrap_gym.device.sim.toolkit import firstrun as fr

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class OsmAnd(App):
    package = PKG
    label = "OsmAnd"
    version = VERSION
    icon_color = (255, 136, 0)
    main = MapActivity
    activities = (SearchActivity, MyPlacesActivity)
    storage = (MarkersDb, Settings)
    permissions = (FINE_LOCATION, COARSE_LOCATION, POST_NOTIFICATIONS)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        """The factory phone is AndroidWorld's after its set-up: past the download wizard
        (it taps "Skip download") and the location prompt, notifications granted. After
        `pm clear` both come back."""
        fr.mark(phone, st.PREFS, st.WIZARD_DONE, st.LOCATION_ASKED)
        phone.state.permissions.grant(PKG, POST_NOTIFICATIONS)
