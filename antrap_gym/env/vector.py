"""Many simulated phones per worker process: `PhoneGroupVectorEnv`.

Gymnasium's `AsyncVectorEnv` runs one environment per process and exchanges one pipe
message per environment per step. A simulated phone steps in a fraction of a
millisecond, so on a machine with few cores those processes and messages cost more than
the phones: with screenshots, two workers ran no faster than one (docs/benchmarks.md).
Here `num_envs` phones are split over `workers` processes (by default one per core);
each process steps its phones one after another on one message, and writes their
observations straight into one shared-memory batch (frames included), which the main
process reads without copying them through a pipe.

Semantics are Gymnasium's vector API with next-step autoreset (as `AsyncVectorEnv`'s
default): the step after an episode ends resets that phone and returns its first
observation with reward 0. A worker that raises is reported as a `VectorWorkerError`
naming the phone and the error; a worker that does not answer within `timeout_s`
raises `TimeoutError` (the pool is then closed, never left hanging).

    venv = gym.make_vec("antrap/AndroidSim-v0", num_envs=8,
                        vectorization_mode="vector_entry_point", workers=2)

(`antrap_gym.registration.make_phone_vec` is every simulated `antrap/` id's vector entry
point.)
"""

from __future__ import annotations

import contextlib
import copy
import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    create_shared_memory,
    iterate,
    read_from_shared_memory,
    write_to_shared_memory,
)

DEFAULT_TIMEOUT_S = 300.0


class VectorWorkerError(RuntimeError):
    """A phone's environment raised in a worker process."""


class PhoneGroupVectorEnv(VectorEnv):
    """`len(env_fns)` environments in `workers` processes, observations in shared memory."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], workers: int | None = None, *,
                 copy: bool = True, context: str = "spawn", timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.num_envs = len(env_fns)
        if self.num_envs < 1:
            raise ValueError("a vector env needs at least one environment")
        self.workers = max(1, min(workers or os.cpu_count() or 1, self.num_envs))
        self.copy = copy
        self.timeout_s = timeout_s
        dummy = env_fns[0]()  # the spaces and metadata, as AsyncVectorEnv takes them
        self.metadata = dict(dummy.metadata)
        self.metadata["autoreset_mode"] = AutoresetMode.NEXT_STEP
        self.render_mode = dummy.render_mode
        self.single_observation_space = dummy.observation_space
        self.single_action_space = dummy.action_space
        dummy.close()
        del dummy
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        ctx = multiprocessing.get_context(context)
        # kept for the env's life: its locks must outlive the workers' start (spawn unpickles them)
        self._buffer = buffer = create_shared_memory(self.single_observation_space, n=self.num_envs,
                                                     ctx=ctx)
        self.observations = read_from_shared_memory(self.single_observation_space, buffer,
                                                    n=self.num_envs)
        self.groups = [list(map(int, g)) for g in np.array_split(np.arange(self.num_envs), self.workers)]
        self._pipes: list[Any] = []
        self._processes: list[Any] = []
        for w, group in enumerate(self.groups):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_group_worker, name=f"PhoneGroup-{w}", daemon=True,
                               args=(group, [CloudpickleWrapper(env_fns[i]) for i in group], child,
                                     parent, buffer, self.single_observation_space))
            proc.start()
            child.close()
            self._pipes.append(parent)
            self._processes.append(proc)

    # --- the vector API ---------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        replies = self._exchange("reset", [[(i, seeds[i], options) for i in g] for g in self.groups])
        infos: dict[str, Any] = {}
        for i, info in replies:
            infos = self._add_info(infos, info, i)
        return self._observations(), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        per_env = list(iterate(self.action_space, actions))
        if len(per_env) != self.num_envs:
            raise ValueError(f"{len(per_env)} actions for {self.num_envs} environments")
        replies = self._exchange("step", [[(i, per_env[i]) for i in g] for g in self.groups])
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        for i, reward, term, trunc, info in replies:
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
            infos = self._add_info(infos, info, i)
        return self._observations(), rewards, terminated, truncated, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """`env.<name>(*args, **kwargs)` (or the attribute's value) for every environment."""
        replies = self._exchange("call", [[(i, name, args, kwargs) for i in g] for g in self.groups])
        return tuple(v for _, v in sorted(replies, key=lambda r: r[0]))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def close_extras(self, terminate: bool = False, **kwargs: Any) -> None:
        """Close every worker's environments; `terminate` (or a worker that does not answer
        within 5 s) ends the process instead."""
        if not terminate:
            for pipe in self._pipes:
                with contextlib.suppress(BrokenPipeError, OSError):
                    pipe.send(("close", None))
        for pipe, proc in zip(self._pipes, self._processes):
            if not terminate:
                with contextlib.suppress(EOFError, OSError):
                    if pipe.poll(5):
                        pipe.recv()
                proc.join(5)
            if proc.is_alive():
                proc.terminate()
                proc.join(5)
            pipe.close()

    # --- plumbing ---------------------------------------------------------------------------
    def _observations(self) -> Any:
        return copy.deepcopy(self.observations) if self.copy else self.observations

    def _exchange(self, command: str, per_worker: list[list[tuple]]) -> list[tuple]:
        """Send each worker its share, then gather every reply (one message each way)."""
        if self.closed:
            raise RuntimeError("the vector env is closed")
        for pipe, data in zip(self._pipes, per_worker):
            pipe.send((command, data))
        out: list[tuple] = []
        failure: str | None = None
        for w, pipe in enumerate(self._pipes):
            if not pipe.poll(self.timeout_s):
                self.close(terminate=True)
                raise TimeoutError(f"worker {w} (environments {self.groups[w]}) did not answer "
                                   f"{command} within {self.timeout_s:g} s")
            try:
                ok, reply = pipe.recv()
            except EOFError:
                ok, reply = False, f"worker {w} (environments {self.groups[w]}) died"
            if ok:
                out.extend(reply)
            elif failure is None:
                failure = reply
        if failure is not None:
            raise VectorWorkerError(failure)
        return out


def _group_worker(indices: list[int], env_fns: list[CloudpickleWrapper], pipe: Any, parent: Any,
                  buffer: Any, space: gym.Space) -> None:
    """A worker process: builds its environments, then answers commands until `close`."""
    parent.close()
    envs: list[gym.Env] = []
    try:
        envs = [fn() for fn in env_fns]
    except Exception:
        pipe.recv()
        pipe.send((False, f"environments {indices} could not be made:\n{traceback.format_exc()}"))
        return
    slot = {i: k for k, i in enumerate(indices)}
    ended = [False] * len(envs)  # next-step autoreset: this env's episode ended last step
    while True:
        try:
            command, data = pipe.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if command == "close":
            for env in envs:
                env.close()
            pipe.send((True, None))
            break
        out: list[tuple] = []
        i = -1
        try:
            for item in data:
                i = item[0]
                env = envs[slot[i]]
                if command == "reset":
                    obs, info = env.reset(seed=item[1], options=item[2])
                    write_to_shared_memory(space, i, obs, buffer)
                    ended[slot[i]] = False
                    out.append((i, info))
                elif command == "step":
                    if ended[slot[i]]:
                        obs, info = env.reset()
                        reward, term, trunc = 0.0, False, False
                    else:
                        obs, reward, term, trunc, info = env.step(item[1])
                    ended[slot[i]] = bool(term or trunc)
                    write_to_shared_memory(space, i, obs, buffer)
                    out.append((i, float(reward), bool(term), bool(trunc), info))
                elif command == "call":
                    _, name, args, kwargs = item
                    attr = getattr(env, name)
                    out.append((i, attr(*args, **kwargs) if callable(attr) else attr))
                else:
                    raise ValueError(f"unknown command {command!r}")
            pipe.send((True, out))
        except Exception:
            pipe.send((False, f"environment {i} raised in {command}:\n{traceback.format_exc()}"))
