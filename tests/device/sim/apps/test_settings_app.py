"""The Settings app on the simulated phone, and its tasks.

UI flows go through the device's public interface (taps, swipes, the element
list) and are checked through `settings get` / `getprop`, as a task would on a
real phone; set-up must go through the shell alone and through the commands
that take effect on a real phone (svc, cmd), not raw `settings put` of radio
keys.
"""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import antrap_gym  # noqa: F401  (registers the envs)
import antrap_gym.tasks.settings_tasks as stt
from antrap_gym.agents import OracleAgent
from antrap_gym.device.protocol import ShellResult
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.base import TaskError
from antrap_gym.tasks.registry import TEMPLATES
from antrap_gym.tasks.steps import Tap
from tests.screen import find, texts

PKG = "com.android.settings"
SETTINGS_TEMPLATES = sorted(t for t in TEMPLATES if t.startswith("Settings"))
TOGGLES = sorted(t for t in SETTINGS_TEMPLATES if getattr(TEMPLATES[t], "toggle", None))
QUESTIONS = sorted(t for t in SETTINGS_TEMPLATES if TEMPLATES[t].answer_task)


# --- helpers -------------------------------------------------------------------------------------


def scroll_and_tap(dev: SimDevice, text: str | None = None, desc: str | None = None) -> None:
    for _ in range(6):  # scroll down to it when it is below the fold
        e = find(dev, text, desc)
        if e is not None:
            dev.tap(*e.center)
            return
        dev.swipe(540, 1800, 540, 900)
    raise AssertionError(f"no element text={text!r} desc={desc!r}: {texts(dev)}")


def switch_in_row(dev: SimDevice, label: str):
    """The Switch sharing a list row with the title `label`."""
    title = find(dev, label)
    assert title is not None, (label, texts(dev))
    switches = [e for e in dev.ui_elements() if (e.class_name or "").endswith("Switch")]
    return min(switches, key=lambda e: abs(e.center[1] - title.center[1]))


def get(dev: SimDevice, ns: str, key: str) -> str:
    return dev.shell(f"settings get {ns} {key}").stdout.strip()


class ShellOnly:
    """A device that offers nothing but `shell` and logs every command."""

    def __init__(self, inner: SimDevice) -> None:
        self.inner = inner
        self.log: list[str] = []

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        self.log.append(cmd)
        return self.inner.shell(cmd)


def make(tid: str, seed: int = 0):
    cls = TEMPLATES[tid]
    return cls(cls.generate_params(np.random.default_rng(seed)))


# --- the brief ---------------------------------------------------------------------------------------


def test_templates_cover_the_brief():
    assert len(SETTINGS_TEMPLATES) >= 10
    assert len(QUESTIONS) >= 3
    assert sum(TEMPLATES[t].needs_scroll for t in SETTINGS_TEMPLATES) >= 2
    for t in SETTINGS_TEMPLATES:
        c = TEMPLATES[t]
        assert c.apps == (PKG,)
        a = c.generate_params(np.random.default_rng(3))
        assert a == c.generate_params(np.random.default_rng(3))  # seeded
        assert "{" not in c(a).goal


@pytest.mark.parametrize("tid", SETTINGS_TEMPLATES)
def test_setup_is_shell_only_and_not_yet_solved(tid):
    for s in range(4):
        task = make(tid, s)
        d = SimDevice()
        dev = ShellOnly(d)
        task.setup(dev)  # an AttributeError here would mean set-up used more than shell
        assert dev.log, tid
        if task.answer_task:
            right = task.solution()[-1].text
            assert task.is_successful(dev, right) == 1.0
            assert task.is_successful(dev, "I don't know") == 0.0
            assert task.is_successful(dev, None) == 0.0
        else:
            assert task.is_successful(dev) == 0.0, (tid, s, task.params)


@pytest.mark.parametrize("tid", TOGGLES)
def test_toggle_setup_goes_through_the_service_not_settings_put(tid):
    """On a real phone `settings put global wifi_on 0` leaves the radio on: set-up must use
    the service command, then the check's key must have followed."""
    cls = TEMPLATES[tid]
    sw = cls.toggle
    for state in ("on", "off"):
        task = cls({"state": state})
        d = SimDevice()
        dev = ShellOnly(d)
        task.setup(dev)
        if not sw.command.startswith("settings put"):
            assert not any(c.startswith(f"settings put {sw.namespace} {sw.key}") for c in dev.log)
        assert sw.command_for(state == "off") in dev.log
        assert sw.is_on(d) == (state == "off")
        assert d.phone.clock_ms == SimDevice().phone.clock_ms  # no waiting on the simulated phone


def test_radio_setup_commands_are_the_real_ones():
    expect = {
        "SettingsWifiToggle": ("svc wifi enable", "svc wifi disable"),
        "SettingsBluetoothToggle": ("svc bluetooth enable", "svc bluetooth disable"),
        "SettingsAirplaneMode": ("cmd connectivity airplane-mode enable",
                                 "cmd connectivity airplane-mode disable"),
        "SettingsDarkTheme": ("cmd uimode night yes", "cmd uimode night no"),
    }
    for tid, (on, off) in expect.items():
        sw = TEMPLATES[tid].toggle
        assert (sw.command_for(True), sw.command_for(False)) == (on, off)


def test_setup_fails_loudly_when_the_key_never_follows():
    class Stuck(ShellOnly):
        def shell(self, cmd, timeout=None):
            if cmd.startswith("svc wifi"):
                return ShellResult()  # accepted, but nothing happens
            return super().shell(cmd)

    task = stt.SettingsWifiToggle({"state": "on"})  # starts off: wifi_on must become 0
    with pytest.raises(TaskError, match="wifi_on"):
        task.setup(Stuck(SimDevice()))


def test_ring_volume_setup_through_audio_service_and_real_key():
    for level in range(8):
        task = stt.SettingsRingVolume({"level": level})
        d = SimDevice()
        dev = ShellOnly(d)
        task.setup(dev)
        assert any(c.startswith("cmd media_session volume --stream 2 --set") for c in dev.log)
        assert not any(c.startswith("settings put") for c in dev.log)
        assert get(d, "system", "volume_ring_speaker") != str(level)
        assert get(d, "system", "volume_ring") == "null"
        assert task.is_successful(d) == 0.0
        d.shell(f"cmd media_session volume --stream 2 --set {level}")
        assert task.is_successful(d) == 1.0


# --- scroll tasks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tid", [t for t in SETTINGS_TEMPLATES if TEMPLATES[t].needs_scroll])
def test_scroll_tasks_start_with_the_target_below_the_fold(tid):
    task = make(tid)
    d = SimDevice()
    task.setup(d)
    d.launch(PKG)
    first = next(s for s in task.solution() if isinstance(s, Tap))
    label = first.target.text
    assert label and find(d, label) is None, (tid, label, texts(d))
    for _ in range(6):
        d.swipe(540, 1800, 540, 900)
        if find(d, label) is not None:
            break
    assert find(d, label) is not None, (tid, label)  # reachable by scrolling


# --- switches and sliders are backed by the keys a phone uses ------------------------------------


@pytest.mark.parametrize("tid", TOGGLES)
def test_each_switch_is_backed_by_its_settings_key(tid):
    cls = TEMPLATES[tid]
    t = cls.toggle
    task = cls({"state": "on"})
    d = SimDevice()
    task.setup(d)  # starts off
    d.launch(PKG)
    for row, _screen in t.path:
        scroll_and_tap(d, row)
    for _ in range(6):
        if find(d, t.switch) is not None:
            break
        d.swipe(540, 1800, 540, 900)
    sw = switch_in_row(d, t.switch)
    assert not sw.is_checked and not t.is_on(d)
    d.tap(*sw.center)
    assert t.is_on(d) and task.is_successful(d) == 1.0
    assert switch_in_row(d, t.switch).is_checked
    # the other way: the service command moves the switch the screen shows
    d.shell(t.command_for(False))
    assert not switch_in_row(d, t.switch).is_checked
    d.tap(*switch_in_row(d, t.switch).center)
    assert get(d, t.namespace, t.key) in t.on_values


def test_wifi_switch_inside_airplane_mode_writes_the_override_value():
    d = SimDevice()
    d.shell("cmd connectivity airplane-mode enable")
    assert get(d, "global", "wifi_on") == "3"  # off because of airplane mode
    d.launch(PKG)
    scroll_and_tap(d, "Network & internet")
    assert switch_in_row(d, "Airplane mode").is_checked
    scroll_and_tap(d, "Internet")
    sw = switch_in_row(d, "Wi-Fi")
    assert not sw.is_checked
    d.tap(*sw.center)
    assert get(d, "global", "wifi_on") == "2"
    assert stt.SettingsWifiToggle({"state": "on"}).is_successful(d) == 1.0
    d.key("KEYCODE_BACK")
    d.tap(*switch_in_row(d, "Airplane mode").center)
    assert (get(d, "global", "airplane_mode_on"), get(d, "global", "wifi_on")) == ("0", "1")


SLIDERS = [  # (screen row, slider label, key, lo, hi)
    ("Display", "Brightness level", "screen_brightness", 1, 255),  # 1: the display's minimum
    ("Sound & vibration", "Media volume", "volume_music_speaker", 0, 15),
    ("Sound & vibration", "Call volume", "volume_voice_earpiece", 1, 5),
    ("Sound & vibration", "Ring & notification volume", "volume_ring_speaker", 0, 7),
    ("Sound & vibration", "Alarm volume", "volume_alarm_speaker", 1, 7),
]


@pytest.mark.parametrize("row, label, key, lo, hi", SLIDERS)
def test_each_slider_is_backed_by_its_settings_key(row, label, key, lo, hi):
    d = SimDevice()
    d.launch(PKG)
    scroll_and_tap(d, row)
    sl = find(d, desc=label)
    b = sl.bbox_pixels
    d.swipe(b.center[0], b.center[1], b.x_max + 50, b.center[1])  # drag to the end
    assert get(d, "system", key) == str(hi)
    d.tap(b.x_min, b.center[1])
    assert get(d, "system", key) == str(lo)
    mid = round(lo + (hi - lo) / 2)
    d.tap(b.x_min + (b.x_max - b.x_min) * (mid - lo) / (hi - lo), b.center[1])
    assert abs(int(get(d, "system", key)) - mid) <= 1
    # and the slider shows what the key holds
    d.shell(f"settings put system {key} {hi}")
    shown = f"{round(100 * hi / 255)}%" if key == "screen_brightness" else f"{hi} of {hi}"
    assert shown in texts(d)


def test_screen_timeout_and_device_name_are_backed_by_their_keys():
    d = SimDevice()
    d.launch(PKG)
    scroll_and_tap(d, "Display")
    scroll_and_tap(d, "Screen timeout")
    scroll_and_tap(d, "2 minutes")
    assert get(d, "system", "screen_off_timeout") == "120000"
    assert "After 2 minutes of inactivity" in texts(d)
    d.shell("settings put system screen_off_timeout 15000")
    assert "After 15 seconds of inactivity" in texts(d)
    d.key("KEYCODE_BACK")
    scroll_and_tap(d, "About phone")
    scroll_and_tap(d, "Device name")
    field = next(e for e in d.ui_elements() if e.is_editable)
    d.tap(*field.center)
    d.clear_text()
    d.type_text("Lab Device")
    scroll_and_tap(d, "OK")
    assert get(d, "global", "device_name") == "Lab Device"
    assert "Lab Device" in texts(d)


# --- questions: the phone's own values, answerable from the screen ---------------------------------


def test_about_screen_and_prop_questions_follow_getprop():
    d = SimDevice()
    d.phone.prop_overrides = {"ro.build.display.id": "UQ1A.240105.004",
                              "ro.build.version.release": "14"}
    for tid, value in (("SettingsBuildNumber", "UQ1A.240105.004"), ("SettingsAndroidVersion", "14")):
        task = make(tid)
        task.setup(ShellOnly(d))
        assert task.expected() == value
        assert task.solution()[-1].text == value
        assert task.is_successful(d, value) == 1.0
        assert task.is_successful(d, {"SettingsBuildNumber": "TQ3A.230805.001",
                                      "SettingsAndroidVersion": "13"}[tid]) == 0.0
    d.launch(PKG)
    scroll_and_tap(d, "About phone")
    assert "UQ1A.240105.004" in texts(d) and "14" in texts(d)
    assert "TQ3A.230805.001" not in texts(d)


def test_prop_question_needs_setup_before_its_solution():
    with pytest.raises(TaskError):
        make("SettingsBuildNumber").solution()


def run_oracle(env, agent, tid: str, seed: int):
    """Runs the oracle; returns (reward, errors, the elements when it answered)."""
    obs, info = env.reset(seed=seed, options={"task": tid})
    agent.reset(env, obs, info)
    errors, shown = [], None
    while True:
        action = agent.act(obs, info)
        if action["action_type"] == "answer":
            shown = [e.text or "" for e in env.unwrapped.elements]
        obs, r, term, trunc, info = env.step(action)
        if obs["last_action_error"]:
            errors.append(obs["last_action_error"])
        if term or trunc:
            return r, errors, shown


@pytest.mark.parametrize("tid", QUESTIONS)
def test_oracle_answers_what_the_screen_shows(tid):
    env = gym.make("antrap/AndroidSim-Text-v0")
    agent = OracleAgent()
    for seed in range(8):
        r, errors, shown = run_oracle(env, agent, tid, seed)
        task = env.unwrapped.task
        assert r == 1.0 and not errors, (tid, seed, errors)
        assert shown is not None
        want = task.expected(env.unwrapped.device)
        if task.answer_kind == "duration":
            assert f"After {want} of inactivity" in shown, (tid, seed, shown)
        else:
            assert want in shown, (tid, seed, want, shown)
        # and the answer is a value of that screen, not the question's echo
        assert not re.search(re.escape(want), task.goal)
    env.close()
