"""The Camera's activity: the viewfinder, the shutter, the photo/video switch, and the
filmstrip of what it took (each capture full screen, with Delete).

On start it asks for what it needs, as the stock camera does after `pm clear`: the
camera, then the microphone (both required: "Don't allow" ends in its "Camera error"
dialog), then the location (optional, asked once a launch). A photo is one new JPEG in
/sdcard/Pictures, a video one new MPEG-4 in /sdcard/Movies, named from the phone's
clock.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.camera import media
from antrap_gym.device.sim.storage.permissions import CAMERA, FINE_LOCATION, RECORD_AUDIO
from antrap_gym.device.sim.toolkit.permission import PermissionPrompt, answer
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.android.camera2"
RID = PKG + ":id/"
PICTURES = "/sdcard/Pictures"
MOVIES = "/sdcard/Movies"
PHOTO, VIDEO = "photo", "video"
#: what each permission's prompt asks, in the order the camera asks
ASKS = ((CAMERA, "take pictures and record video"), (RECORD_AUDIO, "record audio"),
        (FINE_LOCATION, "access this device's location"))
REQUIRED = (CAMERA, RECORD_AUDIO)
ERROR_TITLE = "Camera error"
ERROR_TEXT = ("The app does not have critical permissions needed to run. Please check your "
              "permissions settings.")
PREVIEW_PHASE = 30


def captures(phone: PhoneContext) -> list[str]:
    """The camera's photos and videos, newest first."""
    fs = phone.fs
    found = []
    for folder, prefix in ((PICTURES, "IMG_"), (MOVIES, "VID_")):
        if fs.isdir(folder):
            for name in fs.listdir(folder):
                path = posixpath.join(folder, name)
                if name.startswith(prefix) and fs.isfile(path):
                    found.append((fs.mtime(path), name, path))
    return [p for _, _, p in sorted(found, reverse=True)]


class CameraActivity(Activity):
    package = PKG
    name = "com.android.camera.CameraActivity"

    def __init__(self) -> None:
        super().__init__()
        self.mode = PHOTO
        self.recording_since: int | None = None  # clock ms the recording started at
        self.review: str | None = None  # the capture shown full screen
        self.asked_location = False
        self.front = False
        self.live = False

    def title(self, phone: PhoneContext) -> str:
        return "Camera"

    # --- permissions ------------------------------------------------------------------
    def _ask(self, phone: PhoneContext) -> None:
        """Raise the next permission prompt the camera needs (none while one shows)."""
        if self.popup is not None:
            return
        perms = phone.state.permissions
        for perm, what in ASKS:
            if perms.holds(PKG, perm) or (perm == FINE_LOCATION and self.asked_location):
                continue
            if perm == FINE_LOCATION:
                self.asked_location = True
            self.popup = PermissionPrompt("Camera", what, perm, "on_permission")  # type: ignore[assignment]
            return

    def on_permission(self, phone: PhoneContext, granted: bool) -> None:
        missing = [p for p in REQUIRED if not phone.state.permissions.holds(PKG, p)]
        if not granted and missing:
            self.stop_recording(phone)
            phone.open_popup(self, Dialog(ERROR_TITLE, ERROR_TEXT,
                                          buttons=[Choice("Dismiss", "quit")], cancelable=False))

    def quit(self, phone: PhoneContext) -> None:
        phone.finish_activity(self)

    # --- layout -------------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        self._ask(phone)
        if self.review is not None and phone.fs.isfile(self.review):
            self._review(ui, phone)
            return
        self.review = None
        recording = self.recording_since is not None
        self.live = recording
        x0, y0, x1, y1 = ui.rect
        bar_h = ui.dp(200)
        view = ui.mk("picture", (x0, y0, x1, y1 - bar_h), rid=RID + "preview_content",
                     desc="Camera preview", style="crop")
        view.value = media.preview(PREVIEW_PHASE)
        if recording:
            secs = (phone.clock_ms - (self.recording_since or 0)) // 1000
            ui.mk("text", (x0 + ui.dp(16), y0 + ui.dp(16), x0 + ui.dp(140), y0 + ui.dp(52)),
                  text=f"● {secs // 60:02d}:{secs % 60:02d}", style="row_title",
                  rid=RID + "recording_time")
        ui.set_y(y1 - bar_h)
        if not recording:
            r = ui._take(ui.dp(56))
            cx = (r[0] + r[2]) // 2
            for i, (mode, label) in enumerate(((PHOTO, "Photo"), (VIDEO, "Video"))):
                cell = (cx - ui.dp(112) + i * ui.dp(112), r[1], cx + i * ui.dp(112), r[3])
                ui.mk("tab", cell, text=label, selected=self.mode == mode,
                      rid=RID + ("mode_photo" if mode == PHOTO else "mode_video"),
                      on_click=lambda m=mode: self.set_mode(phone, m))
        y = y1 - ui.dp(120)
        cx = (x0 + x1) // 2
        shutter = (cx - ui.dp(40), y, cx + ui.dp(40), y + ui.dp(80))
        if self.mode == PHOTO:
            ui.mk("fab", shutter, icon="camera", desc="Shutter", rid=RID + "shutter_button",
                  on_click=lambda: self.shutter(phone))
        else:
            ui.mk("fab", shutter, icon="stop" if recording else "record",
                  desc="Stop recording" if recording else "Start recording",
                  rid=RID + "shutter_button", on_click=lambda: self.shutter(phone))
        shots = captures(phone)
        if shots and not recording:
            thumb = (x0 + ui.dp(32), y + ui.dp(12), x0 + ui.dp(88), y + ui.dp(68))
            v = ui.mk("picture", thumb, desc="Filmstrip", rid=RID + "rounded_thumbnail_view",
                      style="crop", on_click=lambda: self.open_review(phone, shots[0]))
            v.value = self._thumbnail(phone, shots[0])
        if not recording:
            flip = (x1 - ui.dp(88), y + ui.dp(12), x1 - ui.dp(32), y + ui.dp(68))
            ui.mk("icon_button", flip, icon="refresh",
                  desc="Switch to back camera" if self.front else "Switch to front camera",
                  rid=RID + "camera_toggle_button", on_click=lambda: self.flip(phone))

    def _thumbnail(self, phone: PhoneContext, path: str) -> bytes:
        return phone.fs.read(path) if path.endswith(".jpg") else media.preview(PREVIEW_PHASE)

    def _review(self, ui: UI, phone: PhoneContext) -> None:
        path = self.review or ""
        name = posixpath.basename(path)
        ui.toolbar(name, back=lambda: self.close_review(phone), rid=RID + "filmstrip_bottom_panel",
                   actions=[("share", "Share", lambda: phone.toast("Share")),
                            ("delete", "Delete", lambda: self.delete(phone))])
        if path.endswith(".jpg"):
            pic = ui.image(path, rid=RID + "filmstrip_view", desc=name)
        else:
            r = ui._take(ui.remaining)
            pic = ui.mk("picture", r, desc=name, rid=RID + "filmstrip_view", style="fit")
            pic.value = media.preview(PREVIEW_PHASE)
        pic.on_swipe = lambda direction: self.page(phone, direction)

    # --- actions ------------------------------------------------------------------------
    def set_mode(self, phone: PhoneContext, mode: str) -> None:
        if self.recording_since is None:
            self.mode = mode

    def flip(self, phone: PhoneContext) -> None:
        self.front = not self.front

    def _ready(self, phone: PhoneContext) -> bool:
        perms = phone.state.permissions
        return all(perms.holds(PKG, p) for p in REQUIRED)

    def shutter(self, phone: PhoneContext) -> None:
        if not self._ready(phone):
            return
        if self.mode == PHOTO:
            media.save(phone.fs, PICTURES, "IMG", ".jpg", media.photo(phone.now), phone.now)
        elif self.recording_since is None:
            self.recording_since = phone.clock_ms
        else:
            self.stop_recording(phone)

    def stop_recording(self, phone: PhoneContext) -> None:
        if self.recording_since is None:
            return
        data = media.video(self.recording_since, phone.clock_ms, phone.now)
        media.save(phone.fs, MOVIES, "VID", ".mp4", data, phone.now)
        self.recording_since = None
        self.live = False

    def on_pause(self, phone: PhoneContext) -> None:
        self.stop_recording(phone)  # leaving the camera ends a recording, which is kept

    def on_finish(self, phone: PhoneContext) -> None:
        self.stop_recording(phone)

    def open_review(self, phone: PhoneContext, path: str) -> None:
        self.review = path

    def close_review(self, phone: PhoneContext) -> None:
        self.review = None

    def on_back(self, phone: PhoneContext) -> bool:
        if self.review is not None:
            self.review = None
            return True
        self._ask(phone)  # a prompt due but not drawn yet: BACK answers it, as any BACK on it
        if isinstance(self.popup, PermissionPrompt):
            answer(phone, self, False)
            return True
        return False

    def page(self, phone: PhoneContext, direction: str) -> bool:
        shots = captures(phone)
        if self.review not in shots:
            return False
        i = shots.index(self.review) + (1 if direction == "left" else -1 if direction == "right" else 0)
        if not 0 <= i < len(shots) or shots[i] == self.review:
            return False
        self.review = shots[i]
        return True

    def delete(self, phone: PhoneContext) -> None:
        shots = captures(phone)
        path = self.review
        if path is None or path not in shots:
            return
        i = shots.index(path)
        phone.fs.remove(path)
        rest = captures(phone)
        self.review = rest[min(i, len(rest) - 1)] if rest else None
        phone.toast("Deleted")
