"""AndroidWorld's Audio Recorder templates (single/audio_recorder.py): record a clip and
save it; record a clip and save it under a given name. Records are files in the app's
records folder on shared storage, read through the shell.

The app asks for the microphone on the first recording, and asks for the record's name
once it stops ("Record name"; it adds `.m4a` to what is typed, as the reference's check
expects: the goal's name already ends in .m4a, the file is `<name>.m4a`).
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import audio_recorder as ar
from antrap_gym.tasks.apps import gallery as gl
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import Either, FileExists, Holds, ScreenShows
from antrap_gym.tasks.checks.listing import NewFiles
from antrap_gym.tasks.steps import Tap, Target, TypeText
from antrap_gym.tasks.template import template

aw = partial(template, apps=(ar.PKG,), source="AndroidWorld", kind="action")
NAMED = ar.MAIN + "|Record name"


def _shown(label: str) -> Holds:
    return Holds(ScreenShows(label, package=ar.PKG))


def _record(done_recording, saved) -> list:
    """Open the app (past its welcome page), record (granting the microphone), stop."""
    return [ar.open_app(),
            ar.tap(ar.WELCOME, text="Get started"),
            ar.tap(ar.MAIN, desc="Record", done=Either(_shown("Stop recording"), done_recording)),
            Tap(screen=ar.MAIN, target=Target(desc="Stop recording"), done=saved,
                requires=Target(desc="Stop recording"))]


AudioRecorderRecordAudio = aw(
    id="AudioRecorderRecordAudio", split="train", complexity=1.2,
    goal="Use the Audio Recorder app to record an audio clip, and save it.",
    params=lambda rng: {},
    check=NewFiles(ar.RECORDS, 1, changed=True, nonempty=True),
    solution=_record(DONE, DONE),
    doc="The reference's check: exactly one new or changed (name, size, time) non-empty file "
        "in the records folder since set-up. A stopped recording is saved as Record-N.m4a "
        "(the name dialog that follows may be left).")

_TARGET = ar.RECORDS + "/{file_name}" + ar.EXT
_HAS_TARGET = Holds(FileExists(_TARGET))

AudioRecorderRecordAudioWithFileName = aw(
    id="AudioRecorderRecordAudioWithFileName", split="test", complexity=2.0,
    goal='Record an audio clip with the Audio Recorder app and save it under the name '
         '"{file_name}".',
    params=ar.draw_file_name,
    setup=[gl.Absent(_TARGET)],
    check=FileExists(_TARGET),
    solution=[*_record(Either(_shown("Record name"), _HAS_TARGET),
                       Either(_shown("Record name"), _HAS_TARGET)),
              TypeText(screen=NAMED, target=Target(cls="EditText"), text="{file_name}",
                       done=_HAS_TARGET),
              Tap(screen=NAMED, target=Target(text="Save"), done=DONE)],
    doc="The reference's check: `<file_name>.m4a` is in the records folder (the drawn name "
        "is a word from its list, modified, with .m4a, to which the app adds its own .m4a); "
        "set-up removes a file of that name, putting it back at tear-down.")
