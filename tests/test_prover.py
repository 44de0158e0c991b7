"""The solvability prover's memo: a hit is only ever the same task's."""

from __future__ import annotations

import gc
import weakref

from antrap_gym.env.android_env import AndroidEnv
from antrap_gym.traps.solvability import Prover


def _env(task_id: str, seed: int):
    env = AndroidEnv(task=task_id, obs_mode="text")
    env.reset(seed=seed)
    return env


def test_a_memo_entry_keeps_its_task_alive_so_its_id_is_never_reused():
    """The memo keys on the task's id; were the task freed, a later task could be
    given the same id and meet the first one's distances (this made the oracle's
    trapped streams differ from run to run)."""
    prover = Prover()
    env = _env("SettingsWifiToggle", 0)
    d = prover.distance(env)
    assert d is not None and d > 0
    ref = weakref.ref(env.task)
    other = _env("SettingsBuildNumber", 0)
    assert prover.distance(other) is not None  # the scratch env now plays another task
    env.close()
    del env
    gc.collect()
    assert ref() is not None


def test_two_tasks_at_the_same_phone_state_get_their_own_distances():
    prover = Prover()
    a = _env("SettingsWifiToggle", 0)
    b = _env("SettingsBuildNumber", 0)
    b.device.restore(a.device.snapshot())  # the same phone, a different task
    da, db = prover.distance(a), prover.distance(b)
    assert da == Prover().distance(a) and db == Prover().distance(b)


def test_a_bounded_search_answers_within_its_bound_and_the_memo_keeps_exact_answers():
    """`within=k`: the distance when it is at most k, None past it (the oracle is not
    let play further); a miss under a small bound never hides the exact distance from a
    later, longer search, and a found distance answers every later bound."""
    env = _env("ContactsAddContact", 0)
    d = Prover().distance(env)
    assert d is not None and d >= 3
    prover = Prover()
    assert prover.distance(env, within=d - 1) is None  # more than d - 1 steps
    assert prover.distance(env, within=d - 2) is None  # the memo: a shorter search misses too
    assert prover.distance(env, within=d) == d
    assert prover.distance(env) == d
    fresh = Prover()
    assert fresh.distance(env, within=d + 5) == d  # found under a loose bound: exact
    assert fresh.distance(env, within=d - 1) is None and fresh.distance(env, within=0) is None
    assert fresh.distance(env) == d

