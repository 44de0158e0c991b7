"""Tasks as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.tasks_org.screens import PKG, MainActivity, TaskEditActivity
from antrap_gym.device.sim.apps.tasks_org.storage import TasksDatabase, TasksPrefs


class TasksOrg(App):
    package = PKG
    label = "Tasks"
    version = "13.6.2"
    icon_color = (33, 150, 243)
    main = MainActivity
    activities = (TaskEditActivity,)
    storage = (TasksDatabase, TasksPrefs)
