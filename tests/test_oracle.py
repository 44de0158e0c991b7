"""The oracle solves every template of the default suite, 20 seeded variants each."""

from __future__ import annotations

import gymnasium as gym
import pytest

from antrap_gym.agents import OracleAgent, RandomAgent
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES, get_suite

SEEDS = range(20)


@pytest.fixture(scope="module")
def env():
    e = gym.make("antrap/AndroidSim-Text-v0")
    yield e
    e.close()


@pytest.mark.parametrize("task_id", get_suite("antrap").templates)
def test_oracle_solves_every_variant(env, task_id):
    agent = OracleAgent()
    failures = []
    for seed in SEEDS:
        res = run_episode(env, agent, seed=seed, options={"task": task_id})
        errors = [s.error for s in res.trajectory if s.error]
        if res.success < 1.0 or errors or agent.faults:
            failures.append((seed, res.params, res.steps, errors[:2], agent.faults[:2],
                             [s.action for s in res.trajectory][-4:]))
    assert not failures, failures


def test_suite_covers_the_required_kinds():
    """Every kind of template is evaluated somewhere: antrap-all has answer, scroll and
    composite templates; the default (the reference templates of Markor, Settings and
    Contacts so far) has scroll and composite ones, the answer ones come with the apps
    AndroidWorld asks questions about."""
    every = [TEMPLATES[t] for t in get_suite("antrap-all").templates]
    assert sum(c.answer_task for c in every) >= 4
    assert sum(c.needs_scroll for c in every) >= 2
    default = [TEMPLATES[t] for t in get_suite("antrap").templates]
    assert sum(c.needs_scroll for c in default) >= 2
    assert any(c.kind == "composite" for c in default)
    assert set(get_suite("antrap-mini").templates) <= set(get_suite("antrap-all").templates)


def test_random_agent_rarely_succeeds_and_never_crashes(env):
    agent = RandomAgent()
    wins = 0
    for seed in range(15):
        res = run_episode(env, agent, seed=seed)
        assert res.error is None
        wins += res.success >= 1
    assert wins < 15
