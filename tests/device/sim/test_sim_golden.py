"""The simulated phone does not drift: recorded device scripts replay to the same screens.

Oracle runs of a few templates of the first apps and one of every other app were
recorded once as the device calls they made (set-up through `shell`, then taps,
swipes, typing, keys: `Recorder`), plus a tour of the launcher, recents and intents.
Replaying a script on a fresh simulated phone must give, at every step, the same accessibility elements,
`uiautomator dump` XML and screenshot, and at the end the same state through the
shell (`content query`, `settings list`, `find /sdcard`, `dumpsys`, `pm list`).
Replaying device calls (not re-running the oracle) keeps the test about the phone:
a change in the oracle, the env or a template's set-up does not move it.

The digests in `tests/data/sim_golden.json` were recorded on the code before the
apps were reorganised into packages. Pixels depend on the text rasterizer (Pillow's
FreeType): the file holds a fingerprint of it, and where it differs the pixel test
says so and skips, while elements, XML and shell state are still compared.
Re-record (only on code known to be right) with `python -m tests.device.sim.test_sim_golden --record`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import gymnasium as gym
import pytest

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice
from tests.paths import DATA

GOLDEN = DATA / "sim_golden.json"
TEMPLATES = (
    "ContactsAddContact", "ContactsDeleteContact", "ContactsEditPhone", "ContactsStarContact",
    "MarkorCreateNote", "MarkorMoveNote", "MarkorRenameNote", "MarkorEditNoteInLongList",
    "SettingsWifiToggle", "SettingsBrightness", "SettingsDarkTheme", "SettingsRenameDevice",
    # one template of every other app (the cross-app ones with both apps)
    "AudioRecorderRecordAudioWithFileName", "BrowserMaze", "BrowserDraw", "CameraTakePhoto",
    "ClockTimerEntry", "ExpenseAddSingle", "FilesMoveFile", "MarkorTranscribeVideo",
    "NotesTodoItemCount", "OsmAndMarker", "RecipeAddSingleRecipe", "RetroCreatePlaylist",
    "SimpleCalendarAddOneEvent", "SimpleDrawProCreateDrawing", "SimpleSmsSend",
    "SportsTrackerActivityDuration", "TasksHighPriorityTasks", "TurnOnWifiAndOpenApp",
    "SaveCopyOfReceiptTaskEval",
)
SEEDS = (0, 1)
#: what tasks read back through the shell; none of it may change
STATE_READS = (
    "content query --uri content://com.android.contacts/contacts",
    "content query --uri content://com.android.contacts/raw_contacts",
    "content query --uri content://com.android.contacts/data",
    "content query --uri content://com.android.contacts/data/phones",
    "content query --uri content://com.android.contacts/data/emails",
    "content query --uri content://com.android.contacts/contacts --projection _id:has_phone_number",
    "settings list global", "settings list secure", "settings list system",
    "find /sdcard", "ls -l /sdcard/Documents/Markor", "dumpsys window", "dumpsys activity",
    "pm list packages",
)


def _h(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def rasterizer() -> str:
    """A fingerprint of text and icon rasterization: pixels are comparable only when it matches."""
    from antrap_gym.device.sim.render import canvas as cv

    masks = [cv.text_mask("Hamburgefonstiv 0123 ÄÖü", size, bold) for size in (28, 42, 58)
             for bold in (False, True)]
    masks += [cv.icon_mask(name, 63) for name in ("search", "star", "add", "wifi")]
    return _h(b"".join(m.tobytes() + bytes(str(m.shape), "ascii") for m in masks))


def frame(dev: SimDevice) -> dict[str, str]:
    return {"elements": _h(repr(dev.ui_elements()).encode()), "xml": _h(dev.ui_xml().encode()),
            "pixels": _h(dev.screenshot().tobytes())}


def shell_state(dev: SimDevice) -> dict[str, str]:
    out = {}
    for cmd in STATE_READS:
        r = dev.shell(cmd)
        out[cmd] = _h(f"{r.exit_code}\n{r.stdout}\n{r.stderr}".encode())
    return out


class Recorder(SimDevice):
    """A simulated phone that writes down every call that may change it."""

    LEAVES = ("shell", "tap", "long_press", "swipe", "type_text", "clear_text", "key", "launch",
              "wait")

    def __init__(self) -> None:
        super().__init__()
        self.script: list[list[Any]] = []

    def restore(self, snap) -> None:  # the env's reset goes back to the fresh phone
        super().restore(snap)
        self.script = []

    def mark(self) -> None:
        self.script.append(["frame"])


def _logged(name: str):
    def call(self: Recorder, *args: Any, **kwargs: Any) -> Any:
        self.script.append([name, *args, *kwargs.values()])
        return getattr(SimDevice, name)(self, *args, **kwargs)
    return call


for _name in Recorder.LEAVES:
    setattr(Recorder, _name, _logged(_name))


def oracle_script(env, dev: Recorder, template: str, seed: int) -> list[list[Any]]:
    agent = OracleAgent()
    obs, info = env.reset(seed=seed, options={"task": template})
    agent.reset(env, obs, info)
    dev.mark()
    while True:
        obs, reward, term, trunc, info = env.step(agent.act(obs, info))
        dev.mark()
        if term or trunc:
            assert reward == 1.0, f"the oracle failed {template}/{seed}: not worth recording"
            return dev.script


#: a tour of what no task template walks through: home, drawer, search, recents, intents
TOUR = [
    ["frame"], ["swipe", 540, 1800, 540, 600], ["frame"], ["type_text", "se"], ["frame"],
    ["key", "BACK"], ["frame"], ["key", "BACK"], ["frame"], ["key", "APP_SWITCH"], ["frame"],
    ["key", "BACK"], ["frame"], ["shell", "am start -a android.settings.WIFI_SETTINGS"], ["frame"],
    ["shell", "am start -a android.settings.DISPLAY_SETTINGS"], ["frame"], ["key", "BACK"],
    ["frame"], ["shell", "monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1"],
    ["frame"], ["shell", "am start -n net.gsantner.markor/.activity.MainActivity"], ["frame"],
    ["key", "APP_SWITCH"], ["frame"], ["key", "HOME"], ["frame"],
    ["shell", "am start -a android.settings.DEVICE_INFO_SETTINGS"], ["frame"], ["key", "HOME"],
    ["frame"], ["shell", "cmd uimode night yes"], ["frame"], ["key", "APP_SWITCH"], ["frame"],
    ["key", "HOME"], ["frame"],
]


def replay(script: list[list[Any]]) -> dict:
    """Run a script on a fresh phone: a digest of every frame marked, and the end state."""
    dev = SimDevice()
    frames = []
    for name, *args in script:
        if name == "frame":
            frames.append(frame(dev))
        else:
            getattr(dev, name)(*args)
    return {"frames": frames, "state": shell_state(dev)}


def scripts() -> dict[str, list[list[Any]]]:
    dev = Recorder()
    env = gym.make("antrap/AndroidSim-Text-v0", device=dev)
    out = {f"{t}/{s}": oracle_script(env, dev, t, s) for t in TEMPLATES for s in SEEDS}
    env.close()
    out["tour"] = TOUR
    return out


def record() -> dict:
    return {"rasterizer": rasterizer(),
            "runs": {name: {"script": script, **replay(script)} for name, script in scripts().items()}}


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.fixture(scope="module")
def now(golden) -> dict:
    return {"rasterizer": rasterizer(),
            "runs": {name: replay(run["script"]) for name, run in golden["runs"].items()}}


def _first_difference(want: dict, got: dict, key: str) -> list[str]:
    out = []
    for name, run in want["runs"].items():
        mine = got["runs"][name]
        if len(run["frames"]) != len(mine["frames"]):
            out.append(f"{name}: {len(mine['frames'])} frames, recorded {len(run['frames'])}")
            continue
        for i, (a, b) in enumerate(zip(run["frames"], mine["frames"])):
            if a[key] != b[key]:
                out.append(f"{name}: step {i} {key} differs")
                break
    return out


def test_same_elements_and_xml_at_every_step(golden, now):
    assert set(golden["runs"]) == {f"{t}/{s}" for t in TEMPLATES for s in SEEDS} | {"tour"}
    diffs = _first_difference(golden, now, "elements") + _first_difference(golden, now, "xml")
    assert not diffs, diffs


def test_same_state_through_the_shell(golden, now):
    diffs = [f"{name}: {cmd}" for name, run in golden["runs"].items()
             for cmd, digest in run["state"].items() if now["runs"][name]["state"].get(cmd) != digest]
    assert not diffs, diffs


def test_same_pixels_at_every_step(golden, now):
    if now["rasterizer"] != golden["rasterizer"]:
        pytest.skip("pixels were recorded with another text rasterizer (a different Pillow/"
                    "FreeType): elements, XML and shell state are still compared")
    diffs = _first_difference(golden, now, "pixels")
    assert not diffs, diffs


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
    else:
        print(__doc__)
