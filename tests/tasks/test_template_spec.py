"""Declaring templates: what `template(...)` refuses, how a declaration binds to a
variant, composite scores, and the hand-written class as the escape hatch (it meets the
same contract, through the same env and oracle)."""

from __future__ import annotations

import numpy as np
import pytest

from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES, Task, TaskError
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import AllOf, AnswerIs, MeanOf, SettingEquals, get_setting
from antrap_gym.tasks.steps import Answer, SetSlider, Tap, Target
from antrap_gym.tasks.template import template
from tests.tasks.test_template_contract import (
    check_declaration,
    check_fails_after_setup,
    check_idle_agents_fail,
    check_oracle_solves,
    check_params,
    check_setup_and_teardown,
)

TIMEOUT = SettingEquals("system", "screen_off_timeout", "120000")
TO_2_MIN = [st.open_app(), st.tap("Display", st.HOME), st.tap("Screen timeout", st.DISPLAY),
            Tap(screen=st.DISPLAY + "|Screen timeout", target=Target(text="2 minutes"), done=DONE)]


def declare(**kw):
    base = dict(id="SpecScratch", apps=(st.PKG,), complexity=1.0, kind="action", split="test",
                goal="Set the screen timeout to 2 minutes.", params=lambda rng: {},
                setup=[st.PutSetting("system", "screen_off_timeout", 30000)], check=TIMEOUT,
                solution=TO_2_MIN, register_it=False)
    return template(**{**base, **kw})


@pytest.mark.parametrize("bad, error", [
    ({"split": "validation"}, "split"),
    ({"kind": "question"}, "kind"),
    ({"kind": "answer"}, "AnswerIs"),
    ({"check": AnswerIs("x")}, "grades no answer"),
    ({"kind": "composite"}, "composite"),
    ({"kind": "composite", "check": MeanOf(TIMEOUT)}, "composite"),
    ({"complexity": 0}, "complexity"),
    ({"apps": ()}, "apps"),
])
def test_incoherent_declarations_are_refused(bad, error):
    with pytest.raises(ValueError, match=error):
        declare(**bad)


def test_a_check_must_come_from_the_library():
    with pytest.raises(TypeError, match="check library"):
        declare(check=lambda dev, answer=None: 1.0)


def test_a_template_registers_under_its_id_once():
    assert "SpecScratch" not in TEMPLATES
    with pytest.raises(ValueError, match="duplicate"):
        declare(id="SettingsWifiToggle", register_it=True)
    assert TEMPLATES["SettingsWifiToggle"].kind == "action"


def test_a_placeholder_without_a_value_is_a_task_error_naming_it():
    with pytest.raises(TaskError, match="minutes"):
        declare(check=SettingEquals("system", "screen_off_timeout", "{minutes}"))({})
    cls = declare(solution=[st.open_app(), Tap(target=Target(text="{row}"))])
    task = cls({})
    with pytest.raises(TaskError, match="row"):
        task.solution()
    with pytest.raises(TaskError, match="shadow"):
        declare(params=lambda rng: {"n": 1}, derived=lambda p: {"n": 2})({"n": 1})


def test_solution_steps_bind_to_the_variant_and_done_to_the_check():
    cls = declare(params=lambda rng: {"row": "2 minutes"},
                  solution=[Tap(screen="{row}", target=Target(text="{row}"), done=DONE)])
    step = cls({"row": "2 minutes"}).solution()[0]
    assert (step.screen, step.target.text) == ("2 minutes", "2 minutes")
    dev = SimDevice()
    assert step.done(dev) is False
    dev.shell("settings put system screen_off_timeout 120000")
    assert step.done(dev) is True
    built = declare(solution=lambda ns: [Tap(target=Target(text="Display"), done=DONE)])({})
    assert built.solution()[0].done(dev) is True


def test_an_answer_template_answers_with_its_checks_value():
    cls = declare(kind="answer", params=lambda rng: {"duration": "2 minutes"},
                  check=AnswerIs("{duration}", kind="duration", distractors=("30 seconds",)),
                  solution=[st.open_app(), Answer(text="{answer}")])
    task = cls(cls.generate_params(np.random.default_rng(0)))
    assert cls.answer_task and cls.answer_kind == "duration"
    assert task.solution()[-1].text == task.expected() == "2 minutes"
    assert task.distractors() == ["30 seconds"]


def test_a_composite_template_scores_the_mean_of_its_parts():
    brightness = SettingEquals("system", "screen_brightness", "255")
    cls = declare(kind="composite", goal="Set the timeout to 2 minutes and the brightness to full.",
                  check=MeanOf(TIMEOUT, brightness),
                  setup=[st.PutSetting("system", "screen_off_timeout", 30000),
                         st.PutSetting("system", "screen_brightness", 30)])
    env = make_env(task=cls, obs_mode="text")
    try:
        res = run_episode(env, OracleAgent(), seed=0)  # the solution does the timeout only
        assert res.success == 0.5
    finally:
        env.close()
    assert declare(kind="composite", check=AllOf(TIMEOUT, brightness)).kind == "composite"


class SettingsFullBrightness(Task):
    """The escape hatch: a template written as a class, set-up, check and tear-down in
    code. It declares the same things a data template does."""

    template = "Turn the screen brightness all the way up."
    apps = (st.PKG,)
    complexity = 1.2
    kind = "action"
    split = "train"

    def setup(self, device) -> None:
        if not hasattr(self, "old"):
            self.old = get_setting(device, "system", "screen_brightness")
        self.sh(device, "settings put system screen_brightness 30")

    def is_successful(self, device, answer=None) -> float:
        return float(get_setting(device, "system", "screen_brightness") == "255")

    def teardown(self, device) -> None:
        device.shell(f"settings put system screen_brightness {self.old}")

    def solution(self):
        return [st.open_app(), st.tap("Display", st.HOME),
                SetSlider(screen=st.DISPLAY, target=Target(desc="Brightness level"), fraction=1.0,
                          done=lambda dev: self.is_successful(dev) >= 1.0)]


def test_a_hand_written_class_meets_the_same_contract():
    env = make_env(task=SettingsFullBrightness, obs_mode="text")
    try:
        check_declaration(SettingsFullBrightness)
        check_params(SettingsFullBrightness, range(2))
        check_setup_and_teardown(SettingsFullBrightness, range(2))
        check_fails_after_setup(SettingsFullBrightness, range(2))
        check_idle_agents_fail(env, SettingsFullBrightness, range(2))
        check_oracle_solves(env, SettingsFullBrightness, range(3))
    finally:
        env.close()


def test_the_registry_keeps_its_interface():
    """What every consumer uses, on a data template."""
    cls = TEMPLATES["ContactsPhoneQuestion"]
    task = cls(cls.generate_params(np.random.default_rng(0)))
    assert cls.task_id() == "ContactsPhoneQuestion" and cls.apps == ("com.google.android.contacts",)
    assert (cls.answer_task, cls.answer_kind, cls.needs_scroll, cls.complexity) == (True, "phone", False, 1.0)
    assert task.goal.startswith("What is ") and task.max_steps == 10
    assert task.solution()[-1].text == task.params["phone"]
