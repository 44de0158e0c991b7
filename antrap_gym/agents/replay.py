"""Open-loop replay: the clean oracle's actions, played back blind.

At reset the oracle solves the very same task (same template and parameters)
on a private, trap-free simulated phone; the agent then replays those actions
one per step whatever the screen shows. It solves every clean task and shows
how brittle a recorded script is once anything unexpected happens.
"""

from __future__ import annotations

import json
from typing import Any

from antrap_gym.agents.base import Agent
from antrap_gym.agents.oracle import OracleAgent


class ReplayAgent(Agent):
    name = "replay"
    observation = "text"

    def __init__(self) -> None:
        self._scripts: dict[str, list[dict[str, Any]]] = {}
        self._recorder = None
        self.actions: list[dict[str, Any]] = []
        self.i = 0

    def reset(self, env, obs, info, seed=None) -> None:
        base = env.unwrapped
        key = json.dumps([base.task.task_id(), base.task.params, base.screen_size],
                         sort_keys=True, default=str)
        if key not in self._scripts:
            self._scripts[key] = self._record(base)
        self.actions = self._scripts[key]
        self.i = 0

    def _record(self, base) -> list[dict[str, Any]]:
        from antrap_gym.env.android_env import AndroidEnv

        if self._recorder is None or self._recorder.screen_size != tuple(base.screen_size):
            self._recorder = AndroidEnv(obs_mode="text", screen_size=tuple(base.screen_size))
        env = self._recorder
        obs, info = env.reset(seed=0, options={"task": type(base.task), "params": base.task.params})
        oracle = OracleAgent()
        oracle.reset(env, obs, info)
        script = []
        while True:
            action = oracle.act(obs, info)
            script.append(action)
            obs, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                return script

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        if self.i < len(self.actions):
            action = self.actions[self.i]
            self.i += 1
            self.last_thought = f"replaying step {self.i} of {len(self.actions)}"
            return dict(action)
        self.last_thought = "script finished"
        return {"action_type": "status", "goal_status": "complete"}
