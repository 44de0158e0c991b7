"""Template ids: a retired id resolves to the template that replaced it; ids and
aliases never collide; every template says where it comes from."""

from __future__ import annotations

import pytest

import antrap_gym.tasks.registry as registry
from antrap_gym.tasks import TEMPLATES, get_template
from antrap_gym.tasks.checks import ScreenShows
from antrap_gym.tasks.steps import Answer
from antrap_gym.tasks.template import REFERENCE_SOURCES, SOURCES, template


@pytest.fixture
def scratch_registry(monkeypatch):
    """A registry of its own, so scratch templates do not join the real one."""
    monkeypatch.setattr(registry, "TEMPLATES", {})
    monkeypatch.setattr(registry, "ALIASES", {})
    return registry


def _declare(tid: str, **kw):
    return template(id=tid, apps=("com.android.settings",), complexity=1.0, kind="action",
                    split="train", goal="Look at the screen.", params=lambda rng: {},
                    check=ScreenShows("Settings"), solution=[Answer(text="x")], **kw)


def test_an_alias_resolves_to_the_template_that_replaced_it(scratch_registry):
    cls = _declare("SystemThing", source="AndroidWorld", aliases=("OurThing",))
    assert scratch_registry.get_template("OurThing") is cls
    assert scratch_registry.get_template("SystemThing") is cls
    assert cls.source == "AndroidWorld"
    with pytest.raises(KeyError, match="NoSuchThing"):
        scratch_registry.get_template("NoSuchThing")


def test_ids_and_aliases_never_collide(scratch_registry):
    _declare("SystemThing", aliases=("OurThing",))
    with pytest.raises(ValueError, match="alias"):
        _declare("OurThing")
    _declare("OtherThing")
    with pytest.raises(ValueError, match="already taken"):
        scratch_registry.register_alias("OurThing", "OtherThing")
    with pytest.raises(ValueError, match="already taken"):
        scratch_registry.register_alias("OtherThing", "SystemThing")


def test_a_source_outside_the_known_ones_is_refused(scratch_registry):
    with pytest.raises(ValueError, match="source"):
        _declare("SystemThing", source="somewhere")


def test_every_registered_template_names_a_known_source():
    assert {cls.source for cls in TEMPLATES.values()} <= set(SOURCES)
    for alias, target in registry.ALIASES.items():
        assert get_template(alias) is TEMPLATES[target]


def test_the_default_suite_is_the_reference_templates_and_extra_is_ours():
    from antrap_gym.tasks import get_suite

    ref, extra, every = (set(get_suite(s).templates) for s in ("antrap", "antrap-extra", "antrap-all"))
    assert ref and extra and not ref & extra and ref | extra == every == set(TEMPLATES)
    assert all(TEMPLATES[t].source in REFERENCE_SOURCES for t in ref)
    assert all(TEMPLATES[t].source == "antrap-gym" for t in extra)


def test_a_suite_of_one_app_or_of_named_templates():
    """`--suite app:PACKAGE` is that app's reference templates; `--suite A,B` the ones named
    (an alias resolving to its template); anything else is refused with the choices."""
    from antrap_gym.tasks import TEMPLATES, get_suite

    app = get_suite("app:com.android.settings")
    assert app.templates and all("com.android.settings" in TEMPLATES[t].apps for t in app.templates)
    assert all(TEMPLATES[t].source != "antrap-gym" for t in app.templates)
    named = get_suite("SettingsWifiToggle, MarkorAppendToNote,SettingsWifiToggle")
    assert named.templates == ("SettingsWifiToggle", "MarkorAppendLine") and named.variants == 3
    with pytest.raises(KeyError, match="app:PACKAGE"):
        get_suite("app:no.such.app")
