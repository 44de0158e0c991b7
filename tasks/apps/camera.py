"""Camera (`com.android.camera2`) for tasks: AndroidWorld's set-up empties the photo
and video folders (`EmptyFolder`, which puts their files back at tear-down), the
camera's screens for solutions, and what the contract compares (its permission grants;
the folders are under /sdcard, which the contract reads whole).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.apps.gallery import write_file_commands
from antrap_gym.tasks.apps.grants import granted
from antrap_gym.tasks.checks import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.android.camera2"
APP_NAME = "Camera"
CAMERA = "com.android.camera.CameraActivity"
#: AndroidWorld's PHOTOS_DATA and VIDEOS_DATA
PICTURES = "/sdcard/Pictures"
MOVIES = "/sdcard/Movies"


@dataclasses.dataclass
class EmptyFolder(Recipe):
    """`folder` exists and is empty (AndroidWorld's clear_directory); tear-down writes back
    every file and folder it held (or removes it, if there was none)."""

    folder: str

    def save(self, device: Device) -> Any:
        return read_tree(device, self.folder)

    def run(self, device: Device) -> None:
        sh(device, f"rm -rf {q(self.folder)} && mkdir -p {q(self.folder)}")

    def restore(self, device: Device, saved: Any) -> None:
        sh(device, f"rm -rf {q(self.folder)}")
        if saved is None:
            return
        sh(device, f"mkdir -p {q(self.folder)}")
        for path in sorted(p for p, data in saved.items() if data is None):
            sh(device, f"mkdir -p {q(path)}")
        for path, data in sorted(saved.items()):
            if data is not None:
                for cmd in write_file_commands(path, data):
                    sh(device, cmd)


def state(device: Device) -> dict[str, Any]:
    """What the contract compares before set-up and after tear-down: the grants."""
    return {"granted": granted(device, PKG)}


# --- screens and steps -------------------------------------------------------------------------


def open_app(done: Any = None) -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG, done=done)


#: the viewfinder and a capture shown full screen, which share the camera activity
VIEWFINDER, REVIEW = Target(rid="preview_content"), Target(rid="filmstrip_view")


def tap(desc: str | None = None, text: str | None = None, done: Any = None,
        rid: str | None = None, on: Target = VIEWFINDER) -> Tap:
    """A tap on the camera's screen `on` (the viewfinder unless told)."""
    return Tap(screen=CAMERA, target=Target(desc=desc, text=text, rid=rid), done=done, requires=on)
