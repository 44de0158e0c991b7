"""A random agent: a lower bound, and a fuzzer for the environment."""

from __future__ import annotations

from typing import Any

import numpy as np

from antrap_gym.agents.base import Agent
from antrap_gym.device.elements import parse_element_lines

WORDS = ("hello", "test", "note", "Alice", "2023", "meeting", "ok")


class RandomAgent(Agent):
    """Taps interactive elements mostly, sometimes scrolls, types, goes back or home.

    All choices come from a generator seeded in `reset`, so runs are reproducible.
    """

    name = "random"

    def __init__(self, give_up: float = 0.02) -> None:
        self.give_up = give_up
        self.rng = np.random.default_rng(0)

    def reset(self, env, obs, info, seed=None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        r = self.rng.random()
        els = [e for e in parse_element_lines(obs.get("ui_elements", "")) if e.is_interactive]
        if r < self.give_up:
            return {"action_type": "status", "goal_status": "complete"}
        if r < 0.08:
            return {"action_type": "navigate_back"}
        if r < 0.10:
            return {"action_type": "navigate_home"}
        if r < 0.20:
            return {"action_type": "scroll",
                    "direction": str(self.rng.choice(["up", "down", "left", "right"]))}
        editable = [e for e in els if e.is_editable]
        if r < 0.28 and editable:
            e = editable[int(self.rng.integers(len(editable)))]
            x, y = e.center
            return {"action_type": "input_text", "text": str(self.rng.choice(WORDS)), "x": x, "y": y}
        if r < 0.31:
            return {"action_type": "open_app",
                    "app_name": str(self.rng.choice(["Settings", "Contacts", "Markor"]))}
        if els:
            e = els[int(self.rng.integers(len(els)))]
            x, y = e.center
            kind = "long_press" if self.rng.random() < 0.1 else "click"
            return {"action_type": kind, "x": x, "y": y}
        return {"action_type": "wait"}
