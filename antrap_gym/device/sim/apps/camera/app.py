"""Camera (AOSP Camera2, the emulator's camera) as the phone installs it: package,
launcher entry, the camera activity (also under its launcher alias `CameraLauncher`),
the still/video camera intents and the runtime permissions it asks for. It has no
storage of its own: what it takes are files under /sdcard."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.camera.screens import PKG, CameraActivity
from antrap_gym.device.sim.storage.permissions import CAMERA, FINE_LOCATION, RECORD_AUDIO


class CameraLauncher(CameraActivity):
    """The launcher alias of the camera activity (`am start -n PKG/...CameraLauncher`)."""

    name = "com.android.camera.CameraLauncher"


class Camera(App):
    package = PKG
    label = "Camera"
    version = "2.0.002"
    icon_color = (96, 125, 139)
    main = CameraActivity
    activities = (CameraLauncher,)
    intents = {"android.media.action.STILL_IMAGE_CAMERA": None,
               "android.media.action.VIDEO_CAMERA": None}
    permissions = (CAMERA, RECORD_AUDIO, FINE_LOCATION)
