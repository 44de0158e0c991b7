"""examples/training_table.py, the per-subtype training table, on a micro budget: one seed,
two trap types, a few steps and one episode per cell (what the policies score is not
checked: the table's shape, its resumption and its interval math are).

The command runs twice (in the test's process; the --jobs runs are subprocesses): first
stopped after three units (the hidden `--stop-after`), then to the end; the second run must
leave the finished units as they were (one attempt each, the same finish time) and complete
every cell. The interval math is checked against figures worked out by hand.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

for _mod in ("torch", "transformers", "trl", "datasets", "tokenizers"):
    pytest.importorskip(_mod)

from antrap_gym.eval.metrics import newcombe, wilson  # noqa: E402
from antrap_gym.training.evaluation import success_change  # noqa: E402
from tests.training.small_policy import small_policy  # noqa: E402

TRAPS = ("external_interruption", "loop")
FIRST = 3  # units of the first, stopped run


ADDED = "grounding_error"  # a type asked for once the table stands: only what it needs runs


def command(out: Path, model: Path, *extra: str, traps: tuple[str, ...] = TRAPS,
            seeds: str = "0") -> list[str]:
    return [sys.executable, str(ROOT / "examples/training_table.py"), "--out", str(out), "--budget", "micro",
            "--seeds", seeds, "--traps", ",".join(traps), "--model", str(model), "--threads", "1",
            "--allow-dirty", *extra]


SECOND = "loop"  # the one row a second seed trains


def in_process(argv: list[str]) -> str:
    """`examples/training_table.py` ARGV run in this process (torch and TRL already loaded: the
    fixture's four invocations skip four interpreter starts), its stdout returned. The threads
    and environment it sets for its units are put back as they were. (The --jobs tests below
    run the script as a subprocess.)"""
    import contextlib
    import importlib
    import io
    import os

    import torch

    sys.path.insert(0, str(ROOT / "examples"))
    table = importlib.import_module("training_table")
    environ, threads, out = dict(os.environ), torch.get_num_threads(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            assert table.main(argv[2:]) == 0
    finally:
        os.environ.clear()
        os.environ.update(environ)
        torch.set_num_threads(threads)
    return out.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    """results.json after the stopped run and after the rerun, and the rerun's table.md."""
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.data import collect

    base = tmp_path_factory.mktemp("table")
    data = collect(base / "data", traps=["clean"], variants=1, tasks=["SettingsWifiToggle"],
                   policy_cfg=PolicyConfig(observation="text"))
    model = small_policy(data, base / "tiny")
    out = base / "out"
    first = in_process(command(out, model, "--stop-after", str(FIRST)))
    stopped = json.loads((out / "results.json").read_text())
    in_process(command(out, model))
    final, table = json.loads((out / "results.json").read_text()), (out / "table.md").read_text()
    in_process(command(out, model, traps=(*TRAPS, ADDED)))
    extended, extended_table = json.loads((out / "results.json").read_text()), (out / "table.md").read_text()
    in_process(command(out, model, traps=(SECOND,), seeds="1"))
    return {"stopped": stopped, "final": final, "table": table, "stdout": first,
            "extended": extended, "extended_table": extended_table,
            "two_seeds": json.loads((out / "results.json").read_text()),
            "two_seeds_table": (out / "table.md").read_text(), "out": out}


EXPECTED = ["seed0/sft", "seed0/eval/warm", "seed0/grpo/clean", "seed0/eval/clean",
            *(f"seed0/{kind}/{t}" for t in TRAPS for kind in ("grpo", "eval"))]


@pytest.mark.slow
def test_a_stopped_run_records_only_its_finished_units(runs):
    units = runs["stopped"]["units"]
    done = [k for k, u in units.items() if u.get("done_at")]
    assert done == EXPECTED[:FIRST]
    assert "unit(s) left" in runs["stdout"]


@pytest.mark.slow
def test_the_rerun_finishes_without_redoing_finished_units(runs):
    before, after = runs["stopped"]["units"], runs["final"]["units"]
    assert list(after) == EXPECTED
    assert all(u.get("done_at") and u["attempts"] == 1 for u in after.values())
    for key in EXPECTED[:FIRST]:
        assert after[key]["done_at"] == before[key]["done_at"]
        assert after[key]["wall_s"] == before[key]["wall_s"]
    assert len(runs["final"]["invocations"]) == 2
    assert runs["final"]["wall_s"] == pytest.approx(sum(i["wall_s"] for i in runs["final"]["invocations"]))


@pytest.mark.slow
def test_every_cell_is_evaluated_and_tabled(runs):
    units, setup = runs["final"]["units"], runs["final"]["setup"]
    assert set(units["seed0/eval/warm"]["cells"]) == {"clean", *TRAPS}
    assert set(units["seed0/eval/clean"]["cells"]) == {"clean", *TRAPS}
    for t in TRAPS:
        assert set(units[f"seed0/eval/{t}"]["cells"]) == {"clean", t}
    for unit in units.values():
        for cell in unit.get("cells", {}).values():
            assert cell["n"] >= 1 and 0.0 <= cell["ci95"][0] <= cell["rate"] <= cell["ci95"][1] <= 1.0
    assert setup["seeds"] == [0] and setup["traps"] == list(TRAPS) and setup["git"]
    table = runs["table"]
    commands = [i["command"] for i in runs["final"]["invocations"]]
    assert "--stop-after" in commands[0] and "--stop-after" not in commands[1] == setup["command"]
    for row in ("| – | warm start (SFT) |", "| – | clean GRPO |", "| State | GRPO on external_interruption |",
                "| Round | GRPO on loop |"):
        assert row in table
    assert "git: " in table and "wall time: " in table and "command: `" in table
    for row in ("| State | GRPO on external_interruption |", "| Round | GRPO on loop |"):
        assert "–" not in table.split(row)[1].split("\n")[0]  # every cell filled


@pytest.mark.slow
def test_jobs_run_units_side_by_side_each_after_what_it_reads(runs, tmp_path):
    """--jobs 2 from nothing, on one of the table's rows (six units: the warm start, its
    evaluation, clean GRPO and its evaluation, the row's GRPO and its evaluation): each unit
    run once on one of two worker processes, none started before the units whose output it reads had
    finished, and the same cells as the run in turn where the
    cell is the same (one seed, one thread: every unit's randomness comes from that seed)."""
    model = runs["out"].parent / "tiny"
    out = tmp_path / "jobs"
    row = ("loop",)
    done = subprocess.run(command(out, model, "--jobs", "2", traps=row), cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    units = json.loads((out / "results.json").read_text())["units"]
    expected = ["seed0/sft", "seed0/eval/warm", "seed0/grpo/clean", "seed0/eval/clean",
                "seed0/grpo/loop", "seed0/eval/loop"]
    assert sorted(units) == sorted(expected)
    assert all(u.get("done_at") and u["attempts"] == 1 for u in units.values())
    reads = {"seed0/eval/warm": "seed0/sft", "seed0/eval/clean": "seed0/grpo/clean",
             "seed0/grpo/clean": "seed0/sft", "seed0/grpo/loop": "seed0/sft",
             "seed0/eval/loop": "seed0/grpo/loop"}
    for key, need in reads.items():
        assert units[key]["started_at"] >= units[need]["done_at"], (key, need)
    in_turn = runs["final"]["units"]
    for key in ("seed0/eval/loop",):  # its cells are (clean, loop) in both runs
        assert units[key]["cells"] == in_turn[key]["cells"], key
    for policy in ("warm", "clean"):  # the baselines were evaluated on fewer settings here
        for setting, cell in units[f"seed0/eval/{policy}"]["cells"].items():
            assert cell == in_turn[f"seed0/eval/{policy}"]["cells"][setting], (policy, setting)
    table_row = (out / "table.md").read_text().split("| Round | GRPO on loop |")[1].split("\n")[0]
    assert "–" not in table_row


def test_a_failed_unit_under_jobs_stops_what_reads_it_and_fails_the_run(tmp_path):
    """--jobs 2 with a warm start that cannot train (no model at --model): the run exits
    non-zero with the worker's error, the SFT stays unfinished with its attempt recorded, and
    nothing that reads the warm start was started."""
    out = tmp_path / "out"
    run = subprocess.run(command(out, tmp_path / "no-such-model", "--jobs", "2"), cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode != 0
    assert "no-such-model" in run.stderr
    units = json.loads((out / "results.json").read_text())["units"]
    assert list(units) == ["seed0/sft"]
    assert units["seed0/sft"]["attempts"] == 1 and not units["seed0/sft"].get("done_at")
    assert len(units["seed0/sft"]["attempt_s"]) == 1


@pytest.mark.slow
def test_a_type_added_later_evaluates_the_baselines_on_it_alone(runs):
    before, after = runs["final"]["units"], runs["extended"]["units"]
    new = [k for k in after if k not in before]
    assert new == [f"seed0/eval/warm+{ADDED}", f"seed0/eval/clean+{ADDED}", f"seed0/grpo/{ADDED}",
                   f"seed0/eval/{ADDED}"]
    for key in before:  # nothing finished is redone
        assert after[key]["done_at"] == before[key]["done_at"] and after[key]["attempts"] == 1
    for policy in ("warm", "clean"):
        assert set(after[f"seed0/eval/{policy}+{ADDED}"]["cells"]) == {"clean", ADDED}
    row = runs["extended_table"].split(f"| Action | GRPO on {ADDED} |")[1].split("\n")[0]
    assert "–" not in row  # its changes against both baselines are filled in


@pytest.mark.slow
def test_a_second_seed_for_one_row_keeps_every_row_of_the_first(runs):
    before, after = runs["extended"]["units"], runs["two_seeds"]["units"]
    new = [k for k in after if k not in before]
    assert new == ["seed1/sft", "seed1/eval/warm", "seed1/grpo/clean", "seed1/eval/clean",
                   f"seed1/grpo/{SECOND}", f"seed1/eval/{SECOND}"]
    assert set(after["seed1/eval/warm"]["cells"]) == {"clean", SECOND}  # its baselines: that row only
    setup = runs["two_seeds"]["setup"]
    assert setup["seeds"] == [0, 1]
    assert setup["traps"] == ["external_interruption", "grounding_error", "loop"]  # the taxonomy's order
    table = runs["two_seeds_table"]
    median, seed0, seed1 = (table.split("## Median over 2 seeds")[1].split("## Seed 0")[0],
                            table.split("## Seed 0")[1].split("## Seed 1")[0], table.split("## Seed 1")[1])
    assert f"GRPO on {SECOND} |" in median and f"GRPO on {SECOND} |" in seed1
    row = median.split(f"GRPO on {SECOND} |")[1].split("\n")[0]
    assert "measured in" in row and "/2" in row  # both seeds have it
    row = median.split(f"GRPO on {ADDED} |")[1].split("\n")[0]
    assert "/1" in row  # the first seed alone
    assert f"GRPO on {ADDED} |" in seed0 and f"GRPO on {ADDED}" not in seed1  # seed 1 did not train it


@pytest.mark.slow
def test_reply_failures_counts_every_evaluated_episode(runs):
    sys.path.insert(0, str(ROOT / "docs" / "tools"))
    from reply_failures import count

    cells = runs["two_seeds"]["units"]["seed0/eval/warm"]["cells"]
    counted = count(runs["out"] / "seed0" / "eval-warm")
    assert set(counted) == set(cells)
    for setting, row in counted.items():
        assert row["episodes"] == cells[setting]["n"]
        assert row["steps"] >= row["episodes"] and 0 <= row["unparseable"] <= row["steps"]
        failed = round(cells[setting]["n"] * (1 - cells[setting]["rate"]))
        assert row["failed_with_unparseable"] <= failed


@pytest.mark.slow
def test_merge_folds_a_seed_run_elsewhere_into_the_table(runs, tmp_path):
    # the first seed's record alone, as if seed 1 had run in another --out
    (tmp_path / "results.json").write_text(json.dumps(runs["extended"]))
    cmd = [sys.executable, str(ROOT / "examples/training_table.py"), "--out", str(tmp_path),
           "--merge", str(runs["out"])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    merged, both = json.loads((tmp_path / "results.json").read_text()), runs["two_seeds"]
    assert merged["units"] == both["units"]
    assert merged["setup"]["seeds"] == [0, 1] and merged["setup"]["traps"] == both["setup"]["traps"]
    assert [i["started"] for i in merged["invocations"]] == [i["started"] for i in both["invocations"]]
    assert merged["wall_s"] == pytest.approx(both["wall_s"])
    assert "## Median over 2 seeds" in (tmp_path / "table.md").read_text()


def test_merge_keeps_its_own_finished_units_and_refuses_another_setup():
    sys.path.insert(0, str(ROOT / "examples"))
    from training_table import merge_records

    def record(budget: str, units: dict) -> dict:
        return {"setup": {"mode": "table", "budget": budget, "templates": ["SettingsWifiToggle"],
                          "model": None, "seeds": [0], "traps": ["loop"]},
                "invocations": [{"command": budget, "started": "2026-12-03T00:00:00+00:00", "wall_s": 1.0}],
                "units": units}

    mine = record("paper-cpu", {"seed0/sft": {"done_at": "a", "wall_s": 1.0},
                                "seed0/eval/warm": {"attempts": 1}})
    theirs = record("paper-cpu", {"seed0/sft": {"done_at": "b", "wall_s": 2.0},
                                  "seed0/eval/warm": {"done_at": "b", "cells": {}}})
    kept = merge_records(mine, theirs)
    assert kept == ["seed0/sft"] and mine["units"]["seed0/sft"]["done_at"] == "a"  # both finished: mine
    assert mine["units"]["seed0/eval/warm"]["done_at"] == "b"  # unfinished here, finished there: theirs
    assert len(mine["invocations"]) == 1  # the same invocation is not counted twice
    with pytest.raises(SystemExit, match="smoke"):
        merge_records(mine, record("smoke", {}))


def test_a_killed_attempts_time_stays_in_the_record(tmp_path):
    import time

    sys.path.insert(0, str(ROOT / "examples"))
    from training_table import Record

    def setup(command: str) -> dict:
        return {"mode": "table", "budget": "micro", "templates": ["SettingsWifiToggle"], "model": None,
                "seeds": [0], "traps": ["loop"], "command": command, "git": "x"}

    first = Record(tmp_path, setup("first"))
    first.start("seed0/sft")
    time.sleep(0.05)
    with first.heartbeat(every_s=0.01):  # the beat of a unit in progress reaches the file
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            saved = json.loads((tmp_path / "results.json").read_text())
            if saved["units"]["seed0/sft"]["attempt_s"][-1] >= 0.05:
                break
            time.sleep(0.01)
    # the beat may write once more as it stops: the killed attempt's time is the file's last
    saved = json.loads((tmp_path / "results.json").read_text())
    killed = saved["units"]["seed0/sft"]["attempt_s"][-1]
    assert killed >= 0.05 and saved["invocations"][0]["wall_s"] >= 0.05
    del first  # killed: nothing more is written

    again = Record(tmp_path, setup("again"))
    again.start("seed0/sft")
    again.finish("seed0/sft", 1.5, final="x")
    unit = json.loads((tmp_path / "results.json").read_text())["units"]["seed0/sft"]
    assert unit["attempts"] == 2 and unit["attempt_s"] == [killed, 1.5]
    assert unit["wall_s"] == round(killed + 1.5, 2)  # both attempts count


def _cell(k: int, n: int = 60) -> dict:
    return {"rate": k / n, "ci95": list(wilson(k, n)), "n": n}


def test_unsettled_types_are_those_within_the_points_of_zero_or_not_yet_run():
    sys.path.insert(0, str(ROOT / "examples"))
    from training_table import unsettled_types

    def seed_units(s: int, own: dict[str, int]) -> dict:
        baseline = {"clean": _cell(60), **{t: _cell(30) for t in own}}
        units = {f"seed{s}/eval/{p}": {"done_at": "x", "cells": baseline} for p in ("warm", "clean")}
        for t, k in own.items():
            units[f"seed{s}/eval/{t}"] = {"done_at": "x", "cells": {"clean": _cell(60), t: _cell(k)}}
        return units

    # against 30/60 at warm start: +25 (45), -11.7 (23), +8.3 (35), +1.7 (31)
    units = seed_units(0, {"external_interruption": 45, "visual_obscuration": 23, "loop": 35,
                           "grounding_error": 31})
    types = ["external_interruption", "visual_obscuration", "loop", "grounding_error", "state_deadlock"]
    assert unsettled_types(units, [1], types, 10) == ["loop", "grounding_error", "state_deadlock"]
    assert unsettled_types(units, [1], types, 30) == types
    # the median over the recorded seeds decides: seed 1 moves the loop row to +25 and +8.3 -> +16.7
    units |= seed_units(1, {"loop": 45})
    assert unsettled_types(units, [2], types, 10) == ["grounding_error", "state_deadlock"]
    # the seeds about to run are not counted
    assert unsettled_types(units, [1], types, 10) == ["loop", "grounding_error", "state_deadlock"]


def test_wilson_intervals_match_the_hand_computed_figures():
    z = 1.959964
    # 0 of 60: the upper bound is z^2 / (n + z^2) = 3.841459 / 63.841459
    assert wilson(0, 60) == pytest.approx((0.0, 3.841459 / 63.841459), abs=1e-6)
    assert wilson(60, 60) == pytest.approx((1 - 3.841459 / 63.841459, 1.0), abs=1e-6)
    # 39 of 60 (docs/training.md's 65.0 [52.4, 75.8]), term by term
    p, n = 0.65, 60
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(39, 60) == pytest.approx((centre - half, centre + half), abs=1e-6)
    assert [round(100 * v, 1) for v in wilson(39, 60)] == [52.4, 75.8]


def test_newcombe_change_matches_the_hand_computed_figures():
    after = {"rate": 43 / 60, "ci95": list(wilson(43, 60))}
    before = {"rate": 31 / 60, "ci95": list(wilson(31, 60))}
    ch = success_change(before, after)
    d = 12 / 60
    lo = d - math.sqrt((after["rate"] - after["ci95"][0]) ** 2 + (before["ci95"][1] - before["rate"]) ** 2)
    hi = d + math.sqrt((after["ci95"][1] - after["rate"]) ** 2 + (before["rate"] - before["ci95"][0]) ** 2)
    assert ch["delta"] == pytest.approx(d) and ch["ci95"] == pytest.approx([lo, hi])
    # the demonstration's +20.0 [+2.6, +35.8] (docs/training.md), and a measured rise
    assert [round(100 * v, 1) for v in ch["ci95"]] == [2.6, 35.8] and ch["measured"]
    # no rise: 30 of 60 both times is 0 [-17.4, +17.4], not measured
    same = {"rate": 0.5, "ci95": list(wilson(30, 60))}
    flat = success_change(same, same)
    assert flat["delta"] == 0 and not flat["measured"]
    assert flat["ci95"][0] == pytest.approx(-flat["ci95"][1])
    assert newcombe(1.0, [1.0, 1.0], 0.0, [0.0, 0.0]) == [1.0, 1.0]


def test_the_median_baselines_give_each_trap_its_seeds_spread_and_clean_grpos_change():
    sys.path.insert(0, str(ROOT / "examples"))
    from training_table import median_baselines, seed_rows

    traps = ["temporal_conflict", "loop", "state_deadlock"]
    # warm / clean GRPO successes out of 60, per seed; seed 1 has no state_deadlock baseline
    got = {0: ({"temporal_conflict": 25, "loop": 43, "state_deadlock": 47},
               {"temporal_conflict": 23, "loop": 39, "state_deadlock": 44}),
           1: ({"temporal_conflict": 42, "loop": 31}, {"temporal_conflict": 16, "loop": 33}),
           2: ({"temporal_conflict": 4, "loop": 36}, {"temporal_conflict": 31, "loop": 35})}
    units = {}
    for s, (warm, clean) in got.items():
        for p, k in (("warm", warm), ("clean", clean)):
            units[f"seed{s}/eval/{p}"] = {"done_at": "x", "cells": {"clean": _cell(60),
                                                                    **{t: _cell(v) for t, v in k.items()}}}
    per_seed = {s: seed_rows(units, s, traps) for s in got}
    rows = {line.split(" | ")[0][2:]: line for line in median_baselines(per_seed, [0, 1, 2], traps)
            if line.startswith("| ") and not line.startswith("| trap")}
    # temporal_conflict: warm 6.7 / 41.7 / 70.0, clean GRPO 26.7 / 38.3 / 51.7, changes -3.3 / -43.3 / +45.0
    assert rows["temporal_conflict"] == ("| temporal_conflict | 3 | 41.7 (6.7 to 70.0) | "
                                         "38.3 (26.7 to 51.7) | -3.3 (-43.3 to +45.0); measured in 1/3 |")
    assert rows["loop"].startswith("| loop | 3 | 60.0 (51.7 to 71.7) | 58.3 (55.0 to 65.0) | "
                                   "-1.7 (-6.7 to +3.3)")
    assert rows["state_deadlock"] == "| state_deadlock | 1 | 78.3 | 73.3 | -5.0; measured in 0/1 |"


def test_a_table_is_not_started_from_a_tree_that_no_commit_holds(tmp_path, monkeypatch):
    import importlib

    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    table = importlib.import_module("training_table")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "f.txt").write_text("one\n")
    subprocess.run([*git, "add", "f.txt"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    clean = table.git_revision(repo)
    assert len(clean) == 40 and not clean.endswith("+dirty")
    table.refuse_unrecorded(clean, allow=False)  # a commit: the table may start
    (repo / "f.txt").write_text("two\n")
    dirty = table.git_revision(repo)
    assert dirty == clean + "+dirty"
    with pytest.raises(SystemExit, match="uncommitted changes"):
        table.refuse_unrecorded(dirty, allow=False)
    table.refuse_unrecorded(dirty, allow=True)  # --allow-dirty, and the record says +dirty
    assert table.git_revision(tmp_path / "nowhere") == "unknown"
    with pytest.raises(SystemExit, match="no git checkout"):
        table.refuse_unrecorded("unknown", allow=False)


def test_every_policy_answers_the_bank_of_its_trap(runs, tmp_path):
    """--bank-size on a finished table: only the bank units run; each policy's rows are the
    same states, and the table pairs the trap's GRPO with the warm start on them."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(runs["out"], out)
    model = Path(runs["final"]["setup"]["model"])
    in_process(command(out, model, "--bank-size", "3", "--bank-suite", "antrap-mini"))
    data = json.loads((out / "results.json").read_text())
    banks = {k: u for k, u in data["units"].items() if "/bank/" in k}
    assert sorted(banks) == sorted([*(f"seed0/bank/{p}/{t}" for p in ("warm", "clean") for t in TRAPS),
                                    *(f"seed0/bank/{t}/{t}" for t in TRAPS)])
    for t in TRAPS:
        keys = {tuple(r["key"] for r in banks[f"seed0/bank/{p}/{t}"]["bank"]["rows"])
                for p in ("warm", "clean", t)}
        assert len(keys) == 1 and len(next(iter(keys))) == 3  # the same three states for every policy
    for k in runs["final"]["units"]:  # nothing trained or evaluated again
        assert data["units"][k]["done_at"] == runs["two_seeds"]["units"][k]["done_at"]
    assert data["setup"]["bank"] == {"size": 3, "suite": "antrap-mini"}
    table = (out / "table.md").read_text()
    assert "## Trap-state banks: states handled (%) on `antrap-mini`" in table
    for t in TRAPS:
        row = next(line for line in table.splitlines() if line.startswith(f"| {t} | 3 |"))
        assert "gained" in row and row.count("T") >= 3
    assert len(list((out / "banks").glob("*.pkl"))) == len(TRAPS)


@pytest.mark.slow
def test_a_warm_config_table_runs_one_unit_per_gpu_from_that_configs_recipe(runs, tmp_path):
    """--warm-config: the warm start is the named training config's SFT (its prompt, its
    templates, its keys changed by --warm-set), and GRPO trains from it on the same recipe;
    --gpus hands each concurrent unit a GPU of its own (here on CPU, `model.device=cpu`: the
    launcher is the same one a GPU machine runs). Stopped after the warm start and the two
    units that then run side by side: the record names the recipe, and one ran on each GPU."""
    model = runs["out"].parent / "tiny"
    out = tmp_path / "warm"
    recipe = ["--warm-config", "smoke_cpu", "--gpus", "0,1", "--warm-set", "model.device=cpu",
              "--warm-set", "env.tasks=[SettingsWifiToggle]", "--warm-set", "sft.max_steps=2",
              "--warm-set", "eval_after.tasks=[SettingsWifiToggle]", "--warm-set", "eval_after.variants=1",
              "--stop-after", "3"]
    done = subprocess.run(command(out, model, *recipe, traps=("loop",)), cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((out / "results.json").read_text())
    setup, units = data["setup"], data["units"]
    assert setup["warm_config"] == "configs/train/smoke_cpu.yaml"
    assert "sft.max_steps=2" in setup["warm_set"] and setup["gpus"] == ["0", "1"]
    finished = {k: u for k, u in units.items() if u.get("done_at")}
    assert sorted(finished) == ["seed0/eval/warm", "seed0/grpo/clean", "seed0/sft"]
    assert finished["seed0/eval/warm"]["started_at"] >= finished["seed0/sft"]["done_at"]
    assert {finished["seed0/eval/warm"]["gpu"], finished["seed0/grpo/clean"]["gpu"]} == {"0", "1"}
    import yaml

    warm = yaml.safe_load((out / "seed0/warm/train_config.yaml").read_text())
    assert warm["policy"]["prompt"] == "compact" and warm["env"]["tasks"] == ["SettingsWifiToggle"]
    assert warm["sft"]["max_steps"] == 2 and warm["model"]["path"] == str(model.resolve())
    grpo = yaml.safe_load((out / "seed0/grpo-clean/train_config.yaml").read_text())
    assert grpo["traps"]["mode"] == "clean" and grpo["grpo"]["init_from"] == str(out / "seed0/warm/final")
    assert grpo["policy"]["prompt"] == "compact" and grpo["grpo"]["steps"] == 2
    assert "recipe: `configs/train/smoke_cpu.yaml`" in (out / "table.md").read_text()


def test_gpus_and_warm_set_need_a_warm_config(tmp_path):
    """--gpus and --warm-set change a training config's recipe: without --warm-config the
    command refuses before it runs anything."""
    for extra in (["--gpus", "0"], ["--warm-set", "sft.max_steps=2"]):
        done = subprocess.run([sys.executable, str(ROOT / "examples/training_table.py"), "--out",
                               str(tmp_path / "x"), "--budget", "micro", "--allow-dirty", *extra],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "--warm-config" in done.stderr
        assert not (tmp_path / "x").exists()
