"""`antrap report` merges only runs whose cells mean the same thing: runs that differ in what
defines their episodes (suite, variants, runs, trap settings...) or that hold the same
episodes are refused with what differs, unless `--allow-mixed`, and then the summary says so.
Real runs of `antrap eval` on one or two templates, one variant, in this process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from antrap_gym.eval import load_records

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]
WIFI = "SettingsWifiToggle"
TWO = "SettingsWifiToggle,SystemWifiTurnOff"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], capture_output=True, text=True, timeout=300)


def evaluate(out: Path, *args: str, agent: str = "oracle", suite: str = WIFI) -> Path:
    """A finished `antrap eval` run in `out` (one variant, clean unless `--traps` says)."""
    res = run("eval", "--agent", agent, "--suite", suite, "--variants", "1", "--inline",
              "--screens", "none", "--out", str(out), *(args or ("--traps", "none")))
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    return out


def said(res: subprocess.CompletedProcess) -> str:
    """What a command printed, with rich's line breaks undone."""
    return " ".join((res.stdout + res.stderr).split())


def records(run_dir: Path) -> list[dict]:
    return load_records(run_dir)


def test_runs_of_different_suites_are_refused_naming_the_difference(tmp_path):
    a = evaluate(tmp_path / "a", "--traps", "none", "--label", "oracle-a")
    b = evaluate(tmp_path / "b", "--traps", "none", "--label", "oracle-b", suite=TWO)
    merged = tmp_path / "merged"
    res = run("report", str(a), str(b), "--out", str(merged))
    assert res.returncode == 2, said(res)
    assert f"suite: {WIFI} in {a} vs {TWO} in {b}" in said(res)
    assert "--allow-mixed" in said(res) and "Traceback" not in said(res)
    assert not merged.exists()  # nothing written


def test_allow_mixed_merges_and_the_summary_says_the_cells_mix_setups(tmp_path):
    a = evaluate(tmp_path / "a", "--traps", "none")
    b = evaluate(tmp_path / "b", "--traps", "none", suite=TWO)
    merged = tmp_path / "merged"
    res = run("report", str(a), str(b), "--allow-mixed", "--out", str(merged))
    assert res.returncode == 0, said(res)
    summary = json.loads((merged / "summary.json").read_text())
    difference = f"suite: {WIFI} in {a} vs {TWO} in {b}"
    assert difference in summary["mixed_setups"]
    md = (merged / "summary.md").read_text()
    assert "**Mixed setups:**" in md and f"- {difference}" in md
    assert "Mixed setups:" in said(res)  # on the terminal too
    # both runs hold oracle|SettingsWifiToggle|0|clean|0: one record kept, and the summary says so
    assert len(records(merged)) == 2 and len(records(a)) + len(records(b)) == 3
    assert records(merged)[0] == records(a)[0]
    assert any("1 episode(s) of agent 'oracle' are in more than one run" in line
               and "the first run's record of each was kept" in line
               for line in summary["mixed_setups"])
    assert json.loads((merged / "report.json").read_text())["setup"] is None


def test_runs_that_differ_in_trap_settings_or_runs_are_refused(tmp_path):
    clean = evaluate(tmp_path / "clean", "--traps", "none", "--label", "x")
    loop = evaluate(tmp_path / "loop", "--traps", "loop", "--label", "y")
    twice = evaluate(tmp_path / "twice", "--traps", "none", "--runs", "2", "--label", "z")
    res = run("report", str(clean), str(loop), str(twice), "--out", str(tmp_path / "m"))
    assert res.returncode == 2, said(res)
    assert f"settings: clean in {clean} vs clean, loop in {loop}" in said(res)
    assert f"runs: 1 in {clean} vs 2 in {twice}" in said(res)
    # the same trap type with other parameters is another setting too
    protocol = tmp_path / "p.yaml"
    protocol.write_text("settings:\n  - clean\n  - name: loop\n    traps:\n"
                        "      - {type: loop, p: 0.5}\n")
    other = evaluate(tmp_path / "other", "--traps", str(protocol), "--label", "w")
    res = run("report", str(loop), str(other), "--out", str(tmp_path / "m"))
    assert res.returncode == 2, said(res)
    assert "setting loop:" in said(res) and "0.5" in said(res)


def test_same_setup_runs_of_different_agents_merge_as_before(tmp_path):
    a = evaluate(tmp_path / "a", "--traps", "loop", suite=TWO)
    b = evaluate(tmp_path / "b", "--traps", "loop", agent="random", suite=TWO)
    merged = tmp_path / "merged"
    res = run("report", str(a), str(b), "--out", str(merged))
    assert res.returncode == 0, said(res)
    summary = json.loads((merged / "summary.json").read_text())
    assert set(summary["agents"]) == {"oracle", "random"} and "mixed_setups" not in summary
    assert "Mixed setups" not in (merged / "summary.md").read_text()
    assert len(records(merged)) == len(records(a)) + len(records(b)) == 8
    setup = json.loads((merged / "report.json").read_text())["setup"]
    assert setup["suite"] == TWO and setup["runs"] == 1
    # the report carries the common setup: it merges on with a third run of that setup ...
    c = evaluate(tmp_path / "c", "--traps", "loop", agent="replay", suite=TWO)
    again = run("report", str(merged), str(c), "--out", str(tmp_path / "again"))
    assert again.returncode == 0, said(again)
    # ... and is refused with a run of another one
    d = evaluate(tmp_path / "d", "--traps", "none", agent="replay")
    refused = run("report", str(merged), str(d), "--out", str(tmp_path / "refused"))
    assert refused.returncode == 2 and f"suite: {TWO} in {merged} vs {WIFI} in {d}" in said(refused)


def test_the_same_episodes_in_two_runs_are_refused_not_replaced(tmp_path):
    a = evaluate(tmp_path / "a")
    b = evaluate(tmp_path / "b", "--traps", "none", agent="random", suite=WIFI)
    relabelled = tmp_path / "b2"  # b's episodes under a's label, as a second run of one agent
    relabelled.mkdir()
    (relabelled / "config.json").write_bytes((b / "config.json").read_bytes())
    (relabelled / "episodes.jsonl").write_text("".join(
        json.dumps({**r, "agent": "oracle", "id": r["id"].replace("random|", "oracle|", 1)}) + "\n"
        for r in records(b)))
    res = run("report", str(a), str(relabelled), "--out", str(tmp_path / "m"))
    assert res.returncode == 2, said(res)
    assert (f"1 episode(s) of agent 'oracle' are in more than one run "
            f"(e.g. oracle|{WIFI}|0|clean|0 in {a} and in {relabelled})") in said(res)
    assert "--label" in said(res) and not (tmp_path / "m").exists()


def test_a_directory_without_a_recorded_setup_is_refused(tmp_path):
    a = evaluate(tmp_path / "a")
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "episodes.jsonl").write_text("".join(
        json.dumps({**r, "agent": "old", "id": r["id"].replace("oracle|", "old|", 1)}) + "\n"
        for r in records(a)))
    res = run("report", str(a), str(bare), "--out", str(tmp_path / "m"))
    assert res.returncode == 2, said(res)
    assert f"{bare}: no config.json" in said(res)
    res = run("report", str(a), str(bare), "--allow-mixed", "--out", str(tmp_path / "m"))
    assert res.returncode == 0, said(res)
