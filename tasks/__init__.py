"""AndroidWorld-style tasks: templates with seeded parameters, shell-only set-up
and checks, and semantic solutions; grouped into suites."""

from tasks import contacts_tasks, markor_tasks, settings_tasks  # noqa: F401  (register templates)
from tasks.base import Task, TaskError, answer_matches
from tasks.registry import SUITES, TEMPLATES, Suite, get_suite, get_template, register
from tasks.suites import build_suites

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
