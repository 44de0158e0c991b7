"""Gathering training states for step-level GRPO.

States come from two kinds of episodes under the training trap stack: the
oracle's (they reach every screen of a solution, including the trapped ones)
and the current policy's (they reach the states the policy actually gets
itself into, e.g. stuck behind a pop-up). At every step the whole stack is
captured with the prompt the policy sees there. States from which the oracle
cannot finish are dropped (no reply can be rewarded for progress there), and
states where a trap acts are preferred when sampling (`trapped_weight`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from antrap_gym.agents.policy import PolicyConfig, PolicySession, format_completion
from antrap_gym.env.state import capture
from antrap_gym.training.rewards import TrainState
from antrap_gym.training.workers import RolloutPool
from antrap_gym.traps.solvability import Prover

#: state ids are unique within a process (the rewarder keys states and outcomes by them)
_SERIAL = itertools.count()


@dataclass
class _Pending:
    step: int
    state: Any
    prompt: list[dict[str, Any]]
    image: Any
    distance: int | None
    reply: str = ""  # the oracle's reply here, in the policy format (oracle episodes)


def _prompt(session: PolicySession, obs: dict[str, Any], policy: PolicyConfig) -> tuple[list, Any]:
    """The prompt as TRL's VLM route takes it: image parts are bare `{"type": "image"}`
    placeholders and the picture travels in the `images` column."""
    msgs = session.hf_messages(obs, text_only=not policy.shows_image)
    image = None
    for m in msgs:
        if isinstance(m["content"], list):
            parts = []
            for p in m["content"]:
                if p.get("type") == "image":
                    image = p.get("image")
                    p = {"type": "image"}
                parts.append(p)
            m["content"] = parts
    return msgs, image


def _trapped_steps(events: list[dict[str, Any]]) -> set[int]:
    """Steps at which some trap acts: from its first step through its recovery."""
    out: set[int] = set()
    for e in events:
        first = int(e.get("step", 0))
        span = max(int(e.get("duration", 1) or 1), int(e.get("recovery_steps") or 0), 1)
        out.update(range(first, first + span))
    return out


@dataclass
class OracleRun:
    """One oracle episode, played where its environment lives."""

    pending: list[_Pending]
    events: list[dict[str, Any]]
    space: Any  # the episode's CoordSpace


def play_oracle(env, prover: Prover, task: str, variant: int, trap_seed: int,
                policy: PolicyConfig) -> OracleRun:
    """The oracle plays one episode; every decision point is captured with the prompt
    shown there and the oracle's distance to success. Runs on a rollout worker."""
    from antrap_gym.agents.oracle import OracleAgent

    obs, info = env.reset(seed=variant, options={"task": task, "trap_seed": trap_seed})
    oracle = OracleAgent()
    oracle.reset(env, obs, info, seed=variant)
    session = PolicySession(obs.get("goal") or "", env.unwrapped.screen_size, policy, lenient=False)
    pending: list[_Pending] = []
    done = False
    while not done:
        session.observe(obs)
        prompt, image = _prompt(session, obs, policy)
        pending.append(_Pending(env.unwrapped.step_count + 1, capture(env), prompt, image,
                                prover.distance(env.unwrapped)))
        action = oracle.act(obs, info)
        reply = format_completion(action, "", space=session.space, config=policy,
                                  elements=obs.get("ui_elements") or "")
        pending[-1].reply = reply
        obs, _, term, trunc, info = env.step(session.decode(reply).action)
        done = term or trunc
    return OracleRun(pending, list(env.unwrapped.trap_events), session.space)


class StateGatherer:
    """Runs episodes under one trap stack and returns captured decision points.

    The `num_envs` environments live in a `RolloutPool` (`rollout`: sync | async |
    ray): oracle episodes run one per environment in parallel on the workers, and
    the policy's episodes advance all environments together — one batched
    `generate` per turn on the driver, one batched step (with the capture and the
    oracle's distance done worker-side) per turn on the workers.
    """

    def __init__(self, *, tasks: Sequence[str], variants: Sequence[int], stack: list[dict[str, Any]],
                 policy: PolicyConfig, obs_mode: str = "text", max_steps: int | None = None,
                 num_envs: int = 4, trapped_weight: float = 4.0, rollout: str = "sync",
                 workers: int | None = None, ray_address: str | None = None) -> None:
        self.tasks = list(tasks)
        self.variants = list(variants)
        self.stack = list(stack)
        self.policy = policy
        self.obs_mode = obs_mode
        self.max_steps = max_steps
        self.trapped_weight = trapped_weight
        self.num_envs = max(1, num_envs)
        kw: dict[str, Any] = {"obs_mode": obs_mode, "traps": self.stack or None}
        if max_steps is not None:
            kw["max_steps"] = max_steps
        self.pool = RolloutPool(kw, self.num_envs, backend=rollout, workers=workers, ray_address=ray_address)
        self.episodes = 0
        self._stack_key = json.dumps(self.stack, sort_keys=True, default=str)

    # --- episodes -----------------------------------------------------------------------------
    def _pick(self, rng: np.random.Generator) -> tuple[str, int, int]:
        task = self.tasks[int(rng.integers(len(self.tasks)))]
        variant = self.variants[int(rng.integers(len(self.variants)))]
        return task, variant, int(rng.integers(2**31))

    def _finish(self, events: list[dict[str, Any]], pending: list[_Pending], task: str, variant: int,
                trap_seed: int, source: str, space) -> list[TrainState]:
        trapped = _trapped_steps(events)
        out = []
        for p in pending:
            if p.distance is None:
                continue
            key = f"{self._stack_key}|{source}|{task}|{variant}|{trap_seed}|{p.step}|{self.episodes}"
            sid = f"{next(_SERIAL)}-{hashlib.blake2b(key.encode(), digest_size=6).hexdigest()}"
            out.append(TrainState(sid, p.state, self.stack, task, variant, trap_seed if self.stack else None,
                                  p.step, p.prompt, space, p.distance, p.step in trapped, source,
                                  self.obs_mode, p.image))
        self.episodes += 1
        return out

    def oracle_states(self, rng: np.random.Generator) -> list[TrainState]:
        """One oracle episode per environment, each on a random task variant and trap seed."""
        picks = {slot: self._pick(rng) for slot in range(self.num_envs)}
        runs = self.pool.apply(play_oracle, {s: (*pick, self.policy) for s, pick in picks.items()})
        out: list[TrainState] = []
        for slot, (task, variant, trap_seed) in picks.items():
            run = runs[slot]
            out += self._finish(run.events, run.pending, task, variant, trap_seed, "oracle", run.space)
        return out

    def policy_states(self, policy, rng: np.random.Generator, seed: int) -> list[TrainState]:
        """One episode per environment, driven by `policy` (a `BatchedPolicy`)."""
        picks = {slot: self._pick(rng) for slot in range(self.num_envs)}
        first = self.pool.reset({s: (variant, {"task": task, "trap_seed": trap_seed})
                                 for s, (task, variant, trap_seed) in picks.items()}, want_state=True)
        runs = {s: {"t": t, "session": policy.session(t.obs.get("goal") or "", t.screen_size),
                    "pending": [], "events": []} for s, t in first.items()}
        turn = 0
        while live := [s for s, r in runs.items() if not r["t"].done]:
            for s in live:  # capture before the policy acts (observe is done by act_batch)
                r = runs[s]
                r["session"].observe(r["t"].obs)
                prompt, image = _prompt(r["session"], r["t"].obs, self.policy)
                r["pending"].append(_Pending(r["t"].step_count + 1, r["t"].state, prompt, image,
                                             r["t"].distance))
            acts = policy.act_batch([runs[s]["session"] for s in live], [runs[s]["t"].obs for s in live],
                                    seed=seed * 1000 + turn, observed=True)
            stepped = self.pool.step({s: action for s, (action, _gen) in zip(live, acts)}, want_state=True)
            for s, t in stepped.items():
                runs[s]["t"] = t
            turn += 1
        out = []
        for s, (task, variant, trap_seed) in picks.items():
            r = runs[s]
            out += self._finish(r["t"].events, r["pending"], task, variant, trap_seed, "policy",
                                r["session"].space)
        return out

    # --- sampling -----------------------------------------------------------------------------
    def gather(self, n: int, rng: np.random.Generator, policy=None, oracle_share: float = 0.5,
               seed: int = 0, max_rounds: int = 50) -> list[TrainState]:
        """`n` states: about `oracle_share` of them from oracle episodes, the rest from
        the policy's (all from the oracle when `policy` is None); trapped states are
        `trapped_weight` times as likely to be picked."""
        want_oracle = n if policy is None else round(n * oracle_share)
        chosen: list[TrainState] = []
        for source, want in (("oracle", want_oracle), ("policy", n - want_oracle)):
            pool: list[TrainState] = []
            rounds = 0
            while want and len(pool) < 3 * want and rounds < max_rounds:
                pool += self.oracle_states(rng) if source == "oracle" else \
                    self.policy_states(policy, rng, seed + rounds)
                rounds += 1
            chosen += self.sample(pool, want, rng)
        if len(chosen) < n:  # the policy's episodes yielded too few usable states
            pool = []
            while len(pool) < 2 * (n - len(chosen)):
                pool += self.oracle_states(rng)
            chosen += self.sample(pool, n - len(chosen), rng)
        return chosen

    def sample(self, pool: list[TrainState], k: int, rng: np.random.Generator) -> list[TrainState]:
        if k <= 0 or not pool:
            return []
        w = np.array([self.trapped_weight if s.trapped else 1.0 for s in pool], dtype=float)
        idx = rng.choice(len(pool), size=min(k, len(pool)), replace=False, p=w / w.sum())
        return [pool[i] for i in idx]

    def close(self) -> None:
        self.pool.close()


__all__ = ["StateGatherer"]
