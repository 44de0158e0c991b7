"""The oracle as a measuring stick: is the task still solvable from here, and
in how many steps?

On a deterministic phone (the simulated one) the whole state forks in
microseconds; the solver (`antrap_gym.tasks.solver`, what the oracle agent plays
by) plays the task to the end on a scratch copy and the episode itself is
untouched. `distance` is what recovery is measured with: an agent has recovered
from a trap when the oracle needs no more steps from its state than it needed
just before the trap.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from antrap_gym.device.digest import payload_digest
from antrap_gym.env.episode import Episode
from antrap_gym.tasks.solver import Solver

if TYPE_CHECKING:
    from antrap_gym.env.android_env import AndroidEnv

#: how many steps beyond the task's budget the oracle may take on a fork
SLACK = 10
#: distances a process remembers (a few hundred bytes each)
MEMO_SIZE = 40_000
#: bound plans a prover keeps (one per task it measures; see `Prover._plan`)
PLANS_MAX = 64

#: (task, phone state, first action, answer) -> (holder, distance, searched): `searched`
#: the most steps the oracle was let play (None: its whole budget), so a miss within a
#: bound says "more than that". Shared by every prover of the process: the same task
#: instance meets the same phone states in every setting and for every agent (the start
#: screen, the oracle's path, the states before a trap fires), and a distance is a
#: function of those alone (the phone is deterministic and the oracle starts afresh on
#: each fork).
_MEMO: OrderedDict[tuple, tuple[Any, int | None, int | None]] = OrderedDict()


def task_key(task: Any) -> tuple[tuple, Any]:
    """(the task's identity for the memo, what an entry must hold): a task is its class
    and its state after set-up (parameters, what its checks recorded), so equal tasks
    of two episodes share entries. A task that cannot be pickled is keyed by its id,
    and the entry holds the task so that the id cannot be reused while it lives (a
    freed task's id is, and a stale hit made the oracle's streams differ run to run)."""
    cls = type(task)
    try:
        blob = pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return (cls.__module__, cls.__qualname__, "id", id(task)), task
    return (cls.__module__, cls.__qualname__, hashlib.blake2b(blob, digest_size=16).digest()), None


class Prover:
    """Keeps one scratch environment and reuses it for every fork."""

    def __init__(self) -> None:
        self._scratch: AndroidEnv | None = None
        self._memo = _MEMO
        self._plans: dict[tuple, tuple[Any, tuple]] = {}

    @staticmethod
    def available(env: AndroidEnv) -> bool:
        """Forking needs a phone whose snapshots restore exactly (the simulated one)."""
        return bool(getattr(env.device, "deterministic", False))

    def distance(self, env: AndroidEnv, first_action: dict | None = None,
                 within: int | None = None) -> int | None:
        """Oracle steps to success from `env`'s current state (after `first_action`,
        when given, is executed on the fork); None if the oracle fails — or, with
        `within`, if it needs more than `within` steps (it is not let play further:
        whether an agent is back where a trap found it asks only that, and an agent far
        off costs a full search at every step otherwise)."""

        if not self.available(env):
            raise RuntimeError("forking needs a deterministic phone (the simulated one)")
        snap = env.device.snapshot()
        task, holder = task_key(env.task)
        key = (task, snap.backend, payload_digest(snap.payload), payload_digest(snap.virtual),
               json.dumps(first_action, sort_keys=True, default=str), env.answer)
        hit = self._memo.get(key)
        if hit is not None and (hit[0] is None or hit[0] is env.task):
            _, d, searched = hit
            if d is not None:  # found: the exact distance, whatever bound it was found under
                self._memo.move_to_end(key)
                return d if within is None or d <= within else None
            if searched is None or (within is not None and within <= searched):
                self._memo.move_to_end(key)
                return None  # no success within a search at least as long as this one
        d = self._distance(env, snap, first_action, within, task)
        self._memo[key] = (holder, d, within)
        if len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)
        return d

    def _distance(self, env: AndroidEnv, snap, first_action: dict | None,
                  within: int | None, task: tuple) -> int | None:
        fork = self._fork(env, snap)
        if first_action is not None:
            _, _, terminated, truncated, _ = fork.step(first_action)
            if terminated or truncated:
                return None
        solver = Solver(fork.task, fork.screen_size, plan=self._plan(fork.task, task))
        obs = fork.observe()
        # the oracle's `within` steps of work and its final `status` step
        steps = fork.budget if within is None else min(fork.budget, max(0, within) + 1)
        for n in range(1, steps + 1):
            action = solver.act(obs["ui_elements"], fork.device, history=fork.history,
                                answer=fork.answer, check=fork.check_action)
            obs, reward, terminated, truncated, info = fork.step(action)
            if terminated or truncated:
                ok = float(info.get("success", reward)) >= 1.0
                # the final `status` step is bookkeeping, not work on the phone
                return n - 1 if ok else None
        return None

    def _plan(self, task: Any, key: tuple) -> list:
        """The task's solution steps, bound once per task object (binding a template's
        plan walks its whole declaration: a tenth of a fork's cost when done per fork).
        Kept for the task object itself whose state it was bound in (`key`): another
        object, or this one after its state changed, binds afresh."""
        held = self._plans.get(key)
        if held is None or held[0] is not task:
            held = self._plans[key] = (task, tuple(task.solution()))
            if len(self._plans) > PLANS_MAX:
                self._plans.pop(next(iter(self._plans)))
        return list(held[1])

    def _fork(self, env: AndroidEnv, snap) -> AndroidEnv:
        from antrap_gym.env.android_env import AndroidEnv as Env

        w, h = env.screen_size
        scratch = self._scratch
        if (scratch is None or scratch.screen_size != (w, h)
                or scratch.device.backend != snap.backend):
            scratch = self._scratch = Env(device=snap.backend, obs_mode="text", screen_size=(w, h))
        scratch.device.restore(snap)
        # a fresh episode with the answer given so far (no traps, no history)
        scratch.resume(Episode.start(env.task, env.task.max_steps + SLACK, answer=env.answer))
        return scratch


def oracle_solves_fork(env: AndroidEnv) -> bool:
    """Whether the oracle completes the task from the phone's current state."""
    return Prover().distance(env) is not None
