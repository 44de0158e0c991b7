"""The task suites. `antrap` is the default and grows with every new template."""

from __future__ import annotations

from tasks.registry import TEMPLATES, Suite, register_suite


def _all() -> tuple[str, ...]:
    return tuple(sorted(TEMPLATES))


MINI = (
    "SettingsWifiToggle",
    "SettingsBrightness",
    "SettingsScreenTimeout",
    "SettingsAndroidVersion",
)

register_suite(Suite("antrap-mini", tuple(t for t in MINI if t in TEMPLATES), variants=1,
                     description="a few templates across the apps, for CI and smoke runs"))
register_suite(Suite("antrap", _all(), variants=3,
                     description="every template, three seeded variants each (the default)"))
