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
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from antrap_gym.env.episode import Episode
from antrap_gym.tasks.solver import Solver

if TYPE_CHECKING:
    from antrap_gym.env.android_env import AndroidEnv

#: how many steps beyond the task's budget the oracle may take on a fork
SLACK = 10
MEMO_SIZE = 512


def _digest(payload: Any, h: Any = None) -> bytes:
    """A digest of a snapshot's payload, opaque as the Device protocol leaves it: bytes,
    strings, numbers and containers of them (dicts in key order); anything else by repr."""
    top = h is None
    h = hashlib.blake2b(digest_size=16) if top else h
    if isinstance(payload, bytes | bytearray | memoryview):
        h.update(b"b%d:" % len(payload))
        h.update(payload)
    elif isinstance(payload, dict):
        h.update(b"d%d:" % len(payload))
        for k in sorted(payload, key=repr):
            _digest(k, h)
            _digest(payload[k], h)
    elif isinstance(payload, list | tuple):
        h.update(b"l%d:" % len(payload))
        for v in payload:
            _digest(v, h)
    else:
        r = repr(payload).encode()
        h.update(b"r%d:" % len(r))
        h.update(r)
    return h.digest() if top else b""


class Prover:
    """Keeps one scratch environment and reuses it for every fork."""

    def __init__(self) -> None:
        self._scratch: AndroidEnv | None = None
        #: distance by (task, phone state): agents revisit states (home, a list...).
        #: An entry holds its task, so the task's id in the key cannot be reused by
        #: another task while the entry lives (a freed task's id is, and a stale hit
        #: made the oracle's streams differ run to run).
        #: The value is (task, distance, searched): `searched` the most steps the oracle was
        #: let play (None: its whole budget), so a miss within a bound says "more than that".
        self._memo: OrderedDict[tuple, tuple[Any, int | None, int | None]] = OrderedDict()

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
        key = (id(env.task), snap.backend, _digest(snap.payload), _digest(snap.virtual),
               json.dumps(first_action, sort_keys=True, default=str), env.answer)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is env.task:
            _, d, searched = hit
            if d is not None:  # found: the exact distance, whatever bound it was found under
                self._memo.move_to_end(key)
                return d if within is None or d <= within else None
            if searched is None or (within is not None and within <= searched):
                self._memo.move_to_end(key)
                return None  # no success within a search at least as long as this one
        d = self._distance(env, snap, first_action, within)
        self._memo[key] = (env.task, d, within)
        if len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)
        return d

    def _distance(self, env: AndroidEnv, snap, first_action: dict | None,
                  within: int | None = None) -> int | None:
        fork = self._fork(env, snap)
        if first_action is not None:
            _, _, terminated, truncated, _ = fork.step(first_action)
            if terminated or truncated:
                return None
        solver = Solver(fork.task, fork.screen_size)
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
