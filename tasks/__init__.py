"""AndroidWorld-style tasks: templates declared as data (tasks/template.py) with seeded
parameters, set-up recipes and checks that speak only to the Device protocol
(tasks/checks/, tasks/apps/), and semantic solutions; grouped into suites."""

from antrap_gym.tasks import (  # noqa: F401  (register templates)
    audio_recorder_tasks,
    broccoli_tasks,
    browser_tasks,
    calendar_ir,
    calendar_tasks,
    camera_tasks,
    clock_tasks,
    contacts_tasks,
    expense_tasks,
    files_tasks,
    gallery_tasks,
    joplin_tasks,
    markor_reference,
    markor_tasks,
    open_app_tasks,
    opentracks_tasks,
    osmand_tasks,
    retro_music_tasks,
    settings_tasks,
    simple_draw_tasks,
    sms_tasks,
    system_reference,
    tasks_org_tasks,
    vlc_tasks,
)
from antrap_gym.tasks.base import Task, TaskError, answer_matches
from antrap_gym.tasks.registry import SUITES, TEMPLATES, Suite, get_suite, get_template, register
from antrap_gym.tasks.suites import build_suites

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
