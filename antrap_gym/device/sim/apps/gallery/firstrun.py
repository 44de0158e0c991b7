"""Simple Gallery Pro's first run, after install or `pm clear`: on Android 11 and later it
asks for access to all files (Media only / All files) and, for All files, opens Android's
"All files access" page for it; AndroidWorld's set-up chooses All files and turns the
switch on (and grants the media permissions with `pm grant`). Without the access it asks
again on every start, as the app does. (The question's wording is ours; its All files
choice, which AndroidWorld taps, is the app's.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS
from antrap_gym.device.sim.toolkit import firstrun as fr
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.base import Activity
    from antrap_gym.device.sim.context import PhoneContext

PKG = "com.simplemobiletools.gallery.pro"
VERSION = "6.26.3"
MEDIA_PERMISSIONS = ("android.permission.WRITE_EXTERNAL_STORAGE",
                     "android.permission.ACCESS_MEDIA_LOCATION",
                     "android.permission.READ_MEDIA_IMAGES", "android.permission.READ_MEDIA_VIDEO",
                     POST_NOTIFICATIONS)
PERMISSIONS = (*MEDIA_PERMISSIONS, fr.MANAGE_EXTERNAL_STORAGE)
ACCESS_TITLE = "Grant access"
ACCESS_TEXT = ("The app needs access to your files to show and manage your photos and videos. "
               "Choose what it may access.")


class AllFilesAsk:
    """Mixed into the gallery's main activity: the access question, once a start."""

    access_asked = False

    def access_note(self, phone: PhoneContext) -> None:
        act: Activity = self  # type: ignore[assignment]
        if self.access_asked or act.popup is not None:
            return
        if not phone.state.permissions.holds(PKG, fr.MANAGE_EXTERNAL_STORAGE):
            self.access_asked = True
            act.popup = Dialog(ACCESS_TITLE, ACCESS_TEXT, buttons=[
                Choice("Media only", "noop"), Choice("All files", "open_all_files")])

    def open_all_files(self, phone: PhoneContext) -> None:
        phone.open_popup(self, fr.AllFilesAccess("Simple Gallery Pro", VERSION,  # type: ignore[arg-type]
                                                 "all_files_answered"))

    def all_files_answered(self, phone: PhoneContext, granted: bool) -> None:
        """Back from the settings page: the gallery shows what it may."""


def past_first_run(phone: PhoneContext) -> None:
    """The factory phone: AndroidWorld's set-up granted every permission and the access."""
    for perm in PERMISSIONS:
        phone.state.permissions.grant(PKG, perm)
