"""The episode record: one value the env holds, captures copy, forks start afresh,
and the env's attributes read and write."""

from __future__ import annotations

import copy

import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.env.android_env import AndroidEnv
from antrap_gym.env.episode import EPISODE_FIELDS, Episode
from antrap_gym.env.state import capture, restore
from antrap_gym.registration import make_env

TAP_SETTINGS = {"action_type": "open_app", "app_name": "Settings"}


def test_every_field_of_the_record_is_an_attribute_of_the_env():
    env = AndroidEnv(obs_mode="text", task="SettingsWifiToggle")
    env.reset(seed=0)
    ep = env.episode
    for name in EPISODE_FIELDS:
        assert getattr(env, name) is getattr(ep, name), name
    env.step(TAP_SETTINGS)
    assert env.step_count == ep.step_count == 1 and env.history == [TAP_SETTINGS]
    env.answer = "42"  # writes go to the record
    assert ep.answer == "42"
    env.reset(seed=1)
    assert env.episode is not ep and env.step_count == 0 and env.history == []


def test_a_restored_stack_holds_a_copy_of_every_field_of_the_captured_record():
    env = make_env(traps=[{"type": "state_deadlock", "steps": [1], "p": 0.0}], obs_mode="text",
                   task="SettingsWifiToggle")
    env.reset(seed=2)
    env.step(TAP_SETTINGS)
    env.step({"action_type": "answer", "text": "on"})
    saved = capture(env)
    want = copy.deepcopy({f: getattr(env.unwrapped.episode, f) for f in EPISODE_FIELDS if f != "task"})
    env.step({"action_type": "navigate_home"})  # the original plays on: the capture is a copy
    other = make_env(traps=[{"type": "state_deadlock", "steps": [1], "p": 0.0}], obs_mode="text",
                     task="SettingsWifiToggle")
    other.reset(seed=7)
    restore(other, saved)
    got = other.unwrapped.episode
    assert {f: getattr(got, f) for f in EPISODE_FIELDS if f != "task"} == want
    assert got.task is env.unwrapped.task  # the task is shared, not copied
    assert got.trap_events and got.history and got.answer == "on"
    # a copy: playing on from the restored stack leaves the capture as it was
    other.step({"action_type": "navigate_home"})
    restore(other, saved)
    assert {f: getattr(other.unwrapped.episode, f) for f in EPISODE_FIELDS if f != "task"} == want


def test_a_restored_stack_judges_recovery_on_the_events_the_env_reports():
    """The env's events and the traps' pending ones are the same dicts after a restore
    (captured together): recovery judged by the trap shows in the env's `info`."""
    stack = [{"type": "state_deadlock", "steps": [1], "p": 0.0}]
    env = make_env(traps=stack, obs_mode="text", task="SettingsWifiToggle")
    obs, info = env.reset(seed=2)
    obs, *_, info = env.step(TAP_SETTINGS)
    assert [e["recovered"] for e in info["traps"]] == [None]  # fired, not yet judged
    saved = capture(env)
    other = make_env(traps=stack, obs_mode="text", task="SettingsWifiToggle")
    other.reset(seed=3)
    obs = restore(other, saved)
    agent = OracleAgent()
    agent.reset(other, obs, info)
    done = False
    while not done:
        obs, _, term, trunc, info = other.step(agent.act(obs, info))
        done = term or trunc
    assert info["success"] == 1.0
    assert [e["recovered"] for e in info["traps"]] == [True]


def test_the_budget_grows_on_the_record():
    ep = Episode.start(None, 10)
    ep.set_budget_factor(1.15)
    ep.add_stolen_steps(2)
    assert (ep.budget, ep.base_budget, ep.stolen_steps) == (14, 10, 2)  # ceil(12 x 1.15)
    ep.set_budget_factor(1.0)  # never shrinks
    assert ep.budget_factor == 1.15


@pytest.mark.parametrize("action", [
    {"action_type": "click", "x": 5000, "y": 10},
    {"action_type": "click", "index": 10_000},
    {"action_type": "scroll", "direction": "down", "x": -1, "y": 5},
    {"action_type": "input_text", "text": "a", "x": 10, "y": 99_999},
    {"action_type": "swipe", "x": 10, "y": 10, "x2": 10, "y2": 5000},
    {"action_type": "open_app", "app_name": "No Such App"},
    {"action_type": "click"},
    "not json",
    {"action_type": "click", "x": 540, "y": 1200},
    {"action_type": "navigate_back", "x": 99_999, "y": 0},  # a point it does not use
    {"action_type": "open_app", "app_name": "Contacts"},
    {"action_type": "scroll", "direction": "down"},
    {"action_type": "answer", "text": "x"},
])
def test_check_action_refuses_exactly_what_step_refuses(action):
    env = AndroidEnv(obs_mode="text", task="SettingsWifiToggle")
    obs, _ = env.reset(seed=0)
    try:
        env.check_action(action)
        refused = False
    except ValueError:
        refused = True
    assert env.observe()["ui_elements"] == obs["ui_elements"]  # the check touches nothing
    obs, *_ = env.step(action)
    assert bool(obs["last_action_error"]) == refused, obs["last_action_error"]
