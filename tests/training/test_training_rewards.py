"""Verified step rewards and state gathering (no model needed: replies are written here)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.agents.policy import PolicyConfig, format_completion
from antrap_gym.env.state import restore
from antrap_gym.training.rewards import StepRewarder
from antrap_gym.training.states import StateGatherer

POLICY = PolicyConfig(observation="text")
POPUP = [{"type": "external_interruption", "steps": [2], "p": 0.0, "styles": ["dialog"]}]


def reply(action: dict, state) -> str:
    return format_completion(action, "", space=state.space, config=POLICY)


def oracle_action(state) -> dict:
    """What the oracle does at `state` (run on a restored copy)."""
    from antrap_gym.registration import make_env

    env = make_env(traps=state.stack or None, obs_mode="text", task=state.task)
    env.reset(seed=0)
    obs = restore(env, state.state)
    agent = OracleAgent()
    agent.reset(env, obs, {})
    return agent.act(obs, {})


@pytest.fixture(scope="module")
def popup_states():
    g = StateGatherer(tasks=["SettingsWifiToggle"], variants=[3], stack=POPUP, policy=POLICY, num_envs=1)
    states = g.oracle_states(np.random.default_rng(0))
    g.close()
    return states


def test_states_are_captured_at_every_step_with_the_oracle_distance(popup_states):
    steps = [s.step for s in popup_states]
    assert steps == list(range(1, len(steps) + 1))
    assert [s.distance for s in popup_states] == sorted((s.distance for s in popup_states), reverse=True)
    assert popup_states[-1].distance == 0  # only `finish` is left
    assert any(s.trapped for s in popup_states) and not all(s.trapped for s in popup_states)
    assert all(s.prompt[0]["role"] == "system" and s.prompt[1]["role"] == "user" for s in popup_states)


def test_the_oracles_step_beats_a_wrong_step_everywhere(popup_states):
    r = StepRewarder(POLICY)
    r.add(popup_states)
    for s in popup_states:
        right = r.outcome(s.id, reply(oracle_action(s), s))
        wrong = r.outcome(s.id, reply({"action_type": "navigate_home"}, s))
        assert right.format == wrong.format == 1.0
        assert right.progress > wrong.progress or (right.progress == 1.0 and right.success), \
            (s.step, right, wrong)
        assert right.progress >= 0.0 or right.success
    r.close()


def test_closing_the_popup_is_rewarded_and_tapping_through_it_is_not(popup_states):
    trapped = next(s for s in popup_states if s.trapped)
    r = StepRewarder(POLICY)
    r.add([trapped])
    close = oracle_action(trapped)  # the oracle dismisses the pop-up first
    assert close["action_type"] == "click"
    closed = r.outcome(trapped.id, reply(close, trapped))
    assert closed.progress == 1.0 and closed.valid == 1.0
    # the task's next step, tapped as if the pop-up were not there, is blocked by it
    behind = r.outcome(trapped.id, reply({"action_type": "navigate_home"}, trapped))
    assert behind.progress < closed.progress
    r.close()


def test_unparseable_and_foreign_replies(popup_states):
    s = popup_states[0]
    r = StepRewarder(POLICY)
    r.add([s])
    junk = r.outcome(s.id, "I would like to open the settings please")
    assert (junk.format, junk.valid, junk.progress) == (0.0, 0.0, -1.0)
    # no reply without an action scores above a real action, even a harmful one
    worst = min(r.outcome(s.id, reply(a, s)).progress for a in (
        {"action_type": "navigate_home"}, {"action_type": "navigate_back"},
        {"action_type": "status", "goal_status": "infeasible"}))
    assert junk.progress <= worst
    # AndroidWorld's JSON style: understood, but not the policy's own format
    foreign = r.outcome(s.id, json.dumps({"action_type": "open_app", "app_name": "Settings"}))
    assert foreign.format == 0.5
    bad = r.outcome(s.id, reply({"action_type": "open_app", "app_name": "NoSuchApp"}, s))
    assert bad.valid == 0.0 and bad.format == 1.0
    # rejected by the env: as unusable as no action, never a safe harbour above a real action
    assert bad.progress == junk.progress == -1.0
    out_of_range = r.outcome(s.id, reply({"action_type": "click", "index": 999}, s))
    assert out_of_range.valid == 0.0 and out_of_range.progress == -1.0
    r.close()


def test_giving_up_in_front_of_a_popup_scores_no_better_than_any_failed_reply(popup_states):
    """A well-formed `done` that ends the episode unsolved gets no credit for form or
    validity: with the shipped weights it must not outscore an unparseable reply or a
    missed tap (else GRPO learns to declare the task done at every pop-up)."""
    from antrap_gym.training.config import load_config

    trapped = next(s for s in popup_states if s.trapped)
    r = StepRewarder(POLICY)
    r.add([trapped])
    funcs = r.reward_funcs()
    w = load_config(None).grpo.reward_weights
    weights = [w.format, w.validity, w.progress, 0.0, 0.0]

    def total(text: str) -> float:
        scores = [f(completions=[text], state_id=[trapped.id])[0] for f in funcs]
        return sum(a * b for a, b in zip(weights, scores))

    done = reply({"action_type": "status", "goal_status": "complete"}, trapped)
    junk = "I would like to open the settings please"
    miss = reply({"action_type": "click", "index": 999}, trapped)
    close = reply(oracle_action(trapped), trapped)
    out = r.outcome(trapped.id, done)
    assert out.gave_up and out.format == 1.0 and out.valid == 1.0  # parsed and accepted ...
    assert [f(completions=[done], state_id=[trapped.id])[0] for f in funcs] == [0.0, 0.0, -1.0, 0.0, 1.0]
    assert total(done) <= total(junk) < total(miss) < total(close)  # ... but worth nothing
    r.close()


def test_outcomes_are_cached_and_match_a_fresh_execution(popup_states):
    s = popup_states[1]
    text = reply(oracle_action(s), s)
    a = StepRewarder(POLICY)
    a.add([s])
    first = a.outcome(s.id, text)
    n = a.executed
    assert a.outcome(s.id, [{"role": "assistant", "content": text}]) == first and a.executed == n
    b = StepRewarder(POLICY)
    b.add([s])
    assert b.outcome(s.id, text) == first
    funcs = a.reward_funcs()
    assert [f.__name__ for f in funcs] == ["format_reward", "validity_reward", "progress_reward",
                                           "success_reward", "parse_reward"]
    vals = [f(completions=[text], state_id=[s.id])[0] for f in funcs]
    assert vals == [first.format, first.valid, first.progress, float(first.success), float(first.format > 0)]
    garbage = [f(completions=["no action here"], state_id=[s.id])[0] for f in funcs]
    assert garbage[0] == garbage[-1] == 0.0  # unparseable: no format credit, not counted as parsed
    a.close()
    b.close()


def test_an_armed_action_trap_perturbs_the_scored_reply():
    stack = [{"type": "intent_deviation", "steps": [2], "p": 0.0}]
    g = StateGatherer(tasks=["SettingsWifiToggle"], variants=[3], stack=stack, policy=POLICY, num_envs=1)
    states = g.oracle_states(np.random.default_rng(1))
    g.close()
    s = next(s for s in states if s.step == 2)
    r = StepRewarder(POLICY)
    r.add([s])
    out = r.outcome(s.id, reply(oracle_action(s), s))
    # the oracle's tap was redirected by the armed trap: no progress for the same reply
    clean = StateGatherer(tasks=["SettingsWifiToggle"], variants=[3], stack=[], policy=POLICY, num_envs=1)
    c = next(x for x in clean.oracle_states(np.random.default_rng(1)) if x.step == 2)
    clean.close()
    r.add([c])
    assert r.outcome(c.id, reply(oracle_action(c), c)).progress == 1.0
    assert out.progress < 1.0
    r.close()


def test_gather_prefers_trapped_states():
    g = StateGatherer(tasks=["SettingsWifiToggle", "SettingsBrightness"], variants=[3, 4], stack=POPUP,
                      policy=POLICY, num_envs=1, trapped_weight=50.0)
    states = g.gather(6, np.random.default_rng(0))
    g.close()
    assert len(states) == 6 and len({s.id for s in states}) == 6
    assert sum(s.trapped for s in states) >= 3


@pytest.mark.parametrize("trap", ["external_interruption", "state_deadlock", "loop", "temporal_conflict"])
def test_finishing_a_solved_task_is_rewarded_where_the_guarantee_holds_it_back(trap):
    """With no trap fired yet, the at-least-once guarantee holds an agent's `status`
    back to fire first; the reward still scores the finish, not the hold."""
    stack = [{"type": trap, "p": 0.0}]  # nothing fires but the guaranteed firing
    g = StateGatherer(tasks=["SettingsWifiToggle"], variants=[3], stack=stack, policy=POLICY, num_envs=1)
    states = g.oracle_states(np.random.default_rng(0))
    g.close()
    solved = [s for s in states if oracle_action(s)["action_type"] == "status"]
    assert solved, "the oracle finishes from some state"
    r = StepRewarder(POLICY)
    r.add(solved)
    for s in solved:
        done = r.outcome(s.id, reply({"action_type": "status", "goal_status": "complete"}, s))
        wait = r.outcome(s.id, reply({"action_type": "wait"}, s))
        assert done.success and done.progress == 1.0 and done.valid == 1.0
        assert wait.progress < done.progress
    r.close()
