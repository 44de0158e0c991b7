"""Capturing and restoring a whole trapped stack (what step-level GRPO branches from)."""

from __future__ import annotations

import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.env.state import capture, restore
from antrap_gym.registration import make_env
from antrap_gym.traps import TRAP_TYPES


def _run_to(env, task: str, steps: int, seed: int = 4):
    obs, info = env.reset(seed=seed, options={"task": task, "trap_seed": 9})
    agent = OracleAgent()
    agent.reset(env, obs, info)
    for _ in range(steps):
        obs, *_ = env.step(agent.act(obs, info))
    return obs, agent


@pytest.mark.parametrize("trap", TRAP_TYPES)
def test_a_restored_stack_replays_the_next_steps_exactly(trap):
    env = make_env(traps=[{"type": trap, "steps": [2, 3], "p": 0.0}], obs_mode="text",
                   task="ContactsAddContact")
    obs, agent = _run_to(env, "ContactsAddContact", 1)
    saved = capture(env)
    first = []
    info: dict = {}
    for _ in range(4):
        a = agent.act(obs, info)
        obs, r, term, trunc, info = env.step(a)
        first.append((a, obs["ui_elements"], obs["last_action_error"], r, term, trunc,
                      [e["type"] for e in info["traps"]]))
        if term or trunc:
            break
    # a different stack object of the same traps, somewhere else entirely
    other = make_env(traps=[{"type": trap, "steps": [2, 3], "p": 0.0}], obs_mode="text",
                     task="ContactsAddContact")
    other.reset(seed=99)
    obs2 = restore(other, saved)
    second = []
    for a, *_ in first:
        obs2, r, term, trunc, info = other.step(a)
        second.append((a, obs2["ui_elements"], obs2["last_action_error"], r, term, trunc,
                       [e["type"] for e in info["traps"]]))
    assert second == first
    assert any(t == trap for step in first for t in step[-1]), "the trap never acted in the window"


def test_restore_refuses_a_different_trap_stack():
    env = make_env(traps=["loop"], obs_mode="text", task="SettingsWifiToggle")
    env.reset(seed=1)
    saved = capture(env)
    other = make_env(traps=["grounding_error"], obs_mode="text", task="SettingsWifiToggle")
    other.reset(seed=1)
    with pytest.raises(ValueError, match="traps differ"):
        restore(other, saved)


def test_restoring_twice_gives_the_same_state_both_times():
    env = make_env(traps=[{"type": "external_interruption", "steps": [2], "p": 0.0}],
                   obs_mode="text", task="SettingsWifiToggle")
    obs, _ = _run_to(env, "SettingsWifiToggle", 2)
    saved = capture(env)
    shown = obs["ui_elements"]
    env.step({"action_type": "navigate_home"})
    assert restore(env, saved)["ui_elements"] == shown
    env.step({"action_type": "navigate_back"})
    assert restore(env, saved)["ui_elements"] == shown
