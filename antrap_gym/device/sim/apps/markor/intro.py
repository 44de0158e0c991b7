"""Markor's first run, after install or `pm clear`: its intro (IntroActivity, five AppIntro
slides: NEXT four times, DONE), then, on Android 11 and later, the note that it needs
storage access (OK) and Android's "All files access" page for it (AndroidWorld's set-up
goes through all of it and turns the switch on). The intro's preference is Markor's own
key; the access is the MANAGE_EXTERNAL_STORAGE grant, asked again on every start without
it, as the app does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.markor.sorting import PKG, MarkorPrefs
from antrap_gym.device.sim.toolkit import firstrun as fr
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.base import Activity
    from antrap_gym.device.sim.context import PhoneContext

#: the preference IntroActivity sets when DONE is pressed (its class name + "was_shown")
WAS_SHOWN = "net.gsantner.markor.activity.IntroActivitywas_shown"
STORAGE_NOTE = "Storage permission required to read and write files"
VERSION = "2.11.1"


class IntroActivity(fr.Slides):
    package = PKG
    name = ".activity.IntroActivity"
    PREFS = MarkorPrefs.path
    KEY = WAS_SHOWN
    SLIDES = (
        fr.Slide("Main View", "Notebook is the folder that Markor loads in the file browser when "
                 "the app is started. It is the home folder of your files."),
        fr.Slide("View"),
        fr.Slide("Share -> Markor"),
        fr.Slide("ToDo", "Manage your tasks with ToDo. It is a file in todo.txt format with "
                 "default location >Notebook/todo.txt<, you can set a custom filepath in the "
                 "settings."),
        fr.Slide("QuickNote", "QuickNote is the fastest option to write down notes. It is a file "
                 "in Markdown format with default location >Notebook/QuickNote.md<, you can set "
                 "a custom filepath in the settings."),
    )


class StorageNote:
    """Mixed into Markor's main activity: the storage note, once a start, and its answers."""

    storage_asked = False  # the note was raised since this start (an instance's own once set)

    def storage_note(self, phone: PhoneContext) -> None:
        act: Activity = self  # type: ignore[assignment]
        if self.storage_asked or act.popup is not None:
            return
        if not phone.state.permissions.holds(PKG, fr.MANAGE_EXTERNAL_STORAGE):
            self.storage_asked = True
            act.popup = Dialog("", STORAGE_NOTE, buttons=[Choice("OK", "open_all_files")],
                               cancelable=False)

    def open_all_files(self, phone: PhoneContext) -> None:
        phone.open_popup(self, fr.AllFilesAccess("Markor", VERSION, "all_files_answered"))  # type: ignore[arg-type]

    def all_files_answered(self, phone: PhoneContext, granted: bool) -> None:
        if not granted:
            phone.toast("Permission not granted")


def first_run(phone: PhoneContext, act: Activity) -> bool:
    """Start the intro if it was never done (True: it shows now), else raise the storage
    note unless the app has all files access or raised it since this start."""
    if fr.start_slides(phone, act, IntroActivity):
        return True
    act.storage_note(phone)  # type: ignore[attr-defined]
    return False


def past_first_run(phone: PhoneContext) -> None:
    """The factory phone: past the intro, with all files access (AndroidWorld's set-up)."""
    fr.mark(phone, MarkorPrefs.path, WAS_SHOWN)
    phone.state.permissions.grant(PKG, fr.MANAGE_EXTERNAL_STORAGE)
