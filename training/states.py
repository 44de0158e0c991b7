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
from antrap_gym.traps.solvability import Prover
from training.rewards import TrainState

#: state ids are unique within a process (the rewarder keys states and outcomes by them)
_SERIAL = itertools.count()


@dataclass
class _Pending:
    step: int
    state: Any
    prompt: list[dict[str, Any]]
    image: Any
    distance: int | None


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


class StateGatherer:
    """Runs episodes under one trap stack and returns captured decision points."""

    def __init__(self, *, tasks: Sequence[str], variants: Sequence[int], stack: list[dict[str, Any]],
                 policy: PolicyConfig, obs_mode: str = "text", max_steps: int | None = None,
                 num_envs: int = 4, trapped_weight: float = 4.0) -> None:
        from antrap_gym.env.registration import make_env

        self.tasks = list(tasks)
        self.variants = list(variants)
        self.stack = list(stack)
        self.policy = policy
        self.obs_mode = obs_mode
        self.max_steps = max_steps
        self.trapped_weight = trapped_weight
        kw: dict[str, Any] = {"obs_mode": obs_mode}
        if max_steps is not None:
            kw["max_steps"] = max_steps
        self.envs = [make_env(traps=stack or None, **kw) for _ in range(max(1, num_envs))]
        self.prover = Prover()
        self.episodes = 0
        self._stack_key = json.dumps(self.stack, sort_keys=True, default=str)

    # --- episodes -----------------------------------------------------------------------------
    def _pick(self, rng: np.random.Generator) -> tuple[str, int, int]:
        task = self.tasks[int(rng.integers(len(self.tasks)))]
        variant = self.variants[int(rng.integers(len(self.variants)))]
        return task, variant, int(rng.integers(2**31))

    def _finish(self, env, pending: list[_Pending], task: str, variant: int, trap_seed: int,
                source: str, space) -> list[TrainState]:
        trapped = _trapped_steps(env.unwrapped.trap_events)
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

    def _capture(self, env, session, obs, step) -> _Pending:
        prompt, image = _prompt(session, obs, self.policy)
        return _Pending(step, capture(env), prompt, image, self.prover.distance(env.unwrapped))

    def oracle_states(self, rng: np.random.Generator) -> list[TrainState]:
        """One oracle episode on a random task variant and trap seed."""
        from antrap_gym.agents.oracle import OracleAgent

        env = self.envs[0]
        task, variant, trap_seed = self._pick(rng)
        obs, info = env.reset(seed=variant, options={"task": task, "trap_seed": trap_seed})
        oracle = OracleAgent()
        oracle.reset(env, obs, info, seed=variant)
        session = PolicySession(obs.get("goal") or "", env.unwrapped.screen_size, self.policy, lenient=False)
        pending: list[_Pending] = []
        done = False
        while not done:
            session.observe(obs)
            pending.append(self._capture(env, session, obs, env.unwrapped.step_count + 1))
            action = oracle.act(obs, info)
            reply = format_completion(action, "", space=session.space, config=self.policy,
                                      elements=obs.get("ui_elements") or "")
            decision = session.decode(reply)
            obs, _, term, trunc, info = env.step(decision.action)
            done = term or trunc
        return self._finish(env, pending, task, variant, trap_seed, "oracle", session.space)

    def policy_states(self, policy, rng: np.random.Generator, seed: int) -> list[TrainState]:
        """One episode per env, driven by `policy` (a `BatchedPolicy`) with batched generation."""
        runs = []
        for env in self.envs:
            task, variant, trap_seed = self._pick(rng)
            obs, info = env.reset(seed=variant, options={"task": task, "trap_seed": trap_seed})
            session = policy.session(obs.get("goal") or "", env.unwrapped.screen_size)
            runs.append({"env": env, "obs": obs, "session": session, "pending": [], "done": False,
                         "task": task, "variant": variant, "trap_seed": trap_seed})
        turn = 0
        while True:
            live = [r for r in runs if not r["done"]]
            if not live:
                break
            for r in live:  # capture before the policy acts (observe is done by act_batch)
                r["session"].observe(r["obs"])
                r["pending"].append(self._capture(r["env"], r["session"], r["obs"],
                                                  r["env"].unwrapped.step_count + 1))
            acts = policy.act_batch([r["session"] for r in live], [r["obs"] for r in live],
                                    seed=seed * 1000 + turn, observed=True)
            for r, (action, _gen) in zip(live, acts):
                r["obs"], _, term, trunc, _ = r["env"].step(action)
                r["done"] = term or trunc
            turn += 1
        out = []
        for r in runs:
            out += self._finish(r["env"], r["pending"], r["task"], r["variant"], r["trap_seed"], "policy",
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
        for env in self.envs:
            env.close()


__all__ = ["StateGatherer"]
