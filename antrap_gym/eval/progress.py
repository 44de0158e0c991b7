"""The progress bar of `antrap eval`: episodes done, success per agent, and an ETA that
weighs what is left by what it costs.

Episodes do not cost the same: a random agent uses its whole budget where the oracle
stops early, a model agent takes seconds a step, and a template's budget ranges from a
few steps to dozens. So the time left is the sum of the pending episodes' expected
costs (`CostModel`, learned from the finished ones, per agent and budget), at the rate
this run has been getting episode-seconds done (its workers' parallelism), not the
count of episodes left times the mean so far.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import cache
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.progress import Task as BarTask
from rich.text import Text

from antrap_gym.eval.spec import EpisodeSpec

Key = tuple[str, int]  # (agent label, the template's step budget)


class CostModel:
    """Expected seconds of an episode, from finished ones: the mean for its agent and
    budget; else the agent's mean seconds per budget step times the budget; else the
    same over every agent (nothing of this agent finished yet); else unknown (None).
    Running sums: adding and asking cost the same however many episodes finished."""

    def __init__(self) -> None:
        self._by_key: dict[Key, list[float]] = defaultdict(lambda: [0.0, 0])  # seconds, count
        self._per_step: dict[str | None, list[float]] = defaultdict(lambda: [0.0, 0])  # None: all

    def add(self, agent: str, budget: int, seconds: float) -> None:
        budget, seconds = max(1, budget), max(0.0, seconds)
        for acc, value in ((self._by_key[(agent, budget)], seconds),
                           (self._per_step[agent], seconds / budget),
                           (self._per_step[None], seconds / budget)):
            acc[0] += value
            acc[1] += 1

    def expected(self, agent: str, budget: int) -> float | None:
        budget = max(1, budget)
        same = self._by_key.get((agent, budget))
        if same:
            return same[0] / same[1]
        for who in (agent, None):
            steps = self._per_step.get(who)
            if steps:
                return steps[0] / steps[1] * budget
        return None


def eta_seconds(model: CostModel, pending: Mapping[Key, int] | Iterable[Key], work_s: float,
                elapsed_s: float) -> float | None:
    """Wall seconds until the `pending` episodes are done (their keys, or a count per key):
    the sum of their expected costs, divided by the rate this run has worked at (`work_s`
    episode-seconds finished in `elapsed_s` wall seconds: about the number of busy
    workers). None until that is known."""
    if work_s <= 0 or elapsed_s <= 0:
        return None
    counts = pending if isinstance(pending, Mapping) else Counter(pending)
    left = 0.0
    for (agent, budget), n in counts.items():
        if n <= 0:
            continue
        cost = model.expected(agent, budget)
        if cost is None:
            return None
        left += cost * n
    return left / (work_s / elapsed_s)


@cache
def budget_of(task: str) -> int:
    """A template's step budget (what its episodes' cost scales with)."""
    from antrap_gym.tasks import get_template

    try:
        cls = get_template(task)
        return int(cls(cls.generate_params(np.random.default_rng(0))).max_steps)
    except Exception:  # a template that cannot be built here: one budget for all such
        return 0


class AgentTally:
    """Each agent's episodes and successes so far, counted as records arrive."""

    def __init__(self, agents: list[str], records: Iterable[dict[str, Any]] = ()) -> None:
        self.agents = agents
        self.done: Counter[str] = Counter()
        self.wins: Counter[str] = Counter()
        for r in records:
            self.add(r)

    def add(self, record: dict[str, Any]) -> None:
        self.done[record["agent"]] += 1
        self.wins[record["agent"]] += record["success"] >= 1.0

    def __str__(self) -> str:
        """`oracle 100% · replay 68% · random 0%` (– before an agent's first episode)."""
        return " · ".join(f"{a} {self.wins[a] / self.done[a]:.0%}" if self.done[a] else f"{a} –"
                          for a in self.agents)


def agent_rates(records: Iterable[dict[str, Any]], agents: list[str]) -> str:
    """`oracle 100% · replay 68% · random 0%`: each agent's success so far (– before its
    first episode), in the run's agent order."""
    return str(AgentTally(agents, records))


class CostEtaColumn(ProgressColumn):
    """Time left, counting down to the bar's `eta_until` (monotonic clock) between results."""

    def render(self, task: BarTask) -> Text:
        until = task.fields.get("eta_until")
        if task.finished:
            left: float | None = 0.0
        else:
            left = None if until is None else max(0.0, until - time.monotonic())
        shown = "-:--:--" if left is None else str(timedelta(seconds=round(left)))
        return Text(shown, style="progress.remaining")


class EvalProgress:
    """The bar over a run's episodes (`specs`), `records` those already finished (a
    resume); `advance` with each new record. A context manager, like rich's Progress."""

    def __init__(self, specs: list[EpisodeSpec], records: list[dict[str, Any]],
                 console: Console, disable: bool = False) -> None:
        self.agents = list(dict.fromkeys(s.agent.label for s in specs))
        done = {r["id"] for r in records}
        self.pending = Counter((s.agent.label, budget_of(s.task)) for s in specs
                               if s.key not in done)
        self.tally = AgentTally(self.agents, records)
        self.model = CostModel()
        for r in records:
            self._learn(r)
        self.work_s = 0.0
        self.started: float | None = None  # when the first episode of this session began
        self.bar = Progress(TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rates]}", markup=False), TextColumn("•"),
                            TimeElapsedColumn(), TextColumn("eta"), CostEtaColumn(),
                            console=console, disable=disable)
        self.task = self.bar.add_task("eval", total=len(specs), completed=len(specs) - sum(
            self.pending.values()), rates=str(self.tally), eta_until=None)

    def _learn(self, record: dict[str, Any]) -> None:
        if isinstance(record.get("wall_s"), int | float):
            self.model.add(record["agent"], budget_of(record["task"]), float(record["wall_s"]))

    def advance(self, record: dict[str, Any]) -> None:
        self.tally.add(record)
        self._learn(record)
        key = (record["agent"], budget_of(record["task"]))
        if self.pending[key] > 0:
            self.pending[key] -= 1
        seconds = float(record.get("wall_s") or 0.0)
        self.work_s += seconds
        now = time.monotonic()
        if self.started is None:  # not the workers' start-up: that is no episode's cost
            self.started = now - seconds
        eta = eta_seconds(self.model, self.pending, self.work_s, now - self.started)
        self.bar.update(self.task, advance=1, rates=str(self.tally),
                        eta_until=None if eta is None else now + eta)

    def __enter__(self) -> EvalProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)  # type: ignore[arg-type]


__all__ = ["AgentTally", "CostModel", "EvalProgress", "agent_rates", "budget_of", "eta_seconds"]
