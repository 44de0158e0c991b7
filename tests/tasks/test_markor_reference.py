"""The Markor features the reference templates lean on, through the public device API:
selection mode (long-press > Select, Select all, Delete), note times set with
`touch -d` and shown by `ls -lt`/`stat`, and the reference checks' weak spots."""

from __future__ import annotations

import numpy as np
import pytest

import antrap_gym.tasks.markor_reference as mr
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import TEMPLATES, get_template
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.checks import FileContent
from tests.screen import find_all, long_press, tap

ROOT = mk.ROOT


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    assert d.shell(f"printf a > {ROOT}/a.md && printf b > {ROOT}/b.md && mkdir {ROOT}/Work"
                   ).exit_code == 0
    assert d.launch(mk.PKG).ok
    return d


def test_select_all_and_delete_empties_the_folder(dev):
    long_press(dev, text="a.md")
    tap(dev, text="Select")
    assert find_all(dev, text="1 selected")
    tap(dev, desc="Select all")
    assert find_all(dev, text="3 selected")
    tap(dev, desc="Delete")
    tap(dev, text="Delete")
    assert dev.shell(f"ls -A {ROOT}").stdout == ""
    assert mk.FolderEmpty()(dev) == 1.0


def test_selection_toggles_and_back_leaves_it(dev):
    long_press(dev, text="a.md")
    tap(dev, text="Select")
    tap(dev, text="b.md")
    assert find_all(dev, text="2 selected")
    tap(dev, text="a.md")
    assert find_all(dev, text="1 selected")
    dev.key("BACK")
    assert not find_all(dev, text="1 selected") and find_all(dev, text="Markor")
    assert sorted(dev.shell(f"ls {ROOT}").stdout.split()) == ["Work", "a.md", "b.md"]


def test_touch_sets_times_that_ls_and_stat_show():
    d = SimDevice()
    a, b = f"{ROOT}/a.md", f"{ROOT}/b.md"
    assert d.shell(f"printf a > {a} && printf b > {b} && touch -d '2023-10-15 09:00:00' {a}"
                   f" && touch -t 202310151200.30 {b}").exit_code == 0
    assert d.shell(f"ls -t {ROOT}").stdout.split() == ["b.md", "a.md"]
    assert d.shell(f"stat -c %Y {ROOT}/a.md").stdout.strip() == "1697360400"
    assert d.shell(f"touch -d yesterday-ish {ROOT}/a.md").exit_code == 1
    assert d.shell(f"touch -c {ROOT}/none.md && ls {ROOT}").stdout.split() == ["a.md", "b.md"]


def test_delete_newest_seeds_distinct_times_and_wants_the_newest_gone():
    d = SimDevice()
    cls = TEMPLATES["MarkorDeleteNewestNote"]
    for seed in range(5):
        task = cls(cls.generate_params(np.random.default_rng(seed)))
        task.setup(d)
        newest = d.shell(f"ls -t {ROOT}").stdout.split()[0]
        assert newest == task.params["newest"], seed
        others = [n for n in task.params["notes"] if n != newest]
        d.shell(f"rm {ROOT}/{others[0]}")
        assert task.is_successful(d) == 0.0  # an older note deleted instead
        d.shell(f"rm {ROOT}/{newest}")
        assert task.is_successful(d) == 0.0  # and the newest too: one too many
        task.teardown(d)


def test_merge_layout_check_wants_blank_lines_between():
    d = SimDevice()
    path = f"{ROOT}/m.md"
    check = mk.BlankLinesBetween(path)
    d.shell(f"printf 'a\\n\\nb\\n\\nc\\n' > {path}")
    assert check(d) == 1.0
    d.shell(f"printf 'a\\nb\\nc\\n' > {path}")
    assert check(d) == 0.0


def test_weak_reference_checks_are_exact_or_drawn_around():
    """A one-character wrap passes fuzzily on the untouched note for every sentence, so its
    check is exact; a two-character wrap keeps fuzzy and draws only short sentences."""
    note = "Call grandma soon."
    assert FileContent("/x", "[" + note + "]", fuzzy=0.9).fuzzy and not mk.untouched_fails(
        note, "[" + note + "]")
    brackets = TEMPLATES["MarkorWrapInBrackets"]
    stars = TEMPLATES["MarkorWrapInDoubleStars"]
    assert brackets.spec.check.fuzzy is None and "exact" in brackets.__doc__
    assert stars.spec.check.fuzzy == 0.9
    for s in range(20):
        p = stars.generate_params(np.random.default_rng(s))
        assert mk.untouched_fails(p["original_content"], "**" + p["original_content"] + "**")


def test_families_follow_their_tables():
    assert len(mr.TEMPLATE_IDS) == 43
    for name, old, new in mr._REPLACES:
        cls = TEMPLATES[f"MarkorReplace{name}"]
        p = cls.generate_params(np.random.default_rng(0))
        assert old in p["original_content"] and f'"{old}" with "{new}"' in cls(p).goal
    assert get_template("MarkorAppendToNote") is TEMPLATES["MarkorAppendLine"]
