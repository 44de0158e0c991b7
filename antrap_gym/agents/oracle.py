"""The oracle: a privileged, closed-loop agent that grounds a task's semantic
solution on whatever the screen shows now.

It is the "human" row of the benchmark. The grounding and every recovery (pop-ups
dismissed, the app reopened, the right screen walked back to, lists scrolled) is
the solver's (`antrap_gym.tasks.solver`), which the traps' solvability guard runs
too; this is its adapter to the Agent interface. It hands the solver the
observation's elements and what only a privileged agent reads off the env: the
phone, the executed actions and the recorded answer. Every action is checked the
way the env would take it (`AndroidEnv.check_action`, which parses it with
`Action.parse`); an action the env would refuse, or a fault anywhere (even an
`act` before `reset`), is recorded in `faults` and answered with Back, then Home,
then a wait. `act` never raises.
"""

from __future__ import annotations

from typing import Any

from antrap_gym.agents.base import Agent
from antrap_gym.tasks.solver import Solver
from antrap_gym.tasks.steps import Step


class OracleAgent(Agent):
    name = "oracle"

    def __init__(self) -> None:
        self.env: Any = None
        self.task: Any = None
        #: the episode's solver (one without a task before the first reset: it faults)
        self.solver = Solver(None, (0, 0))

    def reset(self, env, obs, info, seed=None) -> None:
        self.env = env.unwrapped
        self.task = self.env.task
        self.solver = Solver(self.task, self.env.screen_size)

    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        """The next action; never raises. A fault in the solver's reasoning, or an
        action the env would reject, is recorded in `faults` and replaced by a
        harmless recovery (tests assert there are none)."""
        solver = self.solver
        try:
            env = self.env
            elements = obs.get("ui_elements", "")
            device = env.device
            history = getattr(env, "history", None) or ()
            answer = getattr(env, "answer", None)
            check = env.check_action
        except Exception as e:  # no env yet, an observation that is not a dict
            return solver.fallback(e)
        return solver.act(elements, device, history=history, answer=answer, check=check)

    # --- the solver's state, as the oracle's ----------------------------------------------
    @property
    def plan(self) -> list[Step]:
        return self.solver.plan

    @plan.setter
    def plan(self, steps: list[Step]) -> None:
        self.solver.plan = steps

    @property
    def ptr(self) -> int:
        return self.solver.ptr

    @property
    def answered(self) -> bool:
        return self.solver.answered

    @property
    def restarts(self) -> int:
        return self.solver.restarts

    @property
    def faults(self) -> list[str]:
        """Faults inside `act` (bugs), each answered with a fallback action."""
        return self.solver.faults
