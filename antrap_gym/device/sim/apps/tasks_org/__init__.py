"""Tasks.org: tasks with due dates, priority and completion over its database (`org.tasks`).

- `storage`: its database (`tasks` table) and preferences;
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.tasks_org.app import TasksOrg

APP = TasksOrg

__all__ = ["APP", "TasksOrg"]
