"""What an agent is to the harness: reset per episode, then one action per step."""

from __future__ import annotations

from typing import Any

import gymnasium as gym


class Agent:
    """Base class. `act` returns an AndroidWorld action (dict or JSON string)."""

    name: str = "agent"

    def reset(self, env: gym.Env, obs: dict[str, Any], info: dict[str, Any],
              seed: int | None = None) -> None:
        """Called after `env.reset`; `seed` seeds any randomness of the agent's own."""

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any] | str:
        raise NotImplementedError

    #: the agent's last reasoning / raw model output, for trajectory records
    last_thought: str = ""
    #: what the agent reads: "text" (elements), "screenshot", or "both"; the harness
    #: picks the environment's observation mode from it
    observation: str = "text"


def base_env(env: gym.Env):
    """The innermost AndroidEnv under any wrappers."""
    return env.unwrapped
