"""Families of templates: what the train/test split holds out, so that a test score
measures transfer to unseen behaviour, not to a template trained on under another name.

A family is a set of templates that ask for the same behaviour and differ in constants
only: AnTrap's ten `MarkorWrapIn*` rows (a bracket pair), `SimpleCalendarAddEventOnHalloween`
and `...OnLastDayOfMonth` (both October 31), `FilesRenameIn*` (a folder). A template names
its family with `family=` (default: its own id, a family of one), and the whole family
sits on one side of the split.

Nobody has to spot near-duplicates by eye: `structure(cls)` is a template's declaration
with every constant taken out (its apps, kind, and the types and shapes of its check,
set-up and solution steps; strings and numbers become their type). Templates of equal
structure differ in constants only, so they are one family unless a person decided
otherwise: `undecided()` lists the groups of equal structure that span several families
while some member never declared one. The tests keep both lists empty and every family on
one side (tests/tasks/test_families.py); docs/training.md says how the split was drawn.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import Any

from antrap_gym.tasks.base import Task
from antrap_gym.tasks.registry import TEMPLATES


def family_of(cls: type[Task]) -> str:
    """The template's family: declared (`family=`), else the template alone."""
    return cls.family or cls.task_id()


def declared(cls: type[Task]) -> bool:
    """Whether the template names its family itself."""
    return bool(cls.family)


def _shape(value: Any, depth: int = 0) -> Any:
    """`value` with its constants replaced by their types (dataclasses by their type and
    fields, sequences and mappings element by element, functions by their qualified name:
    one function making the steps of a table of templates is one shape)."""
    if depth > 16:
        return "..."
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                tuple((f.name, _shape(getattr(value, f.name), depth + 1))
                      for f in dataclasses.fields(value)))
    if isinstance(value, list | tuple):
        return tuple(_shape(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _shape(v, depth + 1)) for k, v in value.items()))
    if value is None or isinstance(value, str | int | float | bool):
        return type(value).__name__
    if callable(value):
        return getattr(value, "__qualname__", type(value).__name__)
    return type(value).__name__


def structure(cls: type[Task]) -> Any:
    """The template's declaration without its constants (see the module docstring); a
    template written as a class of its own (no declaration) is a structure of its own."""
    spec = getattr(cls, "spec", None)
    if spec is None:
        return ("class", cls.task_id())
    return (spec.apps, spec.kind, _shape(spec.check), _shape(spec.setup), _shape(spec.solution))


def families(ids: list[str] | None = None) -> dict[str, list[str]]:
    """Family name -> its templates (sorted), over `ids` (default: every template)."""
    out: dict[str, list[str]] = defaultdict(list)
    for tid in sorted(TEMPLATES if ids is None else ids):
        out[family_of(TEMPLATES[tid])].append(tid)
    return dict(out)


def same_structure(ids: list[str] | None = None) -> list[list[str]]:
    """The groups of two or more templates whose declarations differ in constants only."""
    groups: dict[Any, list[str]] = defaultdict(list)
    for tid in sorted(TEMPLATES if ids is None else ids):
        groups[structure(TEMPLATES[tid])].append(tid)
    return [g for g in groups.values() if len(g) > 1]


def undecided(ids: list[str] | None = None) -> list[list[str]]:
    """Groups of equal structure that span several families although some member did not
    declare its family: near-duplicates nobody placed (declare a `family=` for each)."""
    return [g for g in same_structure(ids)
            if len({family_of(TEMPLATES[t]) for t in g}) > 1
            and not all(declared(TEMPLATES[t]) for t in g)]


def split_across(ids: list[str] | None = None) -> dict[str, dict[str, list[str]]]:
    """Families whose templates are on both sides of the split: family -> split -> ids."""
    out = {}
    for name, members in families(ids).items():
        sides: dict[str, list[str]] = defaultdict(list)
        for tid in members:
            sides[TEMPLATES[tid].split].append(tid)
        if len(sides) > 1:
            out[name] = dict(sides)
    return out


__all__ = ["declared", "families", "family_of", "same_structure", "split_across", "structure",
           "undecided"]
