"""The task suites. `antrap` is the default and grows with every new template."""

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


def build_suites() -> None:
    """Register the suites from the templates registered so far."""
    register_suite(Suite("antrap-mini", tuple(t for t in MINI if t in TEMPLATES), variants=1,
                         description="one or two templates per app, for CI and smoke runs"))
    register_suite(Suite("antrap", tuple(sorted(TEMPLATES)), variants=3,
                         description="every template, three seeded variants each (the default)"))
