"""AndroidWorld-style tasks: templates declared as data (tasks/template.py) with seeded
parameters, set-up recipes and checks that speak only to the Device protocol
(tasks/checks/, tasks/apps/), and semantic solutions; grouped into suites."""

import importlib
import pkgutil

from antrap_gym.tasks.base import Task, TaskError, answer_matches
from antrap_gym.tasks.registry import SUITES, TEMPLATES, Suite, get_suite, get_template, register
from antrap_gym.tasks.suites import build_suites


def _import_template_modules() -> tuple[str, ...]:
    """Import every module of this package, so a template module is found by being here:
    a new `tasks/<app>_tasks.py` registers its templates without being named anywhere
    (the platform's own modules register none and are imported anyway)."""
    names = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.ispkg))
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names


MODULES = _import_template_modules()

build_suites()

__all__ = [
    "SUITES",
    "TEMPLATES",
    "Suite",
    "Task",
    "TaskError",
    "answer_matches",
    "get_suite",
    "get_template",
    "register",
]
