"""Rollout workers: the environments that GRPO's rollouts and state gathering play in.

The policy generates on the driver — one batched forward pass for every
environment waiting on it — while the environments (trap stacks over a phone)
live wherever the config puts them (`grpo.rollout`):

- `sync`: in this process (no transport cost; the default for the simulated phone);
- `async`: Gymnasium's `AsyncVectorEnv` worker processes, one environment each;
- `ray`: Ray actors, each owning its environments, on this machine or a cluster
  (`grpo.ray_address`).

A `RolloutPool` addresses environments by slot. Every call is batched: one
request per worker per turn, however many of its slots take part. Workers do
the environment-side work of a turn themselves — stepping, capturing the whole
stack with the oracle's distance to success (the expensive part of gathering
step-level states) — and whole oracle episodes run on the worker with
`apply`, so only their results cross the wire.
"""

from __future__ import annotations

import functools
import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from antrap_gym.env.state import StackState, capture
from antrap_gym.traps.solvability import Prover

BACKENDS = ("sync", "async", "ray")


@dataclass
class Transition:
    """What a reset or a step returns to the driver."""

    obs: dict[str, Any]
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    screen_size: tuple[int, int]
    step_count: int
    #: captured after the transition, when asked and the episode goes on
    state: StackState | None = None
    distance: int | None = None  # the oracle's steps to success from `state` (None: it fails)
    events: list[dict[str, Any]] = field(default_factory=list)  # trap events, once the episode is over

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class EnvHost:
    """The worker side: environment stacks by slot, made on first use."""

    def __init__(self, env_kwargs: dict[str, Any], envs: dict[int, gym.Env] | None = None) -> None:
        self.env_kwargs = dict(env_kwargs)
        self.envs: dict[int, gym.Env] = dict(envs or {})
        self.prover = Prover()

    def env(self, slot: int) -> gym.Env:
        if slot not in self.envs:
            from antrap_gym.registration import make_env

            self.envs[slot] = make_env(**self.env_kwargs)
        return self.envs[slot]

    def run(self, method: str, items: list[tuple]) -> list[Any]:
        """Run `method` once per item (`(slot, *args)`), in order."""
        fn = {"reset": self.reset, "step": self.step, "apply": self.apply}[method]
        return [fn(*item) for item in items]

    def _transition(self, env: gym.Env, obs, reward, term, trunc, info, want_state: bool) -> Transition:
        base = env.unwrapped
        t = Transition(obs, float(reward), bool(term), bool(trunc), info, tuple(base.screen_size),
                       int(base.step_count))
        if t.done:
            t.events = list(base.trap_events)
        elif want_state:
            t.state, t.distance = capture(env), self.prover.distance(base)
        return t

    def reset(self, slot: int, seed: int | None, options: dict[str, Any] | None,
              want_state: bool = False) -> Transition:
        env = self.env(slot)
        obs, info = env.reset(seed=seed, options=options)
        return self._transition(env, obs, 0.0, False, False, info, want_state)

    def step(self, slot: int, action: Any, want_state: bool = False) -> Transition:
        env = self.env(slot)
        return self._transition(env, *env.step(action), want_state)

    def apply(self, slot: int, fn: Callable, args: tuple = (), kwargs: dict | None = None) -> Any:
        """`fn(env, prover, *args, **kwargs)` on this slot's environment (a module-level
        function, so it travels by name)."""
        return fn(self.env(slot), self.prover, *args, **(kwargs or {}))

    def close(self) -> None:
        for env in self.envs.values():
            env.close()
        self.envs.clear()


class HostedEnv(gym.Wrapper):
    """One `AsyncVectorEnv` sub-environment: a real trap stack, plus `rpc`, which
    serves this worker's share of a batched request (the same request object goes
    to every worker; each takes the items addressed to its index)."""

    def __init__(self, env: gym.Env, index: int, env_kwargs: dict[str, Any]) -> None:
        super().__init__(env)
        self.index = index
        self.host = EnvHost(env_kwargs, {index: env})

    def rpc(self, method: str, requests: dict[int, list[tuple]]) -> list[Any] | None:
        items = requests.get(self.index)
        return None if items is None else self.host.run(method, items)


def _hosted_env(env_kwargs: dict[str, Any], index: int) -> HostedEnv:
    from antrap_gym.registration import make_env

    return HostedEnv(make_env(**env_kwargs), index, env_kwargs)


class RolloutPool:
    """Environments by slot, spread over workers; see the module docstring.

    `slots` bounds the `async` backend (one process per slot); the other backends
    make a slot's environment the first time it is used.
    """

    def __init__(self, env_kwargs: dict[str, Any], slots: int, backend: str = "sync",
                 workers: int | None = None, ray_address: str | None = None,
                 timeout_s: float | None = 600.0) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"rollout backend must be one of {BACKENDS}, got {backend!r}")
        self.backend = backend
        self.env_kwargs = dict(env_kwargs)
        self.slots = max(1, int(slots))
        self.timeout_s = timeout_s
        self.calls = 0  # batched round trips (one per worker each)
        self._venv = None
        self._hosts: list[EnvHost] = []
        self._actors: list[Any] = []
        if backend == "sync":
            self.workers = 1
            self._hosts = [EnvHost(self.env_kwargs)]
        elif backend == "async":
            self.workers = self.slots
            self._venv = gym.vector.AsyncVectorEnv(
                [functools.partial(_hosted_env, self.env_kwargs, i) for i in range(self.slots)],
                shared_memory=False, context="spawn", copy=False)
        else:
            import ray

            if not ray.is_initialized():
                ray.init(address=ray_address, num_cpus=None if ray_address else (workers or os.cpu_count()),
                         include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
            self.workers = max(1, min(self.slots, workers or self.slots))
            actor = ray.remote(num_cpus=1, max_restarts=0)(EnvHost)
            self._actors = [actor.remote(self.env_kwargs) for _ in range(self.workers)]

    # --- the batched calls -----------------------------------------------------------------
    def reset(self, requests: dict[int, tuple[int | None, dict[str, Any] | None]],
              want_state: bool = False) -> dict[int, Transition]:
        """`{slot: (seed, options)}` -> `{slot: Transition}`."""
        return self._run("reset", {s: (seed, opts, want_state) for s, (seed, opts) in requests.items()})

    def step(self, actions: dict[int, Any], want_state: bool = False) -> dict[int, Transition]:
        """`{slot: action}` -> `{slot: Transition}`; `want_state` captures each stack that goes on."""
        return self._run("step", {s: (a, want_state) for s, a in actions.items()})

    def apply(self, fn: Callable, args: dict[int, tuple], kwargs: dict[str, Any] | None = None
              ) -> dict[int, Any]:
        """`{slot: fn(env, prover, *args, **kwargs)}`, run where each slot lives."""
        return self._run("apply", {s: (fn, a, kwargs) for s, a in args.items()})

    def _worker(self, slot: int) -> int:
        if self.backend == "async" and not 0 <= slot < self.slots:
            raise IndexError(f"slot {slot} out of range: the async rollout pool has {self.slots} "
                             "environments (raise grpo.num_envs)")
        return slot % self.workers

    def _run(self, method: str, items: dict[int, tuple]) -> dict[int, Any]:
        if not items:
            return {}
        per_worker: dict[int, list[tuple]] = defaultdict(list)
        for slot, args in items.items():
            per_worker[self._worker(slot)].append((slot, *args))
        self.calls += 1
        if self.backend == "sync":
            results = {w: self._hosts[w].run(method, todo) for w, todo in per_worker.items()}
        elif self.backend == "async":
            self._venv.call_async("rpc", method, dict(per_worker))
            replies = self._venv.call_wait(timeout=self.timeout_s)
            results = {w: replies[w] for w in per_worker}
        else:
            import ray

            refs = {w: self._actors[w].run.remote(method, todo) for w, todo in per_worker.items()}
            got = ray.get(list(refs.values()), timeout=self.timeout_s)
            results = dict(zip(refs, got))
        out: dict[int, Any] = {}
        for w, todo in per_worker.items():
            for item, result in zip(todo, results[w]):
                out[item[0]] = result
        return out

    def close(self) -> None:
        if self._venv is not None:
            self._venv.close()
            self._venv = None
        for host in self._hosts:
            host.close()
        self._hosts = []
        if self._actors:
            import ray

            for a in self._actors:
                ray.kill(a, no_restart=True)
            self._actors = []

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["BACKENDS", "EnvHost", "HostedEnv", "RolloutPool", "Transition"]
