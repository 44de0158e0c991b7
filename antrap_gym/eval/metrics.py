"""AnTrap's table from episode records: success and Pass@k per setting with 95%
confidence intervals, trap average, drop, per layer, recovery and extra steps.

Conventions: a success rate is over episodes; Pass@k is over (setting, task,
variant) groups, a group passing when any of its k runs succeeded (a layer
pools its types' groups, so k stays the number of runs); intervals are 95%
Wilson score intervals; the trap average is the unweighted mean over trap
settings (its interval is the pooled Wilson one) and the drop's interval is
Newcombe's for a difference of proportions (for the drop in success rate and
the drop in Pass@k alike).

Every success rate also carries `ci95_template`, a 95% interval from a bootstrap
that resamples task templates (`eval/bootstrap.py`): episodes of one template
fail and succeed together, and the Wilson interval, which treats them as
independent, is too narrow for a claim about a policy. Each block keeps its
per-template counts (`templates`: name -> [successes, episodes]) so that two
summaries can be compared template by template (`paired_difference_interval`).

Figures that have no data (a rate over no episodes) are NaN in memory and
`null` in `summary.json` (strict JSON: `to_json`).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

from antrap_gym.eval.bootstrap import (
    mean_rate_interval,
    paired_difference_interval,
    rate_interval,
    template_counts,
)
from antrap_gym.eval.errors import is_infrastructure_error
from antrap_gym.traps.taxonomy import LAYER_OF, LAYERS, TRAP_TYPES

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate_block(eps: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(eps)
    wins = sum(1 for e in eps if e["success"] >= 1.0)
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for e in eps:  # a layer pools several settings: each keeps its own groups (k = runs)
        groups[(e["setting"], e["task"], e["variant"])].append(e)
    passed = sum(1 for g in groups.values() if any(e["success"] >= 1.0 for e in g))
    k = max((len(g) for g in groups.values()), default=0)
    rate = wins / n if n else float("nan")
    templates = template_counts(eps)
    return {
        "n": n,
        "successes": wins,
        "success_rate": rate,
        "ci95": list(wilson(wins, n)),
        "ci95_template": list(rate_interval(templates)),
        "templates": templates,
        "k": k,
        "groups": len(groups),
        "pass_at_k": passed / len(groups) if groups else float("nan"),
        "pass_at_k_ci95": list(wilson(passed, len(groups))),
        "mean_steps": sum(e["steps"] for e in eps) / n if n else float("nan"),
        "errors": sum(1 for e in eps if e.get("error")),
    }


def _recovery(eps: list[dict[str, Any]]) -> dict[str, Any]:
    trapped = [e for e in eps if e.get("traps")]
    events = [ev for e in trapped for ev in e["traps"]]
    all_back = [e for e in trapped if all(ev.get("recovered") for ev in e["traps"])]
    extra = [ev.get("extra_steps") or 0 for ev in events if ev.get("recovered")]
    return {
        "trapped_episodes": len(trapped),
        "trapped_fraction": len(trapped) / len(eps) if eps else float("nan"),
        "events": len(events),
        "recovery_rate": len(all_back) / len(trapped) if trapped else float("nan"),
        "recovery_ci95": list(wilson(len(all_back), len(trapped))),
        "event_recovery_rate": (sum(1 for ev in events if ev.get("recovered")) / len(events)
                                if events else float("nan")),
        "mean_extra_steps": sum(extra) / len(extra) if extra else float("nan"),
    }


def _mean_with_ci(blocks: list[dict[str, Any]], key: str, n_key: str) -> tuple[float, list[float]]:
    """Unweighted mean of per-setting rates, with the Wilson interval of the pooled
    counts (every setting has the same episodes, so the pooled rate is the mean)."""
    rates = [(b[key], b[n_key]) for b in blocks if b[n_key]]
    if not rates:
        return float("nan"), [float("nan"), float("nan")]
    mean = sum(r for r, _ in rates) / len(rates)
    n = sum(n for _, n in rates)
    return mean, list(wilson(sum(r * n for r, n in rates), n))


def newcombe(p1: float, ci1: list[float], p2: float, ci2: list[float]) -> list[float]:
    """Newcombe's interval for p1 - p2 from the two Wilson intervals (no collapse
    to zero width at 0% or 100%, unlike the normal approximation)."""
    if any(math.isnan(v) for v in (p1, p2, *ci1, *ci2)):
        return [float("nan"), float("nan")]
    d = p1 - p2
    lo = d - math.sqrt((p1 - ci1[0]) ** 2 + (ci2[1] - p2) ** 2)
    hi = d + math.sqrt((ci1[1] - p1) ** 2 + (p2 - ci2[0]) ** 2)
    return [max(-1.0, lo), min(1.0, hi)]


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary of every agent in `records` (see module docstring)."""
    by_agent: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_agent[r["agent"]].append(r)
    settings_seen: list[str] = []
    for r in records:
        if r["setting"] not in settings_seen:
            settings_seen.append(r["setting"])
    out: dict[str, Any] = {"agents": {}, "settings": settings_seen}
    for agent, eps in by_agent.items():
        by_setting: dict[str, list[dict]] = defaultdict(list)
        for e in eps:
            by_setting[e["setting"]].append(e)
        clean = _rate_block(by_setting.get("clean", []))
        traps = {}
        for s, s_eps in by_setting.items():
            if s == "clean":
                continue
            traps[s] = {**_rate_block(s_eps), **_recovery(s_eps)}
        avg, avg_ci = _mean_with_ci(list(traps.values()), "success_rate", "n")
        pavg, pavg_ci = _mean_with_ci(list(traps.values()), "pass_at_k", "groups")
        drop = clean["success_rate"] - avg if clean["n"] else float("nan")
        layers = {}
        for layer, types in LAYERS.items():
            layer_eps = [e for t in types for e in by_setting.get(t, [])]
            if layer_eps:
                layers[layer] = {**_rate_block(layer_eps), **_recovery(layer_eps)}
        out["agents"][agent] = {
            "episodes": len(eps),
            "errors": sum(1 for e in eps if e.get("error")),
            "infrastructure_errors": sum(1 for e in eps if is_infrastructure_error(e)),
            "clean": clean,
            "traps": traps,
            "trap_average": avg,
            "trap_average_ci95": avg_ci,
            "drop": drop,
            "drop_ci95": newcombe(clean["success_rate"], clean["ci95"], avg, avg_ci),
            # the same two figures with templates resampled (see eval/bootstrap.py): what a
            # claim about a policy, rather than about these episodes, should quote
            "trap_average_ci95_template": list(mean_rate_interval(
                [t["templates"] for t in traps.values()])),
            "drop_ci95_template": (list(paired_difference_interval(
                clean["templates"], [t["templates"] for t in traps.values()]))
                if clean["n"] and traps else [float("nan"), float("nan")]),
            "trap_average_pass_at_k": pavg,
            "trap_average_pass_at_k_ci95": pavg_ci,
            "drop_pass_at_k": clean["pass_at_k"] - pavg if clean["n"] else float("nan"),
            "drop_pass_at_k_ci95": newcombe(clean["pass_at_k"], clean["pass_at_k_ci95"], pavg,
                                            pavg_ci),
            "layers": layers,
        }
    return out


def strict(x: Any) -> Any:
    """`x` with every non-finite float (NaN, ±inf) replaced by None, for strict JSON."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: strict(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [strict(v) for v in x]
    return x


def to_json(summary: dict[str, Any], indent: int | None = 1) -> str:
    """The summary as strict JSON (no NaN literals: missing figures are `null`)."""
    return json.dumps(strict(summary), indent=indent, allow_nan=False)


def column_order(settings: list[str]) -> list[str]:
    """Trap settings in taxonomy order, then any named settings."""
    known = [t for t in TRAP_TYPES if t in settings]
    return known + [s for s in settings if s not in known and s != "clean"]


__all__ = ["LAYER_OF", "column_order", "newcombe", "strict", "summarize", "to_json", "wilson"]
