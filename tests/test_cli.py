"""The `antrap` command line, run as a user would (subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]


def run(*args: str, stdin: str | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def test_tasks_json_lists_every_template():
    from tasks import TEMPLATES

    out = run("tasks", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert {r["id"] for r in rows} == set(TEMPLATES)
    for r in rows:
        assert r["apps"] and r["max_steps"] >= 1 and r["example_goal"]


def test_run_the_oracle_on_the_mini_suite(tmp_path):
    out = run("run", "--suite", "antrap-mini", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert lines and all(x["success"] == 1.0 for x in lines)
    assert "episodes solved" in out.stdout


def test_play_from_typed_commands(tmp_path):
    script = "open Settings\ntap 9999\nback\nquit\n"
    out = run("play", "--task", "SettingsWifiToggle", "--out", str(tmp_path), stdin=script)
    assert out.returncode == 0, out.stderr
    assert "Goal: Turn Wi-Fi" in out.stdout
    assert "out of range" in out.stdout  # a bad index is reported, not a crash
    assert len(list(tmp_path.glob("step_*.png"))) == 4


@pytest.mark.slow
def test_bench_json_has_the_required_figures():
    out = run("bench", "--json", "--quick", timeout=600)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    for key in ("steps_per_s_text", "ms_per_step_screenshot", "reset_ms", "snapshot_restore_ms",
                "rss_mb_per_env"):
        assert isinstance(res[key], float) and res[key] > 0
