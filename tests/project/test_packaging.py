"""Every source folder ships: the package list setup.py builds from (find_packages
plus the mapped top-level folders) names each folder that holds Python modules. A
folder without `__init__.py` works from the checkout (a namespace package) and is
missing from the wheel, so an installed antrap-gym fails at import."""

from __future__ import annotations

from setuptools import find_packages

from tests.paths import ROOT

MAPPED = {"tasks": "antrap_gym.tasks", "training": "antrap_gym.training", "configs": "antrap_gym.configs"}


def _shipped() -> set[str]:
    names = set(find_packages(str(ROOT), include=["antrap_gym", "antrap_gym.*"]))
    for folder, name in MAPPED.items():
        names |= {name, *(f"{name}.{sub}" for sub in find_packages(str(ROOT / folder)))}
    return names


def _folders_with_modules() -> set[str]:
    found = set()
    for top, name in [("antrap_gym", "antrap_gym"), *MAPPED.items()]:
        for py in (ROOT / top).rglob("*.py"):
            if "__pycache__" in py.parts:
                continue
            rel = py.parent.relative_to(ROOT / top)
            found.add(".".join([name, *rel.parts]))
    return found


def test_every_folder_with_modules_is_a_shipped_package():
    missing = sorted(_folders_with_modules() - _shipped())
    assert not missing, f"folders with modules but no __init__.py (left out of the wheel): {missing}"
