"""Auditing traps with the oracle: are trapped tasks still solvable, and solved?

For each trap type, the oracle plays every (template, variant) of a suite
with that trap, the solvability guard forking the phone after each injection.
It runs episodes with an agent, so it lives with the evaluation harness.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.traps.taxonomy import LAYER_OF


@dataclass
class TrapAudit:
    trap: str
    layer: str
    episodes: int = 0
    trapped_episodes: int = 0  # episodes where the trap fired at least once
    events: int = 0
    solvable_events: int = 0
    checked_events: int = 0
    oracle_successes: int = 0  # among trapped episodes
    recovered_events: int = 0
    extra_steps: list[int] = field(default_factory=list)
    failures: list[dict] = field(default_factory=list)

    @property
    def solvable_rate(self) -> float:
        return self.solvable_events / self.checked_events if self.checked_events else float("nan")

    @property
    def oracle_success_rate(self) -> float:
        return (self.oracle_successes / self.trapped_episodes if self.trapped_episodes
                else float("nan"))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["solvable_rate"] = self.solvable_rate
        d["oracle_success_rate"] = self.oracle_success_rate
        d["mean_extra_steps"] = (sum(self.extra_steps) / len(self.extra_steps)
                                 if self.extra_steps else float("nan"))
        del d["extra_steps"]
        return d


def audit(trap_types: list[str], episodes: list[tuple[str, int]], *, obs_mode: str = "text",
          verify_solvable: bool = True, trap_settings: dict | None = None,
          on_episode: Callable[[str, TrapAudit], None] | None = None) -> dict[str, TrapAudit]:
    """Run the oracle on every (template, seed) with each trap type on its own."""
    out: dict[str, TrapAudit] = {}
    agent = OracleAgent()
    for trap in trap_types:
        env = make_env(traps=[{"type": trap, **(trap_settings or {})}], obs_mode=obs_mode,
                       verify_solvable=verify_solvable)
        a = out[trap] = TrapAudit(trap, LAYER_OF[trap])
        for tid, seed in episodes:
            res = run_episode(env, agent, seed=seed, options={"task": tid})
            events = res.info.get("traps", [])
            a.episodes += 1
            if events:
                a.trapped_episodes += 1
                a.oracle_successes += res.success >= 1.0
                if res.success < 1.0:
                    a.failures.append({"task": tid, "seed": seed, "steps": res.steps,
                                       "budget": res.budget, "events": events})
            for e in events:
                a.events += 1
                if e.get("solvable") is not None:
                    a.checked_events += 1
                    a.solvable_events += bool(e["solvable"])
                if e.get("recovered"):
                    a.recovered_events += 1
                    a.extra_steps.append(int(e.get("extra_steps") or 0))
            if on_episode is not None:
                on_episode(trap, a)
        env.close()
    return out
