"""The task suites. `antrap` is the default and grows with every new template.

`antrap-train` and `antrap-test` hold the templates out from each other: every
template declares its split, no template is in both, and each app gives about the
same share of its templates to the test side (tests/test_template_contract.py
keeps that so as templates are added). Train on `antrap-train`, report on
`antrap-test`: a test score then measures transfer to unseen templates, not to
unseen seeds of templates trained on.
"""

from __future__ import annotations

from antrap_gym.tasks.registry import TEMPLATES, Suite, register_suite

MINI = (
    "SettingsWifiToggle",
    "SettingsBrightness",
    "ContactsAddContact",
    "ContactsPhoneQuestion",
    "MarkorCreateNote",
    "MarkorNoteContentQuestion",
)
SPLIT_VARIANTS = 3


def split_templates(split: str) -> tuple[str, ...]:
    """The registered templates that declare `split` ("train" or "test"), sorted."""
    return tuple(sorted(t for t, cls in TEMPLATES.items() if cls.split == split))


def build_suites() -> None:
    """Register the suites from the templates registered so far."""
    register_suite(Suite("antrap-mini", tuple(t for t in MINI if t in TEMPLATES), variants=1,
                         description="one or two templates per app, for CI and smoke runs"))
    register_suite(Suite("antrap", tuple(sorted(TEMPLATES)), variants=3,
                         description="every template, three seeded variants each (the default)"))
    register_suite(Suite("antrap-train", split_templates("train"), variants=SPLIT_VARIANTS,
                         description="the training split: templates held out of antrap-test"))
    register_suite(Suite("antrap-test", split_templates("test"), variants=SPLIT_VARIANTS,
                         description="the test split: templates never in antrap-train"))
