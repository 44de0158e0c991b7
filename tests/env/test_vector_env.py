"""Many phones per worker process (`PhoneGroupVectorEnv`): the same episodes as one
environment at a time in this process, observations (frames included) in shared memory,
next-step autoreset, and a worker's failure reported, not hung on."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from antrap_gym.env.vector import PhoneGroupVectorEnv, VectorWorkerError

ACTIONS = ['{"action_type": "open_app", "app_name": "Settings"}', {"action_type": "navigate_back"},
           {"action_type": "click", "x": 540, "y": 700}, "not json",
           {"action_type": "scroll", "direction": "down"}, {"action_type": "navigate_home"},
           {"action_type": "click", "x": -5, "y": 3}]


def _same(a, b) -> None:
    """Two batched observations hold the same values, field by field."""
    assert set(a) == set(b)
    for k in a:
        if isinstance(a[k], np.ndarray):
            assert np.array_equal(a[k], b[k]), k
        else:
            assert list(a[k]) == list(b[k]), k


def test_grouped_phones_play_the_same_episodes_as_one_env_at_a_time():
    """5 phones in 2 processes against Gymnasium's SyncVectorEnv in this process: the same
    observations, rewards and ends on every step, through several autoresets."""
    grouped = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=5,
                           vectorization_mode="vector_entry_point", workers=2)
    plain = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=5, vectorization_mode="sync")
    try:
        assert isinstance(grouped.unwrapped, PhoneGroupVectorEnv)
        assert grouped.unwrapped.groups == [[0, 1, 2], [3, 4]]
        a, _ = grouped.reset(seed=3)
        b, _ = plain.reset(seed=3)
        _same(a, b)
        ends = 0
        for t in range(70):
            acts = [ACTIONS[(t + i) % len(ACTIONS)] for i in range(5)]
            a, ra, ta, ua, _ = grouped.step(acts)
            b, rb, tb, ub, _ = plain.step(acts)
            _same(a, b)
            assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
            ends += int(np.sum(ta | ua))
        assert ends >= 5  # episodes ended (their budgets ran out) and the phones reset
    finally:
        grouped.close()
        plain.close()


def test_frames_are_written_into_shared_memory_and_handed_out_as_copies():
    venv = PhoneGroupVectorEnv([lambda: gym.make("antrap/AndroidSim-v0")] * 3, workers=2)
    one = gym.make("antrap/AndroidSim-v0")
    try:
        obs, _ = venv.reset(seed=[7, 8, 9])
        assert obs["screenshot"].shape == (3, 2400, 1080, 3)
        first = obs["screenshot"].copy()
        obs2, *_ = venv.step([ACTIONS[0]] * 3)
        assert np.array_equal(obs["screenshot"], first)  # what was handed out stays as it was
        ref, _ = one.reset(seed=9)
        ref, *_ = one.step(ACTIONS[0])
        assert np.array_equal(obs2["screenshot"][2], ref["screenshot"])
        assert not np.array_equal(obs2["screenshot"][2], first[2])  # Settings opened
        assert [spec.id for spec in venv.get_attr("spec")] == ["antrap/AndroidSim-v0"] * 3
    finally:
        venv.close()
        one.close()


def test_a_failing_environment_is_named_and_the_env_closes():
    venv = PhoneGroupVectorEnv([lambda: gym.make("antrap/AndroidSim-Text-v0")] * 2, workers=2)
    try:
        with pytest.raises(VectorWorkerError, match=r"environment \d raised in reset(.|\n)*NoSuchTemplate"):
            venv.reset(seed=[0, 1], options={"task": "NoSuchTemplate"})
    finally:
        venv.close()
    assert all(not p.is_alive() for p in venv._processes)
    with pytest.raises(RuntimeError, match="closed"):
        venv.step(["{}", "{}"])
