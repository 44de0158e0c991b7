"""Intervals by template: the cluster bootstrap behind summaries' `ci95_template` and the
training table's held-out intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from antrap_gym.eval.bootstrap import (
    mean_rate_interval,
    paired_difference_interval,
    rate_interval,
    template_counts,
)
from antrap_gym.eval.metrics import newcombe, summarize, wilson
from antrap_gym.eval.report import markdown


def _clustered(rng: np.random.Generator, templates: int, per: int, rate: float) -> dict[str, list[int]]:
    """Templates that are each solved (probability `rate`) or not, on all their episodes."""
    return {f"T{i}": [per if rng.random() < rate else 0, per] for i in range(templates)}


def test_rate_interval_holds_the_estimate_and_is_a_function_of_the_data():
    counts = {f"T{i}": [i % 4, 3] for i in range(30)}
    lo, hi = rate_interval(counts)
    rate = sum(c[0] for c in counts.values()) / sum(c[1] for c in counts.values())
    assert lo < rate < hi
    shuffled = dict(reversed(list(counts.items())))
    assert rate_interval(shuffled) == (lo, hi)


def test_all_or_nothing_templates_widen_the_interval_beyond_wilson():
    # 20 templates x 30 episodes, each template solved on all or none of its episodes:
    # 600 episodes that carry the information of 20
    counts = {f"T{i}": [30 if i % 2 else 0, 30] for i in range(20)}
    lo, hi = rate_interval(counts)
    wlo, whi = wilson(300, 600)
    assert (hi - lo) > 2.5 * (whi - wlo)
    # and about as wide as the Wilson interval of 20 independent draws
    tlo, thi = wilson(10, 20)
    assert 0.6 < (hi - lo) / (thi - tlo) < 1.4


def test_the_template_interval_covers_where_wilson_does_not():
    rng = np.random.default_rng(7)
    true, runs = 0.4, 120
    covered = wilson_covered = 0
    for _ in range(runs):
        counts = _clustered(rng, templates=25, per=6, rate=true)
        lo, hi = rate_interval(counts, n_boot=500)
        covered += lo <= true <= hi
        wins = sum(c[0] for c in counts.values())
        wlo, whi = wilson(wins, 150)
        wilson_covered += wlo <= true <= whi
    assert covered / runs >= 0.85
    assert wilson_covered / runs <= 0.75


def test_paired_difference_cancels_what_templates_share():
    # templates of very different difficulty; the second policy solves one more episode
    # of every third template: an improvement a pooled comparison cannot tell from noise
    before = {f"T{i}": [(i * 7) % 11, 10] for i in range(30)}
    after = {t: [min(10, c[0] + (1 if i % 3 == 0 else 0)), 10]
             for i, (t, c) in enumerate(before.items())}
    lo, hi = paired_difference_interval(after, before)
    assert 0 < lo <= hi
    n = 300
    b, a = sum(c[0] for c in before.values()), sum(c[0] for c in after.values())
    nlo, _ = newcombe(a / n, list(wilson(a, n)), b / n, list(wilson(b, n)))
    assert nlo < 0  # unpaired, the same data say nothing
    assert paired_difference_interval(before, before) == (0.0, 0.0)


def test_paired_difference_uses_shared_templates_only():
    before = {"A": [0, 3], "B": [3, 3], "C": [1, 3]}
    after = {"A": [3, 3], "B": [3, 3], "D": [0, 3]}
    lo, hi = paired_difference_interval(after, before)
    # only A and B are paired: the difference is +1 or 0 per template, so within [0, 1]
    assert 0.0 <= lo <= hi <= 1.0


def test_mean_of_settings_and_degenerate_inputs():
    a = {f"T{i}": [i % 2, 1] for i in range(10)}
    b = {f"T{i}": [1, 1] for i in range(10)}
    lo, hi = mean_rate_interval([a, b])
    assert lo <= 0.75 <= hi and lo >= 0.5 and hi <= 1.0
    assert all(math.isnan(v) for v in rate_interval({"only": [2, 3]}))
    assert all(math.isnan(v) for v in rate_interval({}))


def test_summaries_carry_template_counts_and_intervals(tmp_path):
    records = []
    for i in range(12):
        for v in range(3):
            for setting in ("clean", "external_interruption"):
                ok = (i % 3 != 0) if setting == "clean" else (i % 2 == 0)
                records.append({"agent": "a", "task": f"T{i}", "variant": v, "setting": setting,
                                "run": 0, "success": float(ok), "steps": 3, "traps": []})
    assert template_counts(records)["T1"] == [3, 6]  # clean 3 of 3, trapped 0 of 3
    s = summarize(records)["agents"]["a"]
    assert s["clean"]["templates"]["T0"] == [0, 3]
    lo, hi = s["clean"]["ci95_template"]
    assert lo < s["clean"]["success_rate"] < hi
    assert s["clean"]["ci95"][0] > lo  # Wilson over 36 episodes claims more than 12 templates hold
    dlo, dhi = s["drop_ci95_template"]
    assert dlo <= s["drop"] <= dhi
    text = markdown(summarize(records) | {"settings": ["clean", "external_interruption"]})
    assert "## Intervals by template" in text
    assert "| a | 12 |" in text


@pytest.mark.parametrize("n_boot", [200, 2000])
def test_interval_ends_are_observed_resample_values(n_boot):
    counts = {f"T{i}": [i % 3, 2 + i % 2] for i in range(15)}
    lo, hi = rate_interval(counts, n_boot=n_boot)
    # percentiles are taken without interpolation: each end is some resample's rate, a
    # ratio of whole numbers with a denominator no larger than 15 templates' episodes
    for end in (lo, hi):
        assert any(abs(end * d - round(end * d)) < 1e-9 for d in range(1, 46))
