"""The task suites. `antrap` is the default: the reference templates (AndroidWorld's
and AnTrap's, under their class names, so a result lines up row by row with their
tables), growing as they are written; `antrap-extra` holds our own templates and
`antrap-all` both.

`antrap-train` and `antrap-test` hold the templates out from each other by family
(tasks/families.py): every template declares its split, a family of near-duplicates
sits on one side, and each app gives about the same share of its templates to the
test side (tests/tasks/test_families.py and tests/tasks/test_template_contract.py keep that so as
templates are added). Train on `antrap-train`, report on
`antrap-test`: a test score then measures transfer to unseen templates, not to
unseen seeds of templates trained on.
"""

from __future__ import annotations

from antrap_gym.tasks.registry import TEMPLATES, Suite, register_suite
from antrap_gym.tasks.template import REFERENCE_SOURCES

MINI = (
    "SettingsWifiToggle",
    "SettingsBrightness",
    "ContactsAddContact",
    "ContactsPhoneQuestion",
    "MarkorCreateNote",
    "MarkorNoteContentQuestion",
)
SPLIT_VARIANTS = 3


def source_templates(reference: bool) -> tuple[str, ...]:
    """The registered reference templates (or, with `reference=False`, our own), sorted."""
    return tuple(sorted(t for t, cls in TEMPLATES.items()
                        if (cls.source in REFERENCE_SOURCES) == reference))


def split_templates(split: str) -> tuple[str, ...]:
    """The registered templates that declare `split` ("train" or "test"), sorted."""
    return tuple(sorted(t for t, cls in TEMPLATES.items() if cls.split == split))


def build_suites() -> None:
    """Register the suites from the templates registered so far."""
    register_suite(Suite("antrap-mini", tuple(t for t in MINI if t in TEMPLATES), variants=1,
                         description="one or two templates per app, for CI and smoke runs"))
    register_suite(Suite("antrap", source_templates(reference=True), variants=3,
                         description="the reference templates (AndroidWorld's and AnTrap's), "
                                     "three seeded variants each (the default)"))
    register_suite(Suite("antrap-extra", source_templates(reference=False), variants=3,
                         description="our own templates, three seeded variants each"))
    register_suite(Suite("antrap-all", tuple(sorted(TEMPLATES)), variants=3,
                         description="every template: antrap and antrap-extra"))
    register_suite(Suite("antrap-train", split_templates("train"), variants=SPLIT_VARIANTS,
                         description="the training split: templates held out of antrap-test"))
    register_suite(Suite("antrap-test", split_templates("test"), variants=SPLIT_VARIANTS,
                         description="the test split: templates never in antrap-train"))
