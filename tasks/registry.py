"""The registry of task templates and suites."""

from __future__ import annotations

from dataclasses import dataclass

from antrap_gym.tasks.base import Task

TEMPLATES: dict[str, type[Task]] = {}


def register(cls: type[Task]) -> type[Task]:
    """Class decorator: make a template available by its id (the class name)."""
    tid = cls.task_id()
    if tid in TEMPLATES and TEMPLATES[tid] is not cls:
        raise ValueError(f"duplicate task id {tid}")
    TEMPLATES[tid] = cls
    return cls


def get_template(task_id: str | type[Task]) -> type[Task]:
    if isinstance(task_id, type):
        return task_id
    try:
        return TEMPLATES[task_id]
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
    try:
        return SUITES[name]
    except KeyError:
        raise KeyError(f"unknown suite {name!r}; known: {', '.join(sorted(SUITES))}") from None
