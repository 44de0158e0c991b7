"""`antrap eval` refuses what would waste or spoil a run before it runs an episode: a bad
option value (exit 2, one line naming the option, no results folder), a results folder
another run is using (an OS lock, released however that run ends), a `--resume` of a
folder that holds another run, and an episodes file with a line that is not a record.
The commands run as subprocesses, as a user would run them; a run is held open by an
agent that waits for the test (`tests.eval.gated_agent`), never by guessing how long it takes."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from antrap_gym.eval import load_records
from tests.paths import ROOT

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]
#: six episodes: antrap-mini's six templates, one variant, clean only
MINI = ["--suite", "antrap-mini", "--traps", "none", "--screens", "none"]
WIDE = {**os.environ, "COLUMNS": "500"}  # messages on one line each, paths never folded


def run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=WIDE)


def said(res: subprocess.CompletedProcess) -> str:
    """What the command wrote, without colours, on one line."""
    return " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", res.stdout + res.stderr).split())


def episode_ids(out: Path) -> list[str]:
    return [r["id"] for r in load_records(out)]


# ------------------------------------------------------------------------------------------------
# bad option values

BAD_OPTIONS = [
    (["--runs", "0"], "--runs"),
    (["--runs", "-1"], "--runs"),
    (["--variants", "-2"], "--variants"),
    (["--variants", "0"], "--variants"),
    (["--workers", "0"], "--workers"),
    (["--timeout", "-3"], "--timeout"),
    (["--timeout", "nan"], "--timeout"),
    (["--start-timeout", "0"], "--start-timeout"),
    (["--trap-retries", "-1"], "--trap-retries"),
    (["--screens-sample", "2"], "--screens-sample"),
    (["--suite", "nosuch"], "--suite"),
    (["--traps", "nosuch"], "--traps"),
    (["--agent", "nosuchagent"], "--agent"),
    (["--agent", "nosuch_module_of_agents:Agent"], "--agent"),
    (["--agent", "tests.faulty_agents:NoSuchAgent"], "--agent"),
    (["--agent", "openai"], "--agent"),  # no --model: the agent cannot be built
    (["--agent", "openai", "--model", "m", "--agent-arg", "no_such_option=1"], "--agent"),
    (["--agent", "openai", "--model", "m", "--agent-arg", "temperature"], "--agent-arg"),
]


@pytest.mark.parametrize(("args", "option"), BAD_OPTIONS, ids=[" ".join(a) for a, _ in BAD_OPTIONS])
def test_a_bad_option_value_is_a_usage_error_before_anything_runs(tmp_path, args, option):
    out = tmp_path / "run"
    res = run("eval", "--agent", "oracle", *MINI, "--workers", "1", *args, "--out", str(out))
    assert res.returncode == 2, said(res)[-1500:]
    assert option in said(res) and "Traceback" not in res.stderr, said(res)[-1500:]
    assert not out.exists()  # no folder, no config.json, no episode


@pytest.mark.parametrize(("field", "value"), [
    ("runs", 0), ("variants", -2), ("trap_retries", -1), ("episode_timeout_s", -3.0),
    ("worker_start_timeout_s", float("nan"))])
def test_the_config_refuses_what_the_options_refuse(field, value):
    """The same limits through the API (`EvalConfig`), for runs not started from the CLI."""
    from antrap_gym.eval import AgentSpec, EvalConfig

    with pytest.raises(ValueError, match=field):
        EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none",
                   **{field: value})


def test_an_unknown_agent_class_names_what_is_missing(tmp_path):
    res = run("eval", "--agent", "tests.faulty_agents:NoSuchAgent", *MINI, "--out", str(tmp_path / "r"))
    assert "'tests.faulty_agents' has no 'NoSuchAgent'" in said(res)
    res = run("eval", "--agent", "openai", *MINI, "--out", str(tmp_path / "r"))
    assert "missing a required argument: 'model'" in said(res)


def test_an_out_folder_that_cannot_be_made_is_a_usage_error(tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for out in (a_file / "run", a_file):
        res = run("eval", "--agent", "oracle", *MINI, "--inline", "--out", str(out))
        assert res.returncode == 2, said(res)[-1500:]
        assert f"--out {out}" in said(res) and "Traceback" not in res.stderr, said(res)[-1500:]
    assert a_file.read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_out_folder_is_a_usage_error(tmp_path):
    locked = tmp_path / "read-only"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        res = run("eval", "--agent", "oracle", *MINI, "--inline", "--out", str(locked / "run"))
        assert res.returncode == 2 and "--out" in said(res), said(res)[-1500:]
        assert "Traceback" not in res.stderr
    finally:
        locked.chmod(0o755)


# ------------------------------------------------------------------------------------------------
# one run per results folder

def gated_run(tmp_path: Path, out: Path) -> tuple[list[str], Path, Path]:
    """The command of a run whose every episode waits at its first step until `gate` exists
    (`started` appears when the first one gets there), and those two paths."""
    started, gate = tmp_path / "started", tmp_path / "gate"
    cmd = ["eval", "--agent", "tests.eval.gated_agent:GatedAgent", "--agent-arg", f"started={started}",
           "--agent-arg", f"gate={gate}", *MINI, "--workers", "1", "--out", str(out)]
    return cmd, started, gate


def wait_until_started(started: Path, proc: subprocess.Popen) -> None:
    """Until the run is inside its first episode (so it holds its folder)."""
    deadline = time.monotonic() + 120
    while not started.exists():
        assert proc.poll() is None, "the run ended before its first step"
        assert time.monotonic() < deadline, "the run never reached its first step"
        time.sleep(0.02)


def test_a_second_run_on_a_busy_folder_is_refused_and_nothing_is_run_twice(tmp_path):
    out = tmp_path / "run"
    cmd, started, gate = gated_run(tmp_path, out)
    first = subprocess.Popen([*ANTRAP, *cmd], cwd=ROOT, env=WIDE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_until_started(started, first)
        for again in (cmd, [*cmd, "--resume"]):
            res = run(*again)
            assert res.returncode == 2, said(res)[-1500:]
            text = said(res)
            assert f"--out {out} is in use by another run (pid {first.pid})" in text, text[-1500:]
        gate.touch()
        stdout, stderr = first.communicate(timeout=300)
        assert first.returncode == 0, stderr[-1500:]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
    ids = episode_ids(out)
    assert len(ids) == len(set(ids)) == 6


def test_the_lock_goes_with_a_killed_run_and_a_resume_finishes_it(tmp_path):
    """SIGKILL of the run (its worker process left running, waiting at the gate): the folder
    is free at once, and `--resume` completes the run."""
    from antrap_gym.eval.rundir import RunDirBusy, lock_run_dir

    out = tmp_path / "run"
    cmd, started, gate = gated_run(tmp_path, out)
    first = subprocess.Popen([*ANTRAP, *cmd], cwd=ROOT, env=WIDE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until_started(started, first)
        with pytest.raises(RunDirBusy, match=f"pid {first.pid}"), lock_run_dir(out):
            pass
        os.kill(first.pid, signal.SIGKILL)  # the run only: its worker lives on
        first.wait(timeout=60)
        with lock_run_dir(out):  # free: the killed run's lock went with it
            pass
        gate.touch()
        res = run(*cmd, "--resume")
        assert res.returncode == 0, said(res)[-1500:]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
    ids = episode_ids(out)
    assert len(ids) == len(set(ids)) == 6


def test_a_folder_locked_elsewhere_is_refused_before_anything_is_written(tmp_path):
    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate
    from antrap_gym.eval.rundir import LOCK_FILE, RunDirBusy, lock_run_dir

    out = tmp_path / "run"
    with lock_run_dir(out):
        res = run("eval", "--agent", "oracle", *MINI, "--inline", "--out", str(out))
        assert res.returncode == 2, said(res)[-1500:]
        assert f"--out {out} is in use by another run (pid {os.getpid()})" in said(res)
        config = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none")
        with pytest.raises(RunDirBusy):  # the same process, through the API: refused as well
            evaluate(config, out, inline=True, progress=False, artifacts=False)
    assert [p.name for p in out.iterdir()] == [LOCK_FILE]


# ------------------------------------------------------------------------------------------------
# resuming: the same run only, from well-formed records

BASE = {"--agent": "oracle", "--suite": "antrap-mini", "--traps": "none", "--runs": "1",
        "--device": "sim"}


def eval_args(out: Path, **changes: str) -> list[str]:
    options = {**BASE, **{f"--{k.replace('_', '-')}": v for k, v in changes.items()}}
    return ["eval", *[x for kv in options.items() for x in kv], "--screens", "none", "--inline",
            "--out", str(out)]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("finished") / "run"
    res = run(*eval_args(out))
    assert res.returncode == 0, said(res)[-1500:]
    return out


@pytest.fixture
def a_run(finished_run: Path, tmp_path: Path) -> Path:
    """A copy of a finished run of the oracle on antrap-mini (clean, six episodes)."""
    return Path(shutil.copytree(finished_run, tmp_path / "run"))


def files(run_dir: Path) -> dict[str, bytes]:
    """The run's files and their contents (the lock file aside)."""
    return {p.name: p.read_bytes() for p in run_dir.iterdir()
            if p.is_file() and not p.name.endswith(".lock")}


CHANGES = [({"suite": "SettingsWifiToggle"}, "suite: antrap-mini there, SettingsWifiToggle now"),
           ({"agent": "random"}, "agents: oracle there, random now"),
           ({"traps": "loop"}, "settings: clean there, clean, loop now"),
           ({"runs": "2"}, "runs: 1 there, 2 now"),
           ({"variants": "2"}, "variants: 1 there, 2 now"),
           ({"device": "adb:emulator-5554"}, "device kind: sim there, adb now")]


@pytest.mark.parametrize(("change", "difference"), CHANGES, ids=[next(iter(c)) for c, _ in CHANGES])
def test_resume_refuses_a_folder_of_another_run_and_leaves_it_as_it_was(a_run, change, difference):
    before = files(a_run)
    res = run(*eval_args(a_run, **change), "--resume")
    assert res.returncode == 2, said(res)[-1500:]
    assert f"--resume: {a_run} holds another run" in said(res) and difference in said(res), \
        said(res)[-1500:]
    assert files(a_run) == before  # config.json and the episodes as they were


def test_resume_of_the_same_run_goes_on(a_run):
    res = run(*eval_args(a_run, variants="1"), "--resume")  # the suite's own number, spelled out
    assert res.returncode == 0, said(res)[-1500:]
    assert len(episode_ids(a_run)) == 6


@pytest.mark.parametrize(("line", "complaint"), [
    ({"id": "oracle|SettingsWifiToggle|0|clean|0", "agent": "oracle", "task": "SettingsWifiToggle",
      "variant": 0, "run": 0, "steps": 3}, "an episode record without setting, success"),
    ({"id": "x", "agent": "oracle", "task": "t", "variant": 0, "setting": "clean",
      "success": "yes", "steps": 3}, "success must be a number"),
    ([1, 2], "not an episode record (a JSON object), but list")])
def test_a_line_that_is_no_record_is_named_not_dropped(a_run, line, complaint):
    episodes = a_run / "episodes.jsonl.gz"
    rows = gzip.decompress(episodes.read_bytes()).decode().splitlines(keepends=True)
    rows.insert(3, json.dumps(line) + "\n")
    episodes.write_bytes(written := gzip.compress("".join(rows).encode()))
    for cmd in ([*eval_args(a_run), "--resume"], ["view", str(a_run)],
                ["report", str(a_run), "--out", str(a_run.parent / "merged")]):
        res = run(*cmd)
        assert res.returncode == 2, said(res)[-1500:]
        assert f"{episodes}, line 4: {complaint}" in said(res), said(res)[-1500:]
        assert "Traceback" not in res.stderr
    assert episodes.read_bytes() == written  # kept for the user to fix, not dropped
