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

A reference template declares where it differs from its reference (AndroidWorld's or
AnTrap's task): `differs` maps an aspect ("check", "goal", "draw", "setup", "app") to
what differs, and `reference_check` is the reference's own check where the grading
differs and can be reproduced; `is_successful(..., grading="reference")` grades by it
(docs/grading.md lists every declaration). AndroidWorld's list answers get theirs by
default: the same answer under AndroidWorld's own rule (`AnswerIs.as_reference`).

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

from antrap_gym.tasks.base import Task, TaskError, check_grading
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
#: what a reference template may differ from its reference in (`differs`' keys)
ASPECTS = ("check", "goal", "draw", "setup", "app")
#: `differs["check"]` of an AndroidWorld list answer left to the default reference check
ANSWER_RULE = ("Ours normalises an answer before matching (case, quotes, accents, "
               "trailing punctuation), reads numbers, dates and times written in other "
               "common forms (\"three\", \"3 tasks\", \"2:30 PM\", \"October 22, 2023\") and "
               "matches items to values one to one; AndroidWorld's check_agent_answer "
               "parses each comma-separated item strictly (float(), \"%B %d %Y\", "
               "\"%H:%M\"), fuzzy-matches text items as typed, and lets an item match any "
               "value (a repeated item can stand for two).")


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
    #: the reference's check, where it grades otherwise (`--grading reference`)
    reference_check: Check | None = None
    #: (aspect, what differs) pairs: how this template differs from its reference
    differs: tuple[tuple[str, str], ...] = ()


class DataTask(Task):
    """A task made from a `Template`: binds the declaration to its parameters."""

    spec: ClassVar[Template]

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.ns = self._namespace()
        self.recipes: list[Recipe] = [self._bind(r) for r in self.spec.setup]
        self.check: Check = self._bind(self.spec.check)
        ref = self.spec.reference_check
        self.reference: Check | None = None if ref is None else self._bind(ref)

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
        if self.reference is not None:
            self.reference.prepare(device)

    def teardown(self, device: Device) -> None:
        for r in reversed(self.recipes):
            r.undo(device)

    def is_successful(self, device: Device, answer: str | None = None,
                      grading: str = "ours") -> float:
        check_grading(grading)
        if grading == "reference" and self.reference is not None:
            return float(self.reference(device, answer))
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
    if spec.reference_check is not None and not isinstance(spec.reference_check, Check):
        raise TypeError(f"{spec.id}: reference_check must come from the check library")
    aspects = [a for a, _ in spec.differs]
    bad = [a for a in aspects if a not in ASPECTS] or [a for a, t in spec.differs if not t.strip()]
    if bad or len(set(aspects)) != len(aspects):
        raise ValueError(f"{spec.id}: differs takes one text per aspect of {ASPECTS}, got {aspects}")
    if (spec.differs or spec.reference_check is not None) and spec.source not in REFERENCE_SOURCES:
        raise ValueError(f"{spec.id}: only a reference template differs from a reference")
    if spec.reference_check is not None and "check" not in aspects:
        raise ValueError(f"{spec.id}: a reference_check needs differs['check'] saying how ours differs")
    return answers[0].kind if answers else "text"


def _reference_answers(check: Check) -> Check:
    """`check` with each AnswerIs graded by AndroidWorld's own rule."""
    if isinstance(check, AnswerIs):
        return check.as_reference()
    if isinstance(check, (AllOf, MeanOf)):
        return type(check)(*map(_reference_answers, check.parts()))
    return check


def _default_reference(check: Check, source: str, differs: dict[str, str]) -> Check | None:
    """An AndroidWorld list answer's reference check: the same answer under its rule."""
    if not isinstance(check, Check):  # refused by _validate
        return None
    answers = [c for c in check.walk() if isinstance(c, AnswerIs)]
    if source != "AndroidWorld" or not answers or not all(a.items for a in answers):
        return None
    differs.setdefault("check", ANSWER_RULE)
    return _reference_answers(check)


def template(*, id: str, apps: Sequence[str], complexity: float, kind: str, split: str,
             goal: str, params: Callable[[np.random.Generator], dict[str, Any]], check: Check,
             solution: Solution, setup: Sequence[Recipe] = (),
             derived: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
             needs_scroll: bool = False, doc: str = "", base: type[DataTask] = DataTask,
             source: str = "antrap-gym", aliases: Sequence[str] = (),
             reference_check: Check | None = None, differs: Mapping[str, str] | None = None,
             family: str = "", register_it: bool = True, **attrs: Any) -> type[DataTask]:
    """Declare a template; returns its Task class, registered unless `register_it` is
    False (a scratch template in a test or a notebook). `source` is "AndroidWorld" or
    "AnTrap" for a reference template (then `id` is the reference class name), else
    ours; `aliases` are old ids that now resolve to this one. `differs` says how a
    reference template differs from its reference (per aspect, see ASPECTS) and
    `reference_check` is the reference's check where it grades otherwise. `family` names
    the templates that ask for the same behaviour with other constants (the split holds
    out whole families: tasks/families.py). Extra keyword arguments become class
    attributes."""
    diffs = dict(differs or {})
    if reference_check is None:
        reference_check = _default_reference(check, source, diffs)
    spec = Template(id=id, apps=tuple(apps), complexity=complexity, kind=kind, split=split,
                    goal=goal, params=params, check=check, solution=solution, setup=tuple(setup),
                    derived=derived, needs_scroll=needs_scroll, source=source,
                    reference_check=reference_check,
                    differs=tuple((a, diffs[a]) for a in ASPECTS if a in diffs)
                    + tuple((a, t) for a, t in diffs.items() if a not in ASPECTS))
    answer_kind = _validate(spec)
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    cls = type(id, (base,), {
        "spec": spec, "template": goal, "apps": spec.apps, "complexity": complexity,
        "kind": kind, "split": split, "family": family, "answer_task": kind == "answer",
        "answer_kind": answer_kind, "needs_scroll": needs_scroll, "source": source,
        "reference_check": reference_check, "__doc__": doc or None, "__module__": module,
        "__qualname__": id, **attrs})
    if not register_it:
        return cls
    register(cls)
    for old in aliases:
        register_alias(old, id)
    return cls
