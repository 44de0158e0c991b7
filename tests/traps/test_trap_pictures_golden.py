"""What the picture-changing traps show, pinned: the screenshot and the elements of a few
trapped steps of external_interruption (each style, a dark phone, every kind of action
while the pop-up is up), visual_hallucination (antonym, icon, flip) and
visual_obscuration (blur, patch, text mode), on the simulated phone (native overlays), on
a backend without overlays (`SimDevice(host_overlays=False)`: virtual overlays) and over
ADB (sim-adbd: virtual overlays, elements from `uiautomator dump`).

Recorded before overlays and repainting moved from the traps into the Device protocol;
moving code between layers must leave every pixel, element and event as it was. The
pixels depend on the bundled fonts and Pillow's rasteriser (tests/data records the
versions); where a change of behaviour is meant, rewrite the records and say why in the
commit:

    python -m tests.traps.test_trap_pictures_golden
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from antrap_gym.device.elements import parse_element_lines
from antrap_gym.device.sim import SimDevice
from antrap_gym.registration import make_env
from tests.paths import DATA

GOLDEN = DATA / "trap_pictures.json"


def at(step: int, **extra) -> dict:
    return {"steps": [step], "p": 0.0, **extra}


OPEN_SETTINGS = {"action_type": "open_app", "app_name": "Settings"}
WAIT = {"action_type": "wait", "seconds": 1}
#: click the pop-up's first button the agent can see (by its label or description)
BUTTON = "button"
POPUP_LABELS = ("Close ad", "Dismiss notification")
#: click the ad's close button once it shows (a wait until then)
CLOSE_AD = ("if shown", "Close ad")


def _popup(style: str, **extra) -> dict:
    return {"type": "external_interruption", **at(2), "styles": [style], **extra}


#: name -> (traps, task, seed, obs mode, actions, dark phone)
CASES: dict[str, tuple[list[dict], str, int, str, list[Any], bool]] = {
    **{f"interruption_{style}": ([_popup(style, countdown_p=0.0)], "SettingsBluetoothToggle", 3,
                                 "screenshot",
                                 [OPEN_SETTINGS, {"action_type": "click", "x": 540, "y": 2000},
                                  WAIT, BUTTON, WAIT], False)
       for style in ("permission", "dialog", "banner", "fullscreen_ad")},
    "interruption_ad_countdown": ([_popup("fullscreen_ad", countdown_p=1.0)],
                                  "SettingsBluetoothToggle", 0, "screenshot",
                                  [OPEN_SETTINGS, "{not json", WAIT, CLOSE_AD, WAIT, CLOSE_AD,
                                   WAIT, CLOSE_AD, WAIT], False),
    "interruption_dark_back": ([_popup("dialog")], "SettingsBluetoothToggle", 1, "screenshot",
                               [OPEN_SETTINGS, WAIT, {"action_type": "navigate_back"}, WAIT], True),
    # every kind of action while the pop-up is up (a virtual overlay swallows them all
    # but the press on a button; the simulated phone's window manager lets HOME through)
    "interruption_every_action": (
        [_popup("permission")], "SettingsBluetoothToggle", 2, "screenshot",
        [OPEN_SETTINGS,
         {"action_type": "long_press", "x": 540, "y": 1200},
         {"action_type": "input_text", "text": "hello", "x": 540, "y": 600},
         {"action_type": "scroll", "direction": "down"},
         {"action_type": "keyboard_enter"},
         {"action_type": "open_app", "app_name": "Contacts"},
         {"action_type": "click", "index": 999},
         "not an action",
         {"action_type": "navigate_home"},
         {"action_type": "double_tap", "x": 540, "y": 1300},
         BUTTON, WAIT], False),
    "interruption_text": ([_popup("dialog")], "SettingsBluetoothToggle", 4, "text",
                          [OPEN_SETTINGS, WAIT, BUTTON, WAIT], False),
    "hallucination_antonym": ([{"type": "visual_hallucination", **at(2), "modes": ["antonym"]}],
                              "ContactsAddContactWithEmail", 0, "screenshot",
                              [{"action_type": "open_app", "app_name": "Contacts"}, WAIT], False),
    "hallucination_icon": ([{"type": "visual_hallucination", **at(3), "modes": ["antonym"]}],
                           "ContactsEditPhone", 0, "screenshot",
                           [{"action_type": "open_app", "app_name": "Contacts"},
                            {"action_type": "click", "x": 613, "y": 1782}, WAIT], False),
    "hallucination_flip_switch": ([{"type": "visual_hallucination", **at(4), "modes": ["flip"]}],
                                  "SettingsWifiToggle", 0, "screenshot",
                                  [OPEN_SETTINGS, ("label", "Network & internet"),
                                   ("label", "Internet"), WAIT], False),
    "hallucination_flip_dark": ([{"type": "visual_hallucination", **at(4), "modes": ["flip"]}],
                                "MarkorEditNote", 0, "screenshot",
                                [{"action_type": "open_app", "app_name": "Markor"},
                                 ("label", "Sort by"), WAIT, WAIT], True),
    "obscuration_blur_key": ([{"type": "visual_obscuration", **at(2, duration=[2, 2]),
                               "targets": ["key_element"], "styles": ["blur"]}],
                             "SettingsBluetoothToggle", 0, "screenshot",
                             [OPEN_SETTINGS, WAIT, WAIT], False),
    "obscuration_patch_random": ([{"type": "visual_obscuration", **at(2),
                                   "targets": ["random_element"], "styles": ["patch"]}],
                                 "SettingsBluetoothToggle", 5, "screenshot",
                                 [OPEN_SETTINGS, WAIT], False),
    "obscuration_region_text": ([{"type": "visual_obscuration", **at(2), "targets": ["region"]}],
                                "SettingsBluetoothToggle", 1, "text", [OPEN_SETTINGS, WAIT], False),
    # over a pop-up, outer traps work on the pop-up's elements
    "popup_then_hallucination": ([_popup("dialog"), {"type": "visual_hallucination", **at(2)}],
                                 "SettingsBluetoothToggle", 2, "screenshot",
                                 [OPEN_SETTINGS, WAIT, BUTTON, WAIT], False),
    "popup_then_obscuration": ([_popup("dialog"),
                                {"type": "visual_obscuration", **at(2), "targets": ["random_element"],
                                 "hide_elements": True}],
                               "SettingsBluetoothToggle", 2, "screenshot",
                               [OPEN_SETTINGS, WAIT, BUTTON, WAIT], False),
}
#: backend -> the cases run on it
BACKENDS = {
    "sim": list(CASES),
    "virtual": list(CASES),
    "adb": ["interruption_dialog", "interruption_ad_countdown", "interruption_every_action",
            "hallucination_flip_switch", "obscuration_patch_random"],
}


def _digest(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()[:16]


def _resolve(action: Any, obs: dict[str, Any], events: list[dict]) -> Any:
    """A scripted action, with the pop-up's button or a label looked up on the screen shown."""
    if action == BUTTON:
        pops = [e for e in events if e["type"] == "external_interruption"]
        names = set(pops[-1]["params"]["buttons"] if pops else ()) | set(POPUP_LABELS)
        hit = next((e for e in parse_element_lines(obs["ui_elements"])
                    if e.is_clickable and e.label in names), None)
        if hit is None:
            return WAIT
        return {"action_type": "click", "x": hit.center[0], "y": hit.center[1]}
    if isinstance(action, tuple):
        el = next((e for e in parse_element_lines(obs["ui_elements"]) if e.label == action[1]),
                  None)
        if el is None and action[0] == "if shown":
            return WAIT
        return {"action_type": "click", "x": el.center[0], "y": el.center[1]}
    return action


def _look(obs: dict[str, Any]) -> dict[str, Any]:
    out = {"elements": _digest(obs["ui_elements"].encode()), "error": obs["last_action_error"]}
    if "screenshot" in obs:
        out["shot"] = _digest(obs["screenshot"].tobytes())
    return out


def play(case: str, device) -> dict[str, Any]:
    """Every observation of the case's script (digests) and the trap events at its end."""
    traps, task, seed, mode, script, dark = CASES[case]
    env = make_env(traps=traps, task=task, obs_mode=mode, device=device)
    obs, info = env.reset(seed=seed)
    if dark:
        env.unwrapped.device.shell("settings put secure ui_night_mode 2")
        obs = env.unwrapped.observe()
    looks = [_look(obs)]
    for action in script:
        obs, _, term, trunc, info = env.step(_resolve(action, obs, info["traps"]))
        looks.append(_look(obs))
        if term or trunc:
            break
    events = json.loads(json.dumps(info["traps"], default=str))
    return {"looks": looks, "events": events}


@contextlib.contextmanager
def backend(name: str, adb=None) -> Iterator[Any]:
    """A fresh device of a backend (a sim-adbd phone of its own over `adb`)."""
    if name == "sim":
        yield SimDevice()
    elif name == "virtual":
        yield SimDevice(host_overlays=False)
    else:
        from antrap_gym.device.adb import AdbDevice
        from antrap_gym.device.adbd import serve_in_thread

        handle = serve_in_thread(port=0, serial="GOLDEN01")
        try:
            adb.connect(handle.address)
            dev = AdbDevice(serial=handle.address, port=adb.port)
            yield dev
            dev.close()
        finally:
            adb.run("disconnect", handle.address, timeout=10)
            handle.close()


def _rendering() -> dict[str, str]:
    import PIL
    from PIL import features

    return {"pillow": PIL.__version__, "freetype": str(features.version("freetype2"))}


def _records() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


PARAMS = [pytest.param(b, c, id=f"{b}-{c}", marks=[pytest.mark.slow] if b == "adb" else [])
          for b, cases in BACKENDS.items() for c in cases]


@pytest.mark.parametrize("name,case", PARAMS)
def test_trapped_pictures_are_as_recorded(name, case, request):
    adb = request.getfixturevalue("adb") if name == "adb" else None
    want = _records()
    assert want["rendering"] == _rendering(), "another rasteriser: re-record (see the docstring)"
    with backend(name, adb) as device:
        got = play(case, device)
    rec = want["cases"][f"{name}/{case}"]
    assert got["events"] == rec["events"]
    for i, (g, r) in enumerate(zip(got["looks"], rec["looks"], strict=True)):
        assert g == r, f"step {i}"


def main() -> None:
    import tempfile

    from tests.adb_server import AdbServer

    with tempfile.TemporaryDirectory() as home:
        server = AdbServer(Path(home))
        server.run("start-server", check=True)
        try:
            out: dict[str, Any] = {}
            for name, cases in BACKENDS.items():
                for case in cases:
                    with backend(name, server) as device:
                        out[f"{name}/{case}"] = play(case, device)
                    print(name, case, file=sys.stderr)
        finally:
            server.run("kill-server", timeout=10)
    GOLDEN.write_text(json.dumps({"rendering": _rendering(), "cases": out}, indent=1,
                               sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
