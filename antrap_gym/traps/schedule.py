"""Trigger schedules: when a trap fires, drawn once per episode from its seed.

The whole plan is drawn at reset from a generator derived from the reset seed,
so the same seed gives the same trap pattern whatever the agent does (a GRPO
group that shares a seed shares its traps). What "at least once" guarantees,
and the one way the agent can move a firing (finishing before it), is in
`TrapWrapper` and docs/traps.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

#: AnTrap's reference: per-step probability 0.16, the first 80% of the budget
DEFAULT_P = 0.16
DEFAULT_WINDOW = 0.8


@dataclass(frozen=True)
class Firing:
    step: int  # the agent step (1-based) at which the trap acts (or is armed)
    duration: int = 1  # steps it lasts (multi-step traps)
    #: added by `at_least_once` because the Bernoulli draws gave nothing (or moved
    #: to the start of the window, for traps that act on the agent's actions)
    guaranteed: bool = False


@dataclass(frozen=True)
class TriggerSchedule:
    """Per-step Bernoulli(p) inside an eligible window, with a cap, fixed steps,
    a guaranteed firing, and durations for multi-step traps.

    - `p`: probability of firing at each eligible step.
    - `window`: eligible steps are 1 .. floor(window x original budget) (a float
      in (0, 1]), or an explicit `(first, last)` step pair.
    - `steps`: fire exactly at these steps (then `p` and `at_least_once` are not used).
    - `max_events`: at most this many firings per episode.
    - `at_least_once`: a drawn plan always holds a firing: if the draws gave none,
      one is added at the last eligible step (`at="last"`, traps that act on what
      the agent sees) or at the first (`at="first"`, traps that act on the agent's
      actions: they are armed there and wait for an action they apply to). The
      wrappers also pull a firing forward when the agent finishes before it.
    - `duration`: inclusive (min, max) steps a firing lasts; firings never overlap.
    """

    p: float = DEFAULT_P
    window: float | tuple[int, int] = DEFAULT_WINDOW
    steps: tuple[int, ...] | None = None
    max_events: int | None = None
    at_least_once: bool = True
    duration: tuple[int, int] = (1, 1)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.p <= 1.0:
            raise ValueError(f"p must be in [0, 1], got {self.p}")
        lo, hi = self.duration
        if lo < 1 or hi < lo:
            raise ValueError(f"duration must be (min >= 1, max >= min), got {self.duration}")
        if isinstance(self.window, tuple | list):
            if len(self.window) != 2 or int(self.window[0]) > int(self.window[1]):
                raise ValueError(f"window must be a (first, last) pair, got {self.window}")
        elif not 0 < float(self.window) <= 1:
            raise ValueError(f"window must be a fraction in (0, 1], got {self.window}")
        if self.max_events is not None and self.max_events < 0:
            raise ValueError(f"max_events must be >= 0, got {self.max_events}")

    @property
    def drawn(self) -> bool:
        """Whether the plan comes from Bernoulli draws (not from fixed `steps`)."""
        return self.steps is None

    @property
    def guarantees(self) -> bool:
        return (self.at_least_once and self.drawn
                and (self.max_events is None or self.max_events > 0))

    def eligible(self, budget: int, min_step: int = 1) -> tuple[int, int]:
        """The first and last step at which a firing may start (first > last: none)."""
        if isinstance(self.window, tuple | list):
            first, last = int(self.window[0]), int(self.window[1])
        else:
            first, last = 1, max(1, math.floor(float(self.window) * budget))
        return max(1, min_step, first), max(1, min(last, budget))

    def plan(self, rng: np.random.Generator, budget: int, max_duration: int | None = None,
             *, min_step: int = 1, at: str = "last") -> list[Firing]:
        """Draw the episode's firings. Every eligible step consumes the same draws
        whether or not it fires, so plans for nearby settings stay comparable.

        `min_step` raises the window's first step (a trap that needs some history);
        `at` is where `at_least_once` puts its firing ("last" or "first")."""
        if at not in ("first", "last"):
            raise ValueError("at must be 'first' or 'last'")
        first, last = self.eligible(budget, min_step)
        last = max(first, last)  # a window shorter than min_step: its one step is `first`
        lo, hi = self.duration
        if max_duration is not None:
            hi = max(1, min(hi, max_duration))
            lo = min(lo, hi)
        fixed = set(self.steps) if self.steps is not None else None
        out: list[Firing] = []
        busy_until = 0
        for t in range(first, last + 1):
            u = rng.random()
            d = int(rng.integers(lo, hi + 1))
            if self.max_events is not None and len(out) >= self.max_events:
                break
            if t <= busy_until:
                continue
            fire = (t in fixed) if fixed is not None else (u < self.p)
            if fire:
                out.append(Firing(t, d))
                busy_until = t + d - 1
        if fixed is not None:
            # explicit steps outside the window still fire where they were asked for
            out += [Firing(t, lo) for t in sorted(fixed) if not first <= t <= last]
            out.sort(key=lambda f: f.step)
            return out
        if self.guarantees:
            d = int(rng.integers(lo, hi + 1))
            if not out:
                out.append(Firing(first if at == "first" else last, d, guaranteed=True))
            elif at == "first" and out[0].step != first:
                out[0] = Firing(first, out[0].duration, guaranteed=True)
        return out

    def with_(self, **kw: Any) -> TriggerSchedule:
        return replace(self, **kw)
