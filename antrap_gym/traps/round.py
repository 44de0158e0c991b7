"""Round-layer traps: several consecutive steps are taken over.

- state_deadlock: the phone ignores the agent for d steps and the screen is frozen.
- context_disruption: the phone is sent home, or to another app through recents.
- loop: BACK is injected every N steps over a window.
"""

from __future__ import annotations

from typing import Any

from antrap_gym.traps.base import NO_OP, TrapWrapper
from antrap_gym.traps.registry import register_trap
from antrap_gym.traps.schedule import TriggerSchedule

LAUNCHER = "com.google.android.apps.nexuslauncher"
#: actions that are the agent talking, not touching: a frozen phone does not stop them
NOT_PHONE = ("status", "answer")


@register_trap
class StateDeadlock(TrapWrapper):
    """For d steps (1 .. budget/4, default 3) actions do nothing and the screen
    does not change; the steps are given back to the budget."""

    trap_type = "state_deadlock"
    default_schedule = TriggerSchedule(duration=(3, 3))
    defaults: dict[str, Any] = {}

    def max_duration(self, budget: int) -> int:
        return max(1, budget // 4)

    def on_reset(self) -> None:
        self._shown: dict[str, Any] | None = None
        self._event: dict[str, Any] | None = None

    def before_observation(self, t, obs):
        active = self.active_at(t)
        if active is not None and active[1].step < t and self._shown is not None:
            return _copy_obs(self._shown)  # still frozen: the pre-deadlock picture
        self._shown = obs
        return obs

    def before_action(self, t, action):
        active = self.active_at(t)
        if active is None:
            return action
        k, firing = active
        if firing.step == t:
            self._event = self.record(t, firing.duration,
                                      params={"duration": firing.duration},
                                      substituted={"ignored": []}, stolen=firing.duration, k=k)
            self.check_solvable(self._event)
        act = self.parse_action(action)
        if act is not None and act.action_type in NOT_PHONE:
            return action
        if self._event is not None:
            self._event["substituted"]["ignored"].append(
                act.to_dict() if act is not None else str(action)[:200])
        return NO_OP


@register_trap
class ContextDisruption(TrapWrapper):
    """Before the agent's next look, the phone goes home, or switches to another
    app through recents: the overview opens and another app's card is tapped.

    So that recents hold another app, an episode with an app switch planned
    starts with one (an app the task does not use) opened and left in the
    background right after the task's setup, as if the user had used it before."""

    trap_type = "context_disruption"
    defaults = {"modes": ("home", "app_switch")}

    def on_reset(self) -> None:
        self._seeded: str | None = None

    def _mode(self, rng) -> str:
        modes = list(self.params["modes"])
        return modes[int(rng.integers(len(modes)))]

    def wants_preparation(self) -> bool:
        return "app_switch" in self.params["modes"]

    def prepare_phone(self) -> bool:
        """Leave a non-task app in recents when a firing of this episode will switch apps."""
        if not any(self._mode(self.firing_rng(k)) == "app_switch" for k in range(len(self.plan))):
            return False
        base = self.base
        dev = base.device
        task_apps = set(base.task.apps)
        others = sorted(p for p in dev.app_packages().values()
                        if p not in task_apps and p != LAUNCHER)
        if not others:
            return False  # every app is the task's: the switch goes to another of them
        pkg = others[int(self._rng(2).integers(len(others)))]
        front = dev.foreground()[0]
        dev.launch(pkg)
        if front and front != LAUNCHER and front != pkg:
            dev.launch(front)  # back to the app the task left open
        else:
            dev.key("KEYCODE_HOME")
        self._seeded = pkg
        return True

    def before_observation(self, t, obs):
        hit = self.firing_at(t)
        if hit is None:
            return obs
        k, firing = hit
        rng = self.firing_rng(k)
        dev = self.base.device
        pre = self.where()
        mode = self._mode(rng)
        params: dict[str, Any] = {"mode": mode}
        if mode == "home":
            dev.key("KEYCODE_HOME")
        else:
            params["to"], params["path"] = self._switch_app(rng, pre.screen[0])
            if self._seeded:
                params["seeded_recents"] = self._seeded
        event = self.record(t, 1, params=params, substituted={"from": list(pre.screen)}, pre=pre,
                            k=k)
        self.check_solvable(event)
        return self.refresh()

    def _switch_app(self, rng, current: str) -> tuple[str, str]:
        """Open recents and tap another app's card (one the task does not use if
        there is one); (package, "recents"). With no other card there, leave
        recents and launch an app: (package, "launch")."""
        dev = self.base.device
        task_apps = set(self.base.task.apps)
        by_label = {label.casefold(): pkg for label, pkg in dev.app_packages().items()}
        dev.key("KEYCODE_APP_SWITCH")
        cards = [(e, by_label[e.content_description.casefold()]) for e in dev.ui_elements()
                 if e.is_clickable and e.content_description and e.bbox_pixels is not None
                 and e.content_description.casefold() in by_label]
        cards = [(e, p) for e, p in cards if p not in (current, LAUNCHER)]
        pool = [c for c in cards if c[1] not in task_apps] or cards
        if pool:
            e, pkg = pool[int(rng.integers(len(pool)))]
            dev.tap(*e.center)
            return pkg, "recents"
        others = sorted(p for p in by_label.values()
                        if p not in task_apps and p not in (current, LAUNCHER))
        target = others[int(rng.integers(len(others)))] if others else LAUNCHER
        dev.key("KEYCODE_HOME")
        if target != LAUNCHER:
            dev.launch(target)
        return target, "launch"


@register_trap
class Loop(TrapWrapper):
    """BACK every `interval` steps (default 2) over a window of 4-6 steps."""

    trap_type = "loop"
    default_schedule = TriggerSchedule(duration=(4, 6))
    defaults = {"interval": 2}

    def on_reset(self) -> None:
        self._event: dict[str, Any] | None = None

    def before_observation(self, t, obs):
        active = self.active_at(t)
        if active is None:
            return obs
        k, firing = active
        if (t - firing.step) % max(1, int(self.params["interval"])) != 0:
            return obs
        base = self.base
        if t == firing.step:
            self._event = self.record(t, firing.duration,
                                      params={"interval": self.params["interval"],
                                              "window": firing.duration},
                                      substituted={"back_at_steps": []}, stolen=0, k=k)
        base.device.key("KEYCODE_BACK")
        base.add_stolen_steps(1)  # each BACK undoes a step
        if self._event is not None:
            self._event["budget_added"] += 1
            self._event["substituted"]["back_at_steps"].append(t)
            if t == firing.step:
                self.check_solvable(self._event)
        return self.refresh()


def _copy_obs(obs: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy (observations are never shared between steps)."""
    out = dict(obs)
    if "screenshot" in out:
        out["screenshot"] = out["screenshot"].copy()
    return out
