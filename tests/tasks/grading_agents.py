"""An agent that finishes at once, loaded by `antrap eval` workers as
`tests.tasks.grading_agents:IdleAgent`: on a *Verify* row it passes the reference's check and
fails ours (tests/tasks/test_grading.py)."""

from __future__ import annotations

from antrap_gym.agents.base import Agent


class IdleAgent(Agent):
    """Says the task is complete without touching the phone."""

    name = "idle"

    def act(self, obs, info):
        return {"action_type": "status", "goal_status": "complete"}
