"""The loop every model-backed agent shares, whatever runs the model.

An episode opens a `PolicySession` (the prompt's history and the reply format) at
`reset`; each `act` takes the observation in, hands out an action still queued from a
multi-action reply if there is one, and otherwise asks the model for a reply
(`reply`, the one thing a subclass writes: an HTTP call, an in-process `generate`)
that the session decodes into the env's action. `last_raw`, `last_thought` and
`last_decision` describe the step for trajectory records.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from antrap_gym.agents.base import Agent
from antrap_gym.agents.policy import Decision, PolicyConfig, PolicySession

#: what `last_thought` says on a step served from the previous reply's queue
QUEUED_THOUGHT = "(finishing the previous decision)"


def screen_size(env: gym.Env, obs: dict[str, Any]) -> tuple[int, int]:
    """The phone's (width, height): the env's own, else the screenshot's."""
    size = getattr(env.unwrapped, "screen_size", None)
    if size is not None:
        return size
    shot = obs.get("screenshot")
    if shot is None:
        raise ValueError("cannot tell the screen size: no env.unwrapped.screen_size, no screenshot")
    return (shot.shape[1], shot.shape[0])


def policy_config(**fields: Any) -> PolicyConfig:
    """A `PolicyConfig` from an agent's arguments; a field given as None keeps its default
    (an agent's `min_pixels=None` means the format's own bound, not "no bound")."""
    return PolicyConfig(**{k: v for k, v in fields.items() if v is not None})


class ModelAgent(Agent):
    """An agent whose actions are a model's replies in the shared policy format.

    Subclasses set `config` (and `lenient`: also accept the other output styles) and
    write `reply`."""

    config: PolicyConfig
    lenient: bool = True

    def _begin(self) -> None:
        """No episode yet: call from `__init__`."""
        self.observation = self.config.observation
        self.session: PolicySession | None = None
        self.episode_seed = 0
        self.step_index = 0
        self._forget_step()

    def _forget_step(self) -> None:
        self.last_raw = ""
        self.last_thought = ""
        self.last_decision: Decision | None = None

    def reset(self, env: gym.Env, obs: dict[str, Any], info: dict[str, Any],
              seed: int | None = None) -> None:
        goal = obs.get("goal") or info.get("goal") or ""
        self.session = PolicySession(goal, screen_size(env, obs), self.config, lenient=self.lenient)
        self.episode_seed = 0 if seed is None else int(seed)
        self.step_index = 0
        self._forget_step()

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        if self.session is None:
            raise RuntimeError("call reset() before act()")
        s = self.session
        self.step_index += 1
        queued = s.take(obs)
        if queued is not None:
            self.last_raw = ""
            self.last_thought = QUEUED_THOUGHT
            return queued
        raw = self.reply(s, obs)
        self.last_raw = raw
        decision = s.decode(raw)
        self.last_decision = decision
        self.last_thought = decision.thought
        return decision.action

    def reply(self, session: PolicySession, obs: dict[str, Any]) -> str:
        """The model's reply text to this step's prompt (`session.messages(obs)` or
        `session.hf_messages(obs)`)."""
        raise NotImplementedError


__all__ = ["QUEUED_THOUGHT", "ModelAgent", "policy_config", "screen_size"]
