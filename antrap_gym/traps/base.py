"""`TrapWrapper`: what every STAR trap shares.

A trap is a `gymnasium.Wrapper` with a trigger schedule. It acts at one of two
points of an agent step t:

- `before_action(t, action)`: Action-layer traps rewrite what reaches the phone;
  the deadlock swallows it.
- `before_observation(t, obs)`: the observation the agent will act on at step t
  (the reset observation for t = 1). State traps change the phone or the
  picture, Thinking traps only the picture, Round traps inject navigation.

Each firing is an event (a dict in `info["traps"]`, shared by the whole stack):
type, layer, step, duration, parameters, what was substituted, what triggered
it, and — filled in as the episode goes on — whether and after how many steps
the agent got back to the pre-trap screen with the pre-trap task progress.

"At least once" (docs/traps.md, "Schedules"): a drawn plan always holds a
firing, and a trap that acts on what the agent sees and has not fired yet when
the agent finishes fires then: an `answer` goes through and the trap fires
before the next look; a `status` is held back once (the phone does nothing, the
step is given back to the budget) and the trap fires before the agent's next
look. Action-layer traps are armed from the first eligible step instead.

A device fault inside a trap's own device calls ends the step as truncated with
the reason in `info["error"]`, as the env does for faults in the agent's action.
"""

from __future__ import annotations

import weakref
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

import gymnasium as gym
import numpy as np

from antrap_gym.device import DeviceError
from antrap_gym.env.actions import Action, ActionError
from antrap_gym.traps import view
from antrap_gym.traps.schedule import Firing, TriggerSchedule
from antrap_gym.traps.solvability import Prover
from antrap_gym.traps.taxonomy import LAYER_OF

#: passed down the stack in place of a swallowed action: the phone is left alone
NO_OP = {"action_type": "wait", "seconds": 0}
#: trap steps extend the budget by this factor (the reference's x1.15)
BUDGET_FACTOR = 1.15
#: windows that belong to the system, not to the task's apps
SYSTEM_PACKAGES = ("com.android.systemui",)
#: the agent's ways of saying it is done: the last moment a trap can still fire
FINISHING = ("status", "answer")
FINISHING_ALIASES = {"terminate": "status"}  # as `Action.from_dict` reads them

#: base env -> {id(trap): callback} run by the innermost trap right after the phone
#: is reset, before any trap looks at the first observation (see `prepare_phone`)
_PREPARE: weakref.WeakKeyDictionary[Any, dict[int, Callable[[], bool]]] = \
    weakref.WeakKeyDictionary()


class TrapWrapper(gym.Wrapper):
    trap_type: ClassVar[str] = ""
    default_schedule: ClassVar[TriggerSchedule] = TriggerSchedule()
    #: parameters a trap accepts (name -> default); unknown keyword arguments are an error
    defaults: ClassVar[dict[str, Any]] = {}
    #: where `at_least_once` puts the guaranteed firing: "last" eligible step (traps
    #: acting on what the agent sees) or "first" (traps armed until an action fits)
    guarantee_at: ClassVar[str] = "last"
    #: whether a firing is pulled forward when the agent finishes before it
    pulls_forward: ClassVar[bool] = True

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
        self.budget_factor = check_budget_factor(budget_factor)
        self.verify_solvable = verify_solvable
        if recovery not in ("oracle", "screen", "off"):
            raise ValueError("recovery must be 'oracle', 'screen' or 'off'")
        #: how recovery is judged: oracle distance (simulated phone), screen, or not at all
        self.recovery = recovery
        below = [w for w in _wrappers(env) if isinstance(w, TrapWrapper)]
        #: the how-many-th trap of this type in the stack, from the inside (0 = first):
        #: two stacked traps of one type draw different plans
        self.salt_index = sum(1 for w in below if w.trap_type == self.trap_type)
        self._innermost = not below
        # one prover per stack: its memo of oracle distances by (task, phone state) is pure,
        # so stacked traps asking about the same state after a step fork the phone once
        self._prover = below[0]._prover if below else Prover()
        #: the plan drawn at reset (a function of the seed only)
        self.plan: list[Firing] = []
        #: the plan as the episode goes: a firing pulled forward when the agent finished early
        self.live: list[Firing] = []
        self.t = 1
        self.fired = 0  # events this trap recorded this episode
        self._seed = 0
        self._began = False
        self._held = False  # a `status` already held back this episode
        self._pulled: dict[int, dict[str, Any]] = {}  # firing index -> how it was pulled forward
        self._pending: list[tuple[dict[str, Any], Pre, int, int]] = []

    @property
    def layer(self) -> str:
        return LAYER_OF[self.trap_type]

    # --- randomness: everything from the reset seed ------------------------------------
    def _rng(self, *salt: int) -> np.random.Generator:
        name = self.trap_type if not self.salt_index else f"{self.trap_type}#{self.salt_index}"
        key = zlib.crc32(name.encode())
        return np.random.default_rng(np.random.SeedSequence([self._seed, key, *salt]))

    def firing_rng(self, k: int) -> np.random.Generator:
        """The generator for the k-th firing's own choices (style, offset, target...)."""
        return self._rng(1000 + k)

    def max_duration(self, budget: int) -> int | None:
        return None

    def min_step(self) -> int:
        """The earliest step a firing may start (a trap that needs history waits)."""
        return 1

    # --- the gymnasium surface ---------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        base = self.base
        self._began = False
        if self.wants_preparation():
            # the innermost trap runs it, before any trap looks at the first observation
            _PREPARE.setdefault(base, {})[id(self)] = lambda: self._prepare(seed, options)
        obs, info = self.env.reset(seed=seed, options=options)
        if self._innermost:
            changed = False
            for prepare in _PREPARE.pop(base, {}).values():
                changed |= bool(prepare())
            if changed:
                obs = self.refresh()
        if not self._began:
            self._begin(seed, options)
        obs = self.before_observation(1, obs)
        info = dict(info, budget=base.budget, traps=base.trap_events)
        return obs, info

    def _begin(self, seed: int | None, options: dict[str, Any] | None) -> None:
        base = self.base
        trap_seed = (options or {}).get("trap_seed", seed)
        if trap_seed is None:
            trap_seed = int(base.np_random.integers(2**62))
        self._seed = int(trap_seed) & (2**63 - 1)
        base.set_budget_factor(self.budget_factor)
        self.plan = self.schedule.plan(self._rng(0), base.base_budget,
                                       self.max_duration(base.base_budget),
                                       min_step=self.min_step(), at=self.guarantee_at)
        self.live = list(self.plan)
        self.t = 1
        self.fired = 0
        self._held = False
        self._pulled = {}
        self._pending = []
        self.on_reset()
        self._began = True

    def _prepare(self, seed: int | None, options: dict[str, Any] | None) -> bool:
        self._begin(seed, options)
        return self.prepare_phone()

    def step(self, action: Any):
        t = self.t
        base = self.base
        counted = base.step_count
        try:
            action = self._finishing(t, action)
            action = self.before_action(t, action)
            obs, reward, terminated, truncated, info = self.env.step(action)
            self.t = t + 1
            done = terminated or truncated
            if not done:
                obs = self.before_observation(t + 1, obs)
            self.after_step(t, done)
            self._track_recovery(t, done, info)
        except DeviceError as e:
            return self._device_fault(t, e, counted)
        info["budget"] = base.budget  # a trap may have extended it during this step
        return obs, reward, terminated, truncated, info

    # --- hooks for the trap types ---------------------------------------------------------
    def on_reset(self) -> None:
        """Per-episode state."""

    def wants_preparation(self) -> bool:
        """Whether `prepare_phone` has anything to do this episode (asked before reset)."""
        return False

    def prepare_phone(self) -> bool:
        """Set the phone up for this episode's firings, right after the task's setup
        and before the first observation (the plan is drawn by then); True if the
        phone changed."""
        return False

    def before_action(self, t: int, action: Any) -> Any:
        return action

    def before_observation(self, t: int, obs: dict[str, Any]) -> dict[str, Any]:
        return obs

    def after_step(self, t: int, done: bool) -> None:
        """After the step went down the stack and the observation came back."""

    def armed(self) -> bool:
        """Whether a firing has started but is still waiting for something to act on."""
        return False

    def could_fire_now(self) -> bool:
        """Whether firing on the screen as it is now can do anything (asked before a
        `status` is held back for this trap: a hold that cannot lead to a firing
        only costs the agent a step)."""
        return True

    def recovery_blocked(self) -> bool:
        """While True, this trap's events cannot count as recovered (a virtual
        overlay is still up, whatever the phone underneath looks like)."""
        return False

    # --- at least once: firing before the agent finishes ----------------------------------
    def _finishing(self, t: int, action: Any) -> Any:
        """If nothing fired yet and the agent is finishing, fire before it does."""
        if self.fired or not self.pulls_forward or not self.schedule.guarantees:
            return action
        if _action_type(action) not in FINISHING:
            return action
        # Only an action the env accepts may move a firing: a malformed answer or status
        # goes down unchanged, the env reports it, and the step is an ordinary one.
        parsed = self.parse_action(action)
        if parsed is None or parsed.action_type not in FINISHING:
            return action
        kind = parsed.action_type
        first, _ = self.schedule.eligible(self.base.base_budget, self.min_step())
        if t + 1 < first:
            return action  # the episode ends before the window opens
        if kind == "answer":
            self._pull_forward(t + 1, kind)
            return action  # the episode goes on and the trap fires before the next look
        if self._held or not self.could_fire_now():
            return action
        k = self._pull_forward(t + 1, kind)
        if k is None and not self.armed():
            return action
        self._held = True
        held = parsed.to_dict()
        if k is not None:
            self._pulled[k]["held_back"] = held
        else:  # an armed one-step view that found nothing to change yet: one more look
            self._pulled[-1] = {"reason": "status", "held_back": held, "planned_step": None}
        self.base.add_stolen_steps(1)
        return dict(NO_OP)

    def _pull_forward(self, s: int, reason: str) -> int | None:
        """Make the next firing that has not started start at step s; its index."""
        for k, f in enumerate(self.live):
            if f.step < s:
                continue
            if f.step > s:
                self.live[k] = replace(f, step=s)
                self._pulled[k] = {"reason": reason, "planned_step": f.step}
            elif k not in self._pulled and reason == "status":
                self._pulled[k] = {"reason": reason, "planned_step": f.step}
            return k
        return None

    # --- helpers ---------------------------------------------------------------------------
    def firing_at(self, t: int) -> tuple[int, Firing] | None:
        """(index, firing) if a firing starts at step t."""
        for k, f in enumerate(self.live):
            if f.step == t:
                return k, f
        return None

    def active_at(self, t: int) -> tuple[int, Firing] | None:
        """(index, firing) if a firing covers step t."""
        for k, f in enumerate(self.live):
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
        """Re-read the phone after a trap changed it (overlay, HOME, BACK...); what
        inner traps drew into this step's picture is gone with it."""
        view.clear_covers(self.base)
        return self.base.observe()

    def record(self, step: int, duration: int = 1, params: dict[str, Any] | None = None,
               substituted: dict[str, Any] | None = None, track: bool = True,
               pre: Pre | None = None, stolen: int = 1, k: int | None = None) -> dict[str, Any]:
        """Log an event of firing `k`; `track` follows it until the agent is back on track.

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
            "trigger": self._trigger(k),
            "recovered": None,
            "recovery_steps": None,
            "extra_steps": None,
            "solvable": None,
            "budget_added": stolen,
        }
        pulled = self._pulled.pop(k, None) if k is not None else None
        if pulled is None and not self.fired:
            pulled = self._pulled.pop(-1, None)
        if pulled is not None:
            event["trigger"] = {"by": "finishing", "reason": pulled["reason"],
                                "planned_step": pulled["planned_step"]}
            if "held_back" in pulled:
                event["substituted"]["held_back"] = pulled["held_back"]
                event["budget_added"] += 1  # the held-back step was given back
        self.fired += 1
        base.trap_events.append(event)
        if track and self.recovery != "off":
            self._pending.append((event, pre if pre is not None else self.where(), step,
                                  step + duration - 1))
        return event

    def _trigger(self, k: int | None) -> dict[str, Any]:
        if k is None or not 0 <= k < len(self.plan):
            return {"by": "p"}
        f = self.plan[k]
        if not self.schedule.drawn:
            return {"by": "steps", "planned_step": f.step}
        return {"by": "at_least_once" if f.guaranteed else "p", "planned_step": f.step}

    def where(self, within: int | None = None, measure: bool = True) -> Pre:
        """Where the agent stands now: its screen, task progress, and (on the
        simulated phone, when `measure`) how many steps the oracle would still need —
        None past `within` steps, when given (see `Prover.distance`)."""
        base = self.base
        distance = None
        if measure and self.recovery == "oracle" and self._prover.available(base):
            distance = self._prover.distance(base, within=within)
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
        if info.get("error"):  # the device failed: nothing more can be read from it
            for event, *_ in self._pending:
                event["recovered"] = False
            self._pending = []
            return
        still = []
        now: Pre | None = None
        success = float(info.get("success", 0.0)) >= 1.0
        blocked = self.recovery_blocked()
        for event, pre, start, end in self._pending:
            if (t < end or blocked) and not done:
                still.append((event, pre, start, end))
                continue
            if now is None:  # back means no further from success than before the trap
                now = self.where(*self._search_bound(self._pending))
            back = success or now.progress >= 1.0
            if not back and blocked:
                pass  # the episode ended with the trap's pop-up still up
            elif not back and pre.distance is not None:
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

    @staticmethod
    def _search_bound(pending: list) -> tuple[int | None, bool]:
        """(`within`, `measure`) for `where` judging the pending events: the oracle's
        distance is read only against events that started with one, and only up to the
        largest of those (an event that started unsolvable is judged by its screen)."""
        ds = [pre.distance for _, pre, _, _ in pending if pre.distance is not None]
        return (max(ds), True) if ds else (None, False)

    # --- device faults ------------------------------------------------------------------------
    def _device_fault(self, t: int, e: DeviceError, counted: int):
        """End the step truncated, as the env does when the agent's action meets a
        dead device: the reason in `info["error"]`, no reward, the episode over."""
        base = self.base
        episode = base.episode
        if episode.step_count == counted:  # the fault came before the env counted the step
            episode.step_count += 1
        episode.done = True
        self.t = t + 1
        for event, *_ in self._pending:
            event["recovered"] = False
        self._pending = []
        obs = _safe_observe(base)
        info = base._info()
        info.update(error=f"{type(e).__name__}: {e}", success=0.0, budget=base.budget)
        return obs, 0.0, False, True, info


class Pre(NamedTuple):
    screen: tuple[str, str]
    progress: float
    distance: int | None


def _wrappers(env: gym.Env):
    while isinstance(env, gym.Wrapper):
        yield env
        env = env.env


def _action_type(action: Any) -> str | None:
    """A cheap look at an action's type (aliases resolved) before it is parsed: most
    steps are not finishing ones and must not pay for a full parse."""
    if isinstance(action, Action):
        return action.action_type
    if isinstance(action, dict):
        kind = action.get("action_type", action.get("action"))
        if isinstance(kind, str):
            kind = kind.strip().lower()
            return FINISHING_ALIASES.get(kind, kind)
        return None
    if isinstance(action, str) and any(w in action for w in ("status", "answer", "terminate")):
        try:
            return Action.parse(action).action_type
        except ActionError:
            return None
    return None


def _safe_observe(base: Any) -> dict[str, Any]:
    """The observation, or a blank one of the right shape when the device is gone."""
    try:
        return base.observe()
    except DeviceError:
        obs: dict[str, Any] = {"ui_elements": "", "goal": base.task.goal if base.task else "",
                               "last_action_error": ""}
        if base.obs_mode == "screenshot":
            w, h = base.screen_size
            obs["screenshot"] = np.zeros((h, w, 3), np.uint8)
        return obs


def check_budget_factor(factor: Any) -> float:
    f = float(factor)
    if not f >= 1.0:
        raise ValueError(f"budget_factor must be >= 1 (it extends the budget), got {factor}")
    return f


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
