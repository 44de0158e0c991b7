"""`TrapWrapper`: what every STAR trap shares.

A trap is a `gymnasium.Wrapper` with a trigger schedule. It acts at one of two
points of an agent step t:

- `before_action(t, action)`: Action-layer traps rewrite what reaches the phone;
  the deadlock swallows it.
- `before_observation(t, obs)`: the observation the agent will act on at step t
  (the reset observation for t = 1). State traps change the phone or the
  picture, Thinking traps only the picture, Round traps inject navigation.

Each firing is an event (a dict in `info["traps"]`, shared by the whole stack):
type, layer, step, duration, parameters, what was substituted, and — filled
in as the episode goes on — whether and after how many steps the agent got
back to the pre-trap screen with the pre-trap task progress.
"""

from __future__ import annotations

import zlib
from typing import Any, ClassVar, NamedTuple

import gymnasium as gym
import numpy as np

from antrap_gym.env.actions import Action, ActionError
from antrap_gym.traps.schedule import Firing, TriggerSchedule
from antrap_gym.traps.solvability import Prover
from antrap_gym.traps.taxonomy import LAYER_OF

#: passed down the stack in place of a swallowed action: the phone is left alone
NO_OP = {"action_type": "wait", "seconds": 0}
#: trap steps extend the budget by this factor (the reference's x1.15)
BUDGET_FACTOR = 1.15
#: windows that belong to the system, not to the task's apps
SYSTEM_PACKAGES = ("com.android.systemui",)


class TrapWrapper(gym.Wrapper):
    trap_type: ClassVar[str] = ""
    default_schedule: ClassVar[TriggerSchedule] = TriggerSchedule()
    #: parameters a trap accepts (name -> default); unknown keyword arguments are an error
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(
        self,
        env: gym.Env,
        schedule: TriggerSchedule | dict[str, Any] | None = None,
        *,
        budget_factor: float = BUDGET_FACTOR,
        verify_solvable: bool = False,
        recovery: str = "oracle",
        **params: Any,
    ) -> None:
        super().__init__(env)
        #: the AndroidEnv at the bottom of the stack (cached: `unwrapped` walks the stack)
        self.base = env.unwrapped
        unknown = set(params) - set(self.defaults)
        if unknown:
            raise TypeError(f"{self.trap_type} does not take {sorted(unknown)}; "
                            f"it takes {sorted(self.defaults)}")
        self.schedule = coerce_schedule(schedule, self.default_schedule)
        self.params: dict[str, Any] = {**self.defaults, **params}
        self.budget_factor = float(budget_factor)
        self.verify_solvable = verify_solvable
        if recovery not in ("oracle", "screen", "off"):
            raise ValueError("recovery must be 'oracle', 'screen' or 'off'")
        #: how recovery is judged: oracle distance (simulated phone), screen, or not at all
        self.recovery = recovery
        self._prover = Prover()
        self.plan: list[Firing] = []
        self.t = 1
        self._seed = 0
        self._pending: list[tuple[dict[str, Any], Pre, int, int]] = []

    @property
    def layer(self) -> str:
        return LAYER_OF[self.trap_type]

    # --- randomness: everything from the reset seed ------------------------------------
    def _rng(self, *salt: int) -> np.random.Generator:
        key = zlib.crc32(self.trap_type.encode())
        return np.random.default_rng(np.random.SeedSequence([self._seed, key, *salt]))

    def firing_rng(self, k: int) -> np.random.Generator:
        """The generator for the k-th firing's own choices (style, offset, target...)."""
        return self._rng(1000 + k)

    def max_duration(self, budget: int) -> int | None:
        return None

    # --- the gymnasium surface ---------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        base = self.base
        trap_seed = (options or {}).get("trap_seed", seed)
        if trap_seed is None:
            trap_seed = int(base.np_random.integers(2**62))
        self._seed = int(trap_seed) & (2**63 - 1)
        base.set_budget_factor(self.budget_factor)
        self.plan = self.schedule.plan(self._rng(0), base.base_budget,
                                       self.max_duration(base.base_budget))
        self.t = 1
        self._pending = []
        self.on_reset()
        obs = self.before_observation(1, obs)
        info = dict(info, budget=base.budget, traps=base.trap_events)
        return obs, info

    def step(self, action: Any):
        t = self.t
        action = self.before_action(t, action)
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.t = t + 1
        done = terminated or truncated
        if not done:
            obs = self.before_observation(t + 1, obs)
        self._track_recovery(t, done, info)
        info["budget"] = self.base.budget  # a trap may have extended it during this step
        return obs, reward, terminated, truncated, info

    # --- hooks for the trap types ---------------------------------------------------------
    def on_reset(self) -> None:
        """Per-episode state."""

    def before_action(self, t: int, action: Any) -> Any:
        return action

    def before_observation(self, t: int, obs: dict[str, Any]) -> dict[str, Any]:
        return obs

    # --- helpers ---------------------------------------------------------------------------
    def firing_at(self, t: int) -> tuple[int, Firing] | None:
        """(index, firing) if a firing starts at step t."""
        for k, f in enumerate(self.plan):
            if f.step == t:
                return k, f
        return None

    def active_at(self, t: int) -> tuple[int, Firing] | None:
        """(index, firing) if a firing covers step t."""
        for k, f in enumerate(self.plan):
            if f.step <= t < f.step + f.duration:
                return k, f
        return None

    def parse_action(self, action: Any) -> Action | None:
        """The agent's action as an `Action`, or None when it is malformed
        (then it goes down unchanged and the env reports the error)."""
        try:
            return Action.parse(action)
        except ActionError:
            return None

    def point_of(self, act: Action) -> tuple[int, int] | None:
        try:
            return self.base.point_of(act)
        except ActionError:
            return None

    def refresh(self) -> dict[str, Any]:
        """Re-read the phone after a trap changed it (overlay, HOME, BACK...)."""
        return self.base.observe()

    def record(self, step: int, duration: int = 1, params: dict[str, Any] | None = None,
               substituted: dict[str, Any] | None = None, track: bool = True,
               pre: Pre | None = None, stolen: int = 1) -> dict[str, Any]:
        """Log an event; `track` follows it until the agent is back on track.

        `stolen` steps are given back to the budget: the step a trap hijacked
        (a perturbed action, a step acted on a false picture, a pop-up to close)
        or the steps it froze."""
        base = self.base
        if stolen:
            base.add_stolen_steps(stolen)
        event = {
            "type": self.trap_type,
            "layer": self.layer,
            "step": step,
            "duration": duration,
            "params": params or {},
            "substituted": substituted or {},
            "recovered": None,
            "recovery_steps": None,
            "extra_steps": None,
            "solvable": None,
            "budget_added": stolen,
        }
        base.trap_events.append(event)
        if track and self.recovery != "off":
            self._pending.append((event, pre if pre is not None else self.where(), step,
                                  step + duration - 1))
        return event

    def where(self) -> Pre:
        """Where the agent stands now: its screen, task progress, and (on the
        simulated phone) how many steps the oracle would still need."""
        base = self.base
        distance = None
        if self.recovery == "oracle" and self._prover.available(base):
            distance = self._prover.distance(base)
        progress = float(base.task.is_successful(base.device, base.answer))
        return Pre(base.device.foreground(), progress, distance)

    def check_solvable(self, event: dict[str, Any]) -> None:
        """The solvability guard: fork the phone and let the oracle finish from here."""
        if self.verify_solvable:
            event["solvable"] = self._prover.distance(self.base) is not None

    def _track_recovery(self, t: int, done: bool, info: dict[str, Any]) -> None:
        """After step t: is the agent back where each trap found it (or further)?"""
        if not self._pending:
            return
        still = []
        now: Pre | None = None
        success = float(info.get("success", 0.0)) >= 1.0
        for event, pre, start, end in self._pending:
            if t < end and not done:
                still.append((event, pre, start, end))
                continue
            if now is None:
                now = self.where()
            back = success or now.progress >= 1.0
            if not back and pre.distance is not None:
                back = now.distance is not None and now.distance <= pre.distance
            elif not back:
                back = now.screen == pre.screen and now.progress >= pre.progress
            if back:
                steps = t - start + 1
                gained = (pre.distance - now.distance) if (
                    pre.distance is not None and now.distance is not None) else 0
                event["recovered"] = True
                event["recovery_steps"] = steps
                event["extra_steps"] = max(0, steps - max(0, gained))
            elif done:
                event["recovered"] = False
            else:
                still.append((event, pre, start, end))
        self._pending = [] if done else still
        if done:
            for event, *_ in still:
                event["recovered"] = False


class Pre(NamedTuple):
    screen: tuple[str, str]
    progress: float
    distance: int | None


def coerce_schedule(s: TriggerSchedule | dict[str, Any] | None,
                    default: TriggerSchedule) -> TriggerSchedule:
    if s is None:
        return default
    if isinstance(s, TriggerSchedule):
        return s
    if isinstance(s, dict):
        kw = dict(s)
        for key in ("window", "duration"):
            if isinstance(kw.get(key), list):
                kw[key] = tuple(kw[key])
        if isinstance(kw.get("steps"), list):
            kw["steps"] = tuple(kw["steps"])
        return default.with_(**kw)
    raise TypeError(f"schedule must be a TriggerSchedule or a dict, got {type(s).__name__}")
