"""The Audio Recorder app on the simulated phone: its welcome page, the microphone
prompt, recording on the phone's clock, the "Record name" dialog, the records list, and
its tasks. Records are read back through the shell and `pull`: each is an MPEG-4 audio
file whose boxes parse and whose length is the recording's."""

from __future__ import annotations

import struct

import numpy as np

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.storage.mp4 import AAC_FRAME, AAC_RATE, SILENT_AAC_FRAME, boxes
from antrap_gym.tasks import TEMPLATES
from tests.screen import find, tap

PKG = "com.dimowner.audiorecorder"
RECORDS = f"/sdcard/Android/data/{PKG}/files/Music/records"
MIC = "android.permission.RECORD_AUDIO"


def records(dev) -> list[str]:
    return dev.shell(f"ls {RECORDS}").stdout.split()


def started() -> SimDevice:
    """The recorder open past its welcome page, the microphone granted."""
    dev = SimDevice()
    dev.shell(f"pm grant {PKG} {MIC}")
    dev.launch(PKG)
    tap(dev, text="Get started")
    return dev


def record(dev, seconds: int) -> None:
    tap(dev, desc="Record")
    dev.wait(seconds)
    tap(dev, desc="Stop recording")


def m4a_info(data: bytes) -> dict:
    """Duration (ms), sample count and samples of a one-track .m4a, from its boxes."""
    top = {k: (a, b) for k, a, b in boxes(data)}
    assert data[8:12] == b"M4A " and list(top)[:3] == [b"ftyp", b"mdat", b"moov"]
    i = data.index(b"mvhd")
    scale, duration = struct.unpack(">II", data[i + 16:i + 24])
    j = data.index(b"stsz")
    n = struct.unpack(">I", data[j + 12:j + 16])[0]
    k = data.index(b"stco")
    offset = struct.unpack(">I", data[k + 12:k + 16])[0]
    return {"ms": duration * 1000 // scale, "frames": n,
            "samples": data[offset:offset + n * len(SILENT_AAC_FRAME)]}


def test_the_welcome_page_shows_once():
    dev = SimDevice()
    dev.launch(PKG)
    assert dev.foreground()[1].endswith("app.welcome.WelcomeActivity")
    tap(dev, text="Get started")
    assert dev.foreground()[1].endswith("app.main.MainActivity")
    dev.shell(f"am force-stop {PKG}")
    dev.launch(PKG)  # the launcher starts the welcome activity, which hands over at once
    assert dev.foreground()[1].endswith("app.main.MainActivity")
    assert find(dev, desc="Record") is not None


def test_recording_asks_for_the_microphone_and_a_denial_records_nothing():
    dev = SimDevice()
    dev.launch(PKG)
    tap(dev, text="Get started")
    tap(dev, desc="Record")
    assert find(dev, text="Allow Audio Recorder to record audio?") is not None
    assert dev.foreground()[0] == "com.google.android.permissioncontroller"
    tap(dev, text="Don't allow")
    assert find(dev, desc="Stop recording") is None and records(dev) == []
    tap(dev, desc="Record")
    tap(dev, text="While using the app")  # granted: the recording starts at once
    assert find(dev, desc="Stop recording") is not None
    assert f"{MIC}: granted=true" in dev.shell(f"dumpsys package {PKG}").stdout


def test_a_stopped_recording_is_a_valid_m4a_as_long_as_it_ran():
    dev = started()
    tap(dev, desc="Record")
    dev.wait(4)
    assert find(dev, rid="txt_progress").text in ("00:04", "00:05")
    tap(dev, desc="Pause recording")
    dev.wait(10)  # paused time does not count
    tap(dev, desc="Resume recording")
    tap(dev, desc="Stop recording")
    assert records(dev) == ["Record-1.m4a"]
    info = m4a_info(dev.pull(RECORDS + "/Record-1.m4a"))
    assert 5000 <= info["ms"] <= 8000
    assert abs(info["frames"] * AAC_FRAME * 1000 // AAC_RATE - info["ms"]) < 30
    assert info["samples"] == SILENT_AAC_FRAME * info["frames"]
    size = dev.shell(f"stat -c %s {RECORDS}/Record-1.m4a").stdout.strip()
    assert int(size) == len(dev.pull(RECORDS + "/Record-1.m4a")) > 0


def test_the_name_dialog_renames_the_record_adding_its_extension():
    dev = started()
    record(dev, 2)
    assert find(dev, text="Record name") is not None
    field = find(dev, rid="edit")
    assert field.text == "Record-1"
    dev.tap(*field.center)
    dev.clear_text()
    dev.type_text("talk_final.m4a")
    tap(dev, text="Save")
    assert records(dev) == ["talk_final.m4a.m4a"]  # what is typed, then .m4a
    assert find(dev, rid="txt_name").text == "talk_final.m4a"
    record(dev, 2)
    tap(dev, text="Cancel")  # kept under its own name
    assert sorted(records(dev)) == ["Record-2.m4a", "talk_final.m4a.m4a"]


def test_the_records_list_renames_and_deletes():
    dev = started()
    record(dev, 1)
    tap(dev, text="Cancel")
    tap(dev, desc="Records")
    tap(dev, desc="More options")
    tap(dev, text="Rename")
    field = find(dev, rid="edit")
    dev.tap(*field.center)
    dev.clear_text()
    dev.type_text("memo")
    tap(dev, text="Save")
    assert records(dev) == ["memo.m4a"]
    tap(dev, desc="More options")
    tap(dev, text="Delete")
    tap(dev, text="Delete")  # confirmed
    assert records(dev) == [] and find(dev, text="No records") is not None


# --- tasks ---------------------------------------------------------------------------------------


def make(tid: str, seed: int = 0):
    cls = TEMPLATES[tid]
    return cls(cls.generate_params(np.random.default_rng(seed)))


def test_record_audio_wants_exactly_one_new_or_changed_non_empty_record():
    dev = started()
    dev.shell(f"echo old > {RECORDS}/old.m4a && touch {RECORDS}/empty.m4a")
    task = make("AudioRecorderRecordAudio")
    task.setup(dev)
    assert task.is_successful(dev) == 0.0
    dev.shell(f"echo more >> {RECORDS}/empty.m4a")  # a record that changed counts as new
    assert task.is_successful(dev) == 1.0
    record(dev, 1)
    assert task.is_successful(dev) == 0.0  # two now


def test_record_with_file_name_draws_the_references_names_and_checks_the_file():
    names = {make("AudioRecorderRecordAudioWithFileName", s).params["file_name"] for s in range(30)}
    assert all(n.endswith(".m4a") and "_" in n for n in names) and len(names) > 20
    task = make("AudioRecorderRecordAudioWithFileName", 4)
    name = task.params["file_name"]
    dev = started()
    dev.shell(f"echo stale > '{RECORDS}/{name}.m4a'")
    task.setup(dev)
    assert records(dev) == []  # a file of that name is removed...
    record(dev, 2)
    field = find(dev, rid="edit")
    dev.tap(*field.center)
    dev.clear_text()
    dev.type_text(name)
    tap(dev, text="Save")
    assert task.is_successful(dev) == 1.0
    task.teardown(dev)
    assert dev.shell(f"cat '{RECORDS}/{name}.m4a'").stdout == "stale\n"  # ...and put back
