"""The `antrap` command line, run as a user would (subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from antrap_gym.eval import load_records
from antrap_gym.eval.viewer import ROWS_FILE, read_rows
from tests.paths import ROOT

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]


def run(*args: str, stdin: str | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def test_tasks_json_lists_every_template():
    from antrap_gym.tasks import TEMPLATES

    out = run("tasks", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert {r["id"] for r in rows} == set(TEMPLATES)
    for r in rows:
        assert r["apps"] and r["max_steps"] >= 1 and r["example_goal"]
        assert r["source"] == TEMPLATES[r["id"]].source and r["kind"] == TEMPLATES[r["id"]].kind


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
    out = run("bench", "--json", "--quick", "--suite", "antrap-mini", timeout=600)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    for key in ("steps_per_s_text", "ms_per_step_screenshot", "reset_ms", "snapshot_restore_ms",
                "rss_mb_per_env"):
        assert isinstance(res[key], float) and res[key] > 0
    # every figure with a target comes with its spread over the repeats
    for key in res["targets"]:
        sp = res[f"{key}_spread"]
        assert sp["min"] <= res[key] <= sp["max"], (key, res[key], sp)
    assert res["trap_overhead_worst_type"] in {k.removeprefix("trap_overhead_pct_") for k in res}


# ------------------------------------------------------------------------------------------------
# antrap eval / report

def _image_sources(viewer: Path) -> list[Path]:
    """Every image the viewer shows -- its page's and every episode's frames (the records in
    viewer/data/NNN.js name them relative to the run folder, the page's parent) -- resolved."""
    import re
    from urllib.parse import unquote

    from antrap_gym.eval.viewer import read_chunk

    texts = [re.sub(r"<script>.*?</script>", "", page.read_text(encoding="utf-8"), flags=re.S)
             for page in sorted(viewer.glob("*.html"))]  # the page's markup, not its renderer
    srcs = [unquote(src) for text in texts for src in re.findall(r'<img src="([^"]+)"', text)]
    chunks = sorted((viewer / "data").glob("[0-9]*.js"))  # the episodes' records, not the rows
    srcs += ["../" + f for chunk in chunks for _, record in read_chunk(chunk)
             for f in (record.get("screens") or {}).get("files", [])]
    return [(viewer / src).resolve() for src in srcs]


def test_report_merges_two_runs_into_a_new_directory_with_their_screenshots(tmp_path):
    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    runs = {}
    for agent, screens in (("oracle", "all"), ("replay", "all")):
        cfg = EvalConfig(agents=[AgentSpec.make(agent)], suite="antrap-mini",
                         traps="loop,external_interruption", screens=screens)
        runs[agent] = tmp_path / agent
        evaluate(cfg, runs[agent], workers=2, progress=False)
    before = {a: (d / "summary.json").read_bytes() for a, d in runs.items()}
    merged = tmp_path / "merged"
    out = run("report", str(runs["oracle"]), str(runs["replay"]), "--out", str(merged))
    assert out.returncode == 0, out.stderr
    # the runs merged are left as they were
    assert {a: (d / "summary.json").read_bytes() for a, d in runs.items()} == before
    summary = json.loads((merged / "summary.json").read_text())
    assert set(summary["agents"]) == {"oracle", "replay"}
    assert summary["agents"]["oracle"]["episodes"] == summary["agents"]["replay"]["episodes"] == 18
    md = (merged / "summary.md").read_text()
    assert "| oracle |" in md and "| replay |" in md
    assert "oracle" in out.stdout and "replay" in out.stdout  # the table
    assert len(load_records(merged)) == 36
    # the merged viewer's images all load from the merged directory itself
    assert len(read_rows(merged / "viewer" / ROWS_FILE)) == 36
    imgs = _image_sources(merged / "viewer")
    shots = [p for p in imgs if "screens" in p.parts]
    assert len(shots) >= 36 * 2  # every episode kept its screens: a few frames each
    missing = [p for p in imgs if not p.is_file()]
    assert not missing, missing[:5]
    assert all(merged.resolve() in p.parents for p in imgs)
    merged_records = load_records(merged)
    assert {r["agent"] for r in merged_records if r.get("screens")} == {"oracle", "replay"}
    # again into the same place: an earlier report is replaced, not refused
    again = run("report", str(runs["oracle"]), "--out", str(merged))
    assert again.returncode == 0, again.stderr
    assert set(json.loads((merged / "summary.json").read_text())["agents"]) == {"oracle"}
    assert all(p.is_file() for p in _image_sources(merged / "viewer"))
    assert {r["agent"] for r in read_rows(merged / "viewer" / ROWS_FILE)} == {"oracle"}


def test_report_never_writes_into_a_run_and_defaults_to_a_fresh_directory(tmp_path):
    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    a = tmp_path / "a"
    evaluate(EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none",
                        screens="none"), a, workers=1, progress=False)
    summary = (a / "summary.json").read_bytes()
    refused = run("report", str(a), "--out", str(a))
    assert refused.returncode == 2 and "one of the runs" in " ".join(refused.stdout.split())
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    refused = run("report", str(a), "--out", str(other))
    assert refused.returncode == 2 and "not empty" in " ".join(refused.stdout.split())
    assert (a / "summary.json").read_bytes() == summary
    res = subprocess.run([*ANTRAP, "report", str(a)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    made = list((tmp_path / "runs").glob("report-*"))
    assert len(made) == 1 and (made[0] / "summary.json").is_file()
    assert (a / "summary.json").read_bytes() == summary


def _plain(text: str) -> str:
    """Terminal output without ANSI escapes."""
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_eval_agent_options_reach_the_agent_and_the_progress_bar_renders(tmp_path, monkeypatch):
    """`--model/--base-url/--prompt/--coords/--api-key-env/--agent-arg` build the openai
    agent (typed values), its requests show them, and the progress bar shows episodes done,
    success so far and the ETA while the run goes."""
    import re
    import time

    from tests.agents.test_openai_agent import ChatServer

    def brain(req):
        time.sleep(0.25)  # a slow model: the bar gets to show the run in progress
        return 'Reason: I cannot do this.\nAction: {"action_type": "status", "goal_status": "infeasible"}'

    server = ChatServer(brain)
    out = tmp_path / "run"
    env = {**__import__("os").environ, "FORCE_COLOR": "1", "COLUMNS": "160", "MY_TEST_KEY": "sk-cli"}
    try:
        res = subprocess.run(
            [*ANTRAP, "eval", "--agent", "oracle", "--agent", "openai", "--model", "gui-owl-7b",
             "--base-url", server.base_url, "--prompt", "m3a", "--coords", "relative",
             "--api-key-env", "MY_TEST_KEY", "--agent-arg", "max_tokens=333",
             "--agent-arg", "temperature=0.25", "--agent-arg", "observation=text",
             "--agent-arg", "max-history=7", "--suite", "antrap-mini", "--traps", "none",
             "--workers", "1", "--screens", "none", "--out", str(out)],
            capture_output=True, text=True, timeout=300, env=env)
    finally:
        server.close()
    assert res.returncode == 0, res.stderr[-3000:]
    assert not server.errors
    # the options, typed, in the run's configuration and in every request
    cfg = json.loads((out / "config.json").read_text())
    openai = next(a for a in cfg["agents"] if a["name"] == "openai")
    assert dict(openai["kwargs"]) == {
        "model": "gui-owl-7b", "base_url": server.base_url, "prompt": "m3a", "coords": "relative",
        "api_key_env": "MY_TEST_KEY", "max_tokens": 333, "temperature": 0.25,
        "observation": "text", "max_history": 7}
    assert openai["label"] == "openai:gui-owl-7b"
    assert len(server.requests) == 6  # one per episode: each ends at its first step
    for req, headers in zip(server.requests, server.headers, strict=True):
        assert req["model"] == "gui-owl-7b" and req["max_tokens"] == 333
        assert req["temperature"] == 0.25
        system = req["messages"][0]["content"]
        assert "Available actions (JSON):" in system  # the M3A prompt
        assert "The screen's resolution is 1000x1000" in system  # relative coordinates
        assert isinstance(req["messages"][1]["content"], str)  # text observation: no image
        assert headers["Authorization"] == "Bearer sk-cli"
    records = load_records(out)
    mine = [r for r in records if r["agent"] == "openai:gui-owl-7b"]
    assert len(mine) == 6 and all(r["trajectory"][0]["raw"].startswith("Reason:") for r in mine)
    assert all(r["trajectory"][0]["action"] == {"action_type": "status",
                                                "goal_status": "infeasible"} for r in mine)
    # the progress bar: done / total, each agent's success so far, elapsed, ETA
    text = _plain(res.stdout)
    assert "oracle, openai:gui-owl-7b on antrap-mini" in text and "1 worker(s)" in text
    frames = [(int(d), rate, elapsed, eta) for d, rate, elapsed, eta in re.findall(
        r"episodes \S+\s+(\d+)/12 (.+?) • (\d+:\d\d:\d\d) eta (\S+)", text)]
    assert frames, text[-2000:]
    done = [d for d, *_ in frames]
    assert done == sorted(done) and done[-1] == 12
    assert any(0 < d < 12 for d in done)  # shown while the run was going
    # the oracle solved its 6, the model none
    assert frames[-1][1] == "oracle 100% · openai:gui-owl-7b 0%"
    rates = {d: rate for d, rate, _, _ in frames}
    model_seen = False  # a task's oracle episodes run before its model's (task-major order)
    for d in sorted(d for d in rates if d > 0):
        if rates[d] == "oracle 100% · openai:gui-owl-7b 0%":
            model_seen = True
        else:  # no model episode finished yet: it has no rate to show
            assert not model_seen and rates[d] == "oracle 100% · openai:gui-owl-7b –", rates
    assert any(re.fullmatch(r"\d+:\d\d:\d\d", eta) for d, _, _, eta in frames if 0 < d < 12)


def test_progress_bar_only_when_asked(tmp_path):
    import io

    from rich.console import Console

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite="antrap-mini", traps="none",
                     screens="none")
    for progress in (True, False):
        buf = io.StringIO()
        console = Console(file=buf, force_terminal=True, width=120)
        evaluate(cfg, tmp_path / str(progress), workers=1, progress=progress, artifacts=False,
                 console=console)
        text = _plain(buf.getvalue())
        assert ("6/6 oracle 100%" in text) == progress, text
        assert "Clean" in text  # the table, either way


def test_eval_resume_retries_infrastructure_errors_unless_told_not_to(tmp_path):
    """`--resume` runs again the episode whose worker crashed (once the cause is gone);
    `--no-retry-errors` keeps it as recorded. `--inline` cannot go with `--backend ray`."""
    flag = tmp_path / "broken"
    flag.touch()
    out = tmp_path / "run"
    cmd = [*ANTRAP, "eval", "--agent", "tests.faulty_agents:CrashingAgent",
           "--agent-arg", f"only_while={flag}", "--suite", "antrap-mini", "--traps", "none",
           "--workers", "1", "--screens", "none", "--out", str(out)]

    def records() -> dict[str, dict]:
        rows = load_records(out)
        assert len(rows) == len({r["id"] for r in rows}) == 6
        return {r["id"]: r for r in rows}

    crash_id = "CrashingAgent|SettingsBrightness|0|clean|0"
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    first = records()
    assert "worker died" in first[crash_id]["error"]
    flag.unlink()
    res = subprocess.run([*cmd, "--resume", "--no-retry-errors"], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    assert records() == first and not (out / "retried.jsonl").exists()
    res = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "retrying 1 episode" in " ".join(res.stdout.split())
    final = records()
    assert final[crash_id]["success"] == 1.0 and not final[crash_id]["error"]
    assert all(final[k] == r for k, r in first.items() if k != crash_id)
    bad = run("eval", "--inline", "--backend", "ray", "--suite", "antrap-mini",
              "--out", str(tmp_path / "x"))
    assert bad.returncode == 2 and "--inline" in bad.stdout


def test_eval_refuses_an_unknown_device_name_before_any_episode(tmp_path):
    """A mistyped --device (or device option) is a usage error, not 3,465 failed episodes."""
    for bad in ("bogus", "adb:emulator-5554?retry_windo=3", "sim,adb:x?timeout=-1"):
        res = run("eval", "--device", bad, "--suite", "antrap-mini", "--out", str(tmp_path / "run"))
        assert res.returncode == 2, (bad, res.stdout[-500:], res.stderr[-500:])
        assert "--device" in _plain(res.stdout) and not (tmp_path / "run").exists(), bad


def test_eval_warns_when_the_agent_itself_raised(tmp_path):
    """Episodes whose agent raised count as failures; the table says how many, as it does
    for infrastructure errors."""
    res = run("eval", "--agent", "tests.faulty_agents:RaisingAgent", "--suite", "antrap-mini",
              "--traps", "none", "--workers", "1", "--screens", "none", "--out", str(tmp_path / "run"))
    assert res.returncode == 0, res.stderr[-2000:]
    text = " ".join(_plain(res.stdout).split())
    assert "1 of 6 RaisingAgent episodes ended in an error of the agent's own" in text, text[-1500:]
    assert "infrastructure error" not in text


def test_the_tasks_table_prints_goals_verbatim_markup_and_all():
    """A goal with square brackets (MarkorWrapInBrackets: "so it reads [original content]")
    is text, not console markup."""
    from rich.console import Console

    from antrap_gym.cli.main import tasks_table

    row = {"id": "X", "source": "AnTrap", "apps": ["net.gsantner.markor"], "complexity": 1.1,
           "max_steps": 11, "kind": "action", "needs_scroll": False,
           "example_goal": "Wrap it so it reads [original content] and [bold]x[/bold]."}
    console = Console(record=True, width=400)
    console.print(tasks_table([row]))
    assert "[original content] and [bold]x[/bold]." in console.export_text()
