"""The Task interface (AndroidWorld's TaskEval shape).

A task template is a class: a goal template, the apps it uses, a complexity,
seeded parameters, and set-up/success/tear-down that speak to the phone only
through the Device protocol (so they run on the simulated phone and on a real
emulator alike), plus a semantic `solution()` for the oracle. Templates are
normally declared as data (tasks/template.py), which makes this class for them;
writing the class by hand is the escape hatch for a template that needs code.
"""

from __future__ import annotations

import inspect
import shlex
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from antrap_gym.tasks.answers import answer_matches, normalize_answer
from antrap_gym.tasks.steps import Step

if TYPE_CHECKING:
    from antrap_gym.device import Device

#: how a task is graded: by our check, or by the reference's (AndroidWorld's / AnTrap's)
#: where a template declares that it grades otherwise (docs/grading.md)
GRADINGS = ("ours", "reference")


def check_grading(grading: str) -> str:
    """`grading` if it is one of GRADINGS, else a ValueError naming them."""
    if grading not in GRADINGS:
        raise ValueError(f"grading must be one of {', '.join(GRADINGS)}, got {grading!r}")
    return grading


class Task:
    #: goal text with {param} placeholders
    template: ClassVar[str] = ""
    #: package names the task touches
    apps: ClassVar[tuple[str, ...]] = ()
    #: AndroidWorld's difficulty scale; the step budget is 10 x complexity
    complexity: ClassVar[float] = 1.0
    #: information retrieval: success depends on the `answer` action
    answer_task: ClassVar[bool] = False
    #: how an answer is compared (tasks.answers.KINDS): text, number, phone, email, ...
    answer_kind: ClassVar[str] = "text"
    #: the target is only reachable by scrolling (documented, tested)
    needs_scroll: ClassVar[bool] = False
    #: action / answer / composite (tasks.template.KINDS)
    kind: ClassVar[str] = "action"
    #: "train" or "test": which held-out suite the template belongs to (tasks/suites.py)
    split: ClassVar[str] = ""
    #: the templates that ask for the same behaviour with other constants share a family,
    #: and the split holds out whole families ("": a family of its own; tasks/families.py)
    family: ClassVar[str] = ""
    #: where the template comes from: "AndroidWorld" or "AnTrap" (a reference template,
    #: named and drawn as the reference task, so results line up row by row with the
    #: papers' tables) or "antrap-gym" (one of ours; the `antrap-extra` suite)
    source: ClassVar[str] = "antrap-gym"
    tags: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = dict(params)

    # --- identity ------------------------------------------------------------
    @classmethod
    def task_id(cls) -> str:
        return cls.__name__

    @property
    def goal(self) -> str:
        return self.template.format(**self.params)

    @property
    def max_steps(self) -> int:
        return max(1, round(10 * self.complexity))

    def __repr__(self) -> str:
        return f"{self.task_id()}({self.params})"

    # --- the contract ------------------------------------------------------------
    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Seeded parameters for one variant of the template."""
        return {}

    def setup(self, device: Device) -> None:
        """Put the phone in the task's initial state (shell only)."""

    def is_successful(self, device: Device, answer: str | None = None,
                      grading: str = "ours") -> float:
        """0..1: how much of the goal holds now (shell only), by our check or (`grading=
        "reference"`) by the reference's where the template declares one."""
        raise NotImplementedError

    def teardown(self, device: Device) -> None:
        """Undo anything set-up left that later tasks must not see."""

    def solution(self) -> list[Step]:
        """The semantic steps an oracle grounds on the live screen."""
        raise NotImplementedError

    def distractors(self) -> list[str]:
        """Answer tasks: the other candidates an answer could name instead (the other
        contacts, notes, options); an answer naming one of them too scores 0."""
        return []

    # --- helpers for task authors (all through shell) -----------------------------
    @staticmethod
    def sh(device: Device, cmd: str) -> str:
        res = device.shell(cmd)
        if res.exit_code != 0:
            raise TaskError(f"setup command failed ({res.exit_code}): {cmd!r}: {res.stderr.strip()}")
        return res.stdout

    @staticmethod
    def q(s: str) -> str:
        """Quote a value for the device shell."""
        return shlex.quote(s)

    @staticmethod
    def setting(device: Device, ns: str, key: str) -> str:
        return device.shell(f"settings get {ns} {key}").stdout.strip()


class TaskError(RuntimeError):
    """A task could not be set up on this device."""


def grade(task: Task, device: Device, answer: str | None = None, grading: str = "ours") -> float:
    """`task.is_successful` under `grading`. A hand-written class whose `is_successful`
    takes no `grading` declares no reference check: it is graded by its own either way."""
    check_grading(grading)
    if grading == "ours" or "grading" not in inspect.signature(task.is_successful).parameters:
        return task.is_successful(device, answer)
    return task.is_successful(device, answer, grading=grading)


__all__ = ["GRADINGS", "Task", "TaskError", "answer_matches", "check_grading", "grade",
           "normalize_answer"]
