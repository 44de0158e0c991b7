"""Templates as data: one `template(...)` declaration makes a registered Task class.

A declaration names the template (`id`, the reference class name where one exists),
its `apps`, `complexity` (budget 10 x complexity), `kind` (action / answer /
composite), `split` (train / test), the `goal` text, a seeded parameter draw
(`params(rng) -> dict`), a `setup` recipe (tasks/recipes.py and the app adapters'),
a `check` from the check library, and the `solution` steps the oracle grounds.
Strings in the recipe, the check and the steps are format strings over the
parameters (see tasks/binding.py); `derived(params)` adds values computed from them
(a first name, a fraction) without changing the parameters themselves. Answer
templates answer with `{answer}`, the check's expected value.

The class this makes is an ordinary `Task`: every consumer (env, oracle, traps, eval,
training) sees the same interface as for a hand-written class, which remains the
escape hatch for a template that needs code.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from antrap_gym.tasks.base import Task, TaskError
from antrap_gym.tasks.binding import DONE, BindError, bind
from antrap_gym.tasks.checks import AllOf, AnswerIs, Check, MeanOf
from antrap_gym.tasks.recipes import Recipe
from antrap_gym.tasks.registry import register, register_alias
from antrap_gym.tasks.steps import Step

if TYPE_CHECKING:
    from antrap_gym.device import Device

KINDS = ("action", "answer", "composite")
SPLITS = ("train", "test")
#: reference sources (tasks.base.Task.source); anything else is one of ours
REFERENCE_SOURCES = ("AndroidWorld", "AnTrap")
SOURCES = (*REFERENCE_SOURCES, "antrap-gym")

Solution = Sequence[Step] | Callable[[Mapping[str, Any]], list[Step]]


@dataclasses.dataclass(frozen=True)
class Template:
    """A template's declaration (what `template(...)` was given)."""

    id: str
    apps: tuple[str, ...]
    complexity: float
    kind: str
    split: str
    goal: str
    params: Callable[[np.random.Generator], dict[str, Any]]
    check: Check
    solution: Solution
    setup: tuple[Recipe, ...] = ()
    derived: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    needs_scroll: bool = False
    source: str = "antrap-gym"


class DataTask(Task):
    """A task made from a `Template`: binds the declaration to its parameters."""

    spec: ClassVar[Template]

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.ns = self._namespace()
        self.recipes: list[Recipe] = [self._bind(r) for r in self.spec.setup]
        self.check: Check = self._bind(self.spec.check)

    # --- binding ----------------------------------------------------------------
    def _namespace(self) -> dict[str, Any]:
        ns = dict(self.params)
        if self.spec.derived is not None:
            extra = dict(self.spec.derived(self.params))
            clash = set(extra) & set(ns)
            if clash:
                raise TaskError(f"{self.task_id()}: derived values {sorted(clash)} shadow parameters")
            ns.update(extra)
        return ns

    def _bind(self, obj: Any, ns: Mapping[str, Any] | None = None, done=None) -> Any:
        try:
            return bind(obj, self.ns if ns is None else ns, done)
        except BindError as e:
            raise TaskError(f"{self.task_id()}: no value for {{{e.args[0]}}} "
                            f"(parameters: {sorted(self.ns)})") from None

    def _holds(self, device: Device) -> bool:
        return self.is_successful(device) >= 1.0

    # --- the Task contract -----------------------------------------------------------
    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return cls.spec.params(rng)

    def setup(self, device: Device) -> None:
        for r in self.recipes:
            r.apply(device)
        self.check.prepare(device)

    def teardown(self, device: Device) -> None:
        for r in reversed(self.recipes):
            r.undo(device)

    def is_successful(self, device: Device, answer: str | None = None) -> float:
        return float(self.check(device, answer))

    def solution(self) -> list[Step]:
        ns = {**self.ns, "answer": self.expected()} if self.answer_task else self.ns
        sol = self.spec.solution
        if callable(sol):  # steps built in code: already concrete, only DONE to resolve
            return [dataclasses.replace(s, done=self._holds) if s.done is DONE else s
                    for s in sol(ns)]
        return self._bind(list(sol), ns, done=self._holds)

    # --- answers -------------------------------------------------------------------------
    @property
    def answer_check(self) -> AnswerIs:
        found = next((c for c in self.check.walk() if isinstance(c, AnswerIs)), None)
        if found is None:
            raise TaskError(f"{self.task_id()} is not an answer task")
        return found

    def expected(self, device: Device | None = None) -> str:
        """The right answer (read from `device` when the phone itself knows it)."""
        return self.answer_check.value(device)

    def distractors(self) -> list[str]:
        return self.answer_check.others() if self.answer_task else []


def _validate(spec: Template) -> str:
    """The answer kind, after checking the declaration is coherent."""
    if spec.kind not in KINDS:
        raise ValueError(f"{spec.id}: kind {spec.kind!r} is not one of {KINDS}")
    if spec.split not in SPLITS:
        raise ValueError(f"{spec.id}: split {spec.split!r} is not one of {SPLITS}")
    if not spec.apps:
        raise ValueError(f"{spec.id}: no apps")
    if spec.source not in SOURCES:
        raise ValueError(f"{spec.id}: source {spec.source!r} is not one of {SOURCES}")
    if spec.complexity <= 0:
        raise ValueError(f"{spec.id}: complexity must be positive")
    if not isinstance(spec.check, Check):
        raise TypeError(f"{spec.id}: check must come from the check library, not {spec.check!r}")
    answers = [c for c in spec.check.walk() if isinstance(c, AnswerIs)]
    if spec.kind == "answer" and len(answers) != 1:
        raise ValueError(f"{spec.id}: an answer template's check holds one AnswerIs")
    if spec.kind == "action" and answers:
        raise ValueError(f"{spec.id}: an action template's check grades no answer")
    if spec.kind == "composite" and not (isinstance(spec.check, (AllOf, MeanOf))
                                         and len(spec.check.parts()) >= 2):
        raise ValueError(f"{spec.id}: a composite template's check is AllOf/MeanOf of >= 2")
    return answers[0].kind if answers else "text"


def template(*, id: str, apps: Sequence[str], complexity: float, kind: str, split: str,
             goal: str, params: Callable[[np.random.Generator], dict[str, Any]], check: Check,
             solution: Solution, setup: Sequence[Recipe] = (),
             derived: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
             needs_scroll: bool = False, doc: str = "", base: type[DataTask] = DataTask,
             source: str = "antrap-gym", aliases: Sequence[str] = (),
             register_it: bool = True, **attrs: Any) -> type[DataTask]:
    """Declare a template; returns its Task class, registered unless `register_it` is
    False (a scratch template in a test or a notebook). `source` is "AndroidWorld" or
    "AnTrap" for a reference template (then `id` is the reference class name), else
    ours; `aliases` are old ids that now resolve to this one. Extra keyword arguments
    become class attributes."""
    spec = Template(id=id, apps=tuple(apps), complexity=complexity, kind=kind, split=split,
                    goal=goal, params=params, check=check, solution=solution, setup=tuple(setup),
                    derived=derived, needs_scroll=needs_scroll, source=source)
    answer_kind = _validate(spec)
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    cls = type(id, (base,), {
        "spec": spec, "template": goal, "apps": spec.apps, "complexity": complexity,
        "kind": kind, "split": split, "answer_task": kind == "answer",
        "answer_kind": answer_kind, "needs_scroll": needs_scroll, "source": source,
        "__doc__": doc or None, "__module__": module, "__qualname__": id, **attrs})
    if not register_it:
        return cls
    register(cls)
    for old in aliases:
        register_alias(old, id)
    return cls
