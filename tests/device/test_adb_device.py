"""`AdbDevice` end to end: the env, the tasks, the traps and the harness over the stock
`adb` binary and adbutils, against the simulated phone served by sim-adbd.

The simulated adbd speaks the real device protocol, so every call here crosses a
real adb server and real sockets; the phone behind it is inspected directly to
check what actually arrived.
"""

from __future__ import annotations

import os
import signal
import stat
import threading
import time
from pathlib import Path

import gymnasium as gym
import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.device import DeviceError, DeviceLostError, make_device
from antrap_gym.device.adb import TEXT_CHUNK, AdbDevice, _input_problem, device_names, resendable
from antrap_gym.device.adbd import AdbdHandle, serve_in_thread
from antrap_gym.device.adbd.protocol import A_OKAY
from antrap_gym.eval import load_records
from antrap_gym.registration import make_env
from antrap_gym.tasks import get_suite
from antrap_gym.traps import TRAP_TYPES
from tests.adb_server import AdbServer, LinkProxy, adb_server, connected_phone, phone_maker

MINI = get_suite("antrap-mini").templates


@pytest.fixture(scope="module")
def phone(adb: AdbServer):
    yield from connected_phone(adb, "SIMDEV01")


@pytest.fixture
def own_phone(adb: AdbServer):
    """A phone of its own (for tests that stop it or change it), connected."""
    yield from phone_maker(adb)


@pytest.fixture
def linked_phone(adb: AdbServer):
    """A phone the adb server reaches through a `LinkProxy` (a link the test can cut and
    restore while the phone keeps running), connected by the proxy's address."""
    made: list[tuple[AdbdHandle, LinkProxy]] = []

    def make(serial: str) -> tuple[AdbdHandle, LinkProxy]:
        h = serve_in_thread(port=0, serial=serial)
        link = LinkProxy((h.host, h.port))
        made.append((h, link))
        adb.connect(link.address)
        return h, link

    yield make
    for h, link in made:
        adb.run("disconnect", link.address, timeout=10)
        link.close()
        h.close()


@pytest.fixture
def own_adb(tmp_path_factory):
    """A private adb server of its own (for tests that kill and restart it)."""
    yield from adb_server(tmp_path_factory)


def adb_device(adb: AdbServer, handle: AdbdHandle, **kw) -> AdbDevice:
    return AdbDevice(serial=handle.address, port=adb.port, **kw)


def lost_bound(dev: AdbDevice, slack_s: float = 3.0) -> float:
    """How long giving up on a dead phone may take: the retry window, plus the timeout of the
    attempt that began last in it, plus a generous margin (a loose upper bound)."""
    return dev.retry_window_s + dev.timeout_s + slack_s


def once(handle: AdbdHandle, when, then) -> threading.Event:
    """Run `then(cmd)` inside the phone, the first time a shell command matches `when(cmd)`
    (in sim-adbd's worker thread, before the command runs). Returns an event set when fired."""
    fired = threading.Event()

    def hook(cmd: str) -> None:
        if not fired.is_set() and when(cmd):
            fired.set()
            then(cmd)

    handle.device.faults.before_shell = hook
    return fired


def count(log, prefix: str) -> int:
    return sum(1 for cmd in log if cmd.startswith(prefix))


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
    "$(touch /tmp/pwned)",  # the issue's own example, verbatim
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
    host_pwned = Path("/tmp/pwned")
    host_before = host_pwned.stat() if host_pwned.exists() else None  # not ours to remove
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
    assert not any(cmd.split()[0] in ("touch", "reboot", "rm", "sh", "echo") for cmd in log), list(log)
    fs = handle.device.phone.fs
    for path in ("/tmp/pwned", "/sdcard/pwned", "/sdcard/pwned2", "/sdcard/pwned3"):
        assert not fs.exists(path)
    # nor did anything on the way (adb, its server, our own process) run it on the host
    host_after = host_pwned.stat() if host_pwned.exists() else None
    assert host_after == host_before, "/tmp/pwned appeared or changed on the host"
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
    dev = adb_device(adb, handle, timeout_s=2.0, retry_window_s=1.0)
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    env.step({"action_type": "open_app", "app_name": "Settings"})
    handle.stop()
    t0 = time.monotonic()
    obs, reward, term, trunc, info = env.step({"action_type": "navigate_home"})
    elapsed = time.monotonic() - t0
    assert trunc and not term and reward == 0.0
    assert info["error"].startswith("DeviceLostError"), info
    assert info["error_stage"] == "action" and obs["ui_elements"] == ""
    # the configured bound: every attempt may use its timeout, plus the back-off between them
    assert elapsed < lost_bound(dev), (elapsed, lost_bound(dev))
    # the phone comes back: the next episode reconnects
    handle.restart()
    obs, info = env.reset(seed=3)
    assert obs["ui_elements"]
    obs, reward, term, trunc, info = env.step({"action_type": "open_app", "app_name": "Settings"})
    assert not trunc and obs["last_action_error"] == ""


def test_a_frozen_phone_times_out_instead_of_hanging(adb, own_phone):
    handle = own_phone("SIMFRZ01")
    dev = adb_device(adb, handle, timeout_s=1.5, retry_window_s=0.0)
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
    # the known apps the device has installed (KNOWN_APPS by package), by their names
    from antrap_gym.device.protocol import KNOWN_APPS
    installed = set(phone.device.phone.apps)
    assert set(dev.app_packages()) == {n for n, pkg in KNOWN_APPS.items() if pkg in installed}
    assert {"settings", "contacts", "markor", "simple calendar pro", "broccoli"} <= set(dev.app_packages())
    trips = dev.round_trips
    dev.ui_elements()
    assert dev.round_trips == trips + 1  # one dump per observation


@pytest.mark.slow
def test_an_eval_run_goes_on_when_its_phone_drops_out_and_comes_back(adb, own_phone, tmp_path):
    import threading

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    handle = own_phone("SIMEVAL1")
    name = f"adb:127.0.0.1:{adb.port}/{handle.address}?retry_window=1"  # gives up after 1 s
    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none", variants=2,
                     devices=[name], screens="none")
    out = tmp_path / "run"
    done: dict = {}
    runner = threading.Thread(target=lambda: done.update(
        summary=evaluate(cfg, out, workers=1, progress=False, artifacts=False)))
    runner.start()
    episodes = out / "episodes.jsonl.gz"
    deadline = time.monotonic() + 120
    while not (episodes.exists() and len(load_records(episodes)) >= 2):
        assert time.monotonic() < deadline, "the first episodes never finished"
        time.sleep(0.05)
    handle.stop()  # the phone drops out mid-run, for longer than its retry window
    time.sleep(4)
    handle.restart()
    runner.join(300)
    assert not runner.is_alive()
    rows = load_records(episodes)
    assert len(rows) == 12  # every episode has a record: the run went on
    failed = [i for i, r in enumerate(rows) if r.get("error")]
    assert failed, "no episode saw the device loss"
    assert any("DeviceLostError" in rows[i]["error"] for i in failed)
    assert all(r["success"] == 1.0 for r in rows[failed[-1] + 1:]) and failed[-1] < len(rows) - 1
    assert done["summary"]["agents"]


# --- ADBKeyboard: what a real phone prints, and long text ----------------------------------


def test_the_simulated_am_broadcast_prints_what_android_13_prints(dev):
    """ADBKeyboard never sets a result code: a real phone says `result=0`, typed or not."""
    dev.phone.settings.put("secure", "default_input_method", "com.android.adbkeyboard/.AdbIME")
    out = dev.shell("am broadcast -a ADB_INPUT_B64 --es msg aMOp").stdout  # "hé"
    assert out == ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n"
                   "Broadcast completed: result=0\n")
    assert dev.shell("am broadcast -a some.OTHER").stdout == (
        "Broadcasting: Intent { act=some.OTHER flg=0x400000 }\nBroadcast completed: result=0\n")


@pytest.mark.parametrize("output, ok", [
    ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n"
     "Broadcast completed: result=0\n", True),                        # the stock ADBKeyboard
    ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n"
     "Broadcast completed: result=-1\n", True),                       # forks that set RESULT_OK
    ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n", False),  # cut short
    ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n"
     "Exception occurred while executing 'broadcast':\njava.lang.SecurityException: nope\n", False),
])
def test_what_counts_as_a_completed_broadcast(output, ok):
    from antrap_gym.device import ShellResult

    assert (_input_problem(ShellResult(output, "", 0), broadcasts=1) == "") is ok


def test_long_non_ascii_text_arrives_exactly_in_one_round_trip(adb, own_phone):
    """Over 1,000 characters (several ADBKeyboard chunks) of accents, emoji and RTL text."""
    handle = own_phone("SIMTXT03")
    dev = adb_device(adb, handle)
    env = make_env(device=dev, task="MarkorCreateNote", obs_mode="text")
    env.reset(seed=1)
    open_editor(env)
    text = "".join(f"{i:04d} héllo wörld 🎉 שלום مرحبا — ünïcödé\n" for i in range(60))  # 2,520 chars
    assert len(text) > 2 * TEXT_CHUNK
    assert dev._adb_keyboard()  # found and switched to once per device (4 round trips)
    log = handle.device.phone.shell_log
    log.clear()
    trips = dev.round_trips
    obs, *_ = env.step({"action_type": "input_text", "text": text})
    assert obs["last_action_error"] == ""
    assert editor_text(handle) == text  # its last newline is the Enter input_text presses
    chunks = -(-(len(text) - 1) // TEXT_CHUNK)
    assert count(log, "am broadcast -a ADB_INPUT_B64") == chunks  # each chunk typed once
    assert dev.round_trips - trips == 2  # the typing (all chunks + Enter) and the observation


# --- timeouts: never re-send what may have run -------------------------------------------------


def slow(seconds: float, prefix: str):
    """A hook that makes commands starting with `prefix` take `seconds` on the phone."""
    def hook(cmd: str) -> None:
        if cmd.startswith(prefix):
            time.sleep(seconds)
    return hook


def wait_for(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def test_a_tap_that_times_out_is_not_sent_again(adb, own_phone):
    handle = own_phone("SIMSLOW1")
    dev = adb_device(adb, handle, timeout_s=1.0)
    dev.shell("echo warm")
    log = handle.device.phone.shell_log
    handle.device.faults.before_shell = slow(2.5, "input tap")
    t0 = time.monotonic()
    with pytest.raises(DeviceLostError, match="not re-sent"):
        dev.tap(10, 20)
    assert time.monotonic() - t0 < 2.0  # gave up at the first timeout, no retries
    wait_for(lambda: count(log, "input tap 10 20") >= 1)  # the slow phone did tap, late
    time.sleep(3.0)  # long enough for any re-sent copy to have arrived
    assert count(log, "input tap 10 20") == 1


def test_a_read_that_times_out_is_read_again(adb, own_phone):
    handle = own_phone("SIMSLOW2")
    dev = adb_device(adb, handle, timeout_s=1.0)
    dev.shell("echo warm")
    slow_once = once(handle, lambda c: c.startswith("getprop"), lambda c: time.sleep(1.5))
    assert dev.shell("getprop ro.product.model").stdout == "Pixel 6\n"
    assert slow_once.is_set()
    assert count(handle.device.phone.shell_log, "getprop ro.product.model") == 2


def test_long_typing_gets_a_timeout_that_grows_with_the_text(adb, own_phone):
    """A phone that types slowly: 3,000 characters take longer than the base timeout, yet
    arrive exactly once."""
    handle = own_phone("SIMSLOW3")
    dev = adb_device(adb, handle, timeout_s=1.5)
    env = make_env(device=dev, task="MarkorCreateNote", obs_mode="text")
    env.reset(seed=1)
    open_editor(env)
    log = handle.device.phone.shell_log
    log.clear()
    handle.device.faults.before_shell = slow(2.5, "input text")
    text = "".join(f"line-{i:05d} " for i in range(250))  # 3,000 ASCII characters
    t0 = time.monotonic()
    obs, reward, term, trunc, info = env.step({"action_type": "input_text", "text": text})
    assert not trunc and obs["last_action_error"] == "", info.get("error")
    assert time.monotonic() - t0 > 2.5  # it really was slower than the base timeout
    assert editor_text(handle) == text + "\n"
    assert count(log, "input text ") == 3  # three chunks, each once


def test_resendable_commands():
    for cmd in ("uiautomator dump /dev/tty", "screencap", "settings get global wifi_on",
                "dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'",
                "input keyevent KEYCODE_HOME" if False else "am force-stop com.android.settings",
                "settings put global wifi_on 0 && svc wifi disable", "cat '/sdcard/a;b'"):
        assert resendable(cmd), cmd
    for cmd in ("input tap 1 2", "input text 'hi'", "am start -n a/.B", "monkey -p a 1",
                "content insert --uri content://x --bind a:s:b", "am broadcast -a ADB_INPUT_B64",
                "settings get global x; input tap 1 1", "echo x >> /sdcard/log",
                "echo $(input tap 1 1)", "sqlite3 /data/x.db 'DELETE FROM t'", "cat 'unbalanced"):
        assert not resendable(cmd), cmd


# --- uiautomator and screencap -------------------------------------------------------------


def test_a_busy_phone_dump_is_retried_then_fails_clearly(adb, own_phone):
    handle = own_phone("SIMDUMP1")
    dev = adb_device(adb, handle)
    log = handle.device.phone.shell_log
    log.clear()
    handle.device.faults.dump_idle_failures = 2  # the next two dumps: "could not get idle state"
    assert dev.ui_elements()  # the third attempt works
    assert count(log, "uiautomator dump") == 3 and handle.device.faults.dump_idle_failures == 0
    handle.device.faults.dump_idle_failures = 3
    with pytest.raises(DeviceError, match="uiautomator dump failed 3 times: ERROR: could not get idle"):
        dev.ui_elements()
    # through the env: the step is truncated with the reason
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    handle.device.faults.dump_idle_failures = 3
    obs, reward, term, trunc, info = env.step({"action_type": "navigate_home"})
    assert trunc and not term and "could not get idle state" in info["error"]
    assert info["error"].startswith("DeviceError") and info["error_stage"] == "observation"


def test_screenshots_use_raw_screencap(adb, own_phone):
    handle = own_phone("SIMSHOT1")
    dev = adb_device(adb, handle)
    log = handle.device.phone.shell_log
    log.clear()
    shot = dev.screenshot()
    with handle.lock:
        assert (shot == handle.device.screenshot()).all()
    assert list(log) == ["screencap"]  # raw RGBA, no `-p` (PNG) fallback


# --- launching, drops ----------------------------------------------------------------------


def test_am_start_by_component_over_adb(adb, own_phone):
    handle = own_phone("SIMSTART")
    dev = adb_device(adb, handle)
    r = dev.launch("com.android.settings", ".Settings$NetworkDashboardActivity")
    assert r.ok, r
    assert "am start -n 'com.android.settings/.Settings$NetworkDashboardActivity'" in \
        handle.device.phone.shell_log  # one argument, quoted (it holds a `$`)
    pkg, activity = handle.device.foreground()
    assert pkg == "com.android.settings" and activity.endswith(".Settings$NetworkDashboardActivity")
    assert dev.foreground() == (pkg, activity)
    r = dev.launch("com.android.settings", ".NoSuchActivity")
    assert not r.ok and "does not exist" in r.stderr


def test_a_drop_of_five_seconds_is_ridden_out(adb, own_phone):
    """The phone is gone (the adb server already says offline) when a tap is due, and back 5 s
    later: the tap waits for it, arrives once, and the call never fails."""
    handle = own_phone("SIMDROP1")
    dev = adb_device(adb, handle, timeout_s=3.0)  # the default 30 s retry window
    dev.shell("echo warm")
    handle.stop()
    adb.wait_state(handle.address, "offline")  # the tap cannot have reached the phone
    back = threading.Timer(5.0, handle.restart)
    back.start()
    try:
        assert dev.tap(10, 20).ok  # no DeviceLostError: re-dialled once the phone was back
    finally:
        back.join()
    assert count(handle.device.phone.shell_log, "input tap 10 20") == 1
    assert adb.state(handle.address) == "device"


def test_the_phone_is_dialled_again_after_the_adb_server_restarts(own_adb):
    """An adb server that restarts forgets every `adb connect`ed phone: AdbDevice dials it
    again by itself while it retries, and the tap arrives once."""
    handle = serve_in_thread(port=0, serial="SIMSRV01")
    try:
        own_adb.connect(handle.address)
        dev = AdbDevice(serial=handle.address, port=own_adb.port, timeout_s=3.0)
        dev.shell("echo warm")
        own_adb.run("kill-server", check=True, timeout=10)
        wait_for(lambda: not own_adb.server_pids())
        back = threading.Timer(3.0, own_adb.run, args=("start-server",), kwargs={"check": True})
        back.start()
        try:
            assert dev.tap(10, 20).ok
        finally:
            back.join()
        assert own_adb.state(handle.address) == "device"  # it was AdbDevice that dialled it
        assert count(handle.device.phone.shell_log, "input tap 10 20") == 1
    finally:
        own_adb.run("disconnect", handle.address, timeout=10)
        handle.close()


def test_a_phone_that_never_comes_back_is_lost_after_the_retry_window(adb, own_phone):
    """`?retry_window=2` in the device name: calls on a phone that stays gone are retried for
    2 s, then end in a typed DeviceLostError, within the window plus one call's timeout."""
    handle = own_phone("SIMGONE1")
    dev = make_device(f"adb:127.0.0.1:{adb.port}/{handle.address}?retry_window=2&timeout=2")
    assert isinstance(dev, AdbDevice) and (dev.retry_window_s, dev.timeout_s) == (2.0, 2.0)
    dev.shell("echo warm")
    handle.stop()
    for call in (lambda: dev.shell("getprop ro.product.model"), lambda: dev.tap(10, 20)):
        t0 = time.monotonic()
        with pytest.raises(DeviceLostError, match=r"retry window of 2 s"):
            call()
        assert time.monotonic() - t0 < lost_bound(dev)
    assert count(handle.device.phone.shell_log, "input tap") == 0


def test_a_frozen_phone_is_lost_after_the_retry_window(adb, own_phone):
    """A phone that takes every command and never answers: each attempt of a read times out,
    and the call gives up once the window is over (no hang)."""
    handle = own_phone("SIMFRZ02")
    dev = adb_device(adb, handle, timeout_s=1.0, retry_window_s=2.0)
    dev.shell("echo warm")
    handle.freeze()
    try:
        t0 = time.monotonic()
        with pytest.raises(DeviceLostError, match=r"retry window of 2 s: AdbTimeout"):
            dev.shell("getprop ro.product.model")
        assert time.monotonic() - t0 < lost_bound(dev)
    finally:
        handle.thaw()


def test_a_tap_the_link_lost_before_the_phone_answered_is_not_sent_again(adb, linked_phone):
    """The link dies after the phone took the tap but before its answer got through (the adb
    server tells the host "closed"): the tap may have run -- it did -- so it is not sent
    again, even though the link is back well within the retry window."""
    handle, link = linked_phone("SIMCUT01")
    dev = AdbDevice(serial=link.address, port=adb.port, timeout_s=5.0, retry_window_s=20.0)
    dev.shell("echo warm")
    reached = once(handle, lambda c: c.startswith("input tap 10 20"), lambda c: None)
    cut = link.cut_when(lambda command, *_: command == A_OKAY, wait=reached)
    back = threading.Thread(target=lambda: (cut.wait(30), time.sleep(1.0), link.up()))
    back.start()
    try:
        with pytest.raises(DeviceLostError, match="not re-sent"):
            dev.tap(10, 20)
    finally:
        back.join()
    assert cut.is_set() and reached.is_set()
    assert dev.shell("echo back").stdout == "back\n"  # the link is back: dialled again
    # every call is sequential: a re-sent tap would have arrived before the echo
    assert count(handle.device.phone.shell_log, "input tap 10 20") == 1


def test_a_read_the_link_lost_before_the_phone_answered_is_read_again(adb, linked_phone):
    """The same cut during a read: reading twice is the same as once, so it is read again
    once the link is back (2 s later), and the call returns the answer."""
    handle, link = linked_phone("SIMCUT02")
    dev = AdbDevice(serial=link.address, port=adb.port, timeout_s=5.0, retry_window_s=20.0)
    dev.shell("echo warm")
    reached = once(handle, lambda c: c.startswith("getprop ro.product.model"), lambda c: None)
    cut = link.cut_when(lambda command, *_: command == A_OKAY, wait=reached)
    back = threading.Thread(target=lambda: (cut.wait(30), time.sleep(2.0), link.up()))
    back.start()
    try:
        assert dev.shell("getprop ro.product.model").stdout == "Pixel 6\n"
    finally:
        back.join()
    assert cut.is_set()
    assert count(handle.device.phone.shell_log, "getprop ro.product.model") == 2


@pytest.mark.slow
def test_five_second_outages_mid_episode_cost_an_eval_run_no_episode(adb, own_phone, tmp_path):
    """The phone drops off for 5 s, twice, in the middle of an episode (sim-adbd stops
    listening and cuts every connection, as when its process dies, then serves again on the
    same port; the phone keeps its state, as a real one does while its link is down). Each
    outage starts while the observation after an action is being read, so nothing that
    must not be sent twice is in flight: every episode finishes, and succeeds."""

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    handle = own_phone("SIMOUT01")
    backs: list[threading.Timer] = []
    seen = {"resets": 0, "acted": False, "cut_in": []}

    def hook(cmd: str) -> None:
        if cmd.startswith("input keyevent KEYCODE_HOME; am force-stop"):  # an episode's reset
            seen["resets"] += 1
            seen["acted"] = False
        elif cmd.startswith(("input ", "monkey ", "am start")):
            seen["acted"] = True
        elif (cmd.startswith("uiautomator dump") and seen["acted"]
              and seen["resets"] in (2, 4) and seen["resets"] not in seen["cut_in"]):
            seen["cut_in"].append(seen["resets"])
            handle.stop()  # mid-command: its answer never arrives
            backs.append(threading.Timer(5.0, handle.restart))
            backs[-1].start()

    handle.device.faults.before_shell = hook
    name = f"adb:127.0.0.1:{adb.port}/{handle.address}"  # the default 30 s retry window
    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none",
                     variants=1, devices=[name], screens="none")
    out = tmp_path / "run"
    try:
        evaluate(cfg, out, workers=1, progress=False, artifacts=False)
    finally:
        for t in backs:
            t.join()
    rows = load_records(out)
    assert sorted(r["task"] for r in rows) == sorted(MINI)  # every episode has its record
    assert [r["error"] for r in rows] == [None] * len(rows)
    assert all(r["success"] == 1.0 and not r["truncated"] for r in rows), rows
    assert all(not s["error"] for r in rows for s in r["trajectory"])
    assert seen["cut_in"] == [2, 4]  # both outages happened, mid-episode


# --- device faults end the episode (observation, success check) or fail reset ----------------


def test_a_phone_lost_while_observing_truncates_the_step(adb, own_phone):
    handle = own_phone("SIMLOST2")
    dev = adb_device(adb, handle, timeout_s=2.0, retry_window_s=1.0)
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    lost = once(handle, lambda c: c.startswith("uiautomator dump"), lambda c: handle.stop())
    t0 = time.monotonic()
    obs, reward, term, trunc, info = env.step({"action_type": "open_app", "app_name": "Settings"})
    assert lost.is_set() and time.monotonic() - t0 < lost_bound(dev)
    assert trunc and not term and reward == 0.0
    assert info["error"].startswith("DeviceLostError") and info["error_stage"] == "observation"
    assert info["action"]["action_type"] == "open_app" and obs["ui_elements"] == ""
    assert handle.device.foreground()[0] == "com.android.settings"  # the action itself ran
    obs, reward, term, trunc, info = env.step({"action_type": "navigate_home"})  # the episode is over
    assert "episode is over" in obs["last_action_error"] or trunc
    handle.restart()
    obs, info = env.reset(seed=3)
    assert obs["ui_elements"]


def test_a_phone_lost_during_the_success_check_truncates_the_last_step(adb, own_phone):
    handle = own_phone("SIMLOST3")
    dev = adb_device(adb, handle, timeout_s=2.0, retry_window_s=1.0)
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    reads = ("uiautomator dump", "screencap", "dumpsys window")
    lost = once(handle, lambda c: not c.startswith(reads), lambda c: handle.stop())
    obs, reward, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert lost.is_set()
    assert trunc and not term and reward == 0.0 and info["success"] == 0.0
    assert info["error"].startswith("DeviceLostError") and info["error_stage"] == "success check"
    assert obs["ui_elements"]  # the observation was read before the phone went


def test_a_phone_lost_during_reset_raises_a_typed_error(adb, own_phone):
    handle = own_phone("SIMLOST4")
    dev = adb_device(adb, handle, timeout_s=2.0, retry_window_s=1.0)
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=2)
    lost = once(handle, lambda c: c.startswith("input keyevent KEYCODE_HOME; am force-stop"),
                lambda c: handle.stop())
    t0 = time.monotonic()
    with pytest.raises(DeviceLostError, match=r"reset failed \(SettingsWifiToggle\)"):
        env.reset(seed=3)
    assert lost.is_set() and time.monotonic() - t0 < lost_bound(dev)
    with pytest.raises(RuntimeError, match=r"last reset\(\) failed .*DeviceLostError"):
        env.step({"action_type": "navigate_home"})
    handle.restart()
    obs, info = env.reset(seed=3)
    assert obs["ui_elements"] and info["task"]


def test_an_in_process_phone_that_dies_mid_task_set_up():
    """The same through `SimDevice` alone: its shell raises DeviceLostError from the N-th call."""
    from antrap_gym.device.sim import SimDevice

    phone = SimDevice()
    env = make_env(device=phone, task="SettingsWifiToggle", obs_mode="text")
    env.reset(seed=1)
    calls = {"n": 0}

    def die_after_one(cmd: str) -> None:
        calls["n"] += 1
        if calls["n"] > 1:
            raise DeviceLostError("simulated phone unplugged")

    phone.faults.before_shell = die_after_one
    with pytest.raises(DeviceLostError, match=r"reset failed .*unplugged"):
        env.reset(seed=2)
    phone.faults.before_shell = None
    env.reset(seed=2)
    obs, reward, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert term and "error" not in info
    env.reset(seed=2)
    phone.faults.before_shell = die_after_one
    calls["n"] = 1
    obs, reward, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert trunc and not term and info["error_stage"] == "success check"
    assert info["error"] == "DeviceLostError: simulated phone unplugged"


# --- emulator snapshots, with a fake `adb` -------------------------------------------------

FAKE_ADB = """#!/bin/sh
# a stand-in for `adb ... emu avd snapshot save|load NAME`: answers as $FAKE_ADB_SAVE / _LOAD say
echo "$*" >> "$FAKE_ADB_LOG"
case "$*" in
  *" emu avd snapshot save "*) mode="$FAKE_ADB_SAVE" ;;
  *" emu avd snapshot load "*) mode="$FAKE_ADB_LOAD" ;;
  *) echo "fake adb: unexpected: $*" >&2; exit 1 ;;
esac
case "$mode" in
  OK) echo OK ;;
  KO) echo "KO: snapshot operation failed" ;;
  hang) echo $$ > "$FAKE_ADB_LOG.pid"; exec sleep 60 ;;
esac
"""


@pytest.fixture
def fake_adb(tmp_path, monkeypatch):
    exe = tmp_path / "bin" / "adb"
    exe.parent.mkdir()
    exe.write_text(FAKE_ADB)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "emu.log"
    log.write_text("")
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(exe))
    monkeypatch.setenv("FAKE_ADB_LOG", str(log))

    def answers(save: str, load: str = "OK") -> None:
        monkeypatch.setenv("FAKE_ADB_SAVE", save)
        monkeypatch.setenv("FAKE_ADB_LOAD", load)

    answers.log = log
    return answers


def emu_calls(fake_adb) -> list[str]:
    return [ln.split(" emu ", 1)[1] for ln in fake_adb.log.read_text().splitlines()]


def test_emulator_detection_by_serial():
    assert AdbDevice("emulator-5554", connect=False).emulator
    assert not AdbDevice("127.0.0.1:5555", connect=False).emulator
    assert AdbDevice("127.0.0.1:5555", connect=False, emulator=True).emulator
    # `adb emu` dials the console on this machine: not for an emulator behind a remote server
    assert not AdbDevice("emulator-5554", host="10.0.0.2", connect=False).emulator


def test_emulator_snapshot_save_and_load(adb, own_phone, fake_adb):
    handle = own_phone("SIMEMU01")
    dev = adb_device(adb, handle, emulator=True, emu_timeout_s=5)
    fake_adb("OK", "OK")
    snap = dev.snapshot()
    assert snap.payload["kind"] == "emulator" and dev.emu_error is None
    name = snap.payload["name"]
    log = handle.device.phone.shell_log
    log.clear()
    dev.restore(snap)
    assert emu_calls(fake_adb) == [f"avd snapshot save {name}", f"avd snapshot load {name}"]
    line = fake_adb.log.read_text().splitlines()[0]
    assert line.startswith(f"-H 127.0.0.1 -P {adb.port} -s {handle.address} emu ")
    assert count(log, "am force-stop") == 0  # the snapshot did the reset


def test_a_snapshot_the_console_refuses_falls_back_to_force_stop(adb, own_phone, fake_adb):
    handle = own_phone("SIMEMU02")
    dev = adb_device(adb, handle, emulator=True, emu_timeout_s=5)
    fake_adb("KO")
    snap = dev.snapshot()
    assert snap.payload == {"kind": "home"} and "KO: snapshot operation failed" in dev.emu_error
    log = handle.device.phone.shell_log
    log.clear()
    dev.restore(snap)
    assert count(log, "input keyevent KEYCODE_HOME") == 1
    assert {c for c in log if c.startswith("am force-stop")} == {
        f"am force-stop {p}" for p in dev.app_packages().values()}
    # saved, but the load is refused: the same fallback
    fake_adb("OK", "KO")
    snap = dev.snapshot()
    log.clear()
    dev.restore(snap)
    assert "KO" in dev.emu_error and count(log, "am force-stop") == len(dev.app_packages())


def test_a_hanging_emulator_console_times_out(adb, own_phone, fake_adb):
    handle = own_phone("SIMEMU03")
    dev = adb_device(adb, handle, emulator=True, emu_timeout_s=1.0)
    fake_adb("hang")
    t0 = time.monotonic()
    snap = dev.snapshot()
    assert time.monotonic() - t0 < 4.0
    assert snap.payload == {"kind": "home"} and "no answer within 1 s" in dev.emu_error
    pid = int(Path(str(fake_adb.log) + ".pid").read_text())
    with pytest.raises(ProcessLookupError):  # the hung adb was killed, not left behind
        for _ in range(50):
            os.kill(pid, 0)
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the hung `adb emu` is still running")


def test_env_resets_fall_back_to_force_stop_and_task_set_up_without_snapshots(adb, own_phone, fake_adb):
    handle = own_phone("SIMEMU04")
    dev = adb_device(adb, handle, emulator=True, emu_timeout_s=5)
    fake_adb("KO")
    env = make_env(device=dev, task="SettingsWifiToggle", obs_mode="text")
    phone = handle.device.phone
    for seed in (1, 2, 3):
        phone.shell_log.clear()
        with handle.lock:
            phone.settings.put("global", "wifi_on", "5")  # something the set-up must undo
        obs, info = env.reset(seed=seed)
        assert count(phone.shell_log, "am force-stop com.android.settings") == 1  # went home, stopped
        assert any(c.startswith("svc wifi ") for c in phone.shell_log)  # the task's own set-up ran
        starts_on = info["params"]["state"] == "off"  # the switch starts in the opposite state
        assert phone.settings.get("global", "wifi_on") == ("1" if starts_on else "0")
    assert emu_calls(fake_adb) == [emu_calls(fake_adb)[0]]  # one save attempt, no loads
    assert emu_calls(fake_adb)[0].startswith("avd snapshot save antrap_")


# --- device names and pools ----------------------------------------------------------------


def test_device_name_forms():
    from antrap_gym.device.adb import parse_device_name

    assert parse_device_name("adb:emulator-5554") == {"serial": "emulator-5554"}
    assert parse_device_name("adb:") == {"serial": None}
    assert parse_device_name("adb:127.0.0.1:5555") == {"serial": "127.0.0.1:5555"}
    assert parse_device_name("adb:10.0.0.2:5037/emulator-5556") == {
        "serial": "emulator-5556", "host": "10.0.0.2", "port": 5037}
    assert device_names(["adb:a,adb:b", " sim ", "adb:c,"]) == ["adb:a", "adb:b", "sim", "adb:c"]
    with pytest.raises(ValueError):
        parse_device_name("adb:host:notaport/x")
    # options after `?`: how long to keep retrying a lost phone, the timeout of each call
    assert parse_device_name("adb:emulator-5554?retry_window=10") == {
        "serial": "emulator-5554", "retry_window_s": 10.0}
    assert parse_device_name("adb:10.0.0.2:5037/127.0.0.1:5555?timeout=5&retry_window=0.5") == {
        "serial": "127.0.0.1:5555", "host": "10.0.0.2", "port": 5037, "timeout_s": 5.0,
        "retry_window_s": 0.5}
    assert parse_device_name("adb:?retry_window=0") == {"serial": None, "retry_window_s": 0.0}
    for bad in ("adb:x?retries=3", "adb:x?retry_window=soon", "adb:x?retry_window=-1",
                "adb:x?timeout=0", "adb:x?retry_window", "adb:x?retry_window=inf"):
        with pytest.raises(ValueError, match="retry_window"):
            parse_device_name(bad)
    with pytest.raises(ValueError, match="retries"):  # the names are checked up front
        device_names(["sim,adb:a?retries=3"])
    assert AdbDevice("127.0.0.1:5555", connect=False).retry_window_s == 30.0  # the default


def test_adb_serial_names_a_device_on_the_adb_server(adb, phone):
    """`adb:SERIAL`: that device on the local adb server (5037 unless told otherwise; the
    test's private server here), connected and driven by name."""
    assert AdbDevice("emulator-5554", connect=False).port == 5037
    dev = make_device(f"adb:{phone.address}", port=adb.port)
    assert isinstance(dev, AdbDevice) and dev.serial == phone.address
    assert dev.shell("getprop ro.serialno").stdout == "SIMDEV01\n"


def resets_by_phone(handles) -> dict[str, list[str]]:
    """Record every AdbDevice reset each phone sees (one per episode)."""
    seen: dict[str, list[str]] = {h.address: [] for h in handles}
    for h in handles:
        def hook(cmd: str, _addr=h.address) -> None:
            if cmd.startswith("input keyevent KEYCODE_HOME; am force-stop"):
                seen[_addr].append(cmd)
        h.device.faults.before_shell = hook
    return seen


def check_pool_records(rows, names, seen) -> None:
    assert all(r.get("error") is None for r in rows), [r["error"] for r in rows if r.get("error")]
    assert all(r["success"] == 1.0 for r in rows)
    per_phone = {addr: len(v) for addr, v in seen.items()}
    assert sum(per_phone.values()) == len(rows), per_phone  # every episode ran on one of them
    # Each record names the phone that played it. Not asserted: that both phones played
    # some. The pool hands an episode to whichever worker is ready, and on a loaded machine
    # one worker finished all six before the other had started (CI, {'...': 0, '...': 6}).
    by_name = {n: sum(r["device"] == n for r in rows) for n in names}
    assert set(by_name) == set(names) and sum(by_name.values()) == len(rows), by_name
    assert sorted(by_name.values()) == sorted(per_phone.values()), (by_name, per_phone)


@pytest.mark.slow
def test_two_phones_two_workers_one_device_each(adb, own_phone, tmp_path):

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    handles = [own_phone("SIMPOOL1"), own_phone("SIMPOOL2")]
    seen = resets_by_phone(handles)
    names = [f"adb:127.0.0.1:{adb.port}/{h.address}" for h in handles]
    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none", variants=2,
                     devices=names, screens="none")
    out = tmp_path / "pool"
    evaluate(cfg, out, workers=2, progress=False, artifacts=False)
    rows = load_records(out)
    assert len(rows) == 2 * len(MINI)
    check_pool_records(rows, names, seen)


@pytest.mark.slow
def test_cli_eval_with_two_devices(adb, own_phone, tmp_path):
    import shutil
    import subprocess

    handles = [own_phone("SIMPOOL3"), own_phone("SIMPOOL4")]
    seen = resets_by_phone(handles)
    names = [f"adb:127.0.0.1:{adb.port}/{h.address}" for h in handles]
    out = tmp_path / "cli"
    antrap = shutil.which("antrap")
    assert antrap, "the `antrap` console script is not installed (pip install -e .)"
    res = subprocess.run([antrap, "eval", "--agent", "oracle", "--suite", "antrap-mini", "--traps", "none",
                          "--variants", "1", "--workers", "2", "--screens", "none", "--out", str(out),
                          "--device", f"{names[0]},{names[1]}"],
                         capture_output=True, text=True, timeout=600, env={**adb.env})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    rows = load_records(out)
    assert len(rows) == len(MINI)
    check_pool_records(rows, names, seen)
