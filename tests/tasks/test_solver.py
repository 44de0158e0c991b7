"""The solver stands on the tasks layer alone: given a phone (the Device protocol) and a
task, it solves the task with no environment, no traps and no agent around it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from antrap_gym.device import Device, serialize_elements
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import get_template
from antrap_gym.tasks.solver import Solver


def _execute(dev: Device, a: dict[str, Any]) -> None:
    """The solver's actions, done through the Device protocol (what an env does)."""
    t = a["action_type"]
    w, h = dev.screen_size
    if t == "click":
        dev.tap(a["x"], a["y"])
    elif t == "long_press":
        dev.long_press(a["x"], a["y"])
    elif t == "input_text":
        dev.enter_text(a["text"], at=(a["x"], a["y"]), clear=bool(a.get("clear_text")))
    elif t == "scroll":
        dy = {"down": -1, "up": 1}.get(a["direction"], 0) * h // 5
        dx = {"right": -1, "left": 1}.get(a["direction"], 0) * w // 3
        dev.swipe(a["x"] - dx, a["y"] - dy, a["x"] + dx, a["y"] + dy, 400)
    elif t == "keyboard_enter":
        dev.key("KEYCODE_ENTER")
    elif t == "navigate_back":
        dev.key("KEYCODE_BACK")
    elif t == "navigate_home":
        dev.key("KEYCODE_HOME")
    elif t == "open_app":
        dev.launch(dev.app_packages()[a["app_name"].lower()])
    elif t == "wait":
        dev.wait(a.get("seconds", 1))


def _task(template: str, seed: int, dev: Device):
    cls = get_template(template)
    task = cls(cls.generate_params(np.random.default_rng(seed)))
    task.setup(dev)
    return task


def _solve(template: str, seed: int) -> tuple[float, list[dict[str, Any]], Solver]:
    dev = SimDevice()
    task = _task(template, seed, dev)
    solver = Solver(task, dev.screen_size)
    history: list[dict[str, Any]] = []
    answer = None
    for _ in range(3 * task.max_steps):
        a = solver.act(serialize_elements(dev.ui_elements()), dev, history=history, answer=answer)
        if a["action_type"] == "status":
            break
        if a["action_type"] == "answer":
            answer = a["text"]
        else:
            _execute(dev, a)
        history.append(a)
    return float(task.is_successful(dev, answer)), history, solver


@pytest.mark.parametrize("template", ["SettingsWifiToggle", "ContactsAddContact",
                                      "MarkorCreateNoteInFolder", "ContactsPhoneQuestion"])
def test_the_solver_solves_a_task_on_a_bare_phone(template):
    success, history, solver = _solve(template, 3)
    assert success == 1.0, history
    assert not solver.faults and history


def test_an_action_the_callers_check_refuses_is_a_fault_answered_with_a_harmless_one():
    dev = SimDevice()
    task = _task("SettingsWifiToggle", 0, dev)
    solver = Solver(task, dev.screen_size)

    def refuse(action: dict[str, Any]) -> None:
        raise ValueError("the env would refuse it")

    text = serialize_elements(dev.ui_elements())
    got = [solver.act(text, dev, check=refuse) for _ in range(4)]
    assert got == [{"action_type": "navigate_back"}, {"action_type": "navigate_home"},
                   {"action_type": "wait", "seconds": 1}, {"action_type": "wait", "seconds": 1}]
    assert len(solver.faults) == 4 and "the env would refuse it" in solver.faults[0]
    assert solver.act(text, dev)["action_type"] == "open_app"  # and it recovers
