"""The episode record: everything that says where an episode is.

`AndroidEnv` holds one; a capture of an env stack copies it as one value, the
solvability guard starts a fork with a fresh one, and a device fault ends it. A
field added here is carried by all of them, and `AndroidEnv` shows it as an
attribute of the same name (`env.step_count` is `env.episode.step_count`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from antrap_gym.tasks.base import Task


@dataclass
class Episode:
    #: the task being played (its parameters are fixed: copies share it)
    task: Task | None = None
    step_count: int = 0
    #: the task's own step budget, before traps extend it
    base_budget: int = 0
    #: steps traps took from the agent and gave back to the budget
    stolen_steps: int = 0
    budget_factor: float = 1.0
    #: the budget now: (base_budget + stolen_steps) x budget_factor
    budget: int = 0
    #: every trap event of the episode, written by trap wrappers (dicts)
    trap_events: list[dict[str, Any]] = field(default_factory=list)
    answer: str | None = None
    #: the executed actions, as canonical action dicts
    history: list[dict[str, Any]] = field(default_factory=list)
    #: why the last action was refused ("" when it was taken)
    last_action_error: str = ""
    #: the episode is over; step() refuses actions until the next reset
    done: bool = False

    @classmethod
    def start(cls, task: Task | None, budget: int, **kw: Any) -> Episode:
        """A fresh episode of `task` with `budget` steps."""
        return cls(task=task, base_budget=budget, budget=budget, **kw)

    def copy(self, memo: dict[int, Any] | None = None) -> Episode:
        """A deep copy that shares the task. Pass one `memo` to copy it together with
        other state that shares its events (the trap wrappers') and they stay shared."""
        memo = {} if memo is None else memo
        memo.setdefault(id(self.task), self.task)
        return copy.deepcopy(self, memo)

    # --- the budget (trap wrappers extend it) --------------------------------------------
    def set_budget_factor(self, factor: float) -> None:
        self.budget_factor = max(self.budget_factor, float(factor))
        self._rebudget()

    def add_stolen_steps(self, n: int) -> None:
        self.stolen_steps += int(n)
        self._rebudget()

    def _rebudget(self) -> None:
        self.budget = math.ceil((self.base_budget + self.stolen_steps) * self.budget_factor - 1e-9)


#: the record's fields, each also an attribute of `AndroidEnv`
EPISODE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Episode))
