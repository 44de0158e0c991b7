"""`AdbDevice` end to end: the env, the tasks, the traps and the harness over the stock
`adb` binary and adbutils, against the simulated phone served by sim-adbd.

The simulated adbd speaks the real device protocol, so every call here crosses a
real adb server and real sockets; the phone behind it is inspected directly to
check what actually arrived.
"""

from __future__ import annotations

import time

import gymnasium as gym
import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.device import DeviceLostError, make_device
from antrap_gym.device.adb import AdbDevice
from antrap_gym.device.adbd import AdbdHandle, serve_in_thread
from antrap_gym.env.registration import make_env
from antrap_gym.traps import TRAP_TYPES
from tasks import get_suite
from tests.adb_server import AdbServer

MINI = get_suite("antrap-mini").templates


@pytest.fixture(scope="module")
def phone(adb: AdbServer):
    handle = serve_in_thread(port=0, serial="SIMDEV01")
    try:
        adb.connect(handle.address)
        yield handle
    finally:
        adb.run("disconnect", handle.address, timeout=10)
        handle.close()


@pytest.fixture
def own_phone(adb: AdbServer):
    """A phone of its own (for tests that stop it or change it), connected."""
    handles: list[AdbdHandle] = []

    def make(serial: str) -> AdbdHandle:
        h = serve_in_thread(port=0, serial=serial)
        handles.append(h)
        adb.connect(h.address)
        return h

    yield make
    for h in handles:
        adb.run("disconnect", h.address, timeout=10)
        h.close()


def adb_device(adb: AdbServer, handle: AdbdHandle, **kw) -> AdbDevice:
    return AdbDevice(serial=handle.address, port=adb.port, **kw)


def run_oracle(env, task: str, seed: int) -> tuple[float, list, dict]:
    obs, info = env.reset(seed=seed, options={"task": task})
    agent = OracleAgent()
    agent.reset(env, obs, info)
    actions = []
    while True:
        action = agent.act(obs, info)
        actions.append(action)
        obs, reward, term, trunc, info = env.step(action)
        if term or trunc:
            return reward, actions, info


# --- tasks ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_oracle_solves_the_mini_suite_over_adb_exactly_as_on_the_simulator(adb, phone):
    dev = adb_device(adb, phone)
    over_adb = make_env(device=dev, suite="antrap-mini", obs_mode="text")
    local = make_env(suite="antrap-mini", obs_mode="text")
    for i, task in enumerate(MINI):
        r_adb, acts_adb, info = run_oracle(over_adb, task, seed=100 + i)
        r_sim, acts_sim, _ = run_oracle(local, task, seed=100 + i)
        assert r_adb == r_sim == 1.0, (task, info)
        assert acts_adb == acts_sim, task  # same screens, same elements, same decisions
    local.close()


def test_registered_adb_env_reaches_the_device_by_name(adb, phone):
    name = f"adb:127.0.0.1:{adb.port}/{phone.address}"
    env = gym.make("antrap/AndroidAdb-Text-v0", device=name, task="SettingsWifiToggle")
    assert env.spec.nondeterministic
    obs, info = env.reset(seed=3)
    assert "Wi" in obs["goal"] and obs["ui_elements"]
    before = phone.device.phone.settings.get("global", "wifi_on")
    obs, *_ = env.step({"action_type": "open_app", "app_name": "Settings"})
    assert obs["last_action_error"] == ""
    assert phone.device.foreground()[0] == "com.android.settings"
    assert phone.device.phone.settings.get("global", "wifi_on") == before
    env.close()


def test_screenshot_observations_match_the_phone(adb, phone):
    dev = adb_device(adb, phone)
    env = make_env(device=dev, task="SettingsBrightness")
    obs, _ = env.reset(seed=5)
    with phone.lock:
        expected = phone.device.screenshot()
    assert obs["screenshot"].shape == expected.shape
    assert (obs["screenshot"] == expected).all()


# --- traps ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("trap", TRAP_TYPES)
def test_every_trap_type_works_through_adb(adb, phone, trap):
    """A trap forced at step 2 fires over ADB, is logged, and the oracle still succeeds."""
    dev = adb_device(adb, phone)
    env = make_env(traps=[{"type": trap, "steps": [2], "p": 0.0}], device=dev,
                   suite="antrap-mini", obs_mode="screenshot")
    reward, actions, info = run_oracle(env, "SettingsWifiToggle", seed=11)
    events = env.unwrapped.trap_events
    assert any(e["type"] == trap for e in events), (trap, events)
    assert reward == 1.0, (trap, info, actions)


# --- hostile text -----------------------------------------------------------------------------

HOSTILE = [
    "$(touch /sdcard/pwned)",
    '"; reboot; "',
    "`touch /sdcard/pwned2` && echo hi > /sdcard/pwned3",
    "it's 100% \\n; rm -rf /sdcard; echo 'x' | sh %s",
    "tab\tand *glob* ?[a] ~ {a,b} #comment",
    "emoji 🎉 and ünïcödé",
    "RTL: שלום עולם مرحبا",
    "line one\nline two",
    "x" * 5000,
]


def open_editor(env) -> None:
    """Markor: a new note `n`, its editor focused."""
    env.step({"action_type": "open_app", "app_name": "Markor"})

    def click(**match) -> None:
        el = next(e for e in env.unwrapped.elements
                  if all(getattr(e, k) == v for k, v in match.items()))
        env.step({"action_type": "click", "x": el.center[0], "y": el.center[1]})

    click(content_description="Create a new file or folder")
    el = next(e for e in env.unwrapped.elements if e.is_editable)
    env.step({"action_type": "input_text", "text": "n", "x": el.center[0], "y": el.center[1]})
    if env.unwrapped.device.foreground()[1].endswith("MainActivity"):  # Enter did not submit
        click(text="OK")
    el = next(e for e in env.unwrapped.elements if e.is_editable)
    env.step({"action_type": "click", "x": el.center[0], "y": el.center[1]})


def editor_text(handle: AdbdHandle) -> str:
    with handle.lock:
        el = next(e for e in handle.device.ui_elements() if e.is_editable)
    return el.text or ""


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_arrives_exactly_and_nothing_else_runs(adb, own_phone, text):
    handle = own_phone("SIMTXT01")
    dev = adb_device(adb, handle)
    env = make_env(device=dev, task="MarkorCreateNote", obs_mode="text")
    env.reset(seed=1)
    open_editor(env)
    assert editor_text(handle) == ""
    log = handle.device.phone.shell_log
    log.clear()
    obs, *_ = env.step({"action_type": "input_text", "text": text})
    assert obs["last_action_error"] == ""
    assert editor_text(handle) == text + "\n"  # the env presses Enter after typing
    # every command that reached the phone's shell was a typing command
    allowed = ("input text ", "input keyevent ", "am broadcast -a ADB_INPUT_B64 ", "ime ",
               "settings get secure default_input_method", "uiautomator dump", "dumpsys window")
    assert log and all(cmd.startswith(allowed) for cmd in log), list(log)
    fs = handle.device.phone.fs
    for path in ("/sdcard/pwned", "/sdcard/pwned2", "/sdcard/pwned3"):
        assert not fs.exists(path)
    assert fs.exists("/sdcard/Documents")  # nothing was removed
    assert handle.running


def test_text_that_needs_the_ime_is_refused_clearly_without_it(adb, own_phone):
    handle = own_phone("SIMTXT02")
    handle.device.phone.input_methods.remove("com.android.adbkeyboard/.AdbIME")
    env = make_env(device=adb_device(adb, handle), task="MarkorCreateNote", obs_mode="text")
    env.reset(seed=1)
    open_editor(env)
    obs, reward, term, trunc, info = env.step({"action_type": "input_text", "text": "café 🎉"})
    assert "ADBKeyboard" in obs["last_action_error"]
    assert not (term or trunc)
    assert editor_text(handle) == ""  # nothing half-typed
    obs, *_ = env.step({"action_type": "input_text", "text": "cafe"})  # ASCII still works
    assert obs["last_action_error"] == "" and editor_text(handle) == "cafe\n"


# --- faults -----------------------------------------------------------------------------------


def test_a_lost_phone_truncates_the_episode_with_a_typed_error_in_bounded_time(adb, own_phone):
    handle = own_phone("SIMLOST1")
    dev = adb_device(adb, handle, timeout_s=2.0, retries=1)
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    env.step({"action_type": "open_app", "app_name": "Settings"})
    handle.stop()
    t0 = time.monotonic()
    obs, reward, term, trunc, info = env.step({"action_type": "navigate_home"})
    elapsed = time.monotonic() - t0
    assert trunc and not term and reward == 0.0
    assert info["error"].startswith("DeviceLostError"), info
    assert elapsed < 30, elapsed
    # the phone comes back: the next episode reconnects
    handle.restart()
    obs, info = env.reset(seed=3)
    assert obs["ui_elements"]
    obs, reward, term, trunc, info = env.step({"action_type": "open_app", "app_name": "Settings"})
    assert not trunc and obs["last_action_error"] == ""


def test_a_frozen_phone_times_out_instead_of_hanging(adb, own_phone):
    handle = own_phone("SIMFRZ01")
    dev = adb_device(adb, handle, timeout_s=1.5, retries=0)
    dev.shell("echo warm")
    handle.freeze()
    try:
        t0 = time.monotonic()
        with pytest.raises(DeviceLostError):
            dev.shell("echo hi")
        assert time.monotonic() - t0 < 15
    finally:
        handle.thaw()


def test_device_names(adb, phone):
    dev = make_device(f"adb:127.0.0.1:{adb.port}/{phone.address}")
    assert isinstance(dev, AdbDevice) and dev.port == adb.port and dev.serial == phone.address
    assert dev.screen_size == phone.device.screen_size
    assert set(dev.app_packages()) == {"settings", "contacts", "markor"}
    trips = dev.round_trips
    dev.ui_elements()
    assert dev.round_trips == trips + 1  # one dump per observation


@pytest.mark.slow
def test_an_eval_run_goes_on_when_its_phone_drops_out_and_comes_back(adb, own_phone, tmp_path):
    import threading

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    handle = own_phone("SIMEVAL1")
    name = f"adb:127.0.0.1:{adb.port}/{handle.address}"
    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none", variants=2,
                     devices=[name], screens="none")
    out = tmp_path / "run"
    done: dict = {}
    runner = threading.Thread(target=lambda: done.update(
        summary=evaluate(cfg, out, workers=1, progress=False, artifacts=False)))
    runner.start()
    episodes = out / "episodes.jsonl"
    deadline = time.monotonic() + 120
    while not (episodes.exists() and episodes.read_text().count("\n") >= 2):
        assert time.monotonic() < deadline, "the first episodes never finished"
        time.sleep(0.05)
    handle.stop()  # the phone drops out mid-run, longer than the reconnect attempts
    time.sleep(4)
    handle.restart()
    runner.join(300)
    assert not runner.is_alive()
    import json

    rows = [json.loads(line) for line in episodes.read_text().splitlines()]
    assert len(rows) == 12  # every episode has a record: the run went on
    failed = [i for i, r in enumerate(rows) if r.get("error")]
    assert failed, "no episode saw the device loss"
    assert any("DeviceLostError" in rows[i]["error"] for i in failed)
    assert all(r["success"] == 1.0 for r in rows[failed[-1] + 1:]) and failed[-1] < len(rows) - 1
    assert done["summary"]["agents"]
