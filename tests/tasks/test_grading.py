"""Grading by our checks or by the reference's (`grading="reference"`, docs/grading.md).

For each kind of difference the templates declare, an episode that one grading passes
and the other fails, played through the env as an agent would (the phone's state set
through its shell where an agent's work is not the point); the CLI's `--grading` end
to end; and docs/grading.md's table against the declarations."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable

import gymnasium as gym
import numpy as np
import pytest

import antrap_gym  # noqa: F401  (registers the envs)
from antrap_gym.device.sim import SimDevice
from antrap_gym.eval import AgentSpec, EvalConfig, load_records
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.apps import calendar as cal
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.base import Task, grade
from antrap_gym.tasks.checks import SettingEquals
from antrap_gym.tasks.steps import Tap, Target
from antrap_gym.tasks.template import template
from tests.paths import ROOT

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]
COMPLETE = {"action_type": "status", "goal_status": "complete"}


def success(tid: str, grading: str, seed: int = 0,
            act: Callable[[gym.Env], None] = lambda env: None, answer: str | None = None) -> float:
    """The reward of one episode of `tid`: `act` does the agent's part, then the agent
    answers (when given) and says it is done."""
    env = gym.make("antrap/AndroidSim-Text-v0", grading=grading)
    try:
        env.reset(seed=seed, options={"task": tid})
        act(env)
        if answer is not None:
            env.step({"action_type": "answer", "text": answer})
        *_, info = env.step(COMPLETE)
        assert info["grading"] == grading
        return info["success"]
    finally:
        env.close()


def both(tid: str, **kw) -> tuple[float, float]:
    """(ours, the reference's) for the same episode."""
    return success(tid, "ours", **kw), success(tid, "reference", **kw)


def shell(env: gym.Env, cmd: str) -> None:
    res = env.unwrapped.device.shell(cmd)
    assert res.exit_code == 0, (cmd, res.stderr)


# --- each kind of difference -------------------------------------------------------------------


def test_a_verify_row_done_nothing_passes_only_the_reference():
    """The phone starts in the goal state: the reference's check holds untouched; ours
    also wants the page showing the state in front."""
    for tid in ("SystemWifiTurnOnVerify", "SystemBrightnessMinVerify"):
        assert both(tid) == (0.0, 1.0), tid


def test_an_untouched_note_passes_antraps_fuzzy_wrap_check_only():
    assert both("MarkorWrapInBrackets") == (0.0, 1.0)
    assert both("MarkorReplaceWord", seed=2) == (0.0, 1.0)  # a short note: most seeds


def test_the_wrapped_note_passes_both():
    def wrap(env):
        p = env.unwrapped.episode.task.params
        shell(env, f"printf '%s' {Task.q('[' + p['original_content'] + ']')} > "
                   f"{Task.q(mk.note_path(p['file_name']))}")

    assert both("MarkorWrapInBrackets", act=wrap) == (1.0, 1.0)


def test_an_answer_written_another_way_passes_ours_only():
    """AndroidWorld's rule casts each item with float(): "6 tasks" does not parse."""
    assert both("TasksDueNextWeek", answer="6 tasks") == (1.0, 0.0)
    assert both("TasksDueNextWeek", answer="6") == (1.0, 1.0)


def test_a_repeated_title_passes_androidworlds_answer_rule_only():
    """Its rule lets every item match any expected title; ours matches them one to one."""
    cls = TEMPLATES["SimpleCalendarAnyEventsOnDate"]
    titles = cls(cls.generate_params(np.random.default_rng(0))).expected().split(", ")
    assert len(set(titles)) == 3
    assert both("SimpleCalendarAnyEventsOnDate", answer=", ".join([titles[0]] * 3)) == (0.0, 1.0)
    assert both("SimpleCalendarAnyEventsOnDate", answer=", ".join(titles)) == (1.0, 1.0)


def _add_event(location: str) -> Callable[[gym.Env], None]:
    """The asked event saved (as the app saves it: after the seeded ones), at `location`."""
    def act(env):
        p = env.unwrapped.episode.task.params
        cal.seed_events(env.unwrapped.device, [*p["noise"], {**p["event"], "location": location}])
    return act


def test_an_event_saved_with_a_location_passes_ours_only():
    assert both("SimpleCalendarAddOneEvent", act=_add_event("Office")) == (1.0, 0.0)
    assert both("SimpleCalendarAddOneEvent", act=_add_event("")) == (1.0, 1.0)


def test_a_note_saved_again_unchanged_fails_the_reference_of_delete_newest():
    """The reference compares the other notes' times, ours their bytes."""
    def delete_newest(touch: bool):
        def act(env):
            p = env.unwrapped.episode.task.params
            shell(env, f"rm {Task.q(mk.note_path(p['newest']))}")
            if touch:
                other = next(n for n in p["notes"] if n != p["newest"])
                shell(env, f"touch -d 2020-01-01T00:00:00 {Task.q(mk.note_path(other))}")
        return act

    assert both("MarkorDeleteNewestNote", act=delete_newest(touch=True)) == (1.0, 0.0)
    assert both("MarkorDeleteNewestNote", act=delete_newest(touch=False)) == (1.0, 1.0)


def test_a_difference_not_reproduced_and_a_template_without_one_grade_alike():
    assert TEMPLATES["SystemNfcTurnOn"].reference_check is None  # declared, not reproduced
    assert "check" in dict(TEMPLATES["SystemNfcTurnOn"].spec.differs)
    for tid in ("SystemNfcTurnOn", "SystemWifiTurnOn", "MarkorCreateNote"):
        assert TEMPLATES[tid].reference_check is None or tid == "SystemNfcTurnOn"
        assert both(tid) == (0.0, 0.0), tid


def test_the_task_api_takes_the_grading_and_refuses_another():
    cls = TEMPLATES["SystemBluetoothTurnOffVerify"]
    task, dev = cls(cls.generate_params(np.random.default_rng(0))), SimDevice()
    task.setup(dev)
    assert task.is_successful(dev) == 0.0
    assert task.is_successful(dev, None, grading="reference") == 1.0
    with pytest.raises(ValueError, match="ours, reference"):
        task.is_successful(dev, None, grading="theirs")
    with pytest.raises(ValueError, match="ours, reference"):
        gym.make("antrap/AndroidSim-Text-v0", grading="theirs")


class _HandWritten(Task):
    """The escape hatch, written before grading existed: no `grading` parameter."""

    def is_successful(self, device, answer=None) -> float:
        return 0.25


def test_a_hand_written_class_is_graded_by_its_own_check_either_way():
    task = _HandWritten({})
    assert grade(task, SimDevice(), None, "ours") == grade(task, SimDevice(), None, "reference") == 0.25


# --- declarations ---------------------------------------------------------------------------------


def _scratch(**kw):
    base = dict(id="ScratchGrading", apps=(st.PKG,), complexity=1.0, kind="action", split="train",
                goal="Set the timeout.", params=lambda rng: {}, source="AnTrap",
                check=SettingEquals("system", "screen_off_timeout", "120000"),
                solution=[st.open_app(), Tap(screen=st.HOME, target=Target(text="Display"))],
                register_it=False)
    return template(**{**base, **kw})


def test_a_declaration_says_how_it_differs_and_only_a_reference_template_does():
    ref = SettingEquals("system", "screen_off_timeout", "60000")
    with pytest.raises(ValueError, match="differs"):
        _scratch(reference_check=ref)
    with pytest.raises(ValueError, match="only a reference template"):
        _scratch(source="antrap-gym", differs={"goal": "worded otherwise"})
    with pytest.raises(ValueError, match="aspect"):
        _scratch(differs={"mood": "gloomier"})
    with pytest.raises(TypeError, match="check library"):
        _scratch(reference_check=lambda dev, a: 1.0, differs={"check": "a lambda"})
    cls = _scratch(reference_check=ref, differs={"check": "ours wants 2 minutes"})
    assert cls.reference_check is ref and dict(cls.spec.differs) == {"check": "ours wants 2 minutes"}


def _tool():
    spec = importlib.util.spec_from_file_location("grading_table", ROOT / "docs/tools/grading_table.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_docs_table_is_the_declarations():
    tool = _tool()
    assert tool.main(["--check"]) == 0, "docs/grading.md is stale: run python docs/tools/grading_table.py"
    listed = {t for *_, ids in tool.rows() for t in ids}
    declared = {t for t, c in TEMPLATES.items() if c.spec.differs}
    regraded = {t for t, c in TEMPLATES.items() if c.reference_check is not None}
    assert listed == declared and regraded <= declared
    assert {"SystemWifiTurnOnVerify", "MarkorWrapInBrackets", "TasksDueNextWeek",
            "SimpleCalendarAddOneEvent", "MarkorDeleteNewestNote", "SystemNfcTurnOff"} <= listed


# --- the command line -------------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_eval_grades_by_the_reference_with_the_flag_and_keeps_runs_apart(tmp_path):
    common = ["--agent", "tests.tasks.grading_agents:IdleAgent", "--suite", "SystemWifiTurnOnVerify",
              "--variants", "1", "--traps", "none", "--workers", "1", "--screens", "none"]
    runs = {}
    for grading in ("ours", "reference"):
        out = tmp_path / grading
        res = run("eval", *common, "--grading", grading, "--out", str(out))
        assert res.returncode == 0, res.stderr[-2000:]
        records = load_records(out)
        assert [(r["grading"], r["success"]) for r in records] == \
            [(grading, 1.0 if grading == "reference" else 0.0)]
        assert json.loads((out / "config.json").read_text())["grading"] == grading
        assert f"`--grading {grading}`" in (out / "summary.md").read_text()
        runs[grading] = (out, res.stdout)
    assert "graded by the reference's checks" in runs["reference"][1]
    assert "graded by the reference's checks" not in runs["ours"][1]
    resumed = run("eval", *common, "--grading", "ours", "--resume", "--out", str(runs["reference"][0]))
    assert resumed.returncode == 2 and "grading: reference there, ours now" in resumed.stdout
    merged = run("report", str(runs["ours"][0]), str(runs["reference"][0]), "--out",
                 str(tmp_path / "merged"))
    assert merged.returncode == 2 and "grading" in merged.stdout
    bad = run("eval", *common, "--grading", "theirs", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and "--grading" in bad.stderr and not (tmp_path / "bad").exists()


def test_the_config_refuses_an_unknown_grading():
    with pytest.raises(ValueError, match="grading"):
        EvalConfig(agents=[AgentSpec.make("oracle")], traps="none", grading="theirs")
