"""Agents that misbehave on purpose, to test the harness's fault handling, and a
scripted agent whose actions the viewer must draw.

They are loaded as `tests.faulty_agents:Class` by worker processes. Each faulty
agent behaves like the oracle except on one task (`task=`), and, with
`only_while=PATH`, only while that file exists — so a test can "fix the
infrastructure" (delete the file) and resume.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from antrap_gym.agents.base import Agent
from antrap_gym.agents.oracle import OracleAgent


class _Faulty(OracleAgent):
    def __init__(self, task: str = "SettingsBrightness", only_while: str | None = None) -> None:
        super().__init__()
        self.bad_task = task
        self.only_while = only_while

    def misbehaves(self) -> bool:
        if self.task.task_id() != self.bad_task:
            return False
        return self.only_while is None or Path(self.only_while).exists()


class CrashingAgent(_Faulty):
    """Kills its whole process (as a segfaulting model server client would) on one task."""

    name = "crashing"

    def act(self, obs, info):
        if self.misbehaves():
            os._exit(3)
        return super().act(obs, info)


class HangingAgent(_Faulty):
    """Never answers on one task (a stuck remote call)."""

    name = "hanging"

    def act(self, obs, info):
        if self.misbehaves():
            time.sleep(3600)
        return super().act(obs, info)


class RaisingAgent(_Faulty):
    """Raises on one task (a bug in an agent)."""

    name = "raising"

    def act(self, obs, info):
        if self.misbehaves():
            raise RuntimeError("agent bug")
        return super().act(obs, info)


#: what `SwipingAgent` does, step by step (device pixels on the 1080x2400 phone)
SWIPES: tuple[dict, ...] = (
    {"action_type": "swipe", "direction": "up"},
    {"action_type": "swipe", "direction": "left"},
    {"action_type": "swipe", "x": 200, "y": 1800, "x2": 900, "y2": 600},
    {"action_type": "swipe", "x": 540, "y": 700, "x2": 540, "y2": 1900},
    {"action_type": "status", "goal_status": "infeasible"},
)


class SwipingAgent(Agent):
    """Swipes by direction and by drag, then gives up (the viewer's swipe arrows)."""

    name = "swiping"

    def reset(self, env, obs, info, seed=None) -> None:
        self.i = 0
        self.last_thought = ""

    def act(self, obs, info):
        action = SWIPES[min(self.i, len(SWIPES) - 1)]
        self.i += 1
        self.last_thought = f"swipe number {self.i}"
        return dict(action)


class DyingAtBuildAgent(OracleAgent):
    """Kills its process while it is being built (a native library that crashes on load)."""

    name = "dying-at-build"

    def __init__(self) -> None:
        os._exit(4)


class SlowToBuildAgent(OracleAgent):
    """Takes `seconds` to build (loading a model): that is start-up, not episode time."""

    name = "slow-to-build"

    def __init__(self, seconds: float = 4.0) -> None:
        time.sleep(seconds)
        super().__init__()


class ExitOnUnpickle:
    """An option whose unpickling ends the process: a worker that dies before it is ready."""

    def __reduce__(self):
        return (os._exit, (5,))

    def __deepcopy__(self, memo):  # copying (dataclasses.asdict) is not unpickling
        return self

    def __repr__(self) -> str:
        return "ExitOnUnpickle()"


class ThreadCountingAgent(OracleAgent):
    """Writes, once per process, how many CPU threads torch would use there (the file
    `<out>/threads-<pid>`), then plays as the oracle: what a model's agent in that worker
    would get."""

    name = "thread-counting"

    def __init__(self, out: str) -> None:
        super().__init__()
        self.out = Path(out)

    def act(self, obs, info):
        mark = self.out / f"threads-{os.getpid()}"
        if not mark.exists():
            import torch

            mark.write_text(str(torch.get_num_threads()))
        return super().act(obs, info)
