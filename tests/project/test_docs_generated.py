"""Generated documentation is current: a page that lists templates is regenerated when
the registry changes (run the tool named in the failure)."""

from __future__ import annotations

import importlib.util

from tests.paths import ROOT

TOOLS = ROOT / "docs" / "tools"


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_real_device_page_lists_every_template_under_the_apps_it_needs():
    tool = _tool("task_apps_table")
    assert tool.main(["--check"]) == 0
    from antrap_gym.tasks import TEMPLATES

    page = (TOOLS.parent / "real-device.md").read_text()
    for tid, cls in TEMPLATES.items():
        assert f"`{tid}`" in page, tid
        for pkg in cls.apps:
            assert f"`{pkg}`" in page


def test_readmes_table_of_actions_is_made_from_their_definitions():
    assert _tool("actions_table").main(["--check"]) == 0
