"""The registry of task templates and suites."""

from __future__ import annotations

from dataclasses import dataclass

from antrap_gym.device.protocol import KNOWN_APPS
from antrap_gym.tasks.base import Task

TEMPLATES: dict[str, type[Task]] = {}
#: old template ids that now resolve to another (ours renamed to the reference name)
ALIASES: dict[str, str] = {}
_KNOWN_PACKAGES = frozenset(KNOWN_APPS.values())


def register(cls: type[Task]) -> type[Task]:
    """Class decorator: make a template available by its id (the class name)."""
    tid = cls.task_id()
    if tid in TEMPLATES and TEMPLATES[tid] is not cls:
        raise ValueError(f"duplicate task id {tid}")
    if tid in ALIASES:
        raise ValueError(f"task id {tid} is already an alias of {ALIASES[tid]}")
    unknown = [pkg for pkg in cls.apps if pkg not in _KNOWN_PACKAGES]
    if unknown:
        # a real device finds an app by KNOWN_APPS: a template on an app missing there would
        # run on the simulated phone and fail on an emulator, so it is refused here
        raise ValueError(f"template {tid} uses {', '.join(unknown)}, which is not in "
                         "antrap_gym/device/protocol.py's KNOWN_APPS: add the app's "
                         "AndroidWorld name and package there (docs/adding-an-app.md)")
    TEMPLATES[tid] = cls
    return cls


def register_alias(old: str, new: str) -> None:
    """Make the retired id `old` resolve to the template `new` (already registered)."""
    if new not in TEMPLATES:
        raise ValueError(f"alias {old} -> {new}: no template {new}")
    if old in TEMPLATES or ALIASES.get(old, new) != new:
        raise ValueError(f"alias {old} -> {new}: {old} is already taken")
    ALIASES[old] = new


def resolve(task_id: str) -> str:
    """The registered id `task_id` names (itself, or what its alias points to)."""
    return ALIASES.get(task_id, task_id)


def get_template(task_id: str | type[Task]) -> type[Task]:
    if isinstance(task_id, type):
        return task_id
    try:
        return TEMPLATES[resolve(task_id)]
    except KeyError:
        raise KeyError(f"unknown task {task_id!r}; see `antrap tasks`") from None


@dataclass(frozen=True)
class Suite:
    """Templates evaluated together; `variants` seeded parameter sets each."""

    name: str
    templates: tuple[str, ...]
    variants: int = 1
    description: str = ""

    def episodes(self) -> list[tuple[str, int]]:
        """(template id, variant seed) pairs: the suite's base tasks."""
        return [(t, v) for t in self.templates for v in range(self.variants)]


SUITES: dict[str, Suite] = {}


def register_suite(suite: Suite) -> Suite:
    SUITES[suite.name] = suite
    return suite


def get_suite(name: str) -> Suite:
    """A registered suite by name; also `app:PACKAGE` (the reference templates that touch
    that app) and a comma-separated list of template ids (three variants each)."""
    if name in SUITES:
        return SUITES[name]
    if name.startswith("app:"):
        pkg = name[4:]
        ids = tuple(sorted(t for t, cls in TEMPLATES.items()
                           if pkg in cls.apps and cls.source != "antrap-gym"))
        if ids:
            return Suite(name, ids, variants=3, description=f"the reference templates of {pkg}")
    elif "," in name or name in TEMPLATES or name in ALIASES:
        ids = tuple(dict.fromkeys(get_template(t.strip()).task_id() for t in name.split(",") if t.strip()))
        return Suite(name, ids, variants=3, description="the templates named")
    known = ", ".join(sorted(SUITES))
    raise KeyError(f"unknown suite {name!r}; known: {known}, app:PACKAGE, or template ids (A,B,...)")
