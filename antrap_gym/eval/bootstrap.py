"""Intervals that respect how episodes cluster: a bootstrap over task templates.

The episodes of one template are not independent draws: its variants share the
app, the screens and the solution, so a policy that cannot do a template fails
all of them together. A Wilson interval over episodes then claims far more
precision than the data holds (60 episodes of 20 templates carry about as much
information as 20). The cluster bootstrap resamples whole templates with
replacement and recomputes the figure on each resample; the interval is the
2.5th and 97.5th percentile of those.

Figures are ratios of per-template sums (a success rate is successes over
episodes summed over the resampled templates), so a template counts by its
episodes, as in the point estimate. Counts are summed as integers: the same data
give the same interval on every machine. Differences are *paired* when both
sides were measured on the same templates (two policies on one held-out suite,
clean vs trapped for one policy): each resample draws the templates once for
both sides, so what the templates share cancels out of the difference.

A percentile bootstrap cannot see variation that never occurred: a rate of 0% or
100% on every template gives a zero-width interval (Wilson's stays open at the
edge). Read such an interval as "no template disagreed", not as certainty.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

#: resamples per interval: percentiles of 2,000 are stable to about a point
N_BOOT = 2000
#: the resampling seed (fixed: an interval is a function of the data alone)
SEED = 0

Counts = Mapping[str, Sequence[int]]  # template -> (successes, episodes)


def _resample_weights(clusters: int, n_boot: int, seed: int) -> np.ndarray:
    """(n_boot, clusters) integer multiplicities: how often each cluster was drawn."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, clusters, size=(n_boot, clusters))
    cells = (draws + (np.arange(n_boot) * clusters)[:, None]).ravel()
    return np.bincount(cells, minlength=n_boot * clusters).reshape(n_boot, clusters).astype(np.int64)


def cluster_bootstrap(table: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray], *,
                      n_boot: int = N_BOOT, seed: int = SEED, level: float = 0.95
                      ) -> tuple[float, float]:
    """Percentile interval of `statistic` over cluster resamples.

    table: (clusters, k) integer sums per cluster; statistic: maps (n, k) summed rows
    to n figures (NaN where undefined, e.g. a resample with no episodes of one side;
    such resamples are left out). Fewer than two clusters: (NaN, NaN), as no spread
    between templates can be seen."""
    table = np.asarray(table, dtype=np.int64)
    if table.ndim != 2 or table.shape[0] < 2:
        return (math.nan, math.nan)
    weights = _resample_weights(table.shape[0], n_boot, seed)
    values = np.asarray(statistic(weights @ table), dtype=float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return (math.nan, math.nan)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(values, [tail, 1.0 - tail], method="inverted_cdf")
    return (float(lo), float(hi))


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def rate_interval(counts: Counts, **kw) -> tuple[float, float]:
    """95% interval of a success rate from per-template (successes, episodes)."""
    rows = np.array([list(counts[t])[:2] for t in sorted(counts)], dtype=np.int64).reshape(-1, 2)
    return cluster_bootstrap(rows, lambda s: _ratio(s[:, 0], s[:, 1]), **kw)


def mean_rate_interval(settings: Sequence[Counts], **kw) -> tuple[float, float]:
    """95% interval of the unweighted mean of several settings' success rates (the trap
    average), templates resampled once for all settings."""
    names = sorted({t for c in settings for t in c})
    if not settings:
        return (math.nan, math.nan)
    rows = np.array([[v for c in settings for v in (list(c.get(t, (0, 0)))[:2])] for t in names],
                    dtype=np.int64).reshape(len(names), 2 * len(settings))

    def mean(s: np.ndarray) -> np.ndarray:
        rates = np.stack([_ratio(s[:, 2 * i], s[:, 2 * i + 1]) for i in range(len(settings))], axis=1)
        return np.mean(rates, axis=1)  # NaN when a setting had no episodes in the resample

    return cluster_bootstrap(rows, mean, **kw)


def paired_difference_interval(after: Counts | Sequence[Counts], before: Counts | Sequence[Counts],
                               **kw) -> tuple[float, float]:
    """95% interval of (mean rate of `after`) - (mean rate of `before`), each side one
    setting's counts or several settings' (their unweighted mean), resampling the
    templates the two sides share once for both. Templates on one side only are left
    out: the difference is paired."""
    a = [after] if isinstance(after, Mapping) else list(after)
    b = [before] if isinstance(before, Mapping) else list(before)
    if not a or not b:
        return (math.nan, math.nan)
    shared = sorted(set.intersection(*(set(c) for c in a + b)))
    sides = a + b
    rows = np.array([[v for c in sides for v in list(c[t])[:2]] for t in shared],
                    dtype=np.int64).reshape(len(shared), 2 * len(sides))

    def diff(s: np.ndarray) -> np.ndarray:
        rates = [_ratio(s[:, 2 * i], s[:, 2 * i + 1]) for i in range(len(sides))]
        return np.mean(rates[:len(a)], axis=0) - np.mean(rates[len(a):], axis=0)

    return cluster_bootstrap(rows, diff, **kw)


def template_counts(records: Sequence[Mapping], outcome: str = "success") -> dict[str, list[int]]:
    """template -> [records whose `outcome` is 1 (or True), records], by each record's `task`
    (episode records' `success`, a state bank's `handled`)."""
    out: dict[str, list[int]] = {}
    for e in records:
        c = out.setdefault(str(e["task"]), [0, 0])
        c[0] += int(e[outcome] >= 1.0)
        c[1] += 1
    return out


__all__ = ["N_BOOT", "cluster_bootstrap", "mean_rate_interval", "paired_difference_interval",
           "rate_interval", "template_counts"]
