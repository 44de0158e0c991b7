"""The Camera app on the simulated phone: its first-start permission prompts (the
permission controller's window, `pm grant` / `dumpsys package`), photos and videos
written to shared storage as real media files (read back with `pull`: the JPEGs open
with Pillow, the MPEG-4's boxes parse and its frames decode), the filmstrip's Delete,
and its tasks."""

from __future__ import annotations

import io
import struct

import numpy as np
from PIL import Image

from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.storage.mp4 import boxes
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES
from tests.screen import find, tap

PKG = "com.android.camera2"
CONTROLLER = "com.google.android.permissioncontroller"
PERMS = ("android.permission.CAMERA", "android.permission.RECORD_AUDIO",
         "android.permission.ACCESS_FINE_LOCATION")


def granted(dev) -> dict[str, bool]:
    out = dev.shell(f"dumpsys package {PKG}").stdout
    return {p: f"{p}: granted=true" in out for p in PERMS}


def ready() -> SimDevice:
    """The camera opened on a fresh phone with every prompt granted."""
    dev = SimDevice()
    dev.launch(PKG)
    for _ in PERMS:
        tap(dev, text="While using the app")
    assert dev.foreground() == (PKG, "com.android.camera.CameraActivity")
    return dev


def listing(dev, folder: str) -> list[str]:
    return dev.shell(f"ls {folder}").stdout.split()


# --- permissions ---------------------------------------------------------------------------------


def test_first_start_asks_camera_microphone_location_in_the_controllers_window():
    dev = SimDevice()
    dev.launch(PKG)
    asked = []
    for _ in PERMS:
        assert dev.foreground() == (CONTROLLER, "com.android.permissioncontroller.permission.ui."
                                                "GrantPermissionsActivity")
        title = find(dev, rid="permission_message")
        assert title.package_name == CONTROLLER
        asked.append(title.text)
        tap(dev, rid="permission_allow_foreground_only_button")
    assert asked == ["Allow Camera to take pictures and record video?",
                     "Allow Camera to record audio?",
                     "Allow Camera to access this device's location?"]
    assert granted(dev) == dict.fromkeys(PERMS, True)
    assert dev.foreground()[0] == PKG and find(dev, desc="Shutter") is not None
    # pm clear takes the grants back: the next start asks again
    assert dev.shell(f"pm clear {PKG}").stdout.strip() == "Success"
    assert granted(dev) == dict.fromkeys(PERMS, False)
    dev.launch(PKG)
    assert dev.foreground()[0] == CONTROLLER


def test_denying_the_camera_ends_in_its_error_dialog_and_back_on_a_prompt_denies():
    dev = SimDevice()
    dev.launch(PKG)
    tap(dev, text="Don't allow")
    assert find(dev, text="Camera error") is not None and dev.foreground()[0] == PKG
    tap(dev, text="Dismiss")
    assert dev.foreground()[0] != PKG
    dev.launch(PKG)
    dev.key("BACK")  # BACK on the prompt is a denial too
    assert find(dev, text="Camera error") is not None
    assert granted(dev)["android.permission.CAMERA"] is False


def test_pm_grant_and_revoke_set_what_dumpsys_package_shows():
    dev = SimDevice()
    for p in PERMS[:2]:
        assert dev.shell(f"pm grant {PKG} {p}").exit_code == 0
    assert granted(dev) == {PERMS[0]: True, PERMS[1]: True, PERMS[2]: False}
    dev.launch(PKG)  # only the location is asked for now
    assert find(dev, rid="permission_message").text.endswith("location?")
    assert dev.shell(f"pm revoke {PKG} {PERMS[0]}").exit_code == 0
    assert granted(dev)[PERMS[0]] is False
    bad = dev.shell(f"pm grant {PKG} android.permission.READ_SMS")
    assert bad.exit_code != 0 and "has not requested permission" in bad.stderr
    assert dev.shell("pm grant no.such.app android.permission.CAMERA").exit_code != 0


# --- photos and videos --------------------------------------------------------------------------


def test_a_photo_is_one_new_jpeg_in_pictures_named_from_the_clock():
    dev = ready()
    before = listing(dev, "/sdcard/Pictures")
    tap(dev, desc="Shutter")
    new = sorted(set(listing(dev, "/sdcard/Pictures")) - set(before))
    assert len(new) == 1 and new[0].startswith("IMG_20231015_15") and new[0].endswith(".jpg")
    img = Image.open(io.BytesIO(dev.pull("/sdcard/Pictures/" + new[0])))
    assert img.format == "JPEG" and img.size == (640, 480)
    tap(dev, desc="Shutter")  # a second shot a second later: another name
    assert len(set(listing(dev, "/sdcard/Pictures")) - set(before)) == 2


def _mp4_frames(data: bytes) -> tuple[list[bytes], dict[bytes, tuple[int, int]]]:
    """The samples of a one-track MPEG-4 file, from its sample table."""
    top = {k: (a, b) for k, a, b in boxes(data)}
    assert list(top)[:3] == [b"ftyp", b"mdat", b"moov"]

    def find_box(path: list[bytes], start: int, end: int) -> tuple[int, int]:
        for k, a, b in boxes(data, start, end):
            if k == path[0]:
                return (a, b) if len(path) == 1 else find_box(path[1:], a, b)
        raise AssertionError(path)

    stbl = find_box([b"trak", b"mdia", b"minf", b"stbl"], *top[b"moov"])
    table = {k: (a, b) for k, a, b in boxes(data, *stbl)}
    a, _ = table[b"stsz"]
    n = struct.unpack(">I", data[a + 8:a + 12])[0]
    sizes = struct.unpack(f">{n}I", data[a + 12:a + 12 + 4 * n])
    a, _ = table[b"stco"]
    offset = struct.unpack(">I", data[a + 8:a + 12])[0]
    frames = []
    for s in sizes:
        frames.append(data[offset:offset + s])
        offset += s
    return frames, table


def test_a_video_is_one_new_mpeg4_in_movies_whose_frames_decode():
    dev = ready()
    tap(dev, text="Video")
    tap(dev, desc="Start recording")
    assert find(dev, rid="recording_time") is not None
    dev.wait(3)
    tap(dev, desc="Stop recording")
    new = listing(dev, "/sdcard/Movies")
    assert len(new) == 1 and new[0].startswith("VID_20231015_") and new[0].endswith(".mp4")
    data = dev.pull("/sdcard/Movies/" + new[0])
    assert data[4:8] == b"ftyp"
    frames, table = _mp4_frames(data)
    assert len(frames) >= 4  # a frame a second
    for f in frames:
        assert Image.open(io.BytesIO(f)).size == (320, 240)
    assert b"jpeg" in data[table[b"stsd"][0]:table[b"stsd"][1]]


def test_the_filmstrip_shows_the_newest_capture_and_deletes_it():
    dev = ready()
    tap(dev, desc="Shutter")
    tap(dev, desc="Shutter")
    first, second = sorted(listing(dev, "/sdcard/Pictures"))
    tap(dev, desc="Filmstrip")
    assert find(dev, rid="filmstrip_view").content_description == second
    tap(dev, desc="Delete")
    assert listing(dev, "/sdcard/Pictures") == [first]
    assert find(dev, rid="filmstrip_view").content_description == first
    dev.key("BACK")
    assert find(dev, desc="Shutter") is not None


# --- tasks ---------------------------------------------------------------------------------------


def make(tid: str, seed: int = 0):
    cls = TEMPLATES[tid]
    return cls(cls.generate_params(np.random.default_rng(seed)))


def test_take_photo_wants_exactly_one_new_picture():
    task = make("CameraTakePhoto")
    dev = SimDevice()
    dev.shell("mkdir -p /sdcard/Pictures && echo old > /sdcard/Pictures/old.jpg")
    task.setup(dev)
    assert listing(dev, "/sdcard/Pictures") == []  # the reference empties the folder
    dev.launch(PKG)
    for _ in PERMS:
        tap(dev, text="While using the app")
    assert task.is_successful(dev) == 0.0
    tap(dev, desc="Shutter")
    assert task.is_successful(dev) == 1.0
    tap(dev, desc="Shutter")
    assert task.is_successful(dev) == 0.0
    task.teardown(dev)
    assert listing(dev, "/sdcard/Pictures") == ["old.jpg"]


def test_the_oracle_grants_the_prompts_and_takes_one_video():
    env = make_env(task=TEMPLATES["CameraTakeVideo"], obs_mode="text")
    agent = OracleAgent()
    res = run_episode(env, agent, seed=0, options={"task": TEMPLATES["CameraTakeVideo"]})
    assert res.success == 1.0 and not agent.faults
    assert granted(env.unwrapped.device)["android.permission.CAMERA"] is True
    env.close()


def test_open_camera_fails_while_a_prompt_is_in_front():
    cls = TEMPLATES["OpenAppTaskEval"]
    seed = next(s for s in range(50)
                if cls.generate_params(np.random.default_rng(s))["app_name"] == "camera")
    task = cls(cls.generate_params(np.random.default_rng(seed)))
    dev = ready()  # granted before: set-up clears the camera, which asks again
    task.setup(dev)
    assert task.is_successful(dev) == 0.0
    dev.launch(PKG)
    assert task.is_successful(dev) == 0.0  # the permission controller is in front
    for _ in PERMS:
        tap(dev, text="While using the app")
    assert task.is_successful(dev) == 1.0
    task.teardown(dev)
    assert granted(dev) == dict.fromkeys(PERMS, True)  # the grants put back
