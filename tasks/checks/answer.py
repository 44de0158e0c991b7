"""The answer of an information-retrieval task, graded by kind (tasks/answers.py)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.answers import KINDS, answer_matches, items_match, reference_items_match
from antrap_gym.tasks.base import TaskError
from antrap_gym.tasks.checks.base import Check

if TYPE_CHECKING:
    from antrap_gym.device import Device


@dataclasses.dataclass(frozen=True)
class ShellValue:
    """An expected answer the phone itself knows (`getprop ro.build.display.id`): read
    at set-up (for the oracle's answer) and again whenever the answer is graded."""

    cmd: str

    def read(self, device: Device) -> str:
        value = device.shell(self.cmd).stdout.strip()
        if not value:
            raise TaskError(f"`{self.cmd}` printed nothing on this device")
        return value


@dataclasses.dataclass
class AnswerIs(Check):
    """The agent's answer gives `expected` (a value, or a `ShellValue`) as `kind` compares
    it, and names none of the `distractors` (the other candidates) beside it.

    With `items=True` it is AndroidWorld's list answer instead (its information-retrieval
    tasks): `expected` is a list of values, the answer their comma-separated items in any
    order, text fuzzy-matched, numbers within `tolerance` when set (`items_match`).
    `reference=True` grades such a list by AndroidWorld's rule as it is, stricter in
    parsing and looser in matching (`reference_items_match`): the reference grading."""

    expected: Any
    kind: str = "text"
    distractors: Any = ()
    items: bool = False
    tolerance: float | None = None
    reference: bool = False
    seen: str | None = dataclasses.field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"answer kind {self.kind!r} is not one of {KINDS}")
        if self.reference and not self.items:
            raise ValueError("AndroidWorld's answer rule grades list answers (items=True)")

    def as_reference(self) -> AnswerIs:
        """The same answer graded by AndroidWorld's own rule."""
        return dataclasses.replace(self, reference=True)

    def prepare(self, device: Device) -> None:
        if isinstance(self.expected, ShellValue):
            self.seen = self.expected.read(device)

    def value(self, device: Device | None = None) -> str:
        """The right answer: read from `device` when the phone knows it, else the one
        given (or seen at set-up)."""
        if self.items:
            return ", ".join(str(e) for e in self.expected)
        if not isinstance(self.expected, ShellValue):
            return str(self.expected)
        if device is not None:
            return self.expected.read(device)
        if self.seen is None:
            raise TaskError("set up the task first (the answer is read from the phone)")
        return self.seen

    def others(self) -> list[str]:
        """The distractors, less any that is the answer itself."""
        if self.items:
            return [str(d) for d in self.distractors if str(d) not in map(str, self.expected)]
        if isinstance(self.expected, ShellValue):
            return [str(d) for d in self.distractors]
        return [str(d) for d in self.distractors if str(d) != str(self.expected)]

    def score(self, device: Device, answer: str | None) -> float:
        if self.items:
            match = reference_items_match if self.reference else items_match
            return float(match(answer, [str(e) for e in self.expected], self.kind, self.tolerance))
        return float(answer_matches(answer, self.value(device), self.kind, self.others()))
