"""Workers that run episodes in parallel, each owning its own phone.

- `LocalPool`: worker processes (one or more). A worker that dies or overruns
  the episode timeout is killed and replaced, and its episode is retried once;
  after that the episode is recorded as an error. The run never waits on a lost
  worker. This is what `--workers 1` gets too: one worker process, with the
  same guarantees. A worker is given episodes only once it is ready (started,
  agents built), so start-up is never episode time; workers that cannot start
  are replaced, and after `MAX_START_FAILURES` in a row the episodes left are
  recorded as infrastructure errors instead of the run hanging. Workers are given
  episodes task instance by task instance (`spec_queue`), so what one measured on an
  instance's phone states serves its other episodes.
- `InlinePool`: in this process, for debugging only (`--inline`: breakpoints and
  tracebacks in your agent work), with no isolation and no timeout — a hanging
  agent hangs the run and a crashing one ends it.
- `RayPool`: the same over Ray actors, so workers can live on other machines.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait as mp_wait
from pathlib import Path
from typing import Any

from antrap_gym.cpu_threads import limit_threads, share_of_cores
from antrap_gym.eval.errors import INFRASTRUCTURE
from antrap_gym.eval.spec import EpisodeSpec, EvalConfig
from antrap_gym.eval.spec_queue import SpecQueue
from antrap_gym.eval.worker import EpisodeRunner, error_record

OnResult = Callable[[dict[str, Any]], None]
MAX_ATTEMPTS = 2  # the first try and one retry
MAX_START_FAILURES = 3  # workers in a row that die or hang while starting: give up the rest


class InlinePool:
    """Episodes in this process, one after another (debugging: no isolation, no timeout)."""

    replaced = 0

    def __init__(self, config: EvalConfig, out_dir: Path, **_: Any) -> None:
        self.runner = EpisodeRunner(config, out_dir, config.device_for(0))

    def run(self, specs: Iterable[EpisodeSpec], on_result: OnResult) -> None:
        for spec in specs:
            on_result(self.runner.run(spec))

    def close(self) -> None:
        self.runner.close()


def _worker_main(config: EvalConfig, out_dir: str, device: str, conn, warm: bool = True,
                 threads: int | None = None) -> None:
    if threads:  # one of several workers: its share of the cores (a model's agent runs here)
        limit_threads(threads)
    runner = EpisodeRunner(config, out_dir, device)
    if warm:
        runner.warm_up()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            spec = conn.recv()
        except EOFError:
            break
        if spec is None:
            break
        conn.send(("done", runner.run(spec)))
    runner.close()


class _Worker:
    """One worker process with its own pipe: a killed worker breaks only its pipe.

    It is `ready` once it has started (imports, agents built); the episode timeout
    runs from when it is given an episode, so start-up never counts against it. A
    worker started after another failed to start is `warm=False`: it builds each
    agent at its first episode, so that one agent whose construction kills or hangs
    its process fails only its own episodes."""

    def __init__(self, ctx, config: EvalConfig, out_dir: Path, device: str,
                 warm: bool = True, threads: int | None = None) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main,
                                args=(config, str(out_dir), device, child, warm, threads),
                                daemon=True)
        self.proc.start()
        child.close()
        self.created = time.monotonic()
        self.ready = False
        self.spec: EpisodeSpec | None = None
        self.started = 0.0

    def give(self, spec: EpisodeSpec) -> None:
        self.spec = spec
        self.started = time.monotonic()
        self.conn.send(spec)

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()


def _give_up(pending: SpecQueue, on_result: OnResult, why: str) -> None:
    """No worker could start: every episode left is recorded as an infrastructure error
    (a resume runs them again once the cause is fixed)."""
    while pending:
        on_result(error_record(pending.popleft(), f"no worker could start: {why}",
                               kind=INFRASTRUCTURE))


class LocalPool:
    def __init__(self, config: EvalConfig, out_dir: Path, workers: int = 2,
                 start_method: str = "spawn") -> None:
        self.config = config
        self.out = out_dir
        self.n = max(1, workers)
        self.ctx = mp.get_context(start_method)
        self.workers: list[_Worker] = []
        self.replaced = 0
        self.warm = True  # off once a worker failed to start

    def _new_worker(self, i: int, warm: bool = True) -> _Worker:
        return _Worker(self.ctx, self.config, self.out, self.config.device_for(i),
                       warm=warm and self.warm,
                       threads=share_of_cores(self.n) if self.n > 1 else None)

    def run(self, specs: Iterable[EpisodeSpec], on_result: OnResult) -> None:
        pending = SpecQueue(specs)
        attempts: dict[str, int] = {}
        if not self.workers:
            self.workers = [self._new_worker(i)
                            for i in range(min(self.n, max(1, len(pending))))]
        timeout = self.config.episode_timeout_s
        start_limit = self.config.worker_start_timeout_s
        start_failures = 0  # workers in a row that never became ready
        gave_up = False

        def replace(i: int) -> None:
            self.workers[i].kill()
            self.workers[i] = self._new_worker(i)
            self.replaced += 1

        def fail(i: int, why: str) -> None:
            spec = self.workers[i].spec
            replace(i)
            if spec is None:
                return
            if attempts.get(spec.key, 0) < MAX_ATTEMPTS:
                pending.put_back(spec)
            else:
                on_result(error_record(spec, f"{why} (after {MAX_ATTEMPTS} attempts)",
                                       kind=INFRASTRUCTURE, device=self.config.device_for(i)))

        while pending or any(w.spec is not None for w in self.workers):
            for i, w in enumerate(self.workers):
                if w.ready and w.spec is None and pending:
                    spec = pending.take(i)
                    attempts[spec.key] = attempts.get(spec.key, 0) + 1
                    w.give(spec)
            listen = {w.conn: i for i, w in enumerate(self.workers)
                      if w.spec is not None or (not w.ready and not gave_up)}
            for conn in mp_wait(list(listen), timeout=0.1):
                i = listen[conn]
                w = self.workers[i]
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    continue  # died while answering: the liveness checks below handle it
                if kind == "ready":
                    w.ready = True
                    start_failures = 0
                    continue
                w.spec = None
                on_result(payload)
            now = time.monotonic()
            for i, w in enumerate(self.workers):
                if not w.ready:
                    if gave_up:
                        continue
                    alive = w.proc.is_alive()
                    if alive and now - w.created <= start_limit:
                        continue
                    why = (f"not ready after {start_limit:g}s" if alive
                           else f"exit code {w.proc.exitcode} before it was ready")
                    start_failures += 1
                    self.warm = False  # the next ones build their agents lazily
                    if start_failures >= MAX_START_FAILURES:
                        gave_up = True
                        w.kill()
                        _give_up(pending, on_result, f"{start_failures} workers in a row "
                                 f"failed to start (last: {why})")
                    else:
                        replace(i)
                elif w.spec is None:
                    if not w.proc.is_alive():  # died while idle: nothing lost
                        replace(i)
                elif not w.proc.is_alive():
                    fail(i, f"worker died (exit code {w.proc.exitcode})")
                elif now - w.started > timeout:
                    fail(i, f"episode timed out after {timeout:g}s")

    def close(self) -> None:
        for w in self.workers:
            with contextlib.suppress(OSError, ValueError):
                w.conn.send(None)
        deadline = time.monotonic() + 5
        for w in self.workers:
            w.proc.join(timeout=max(0.1, deadline - time.monotonic()))
            w.kill()
        self.workers = []


class RayPool:
    """Episodes on Ray actors (one phone each); works on a laptop or a cluster.

    Fault handling as `LocalPool`'s: an actor that dies or overruns the timeout is
    killed and replaced and its episode retried once; an actor is given episodes
    only once it has started (`ready`), so start-up never counts against the timeout."""

    def __init__(self, config: EvalConfig, out_dir: Path, workers: int = 2,
                 address: str | None = None) -> None:
        import ray

        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, num_cpus=None if address else max(1, workers),
                     include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
        self.config = config
        self.out = out_dir
        self.n = max(1, workers)
        self.actor_cls = ray.remote(num_cpus=1, max_restarts=0)(_RayEpisodeActor)
        self.actors: list[Any] = []
        self.replaced = 0
        self.warm = True  # off once an actor failed to start (see `_Worker`)

    def _new_actor(self, i: int):
        return self.actor_cls.remote(self.config, str(self.out), self.config.device_for(i),
                                     self.warm)

    def run(self, specs: Iterable[EpisodeSpec], on_result: OnResult) -> None:
        ray = self.ray
        pending = SpecQueue(specs)
        attempts: dict[str, int] = {}
        busy: dict[Any, tuple[int, EpisodeSpec, float]] = {}  # ref -> (actor index, spec, start)
        starting: dict[Any, tuple[int, float]] = {}  # ready() ref -> (actor index, created)
        idle: list[int] = []
        timeout = self.config.episode_timeout_s
        start_limit = self.config.worker_start_timeout_s
        start_failures = 0

        def launch(i: int) -> None:
            actor = self._new_actor(i)
            if i < len(self.actors):
                self.actors[i] = actor
            else:
                self.actors.append(actor)
            starting[actor.ready.remote()] = (i, time.monotonic())

        def replace(i: int) -> None:
            ray.kill(self.actors[i], no_restart=True)
            self.replaced += 1
            launch(i)

        def fail(i: int, spec: EpisodeSpec, why: str) -> None:
            replace(i)
            if attempts.get(spec.key, 0) < MAX_ATTEMPTS:
                pending.put_back(spec)
            else:
                on_result(error_record(spec, f"{why} (after {MAX_ATTEMPTS} attempts)",
                                       kind=INFRASTRUCTURE, device=self.config.device_for(i)))

        def start_failed(i: int, why: str) -> None:
            nonlocal start_failures
            start_failures += 1
            self.warm = False
            if start_failures >= MAX_START_FAILURES:
                ray.kill(self.actors[i], no_restart=True)
                _give_up(pending, on_result, f"{start_failures} workers in a row failed to "
                         f"start (last: {why})")
                starting.clear()
            else:
                replace(i)

        if self.actors:  # a second run: the actors are up already
            idle = list(range(len(self.actors)))
        else:
            for i in range(min(self.n, max(1, len(pending)))):
                launch(i)
        while pending or busy:
            while idle and pending:
                i = idle.pop()
                spec = pending.take(i)
                attempts[spec.key] = attempts.get(spec.key, 0) + 1
                busy[self.actors[i].run.remote(spec)] = (i, spec, time.monotonic())
            if not busy and not starting:
                break  # nothing running and nothing starting (gave up)
            ready, _ = ray.wait([*busy, *starting], num_returns=1, timeout=0.2)
            for ref in ready:
                if ref in starting:
                    i, _ = starting.pop(ref)
                    try:
                        ray.get(ref)
                    except Exception as e:  # died while starting
                        start_failed(i, f"{type(e).__name__} before it was ready")
                        continue
                    start_failures = 0
                    idle.append(i)
                    continue
                i, spec, _ = busy.pop(ref)
                try:
                    record = ray.get(ref)
                except Exception as e:  # the actor died (RayActorError) or the call failed
                    fail(i, spec, f"worker lost: {type(e).__name__}")
                    continue
                idle.append(i)
                on_result(record)
            now = time.monotonic()
            for ref, (i, spec, started) in list(busy.items()):
                if now - started > timeout:
                    busy.pop(ref)
                    fail(i, spec, f"episode timed out after {timeout:g}s")
            for ref, (i, created) in list(starting.items()):
                if now - created > start_limit:
                    starting.pop(ref)
                    start_failed(i, f"not ready after {start_limit:g}s")

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a, no_restart=True)
        self.actors = []


class _RayEpisodeActor:
    def __init__(self, config: EvalConfig, out_dir: str, device: str = "sim",
                 warm: bool = True) -> None:
        self.runner = EpisodeRunner(config, out_dir, device)
        if warm:
            self.runner.warm_up()

    def ready(self) -> bool:
        return True

    def run(self, spec: EpisodeSpec) -> dict[str, Any]:
        return self.runner.run(spec)


def make_pool(backend: str, config: EvalConfig, out_dir: Path, workers: int,
              ray_address: str | None = None, inline: bool = False
              ) -> InlinePool | LocalPool | RayPool:
    """The pool for a run. `workers` is clamped to at least 1 (and to the number of
    real devices); every local worker is a process unless `inline` asks for the
    in-process debugging pool."""
    workers = max(1, config.max_workers(workers))
    if backend == "ray":
        if inline:
            raise ValueError("inline runs in this process; it cannot be combined with backend ray")
        return RayPool(config, out_dir, workers, address=ray_address)
    if backend != "local":
        raise ValueError(f"backend must be local or ray, got {backend!r}")
    if inline:
        return InlinePool(config, out_dir)
    return LocalPool(config, out_dir, workers)
