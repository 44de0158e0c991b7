"""Rollout workers: the same environments in this process, in Gymnasium async vector
env processes and on Ray actors must give the same transitions, captured states and
oracle distances; state gathering and episode rollouts must not depend on where the
environments live."""

from __future__ import annotations

import json

import numpy as np
import pytest

from antrap_gym.agents.policy import PolicyConfig
from antrap_gym.env.state import restore
from antrap_gym.registration import make_env
from antrap_gym.training.states import StateGatherer, play_oracle
from antrap_gym.training.workers import RolloutPool

POPUP = [{"type": "external_interruption", "p": 0.4}]
KW = {"obs_mode": "text", "traps": POPUP}
RESETS = {0: (3, {"task": "SettingsWifiToggle", "trap_seed": 5}),
          1: (4, {"task": "ContactsAddContact", "trap_seed": 6}),
          2: (5, {"task": "SettingsBrightness", "trap_seed": 7})}
ACTIONS = [{0: {"action_type": "open_app", "app_name": "Settings"},
            1: {"action_type": "open_app", "app_name": "Contacts"},
            2: {"action_type": "open_app", "app_name": "Settings"}},
           {0: {"action_type": "scroll", "direction": "down"},
            1: '{"action_type": "click", "x": 540, "y": 300}',
            2: "not json"},
           {0: {"action_type": "navigate_back"}, 2: {"action_type": "status", "goal_status": "complete"}}]


def _trace(pool: RolloutPool) -> list:
    """Everything the driver sees over three batched turns, captured states included."""
    out = []
    for slot, t in sorted(pool.reset(RESETS, want_state=True).items()):
        out.append((slot, "reset", t.obs["ui_elements"], t.obs["goal"], t.distance, t.step_count))
    for actions in ACTIONS:
        for slot, t in sorted(pool.step(actions, want_state=True).items()):
            out.append((slot, t.obs["ui_elements"], t.obs["last_action_error"], t.reward, t.terminated,
                        t.truncated, t.distance, t.step_count, json.dumps(t.events, sort_keys=True),
                        None if t.state is None else _restored(t.state)))
    return out


def _restored(state) -> str:
    """A captured stack, restored into a fresh local stack: the elements it shows."""
    env = make_env(**KW)
    env.reset(seed=0, options={"task": "SettingsWifiToggle"})
    obs = restore(env, state)
    env.close()
    return obs["ui_elements"]


@pytest.fixture(scope="module")
def sync_trace():
    with RolloutPool(KW, slots=3, backend="sync") as pool:
        return _trace(pool)


def test_the_sync_pool_plays_like_plain_environments(sync_trace):
    envs = {s: make_env(**KW) for s in RESETS}
    for s, (seed, opts) in RESETS.items():
        obs, _ = envs[s].reset(seed=seed, options=opts)
        assert sync_trace[s][2] == obs["ui_elements"]
    rows = {s: [] for s in RESETS}
    for actions in ACTIONS:
        for s, a in actions.items():
            rows[s].append(envs[s].step(a))
    stepped = [r for r in sync_trace if r[1] != "reset"]
    expect = [(s, obs["ui_elements"], obs["last_action_error"]) for k, actions in enumerate(ACTIONS)
              for s in sorted(actions) for obs, *_ in [rows[s][k]]]
    assert [(r[0], r[1], r[2]) for r in stepped] == expect
    assert any(r[2] for r in stepped)  # the malformed action was reported, not raised
    assert stepped[-1][4] and stepped[-1][9] is None  # slot 2 ended: no state captured, events sent
    assert all(r[6] is not None and r[9] for r in stepped[:-1] if not r[4])
    for env in envs.values():
        env.close()


def test_async_vector_env_workers_match_in_process(sync_trace):
    with RolloutPool(KW, slots=3, backend="async") as pool:
        assert pool.workers == 3
        assert _trace(pool) == sync_trace
        assert pool.calls == 1 + len(ACTIONS)  # one round trip per batched turn
        with pytest.raises(IndexError, match="num_envs"):
            pool.step({3: {"action_type": "wait"}})


def test_oracle_episodes_run_on_the_workers_and_match():
    policy = PolicyConfig(observation="text")
    args = {0: ("SettingsWifiToggle", 3, 11, policy), 1: ("ContactsAddContact", 4, 12, policy)}
    runs = {}
    for backend in ("sync", "async"):
        with RolloutPool(KW, slots=2, backend=backend) as pool:
            got = pool.apply(play_oracle, args)
        runs[backend] = {s: ([(p.step, p.distance, json.dumps(p.prompt)) for p in r.pending], r.events)
                         for s, r in got.items()}
    assert runs["sync"] == runs["async"]
    for steps, _events in runs["sync"].values():
        distances = [d for _, d, _ in steps]
        assert all(d is not None for d in distances) and distances[-1] <= 1 < distances[0]  # it finishes


def test_state_gathering_is_the_same_wherever_the_environments_live():
    policy = PolicyConfig(observation="text")
    gathered = {}
    for backend in ("sync", "async"):
        g = StateGatherer(tasks=["SettingsWifiToggle", "ContactsAddContact"], variants=[3, 4], stack=POPUP,
                          policy=policy, num_envs=2, rollout=backend)
        try:
            states = g.gather(6, np.random.default_rng(0))
        finally:
            g.close()
        gathered[backend] = [(s.task, s.variant, s.trap_seed, s.step, s.distance, s.trapped,
                              json.dumps(s.prompt), _restored(s.state)) for s in states]
    assert gathered["sync"] == gathered["async"]
    assert len(gathered["sync"]) == 6 and any(row[5] for row in gathered["sync"])


@pytest.mark.slow
def test_ray_actors_match_in_process(sync_trace):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        with RolloutPool(KW, slots=3, backend="ray", workers=2) as pool:
            assert pool.workers == 2  # three environments on two actors
            assert _trace(pool) == sync_trace
            assert pool.calls == 1 + len(ACTIONS)
    finally:
        ray.shutdown()
