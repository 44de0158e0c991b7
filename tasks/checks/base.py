"""What every check is: a 0..1 score of the phone's state (and the agent's answer),
read through the Device protocol only, and the composites over checks."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from antrap_gym.device import Device


class NotPrepared(RuntimeError):
    """A check that compares with "before" was scored before set-up prepared it."""


class Check:
    """A success check. `prepare` runs at the end of set-up (to remember what
    "before" means for integrity checks); `score` runs whenever the task is checked."""

    def prepare(self, device: Device) -> None:
        """Remember what the state was right after set-up (nothing by default)."""

    def score(self, device: Device, answer: str | None) -> float:
        raise NotImplementedError

    def __call__(self, device: Device, answer: str | None = None) -> float:
        return float(self.score(device, answer))

    def parts(self) -> tuple[Check, ...]:
        """The checks this one is made of (composites)."""
        return ()

    def walk(self):
        """This check and every check inside it, depth first."""
        yield self
        for p in self.parts():
            yield from p.walk()


class _Composite(Check):
    def __init__(self, *checks: Check) -> None:
        if not checks:
            raise ValueError(f"{type(self).__name__} needs at least one check")
        self.checks = tuple(checks)

    def __bind__(self, fn) -> _Composite:
        return type(self)(*(fn(c) for c in self.checks))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.checks))})"

    def prepare(self, device: Device) -> None:
        for c in self.checks:
            c.prepare(device)

    def parts(self) -> tuple[Check, ...]:
        return self.checks


class AllOf(_Composite):
    """1 when every part holds, else 0."""

    def score(self, device: Device, answer: str | None) -> float:
        return float(all(c.score(device, answer) >= 1.0 for c in self.checks))


class MeanOf(_Composite):
    """The mean of the parts' scores (AndroidWorld's composite tasks: 0, 0.5, 1)."""

    def score(self, device: Device, answer: str | None) -> float:
        return sum(c.score(device, answer) for c in self.checks) / len(self.checks)


@dataclasses.dataclass
class Holds:
    """A stateless check as a solution step's `done`: true when it scores 1."""

    check: Check

    def __call__(self, device: Device) -> bool:
        return self.check(device) >= 1.0


@dataclasses.dataclass(frozen=True)
class Either:
    """A solution step's `done` from two: true when either is (a field typed already, or the
    row it was for saved or deleted)."""

    first: Any
    second: Any

    def __call__(self, device: Device) -> bool:
        return bool(self.first(device) or self.second(device))
