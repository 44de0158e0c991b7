"""The suites cover every kind of template; the random agent rarely succeeds and never crashes
(the oracle solving every template is the template contract's test)."""

from __future__ import annotations

import gymnasium as gym
import pytest

from antrap_gym.agents import RandomAgent
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES, get_suite


@pytest.fixture(scope="module")
def env():
    e = gym.make("antrap/AndroidSim-Text-v0")
    yield e
    e.close()


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
