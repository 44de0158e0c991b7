"""The simulated phone does not drift: recorded oracle runs replay to the same screens.

For a few templates of each app (and a tour of the launcher, recents and intents),
every step's accessibility elements, `uiautomator dump` XML and screenshot are
hashed, and after each episode the state the tasks read through the shell
(`content query`, `settings list`, `find /sdcard`, `dumpsys window`, `pm list`).
The digests in `tests/data/sim_golden.json` were recorded on the code before the
apps were reorganised into packages; a refactoring of the phone must reproduce
them exactly.

Pixels depend on the text rasterizer (Pillow's FreeType): the file records a
fingerprint of it, and where the fingerprint differs the pixel test says so and
skips, while elements, XML and shell state are still compared. Re-record (only
on code known to be right) with `python -m tests.test_sim_golden --record`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice

GOLDEN = Path(__file__).parent / "data" / "sim_golden.json"
TEMPLATES = (
    "ContactsAddContact", "ContactsDeleteContact", "ContactsEditPhone", "ContactsStarContact",
    "MarkorCreateNote", "MarkorMoveNote", "MarkorRenameNote", "MarkorEditNoteInLongList",
    "SettingsWifiToggle", "SettingsBrightness", "SettingsDarkTheme", "SettingsRenameDevice",
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


def oracle_run(env, template: str, seed: int) -> dict:
    agent = OracleAgent()
    obs, info = env.reset(seed=seed, options={"task": template})
    agent.reset(env, obs, info)
    dev = env.unwrapped.device
    frames = [frame(dev)]
    while True:
        obs, reward, term, trunc, info = env.step(agent.act(obs, info))
        frames.append(frame(dev))
        if term or trunc:
            break
    return {"frames": frames, "reward": float(reward), "state": shell_state(dev)}


#: a tour of what no task template walks through: home, drawer, search, recents, intents
TOUR = (
    ("swipe", (540, 1800, 540, 600)), ("text", "se"), ("key", "BACK"), ("key", "BACK"),
    ("key", "APP_SWITCH"), ("key", "BACK"),
    ("shell", "am start -a android.settings.WIFI_SETTINGS"),
    ("shell", "am start -a android.settings.DISPLAY_SETTINGS"), ("key", "BACK"),
    ("shell", "monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1"),
    ("shell", "am start -n net.gsantner.markor/.activity.MainActivity"),
    ("key", "APP_SWITCH"), ("key", "HOME"),
    ("shell", "am start -a android.settings.DEVICE_INFO_SETTINGS"), ("key", "HOME"),
    ("shell", "cmd uimode night yes"), ("key", "APP_SWITCH"), ("key", "HOME"),
)


def tour() -> dict:
    dev = SimDevice()
    frames = [frame(dev)]
    for kind, arg in TOUR:
        if kind == "swipe":
            dev.swipe(*arg)
        elif kind == "text":
            dev.type_text(arg)
        elif kind == "key":
            dev.key(arg)
        else:
            assert dev.shell(arg).ok, arg
        frames.append(frame(dev))
    return {"frames": frames, "state": shell_state(dev)}


def record() -> dict:
    env = gym.make("antrap/AndroidSim-Text-v0")
    runs = {f"{t}/{s}": oracle_run(env, t, s) for t in TEMPLATES for s in SEEDS}
    env.close()
    runs["tour"] = tour()
    return {"rasterizer": rasterizer(), "runs": runs}


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.fixture(scope="module")
def now() -> dict:
    return record()


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
    assert set(now["runs"]) == set(golden["runs"])
    diffs = _first_difference(golden, now, "elements") + _first_difference(golden, now, "xml")
    assert not diffs, diffs
    assert {k: r.get("reward") for k, r in now["runs"].items()} == \
        {k: r.get("reward") for k, r in golden["runs"].items()}


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
