"""The 35 templates that existed before templates became data give, for seeds 0..19,
the same parameters, goal text and step budget as they did as classes
(tests/data/templates_before_v2.json was written from the classes before the change)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from antrap_gym.tasks import TEMPLATES

BEFORE = json.loads((Path(__file__).parent / "data" / "templates_before_v2.json").read_text())


def test_every_template_of_before_is_still_registered():
    assert len(BEFORE) == 35
    assert set(BEFORE) <= set(TEMPLATES)


@pytest.mark.parametrize("tid", sorted(BEFORE))
def test_same_params_goal_and_budget_per_seed(tid):
    cls = TEMPLATES[tid]
    for seed, want in enumerate(BEFORE[tid]):
        params = cls.generate_params(np.random.default_rng(seed))
        task = cls(params)
        got = {"params": json.loads(json.dumps(params)), "goal": task.goal,
               "max_steps": task.max_steps}
        assert got == want, (tid, seed)
