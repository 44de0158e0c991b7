"""Capturing and restoring a whole environment stack: the phone, the episode's
bookkeeping and every trap wrapper's schedule and progress.

This is what lets step-level GRPO branch: a state gathered mid-episode is
restored into a scratch stack of the same traps, one candidate action is
executed there (an armed Action-layer trap acts on it exactly as it would
have), and the outcome is scored. Only the simulated phone can be restored.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from antrap_gym.device import Snapshot
from antrap_gym.env.episode import Episode

#: wrapper attributes that are wiring, not state
SKIP = {"env", "base", "_prover", "_action_space", "_observation_space", "_metadata",
        "_cached_spec", "_np_random", "_np_random_seed"}


@dataclass
class StackState:
    device: Snapshot
    episode: Episode  # the env's episode record
    traps: list[tuple[str, dict[str, Any]]]  # (wrapper class name, its state), outermost first


def wrappers(env: gym.Env) -> list[gym.Env]:
    """The wrappers of a stack, outermost first (the base env excluded)."""
    out = []
    while isinstance(env, gym.Wrapper):
        out.append(env)
        env = env.env
    return out


def capture(env: gym.Env) -> StackState:
    base = env.unwrapped
    memo: dict[int, Any] = {}  # one memo: events shared by the env and the traps stay shared
    episode = base.episode.copy(memo)
    traps = []
    for w in wrappers(env):
        if hasattr(w, "trap_type"):
            state = {k: copy.deepcopy(v, memo) for k, v in w.__dict__.items() if k not in SKIP}
            traps.append((type(w).__name__, state))
    return StackState(base.device.snapshot(), episode, traps)


def restore(env: gym.Env, state: StackState) -> dict[str, Any]:
    """Put `env` (a stack of the same trap types) in `state`; returns the observation."""
    base = env.unwrapped
    base.device.restore(state.device)
    memo: dict[int, Any] = {}
    base.resume(state.episode.copy(memo))
    traps = [w for w in wrappers(env) if hasattr(w, "trap_type")]
    if [type(w).__name__ for w in traps] != [name for name, _ in state.traps]:
        raise ValueError("the stack's traps differ from the captured state's: "
                         f"{[type(w).__name__ for w in traps]} vs {[n for n, _ in state.traps]}")
    for w, (_, saved) in zip(traps, state.traps):
        for k, v in saved.items():
            setattr(w, k, copy.deepcopy(v, memo))
    return base.observe()
