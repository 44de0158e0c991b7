"""AndroidWorld's Camera templates (single/camera.py): take one photo, take one video.
Set-up empties the photo and video folders, as the reference does; the check is the
reference's: exactly one new file name in /sdcard/Pictures (photo) or /sdcard/Movies
(video), by `find` before and after.

The camera asks for the camera and the microphone (and the location) on its first
start; the oracle grants them. A second capture (a double tap on the shutter) is
deleted again from the filmstrip.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import camera as cm
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import Either, Holds, ScreenShows
from antrap_gym.tasks.checks.listing import FileCount, NewFiles
from antrap_gym.tasks.steps import Target
from antrap_gym.tasks.template import template

aw = partial(template, apps=(cm.PKG,), source="AndroidWorld", kind="action", complexity=1.0,
             params=lambda rng: {},
             setup=[cm.EmptyFolder(cm.PICTURES), cm.EmptyFolder(cm.MOVIES)])


# a step whose button shows only in one mode names it in `on`: elsewhere the solver goes
# back to the step that switches mode (a new start of the camera is in photo mode)


def _shown(label: str) -> Holds:
    return Holds(ScreenShows(label, package=cm.PKG))


def _undo_extra(folder: str) -> list:
    """A second capture made by mistake (a double tap on the shutter): open the newest in
    the filmstrip and delete it; nothing to do while the folder holds one at most."""
    done = Either(DONE, Holds(FileCount(folder, at_least=0, at_most=1)))
    return [cm.tap(desc="Filmstrip", done=done), cm.tap(desc="Delete", done=done, on=cm.REVIEW)]

CameraTakePhoto = aw(
    id="CameraTakePhoto", split="train",
    goal="Take a photo with the Camera app.",
    check=NewFiles(cm.PICTURES, 1),
    solution=[cm.open_app(), cm.tap(text="Photo", done=_shown("Shutter")),
              cm.tap(desc="Shutter", done=Holds(FileCount(cm.PICTURES, 1)), on=Target(desc="Shutter")),
              *_undo_extra(cm.PICTURES)],
    doc="The reference's check: exactly one new file in /sdcard/Pictures (a JPEG named "
        "IMG_<date>_<time>.jpg); the folder starts empty.")

_RECORDING = Either(_shown("Stop recording"), Holds(FileCount(cm.MOVIES, 1)))

CameraTakeVideo = aw(
    id="CameraTakeVideo", split="test",
    goal="Record a video with the Camera app.",
    check=NewFiles(cm.MOVIES, 1),
    solution=[cm.open_app(),
              cm.tap(text="Video", done=Either(_shown("Start recording"), _RECORDING)),
              cm.tap(desc="Start recording", done=_RECORDING, on=Target(desc="Start recording")),
              cm.tap(desc="Stop recording", done=DONE, on=Target(desc="Stop recording")),
              *_undo_extra(cm.MOVIES)],
    doc="The reference's check: exactly one new file in /sdcard/Movies (an MPEG-4 named "
        "VID_<date>_<time>.mp4, saved when the recording stops); the folder starts empty.")
