"""A phone that comes back from an outage as another phone is never judged.

Over a real adb server (the stock binary) and real sim-adbd servers: the phone on one
port is replaced mid-episode by a factory-fresh one -- `antrap sim-adbd` restarting,
as a rebooted or re-created emulator would -- which never had the task set up. The
episode must end truncated with `DeviceReplacedError`, and the eval harness must run
it again instead of recording a success or a failure of the agent. The same phone
coming back after a drop goes on as before.
"""

from __future__ import annotations

import json
import re
import stat
import threading
import time
from pathlib import Path

import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.device.adb import AdbDevice
from antrap_gym.device.adbd import AdbdHandle, serve_in_thread
from antrap_gym.eval import load_records
from antrap_gym.registration import make_env
from tests.adb_server import AdbServer

RESET = "input keyevent KEYCODE_HOME; am force-stop"  # how an episode's reset begins over adb
#: what any Android shell tells of its boot: the kernel's boot id, the seconds since the boot
BOOT = "cat /proc/sys/kernel/random/boot_id /proc/uptime"
#: how long a swapped-out phone stays away before the new one listens
AWAY_S = 1.0


class Port:
    """The phone sim-adbd serves on one port: it drops off the network, comes back as it
    was (`restart`), or comes back factory-fresh (`replace`: a new sim-adbd on the port)."""

    def __init__(self, adb: AdbServer, serial: str) -> None:
        self.adb = adb
        self.serial = serial
        self.handle = serve_in_thread(port=0, serial=serial)
        self.port = self.handle.port
        self.address = self.handle.address
        self.served: list[AdbdHandle] = [self.handle]
        self.timers: list[threading.Timer] = []
        adb.connect(self.address)

    def drop(self) -> None:
        """Off the network; returns once the adb server has seen it go."""
        self.handle.stop()
        self.adb.wait_state(self.address, "offline")

    def replace(self) -> AdbdHandle:
        """A fresh phone on the same port (the old sim-adbd gone for good)."""
        self.handle.close()
        self.handle = serve_in_thread(port=self.port, serial=self.serial)
        self.served.append(self.handle)
        return self.handle

    def later(self, fn) -> None:
        """`fn()` in `AWAY_S`, from another thread."""
        timer = threading.Timer(AWAY_S, fn)
        self.timers.append(timer)
        timer.start()

    def redial(self) -> None:
        """Have the adb server dial the port again now (as a person re-plugging would)."""
        self.adb.run("disconnect", self.address, timeout=10)
        self.adb.connect(self.address)

    def close(self) -> None:
        for t in self.timers:
            t.join(10)
        self.adb.run("disconnect", self.address, timeout=10)
        for h in self.served:
            h.close()


@pytest.fixture
def port(adb: AdbServer):
    made: list[Port] = []

    def make(serial: str) -> Port:
        made.append(Port(adb, serial))
        return made[-1]

    yield make
    for p in made:
        p.close()


def adb_device(adb: AdbServer, p: Port, **kw) -> AdbDevice:
    kw = {"timeout_s": 3.0, "retry_window_s": 10.0, **kw}
    return AdbDevice(serial=p.address, port=adb.port, **kw)


def boot(adb: AdbServer, address: str) -> tuple[str, float]:
    """(boot id, uptime in seconds), read with the stock adb client."""
    boot_id, uptime = adb.sh(address, "shell", BOOT, check=True).stdout.decode().splitlines()[:2]
    assert re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", boot_id), boot_id
    return boot_id, float(uptime.split()[0])


def only_asked_who_it_is(log) -> bool:
    """Whether a phone got nothing but reads of its boot id and uptime."""
    return bool(log) and all(c.startswith("cat /proc/") for c in log)


def start(env):
    obs, info = env.reset(seed=2)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    obs, reward, term, trunc, info = env.step(agent.act(obs, info))
    assert not (term or trunc) and obs["last_action_error"] == ""
    return agent, obs, info


def play_out(env, agent, obs, info) -> tuple[float, bool, bool, dict]:
    for _ in range(50):
        obs, reward, term, trunc, info = env.step(agent.act(obs, info))
        if term or trunc:
            return reward, term, trunc, info
    raise AssertionError("the episode never ended")


# --- the simulated phone tells its boot as a real one does ---------------------------------


def test_every_simulated_phone_is_its_own_boot_and_keeps_it_across_drops_and_restores(adb, port):
    a, b = port("SIMBOOT1"), port("SIMBOOT2")
    (first, up), (other, _) = boot(adb, a.address), boot(adb, b.address)
    assert first != other
    # the link drops and comes back: the same boot, its uptime goes on
    a.drop()
    a.handle.restart()
    a.redial()
    again, up_again = boot(adb, a.address)
    assert again == first and up_again >= up
    # restoring a snapshot of the phone's state is not a reboot
    with a.handle.lock:
        dev = a.handle.device
        dev.restore(dev.snapshot())
    restored, up_restored = boot(adb, a.address)
    assert restored == first and up_restored >= up_again
    # sim-adbd started again on the port: a factory-fresh phone, a new boot
    a.drop()
    a.replace()
    a.redial()
    fresh, _ = boot(adb, a.address)
    assert fresh not in (first, other)


# --- the env --------------------------------------------------------------------------------


def test_a_phone_replaced_mid_episode_truncates_it_and_gets_no_command(adb, port):
    p = port("SIMREP01")
    env = make_env(device=adb_device(adb, p), task="SettingsWifiToggle", obs_mode="text")
    agent, obs, info = start(env)
    p.drop()
    p.later(p.replace)  # the next action meets an offline phone, then a fresh one
    reward, term, trunc, info = play_out(env, agent, obs, info)
    assert trunc and not term and reward == 0.0 and info["success"] == 0.0
    assert info["error"].startswith("DeviceReplacedError") and "boot id changed" in info["error"]
    assert info["error_stage"] == "action"
    assert only_asked_who_it_is(p.handle.device.phone.shell_log)  # and given nothing to do
    # the next episode is set up on the new phone, and judged
    agent, obs, info = start(env)
    reward, term, trunc, info = play_out(env, agent, obs, info)
    assert term and reward == 1.0 and "error" not in info


def test_the_same_phone_coming_back_mid_episode_goes_on(adb, port):
    p = port("SIMREP02")
    env = make_env(device=adb_device(adb, p), task="SettingsWifiToggle", obs_mode="text")
    agent, obs, info = start(env)
    p.drop()
    p.later(p.handle.restart)
    reward, term, trunc, info = play_out(env, agent, obs, info)
    assert term and not trunc and reward == 1.0 and "error" not in info
    assert any(c.startswith("cat /proc/") for c in p.handle.device.phone.shell_log)  # asked, the same


def test_a_phone_swapped_while_no_call_failed_is_not_judged(adb, port):
    """The swap happens between two steps and the adb server is dialled again meanwhile,
    so no call of the env ever fails: the check before judging success catches it."""
    p = port("SIMREP03")
    env = make_env(device=adb_device(adb, p), task="SettingsWifiToggle", obs_mode="text")
    start(env)
    p.drop()
    p.replace()
    p.redial()
    obs, reward, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert trunc and not term and reward == 0.0 and info["success"] == 0.0
    assert info["error"].startswith("DeviceReplacedError") and info["error_stage"] == "success check"


# --- the device -----------------------------------------------------------------------------


def test_a_pull_from_a_replaced_phone_raises_the_typed_error(adb, port):
    from antrap_gym.device import DeviceReplacedError

    p = port("SIMREP04")
    dev = adb_device(adb, p)
    dev.pin_identity()
    p.drop()
    p.later(p.replace)
    with pytest.raises(DeviceReplacedError, match=r"pull /sdcard/Download/x\.txt: .*boot id changed"):
        dev.pull("/sdcard/Download/x.txt")
    dev.pin_identity()  # the next episode's: the new phone is the one now
    assert dev.shell("getprop ro.serialno").stdout == "SIMREP04\n"
    dev.check_identity()


def test_an_uptime_that_went_back_is_another_boot(adb, port):
    from antrap_gym.device import DeviceReplacedError

    p = port("SIMREP05")
    dev = adb_device(adb, p)
    with p.handle.lock:
        p.handle.device.phone.booted_at -= 1000  # a phone up for 1000 s
    dev.pin_identity()
    dev.check_identity()
    with p.handle.lock:
        p.handle.device.phone.booted_at += 100  # the same boot id, 100 s younger: a snapshot of it
    with pytest.raises(DeviceReplacedError, match="uptime went back"):
        dev.check_identity()


FAKE_ADB = """#!/bin/sh
# `adb ... emu avd snapshot save|load NAME`: the emulator console says OK
echo OK
"""


def test_loading_an_emulator_snapshot_is_not_taken_for_another_phone(adb, port, tmp_path, monkeypatch):
    """A snapshot load takes an emulator's uptime back (the same boot id): the device did
    it itself, so it pins the phone again rather than calling it another."""
    exe = tmp_path / "adb"
    exe.write_text(FAKE_ADB)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(exe))
    p = port("SIMREP06")
    dev = adb_device(adb, p, emulator=True, emu_timeout_s=5)
    with p.handle.lock:
        p.handle.device.phone.booted_at -= 1000  # an emulator up for 1000 s
    snap = dev.snapshot()
    assert snap.payload["kind"] == "emulator"
    dev.pin_identity()
    with p.handle.lock:
        p.handle.device.phone.booted_at += 100  # what loading the snapshot does to the uptime
    dev.restore(snap)
    dev.check_identity()


# --- the eval harness -----------------------------------------------------------------------


def replace_on_first_dump_after_acting(p: Port, times: int, swaps: list[str]) -> None:
    """On each phone `p` serves (the first `times` of them), the first `uiautomator dump`
    after an action of an episode (a read: it is sent again) drops the phone, and a
    factory-fresh one takes the port `AWAY_S` later."""
    acted = {"yes": False}

    def hook(cmd: str) -> None:
        if cmd.startswith(RESET):
            acted["yes"] = False
        elif cmd.startswith(("input ", "monkey ", "am start")):
            acted["yes"] = True
        elif cmd.startswith("uiautomator dump") and acted["yes"] and len(swaps) < times:
            p.handle.device.faults.before_shell = None
            swaps.append(cmd)
            p.handle.stop()  # mid-command: its answer never arrives

            def swap() -> None:
                fresh = p.replace()
                replace_on_first_dump_after_acting(p, times, swaps)
                assert fresh is p.handle

            p.later(swap)

    p.handle.device.faults.before_shell = hook


def run_eval(adb: AdbServer, p: Port, out: Path, **kw) -> list[dict]:
    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate
    from antrap_gym.tasks.registry import Suite, register_suite

    register_suite(Suite("test-replaced", ("SettingsWifiToggle",), variants=2))
    name = f"adb:127.0.0.1:{adb.port}/{p.address}?retry_window=10&timeout=3"
    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="test-replaced", traps="none",
                     devices=[name], screens="none")
    evaluate(cfg, out, workers=1, progress=False, artifacts=False, **kw)
    return load_records(out)


def test_an_eval_reruns_the_episode_whose_phone_was_replaced(adb, port, tmp_path):
    p = port("SIMREP07")
    swaps: list[str] = []
    replace_on_first_dump_after_acting(p, 1, swaps)
    t0 = time.monotonic()
    rows = run_eval(adb, p, tmp_path / "run")
    assert len(swaps) == 1 and time.monotonic() - t0 < 120
    assert sorted(r["variant"] for r in rows) == [0, 1]  # one record per episode
    assert all(r["error"] is None and r["success"] == 1.0 for r in rows), rows
    first = next(r for r in rows if r["variant"] == 0)
    (dropped,) = first["device_retries"]  # the attempt on the replaced phone: not judged
    assert dropped["error"].startswith("DeviceReplacedError")
    assert dropped["error_kind"] == "infrastructure"
    assert "device_retries" not in next(r for r in rows if r["variant"] == 1)
    # both successes were judged on the phone their task was set up on
    assert sum(c.startswith("svc wifi ") for c in p.handle.device.phone.shell_log) == 2


def test_an_episode_replaced_on_every_retry_is_an_infrastructure_error_resume_runs_again(
        adb, port, tmp_path):
    from antrap_gym.eval.worker import REPLACED_RETRIES

    p = port("SIMREP08")
    swaps: list[str] = []
    replace_on_first_dump_after_acting(p, 1 + REPLACED_RETRIES, swaps)
    out = tmp_path / "run"
    rows = run_eval(adb, p, out)
    assert len(swaps) == 1 + REPLACED_RETRIES
    first = next(r for r in rows if r["variant"] == 0)
    assert first["error"].startswith("DeviceReplacedError") and first["error_kind"] == "infrastructure"
    assert first["success"] == 0.0 and len(first["device_retries"]) == REPLACED_RETRIES
    assert next(r for r in rows if r["variant"] == 1)["success"] == 1.0
    rows = run_eval(adb, p, out, resume=True)
    assert sorted(r["variant"] for r in rows) == [0, 1]
    assert all(r["error"] is None and r["success"] == 1.0 for r in rows), rows
    (old,) = [json.loads(line) for line in (out / "retried.jsonl").read_text().splitlines()]
    assert old["error"].startswith("DeviceReplacedError")
