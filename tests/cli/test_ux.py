"""What the commands show a person: summary.md's columns say what they measure, `antrap play`
says which task it drew and draws one not already done, `antrap traps` writes a fixed
duration as one number, and the progress bar's ETA weighs episodes by what they cost."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], input=stdin, capture_output=True, text=True,
                          timeout=300)


def summary_md(out: Path, runs: int) -> str:
    """summary.md of a real run: oracle and random on one template, clean and under loop."""
    config = EvalConfig(agents=[AgentSpec.make("oracle"), AgentSpec.make("random")],
                        suite="SettingsWifiToggle", variants=2, traps="loop", runs=runs,
                        screens="none")
    evaluate(config, out, inline=True, progress=False, artifacts=False)
    return (out / "summary.md").read_text()


# ------------------------------------------------------------------------------------------------
# summary.md


def test_summary_names_the_trap_column_for_what_it_measures_and_defines_it(tmp_path):
    md = summary_md(tmp_path / "run", runs=1)
    assert "Recovered" not in md
    header = next(line for line in md.splitlines() if line.startswith("| Agent | Trap |"))
    assert "Back to pre-trap" in header
    table_end = max(i for i, line in enumerate(md.splitlines()) if line.startswith("| random | loop"))
    definition = md.splitlines()[table_end + 2]  # the line under the table
    assert definition.startswith("Back to pre-trap (%):") and "not success" in definition


def test_pass_at_k_is_shown_only_with_several_runs(tmp_path):
    once = summary_md(tmp_path / "once", runs=1)
    assert "## Pass@" not in once and "Pass@1 (%)" not in once
    assert "Pass@k needs `--runs` > 1" in once
    twice = summary_md(tmp_path / "twice", runs=2)
    assert "## Pass@2 (%)" in twice and "Pass@k needs" not in twice
    pass_rows = twice.split("## Pass@2 (%)")[1].split("##")[0]
    assert re.search(r"^\| oracle \| 100\.0 ", pass_rows, re.M)


# ------------------------------------------------------------------------------------------------
# antrap traps


def test_traps_writes_a_fixed_duration_as_one_number():
    from antrap_gym.traps import TRAP_CLASSES

    res = run("traps")
    assert res.returncode == 0, res.stderr
    assert not re.search(r"\b(\d+)\s*[-–]\s*\1\b", res.stdout)  # no "1-1" anywhere
    rows = {cells[2]: cells[4] for line in res.stdout.splitlines()
            if len(cells := [c.strip() for c in line.split("│")]) > 3 and cells[2] in TRAP_CLASSES}
    assert set(rows) == set(TRAP_CLASSES)
    for trap, cls in TRAP_CLASSES.items():
        low, high = cls.default_schedule.duration
        if low == high:
            assert rows[trap] == f"{low} step" + ("s" if low > 1 else ""), (trap, rows[trap])
        else:
            assert rows[trap] == f"{low}–{high} steps", (trap, rows[trap])
    assert {low == high for low, high in (c.default_schedule.duration
                                          for c in TRAP_CLASSES.values())} == {True, False}


# ------------------------------------------------------------------------------------------------
# antrap play


def goal_holds(env) -> bool:
    """Whether the task just set up in `env` needs no change: its check passes, or its
    reference check does (a Verify row starts in the goal state)."""
    base = env.unwrapped
    task, device = base.episode.task, base.device
    return task.is_successful(device) >= 1.0 or \
        task.is_successful(device, None, grading="reference") >= 1.0


def test_play_says_which_task_it_drew_and_draws_one_not_already_done(tmp_path):
    import gymnasium as gym

    import antrap_gym  # noqa: F401

    env = gym.make("antrap/AndroidSim-v0")
    # the first seed whose default draw starts in its goal state (a Verify row)
    done_at = next(s for s in range(500) if env.reset(seed=s) and goal_holds(env))
    done_task = env.unwrapped.episode.task.task_id()
    res = run("play", "--seed", str(done_at), "--out", str(tmp_path), stdin="quit\n")
    assert res.returncode == 0, res.stderr
    task, seed, budget = re.search(r"^Task: (\w+)\s+seed (\d+)\s+budget (\d+) steps$",
                                   res.stdout, re.M).groups()
    obs, info = env.reset(seed=int(seed))  # the draw play made, made again
    assert info["task"] == task and info["budget"] == int(budget)
    assert f"\nGoal: {info['goal']}\n" in res.stdout
    assert not goal_holds(env)
    assert env.unwrapped.episode.task.is_successful(env.unwrapped.device) == 0.0
    # the seed asked for starts in its goal state: play said so and moved on
    assert int(seed) > done_at
    assert f"Skipped seed {done_at}: {done_task}" in res.stdout
    env.close()


def test_play_default_draws_never_start_done(tmp_path):
    import gymnasium as gym

    import antrap_gym  # noqa: F401
    from antrap_gym.cli.play import draw

    env = gym.make("antrap/AndroidSim-v0")
    skipped_any = False
    for seed in range(30):
        obs, info, used, skipped = draw(env, seed)
        assert not goal_holds(env), (seed, info["task"])
        assert used == seed + len(skipped)
        skipped_any |= bool(skipped)
    assert skipped_any  # some seeds draw a Verify row first: the skip was exercised
    # a named task is played as asked, with a note when its goal already holds
    obs, info, used, skipped = draw(env, 0, "SystemBrightnessMinVerify")
    assert (info["task"], used, skipped) == ("SystemBrightnessMinVerify", 0, [])
    env.close()
    res = run("play", "--task", "SystemBrightnessMinVerify", "--out", str(tmp_path), stdin="quit\n")
    assert res.returncode == 0, res.stderr
    assert re.search(r"^Task: SystemBrightnessMinVerify\s+seed 0\s", res.stdout, re.M)
    assert "Note: the phone starts in its goal state" in res.stdout and "Skipped" not in res.stdout


# ------------------------------------------------------------------------------------------------
# the progress bar of `antrap eval`


def test_eta_counts_what_the_pending_episodes_cost_not_the_mean_so_far():
    from antrap_gym.eval.progress import CostModel, eta_seconds

    model = CostModel()
    for _ in range(10):  # the fast agent's episodes: 1 s each
        model.add("fast", 10, 1.0)
    for _ in range(2):  # the slow agent's first two: 10 s each
        model.add("slow", 10, 10.0)
    pending = [("slow", 10)] * 8
    # one worker: 30 episode-seconds done in 30 s; 8 slow episodes left are 80 s of work
    assert eta_seconds(model, pending, work_s=30.0, elapsed_s=30.0) == 80.0
    # (the mean episode so far, 30 s / 12, would have said 20 s)
    # two workers got the same work done in half the time: half the time left
    assert eta_seconds(model, pending, work_s=30.0, elapsed_s=15.0) == 40.0
    # episodes left of both agents: each at its own cost
    assert eta_seconds(model, [("fast", 10)] * 5 + [("slow", 10)] * 3, 30.0, 30.0) == 35.0


def test_eta_scales_a_cost_by_the_template_budget_when_that_budget_is_new():
    from antrap_gym.eval.progress import CostModel, eta_seconds

    model = CostModel()
    model.add("slow", 10, 10.0)  # 1 s a budget step
    model.add("fast", 20, 2.0)  # 0.1 s a budget step
    assert model.expected("slow", 10) == 10.0
    assert model.expected("slow", 30) == 30.0  # the slow agent's rate, a longer task
    assert model.expected("fast", 10) == 1.0
    # an agent with nothing finished yet: every agent's mean per budget step, (1 + 0.1) / 2
    assert math.isclose(model.expected("new", 20), 11.0)
    assert eta_seconds(CostModel(), [("slow", 10)], 0.0, 5.0) is None  # nothing known yet
    assert eta_seconds(model, [], 12.0, 12.0) == 0.0


def test_a_result_costs_the_bar_the_same_however_many_episodes_are_left():
    """The main job has 15,048 episodes: the ETA is summed per (agent, budget) kind of
    pending episode, never per episode, so a result's update does not grow with the run
    (a per-episode sum made the eval's own process its bottleneck)."""
    from antrap_gym.eval.progress import CostModel, EvalProgress
    from antrap_gym.eval.spec import EpisodeSpec

    config = EvalConfig(agents=[AgentSpec.make("oracle"), AgentSpec.make("random")],
                        suite="antrap", variants=3, traps="all", screens="none")
    specs: list[EpisodeSpec] = config.episodes()
    asked: list[tuple[str, int]] = []

    class CountingModel(CostModel):
        def expected(self, agent: str, budget: int) -> float | None:
            asked.append((agent, budget))
            return super().expected(agent, budget)

    bar = EvalProgress(specs, [], Console(file=io.StringIO()), disable=True)
    bar.model = CountingModel()
    kinds = len(bar.pending)
    assert len(specs) > 100 * kinds  # many episodes of each kind
    for spec in specs[:50]:
        bar.advance({"id": spec.key, "agent": spec.agent.label, "task": spec.task,
                     "success": 1.0, "wall_s": 0.5})
    assert 0 < len(asked) <= 50 * kinds


def test_success_is_shown_per_agent():
    from antrap_gym.eval.progress import agent_rates

    records = [{"agent": "oracle", "success": 1.0}] * 3 + [
        {"agent": "replay", "success": s} for s in (1.0, 0.0, 1.0, 1.0)] + [
        {"agent": "random", "success": 0.0}]
    assert agent_rates(records, ["oracle", "replay", "random", "model"]) == \
        "oracle 100% · replay 75% · random 0% · model –"


def test_the_bar_of_a_real_run_shows_each_agents_success(tmp_path):
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    config = EvalConfig(agents=[AgentSpec.make("oracle"), AgentSpec.make("random")],
                        suite="SettingsWifiToggle", variants=2, traps="none", screens="none")
    evaluate(config, tmp_path / "run", inline=True, console=console, artifacts=False)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    assert "4/4" in text and "oracle 100% · random 0%" in text
    assert "eta 0:00:00" in text
