"""The split holds out families, not templates: templates that differ in constants only are
one family (or were placed apart on purpose), and a family sits on one side."""

from __future__ import annotations

import numpy as np

from antrap_gym.tasks import TEMPLATES, get_suite
from antrap_gym.tasks import families as fam
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.checks import SettingEquals
from antrap_gym.tasks.template import template


def test_every_near_duplicate_was_placed_by_someone():
    """Templates of equal structure (the same declaration but for its constants) either
    share a family or each names its own: none is left to land on the other side by chance."""
    assert fam.undecided() == [], "declare family= for these templates of equal structure"


def test_no_family_is_on_both_sides_of_the_split():
    assert fam.split_across() == {}


def test_the_split_suites_hold_whole_families():
    train, test = get_suite("antrap-train").templates, get_suite("antrap-test").templates
    train_families = {fam.family_of(TEMPLATES[t]) for t in train}
    test_families = {fam.family_of(TEMPLATES[t]) for t in test}
    assert not train_families & test_families
    assert len(fam.families()) == len(train_families) + len(test_families)


def test_the_known_near_duplicates_share_a_family():
    """Halloween and the last day of October are the same day; Wi-Fi on and off are one
    switch, in the reference rows and in ours."""
    same = [("SimpleCalendarAddEventOnHalloween", "SimpleCalendarAddEventOnLastDayOfMonth"),
            ("SystemWifiTurnOn", "SystemWifiTurnOff", "SettingsWifiToggle"),
            ("MarkorWrapInBrackets", "MarkorWrapInPipes"),
            ("FilesRenameInDcim", "FilesRenameInMusic")]
    for group in same:
        assert len({fam.family_of(TEMPLATES[t]) for t in group}) == 1, group


def _scratch(id: str, key: str, value: str, family: str = ""):
    return template(id=id, apps=(st.PKG,), complexity=1.0, kind="action", split="train",
                    goal="Set it.", params=lambda rng: {"n": int(rng.integers(3))},
                    setup=[st.PutSetting("system", key, "0")],
                    check=SettingEquals("system", key, value), solution=[st.open_app()],
                    family=family, register_it=False)


def test_structure_sees_through_constants_only():
    a = _scratch("ScratchA", "screen_off_timeout", "120000")
    b = _scratch("ScratchB", "accelerometer_rotation", "1")
    assert fam.structure(a) == fam.structure(b)  # other key and value: the same structure
    other = template(id="ScratchC", apps=(st.PKG,), complexity=1.0, kind="action",
                     split="train", goal="Set it.", params=lambda rng: {},
                     check=SettingEquals("system", "screen_off_timeout", "1"),
                     solution=[st.open_app()], register_it=False)
    assert fam.structure(other) != fam.structure(a)  # no set-up: another structure
    assert fam.family_of(a) == "ScratchA" and not fam.declared(a)
    assert fam.family_of(_scratch("ScratchD", "k", "v", family="Scratch")) == "Scratch"
    assert a.generate_params(np.random.default_rng(0)) == b.generate_params(np.random.default_rng(0))
