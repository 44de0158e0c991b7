"""Files (DocumentsUI, `com.google.android.documentsui`) as the phone installs it.

It has no storage of its own: it shows and changes the files of shared storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.files.model import PKG
from antrap_gym.device.sim.apps.files.picker import PickActivity
from antrap_gym.device.sim.apps.files.screens import FilesActivity


class Files(App):
    package = PKG
    label = "Files"
    version = "13-9935412"
    icon_color = (26, 115, 232)
    icon_glyph = "F"
    main = FilesActivity
    activities = (PickActivity,)
