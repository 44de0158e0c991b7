"""The oracle as a measuring stick: is the task still solvable from here, and
in how many steps?

On the simulated phone the whole state forks in microseconds; the oracle plays
the task to the end on a scratch copy and the episode itself is untouched.
`distance` is what recovery is measured with: an agent has recovered from a
trap when the oracle needs no more steps from its state than it needed just
before the trap.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from antrap_gym.env.android_env import AndroidEnv

#: how many steps beyond the task's budget the oracle may take on a fork
SLACK = 10
MEMO_SIZE = 512


def _state_bytes(snap) -> bytes:
    blob, dbs = snap.payload
    return blob + b"".join(dbs[k] for k in sorted(dbs))


class Prover:
    """Keeps one scratch environment and reuses it for every fork."""

    def __init__(self) -> None:
        self._scratch: AndroidEnv | None = None
        #: distance by (task, phone state): agents revisit states (home, a list...)
        self._memo: OrderedDict[tuple, int | None] = OrderedDict()

    @staticmethod
    def available(env: AndroidEnv) -> bool:
        from antrap_gym.device.sim import SimDevice

        return isinstance(env.device, SimDevice)

    def distance(self, env: AndroidEnv, first_action: dict | None = None) -> int | None:
        """Oracle steps to success from `env`'s current state (after `first_action`,
        when given, is executed on the fork); None if the oracle fails."""

        if not self.available(env):
            raise RuntimeError("forking needs the simulated phone")
        snap = env.device.snapshot()
        key = (id(env.task), hashlib.blake2b(_state_bytes(snap), digest_size=16).digest(),
               json.dumps(first_action, sort_keys=True, default=str), env.answer)
        if key in self._memo:
            self._memo.move_to_end(key)
            return self._memo[key]
        d = self._distance(env, snap, first_action)
        self._memo[key] = d
        if len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)
        return d

    def _distance(self, env: AndroidEnv, snap, first_action: dict | None) -> int | None:
        from antrap_gym.agents.oracle import OracleAgent

        fork = self._fork(env, snap)
        if first_action is not None:
            _, _, terminated, truncated, _ = fork.step(first_action)
            if terminated or truncated:
                return None
        agent = OracleAgent()
        obs = fork.observe()
        agent.reset(fork, obs, {})
        info: dict = {}
        for n in range(1, fork.budget + 1):
            obs, reward, terminated, truncated, info = fork.step(agent.act(obs, info))
            if terminated or truncated:
                ok = float(info.get("success", reward)) >= 1.0
                # the final `status` step is bookkeeping, not work on the phone
                return n - 1 if ok else None
        return None

    def _fork(self, env: AndroidEnv, snap) -> AndroidEnv:
        from antrap_gym.env.android_env import AndroidEnv as Env

        w, h = env.screen_size
        scratch = self._scratch
        if scratch is None or scratch.screen_size != (w, h):
            scratch = self._scratch = Env(task=type(env.task), obs_mode="text", screen_size=(w, h))
        scratch.device.restore(snap)
        scratch.task = env.task
        scratch.step_count = 0
        scratch.base_budget = scratch.budget = env.task.max_steps + SLACK
        scratch.stolen_steps, scratch.budget_factor = 0, 1.0
        scratch.trap_events = []
        scratch.answer = env.answer
        scratch._done = False
        scratch._token = None
        scratch._error = ""
        return scratch


def oracle_solves_fork(env: AndroidEnv) -> bool:
    """Whether the oracle completes the task from the phone's current state."""
    return Prover().distance(env) is not None
