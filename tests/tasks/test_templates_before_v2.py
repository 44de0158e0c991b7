"""The 35 templates that existed before templates became data give, for seeds 0..19,
the same parameters, goal text and step budget as they did as classes
(tests/data/templates_before_v2.json was written from the classes before the change).

Templates replaced on purpose since are listed in REPLACED with the reason: an old id
that the reference task of the same name took over (its draws and wording are the
reference's now), or that became an alias of the reference template it duplicated."""

from __future__ import annotations

import json

import numpy as np
import pytest

from antrap_gym.tasks import TEMPLATES, get_template
from antrap_gym.tasks.template import REFERENCE_SOURCES
from tests.paths import DATA

BEFORE = json.loads((DATA / "templates_before_v2.json").read_text())
#: old id -> why it no longer draws as it did (each is a reference template or an alias now)
REPLACED = {
    "ContactsAddContact": "AndroidWorld's ContactsAddContact: its wording, an empty address "
                          "book, complexity 1.2",
    **{t: f"AndroidWorld's {t}: its draws, wording and complexity"
       for t in ("MarkorCreateNote", "MarkorCreateFolder", "MarkorDeleteNote", "MarkorMoveNote")},
    "MarkorRenameNote": "AnTrap's MarkorRenameNote: its draws, wording and complexity",
    "MarkorAppendToNote": "an alias of AnTrap's MarkorAppendLine, which it duplicated",
}


def test_every_template_of_before_is_still_registered():
    assert len(BEFORE) == 35
    assert all(get_template(t) for t in BEFORE)
    for tid in REPLACED:
        assert get_template(tid).source in REFERENCE_SOURCES, tid


@pytest.mark.parametrize("tid", sorted(set(BEFORE) - set(REPLACED)))
def test_same_params_goal_and_budget_per_seed(tid):
    cls = TEMPLATES[tid]
    for seed, want in enumerate(BEFORE[tid]):
        params = cls.generate_params(np.random.default_rng(seed))
        task = cls(params)
        got = {"params": json.loads(json.dumps(params)), "goal": task.goal,
               "max_steps": task.max_steps}
        assert got == want, (tid, seed)
