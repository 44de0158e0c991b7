"""Agents that misbehave on purpose, to test the harness's fault handling.

They are loaded as `tests.faulty_agents:Class` by worker processes.
"""

from __future__ import annotations

import os
import time

from antrap_gym.agents.oracle import OracleAgent


class CrashingAgent(OracleAgent):
    """Kills its whole process (as a segfaulting model server client would) on one task."""

    name = "crashing"

    def __init__(self, task: str = "SettingsBrightness") -> None:
        super().__init__()
        self.bad_task = task

    def act(self, obs, info):
        if self.task.task_id() == self.bad_task:
            os._exit(3)
        return super().act(obs, info)


class HangingAgent(OracleAgent):
    """Never answers on one task (a stuck remote call)."""

    name = "hanging"

    def __init__(self, task: str = "SettingsBrightness") -> None:
        super().__init__()
        self.bad_task = task

    def act(self, obs, info):
        if self.task.task_id() == self.bad_task:
            time.sleep(3600)
        return super().act(obs, info)


class RaisingAgent(OracleAgent):
    """Raises on one task (a bug in an agent)."""

    name = "raising"

    def __init__(self, task: str = "SettingsBrightness") -> None:
        super().__init__()
        self.bad_task = task

    def act(self, obs, info):
        if self.task.task_id() == self.bad_task:
            raise RuntimeError("agent bug")
        return super().act(obs, info)
