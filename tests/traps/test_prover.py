"""The solvability prover's memo: a hit is only ever the same task's."""

from __future__ import annotations

import gc
import weakref

from antrap_gym.env.android_env import AndroidEnv
from antrap_gym.traps import solvability
from antrap_gym.traps.solvability import Prover, task_key


def _env(task_id: str, seed: int):
    env = AndroidEnv(task=task_id, obs_mode="text")
    env.reset(seed=seed)
    return env


def test_the_memo_keys_on_what_a_task_is_not_on_its_object():
    """Entries are shared by equal tasks (the same template and variant played in another
    setting or by another agent: a new task object) and never by different ones, and no
    entry keeps a freed task alive (its id could be reused: that made the oracle's
    trapped streams differ from run to run)."""
    a, again = _env("ContactsAddContact", 0), _env("ContactsAddContact", 0)
    other = _env("ContactsAddContact", 1)
    assert task_key(a.task)[0] == task_key(again.task)[0] != task_key(other.task)[0]
    assert task_key(a.task)[1] is None  # a picklable task: the entry holds nothing
    solvability._MEMO.clear()  # (this process's other tests may have met these states)
    prover = Prover()
    d = prover.distance(a)
    searched = []
    original = Prover._distance
    Prover._distance = lambda self, *args, **kw: searched.append(1) or original(self, *args, **kw)
    try:
        assert Prover().distance(again) == d and not searched  # another prover, a hit
        other.device.restore(a.device.snapshot())  # the same phone, another variant
        Prover().distance(other)
        assert searched  # searched afresh
    finally:
        Prover._distance = original
    ref = weakref.ref(a.task)
    a.close()
    del a, prover  # (its scratch phone last played the task)
    gc.collect()
    assert ref() is None


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



def test_a_prover_binds_a_tasks_plan_once_and_afresh_for_another_task_object():
    """Forks of one task reuse its bound plan; an equal task in another object (the next
    episode) binds its own, whose steps check that object, and the distances agree."""
    calls: list[object] = []
    a, again = _env("ContactsAddContact", 0), _env("ContactsAddContact", 0)
    for env in (a, again):
        original = env.task.solution
        env.task.solution = lambda original=original, t=env.task: calls.append(t) or original()
    solvability._MEMO.clear()
    prover = Prover()
    d = prover.distance(a)
    prover.distance(a, first_action={"action_type": "wait"})  # another search, same task
    assert calls == [a.task]
    solvability._MEMO.clear()
    assert prover.distance(again) == d
    assert calls == [a.task, again.task]
