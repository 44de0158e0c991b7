"""`AndroidEnv`: a Gymnasium environment over any Device, with AndroidWorld tasks.

Observations are a dict (screenshot, serialized elements, goal, the last
action's error); actions are AndroidWorld JSON actions (string, dict or
`Action`). Bad actions never raise: the phone is left unchanged and
`last_action_error` says why. Reward is the task's success on the final step, by our
checks or (`grading="reference"`) by the reference's (docs/grading.md).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from antrap_gym.device import (
    Device,
    DeviceError,
    DeviceLostError,
    UIElement,
    make_device,
    serialize_elements,
)
from antrap_gym.env.actions import POINT_ACTIONS, Action, ActionError
from antrap_gym.env.ansi import render_ansi
from antrap_gym.env.episode import EPISODE_FIELDS, Episode
from antrap_gym.env.info import InfoMap
from antrap_gym.env.spaces import UnicodeText

ELEMENTS_MAX_CHARS = 1 << 18
SHORT_TEXT_MAX_CHARS = 1 << 12
#: actions that may name a point (x, y or index) without needing one
POINTED_ACTIONS = ("input_text", "scroll", "swipe")


class AndroidEnv(gym.Env):
    """A phone, a task, and the AndroidWorld action space.

    Where the episode is lives in one record, `episode`; its fields read and write
    as attributes of the env too (`step_count`, `budget`, `trap_events`, `answer`,
    `history`, ...)."""

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 2}

    def __init__(
        self,
        task: str | type | None = None,
        suite: str = "antrap",
        device: str | Device = "sim",
        obs_mode: str = "screenshot",
        screen_size: tuple[int, int] = (1080, 2400),
        render_mode: str | None = None,
        max_steps: int | None = None,
        grading: str = "ours",
    ) -> None:
        from antrap_gym.tasks import get_suite, get_template
        from antrap_gym.tasks.base import check_grading

        self.grading = check_grading(grading)
        if obs_mode not in ("screenshot", "text"):
            raise ValueError("obs_mode must be 'screenshot' or 'text'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.obs_mode = obs_mode
        self.render_mode = render_mode
        self.suite = get_suite(suite)
        self.fixed_task = get_template(task) if isinstance(task, str) else task
        self._owns_device = isinstance(device, str)
        self.device: Device = (
            make_device(device, width=screen_size[0], height=screen_size[1])
            if isinstance(device, str) else device
        )
        w, h = self.device.screen_size
        self.screen_size = (w, h)
        self.max_steps_override = max_steps
        obs: dict[str, spaces.Space] = {
            "ui_elements": UnicodeText(ELEMENTS_MAX_CHARS),
            "goal": UnicodeText(SHORT_TEXT_MAX_CHARS),
            "last_action_error": UnicodeText(SHORT_TEXT_MAX_CHARS),
        }
        if obs_mode == "screenshot":
            obs["screenshot"] = spaces.Box(0, 255, (h, w, 3), np.uint8)
        self.observation_space = spaces.Dict(obs)
        self.action_space = UnicodeText(4096)

        self._boot = None
        self.episode = Episode()
        self.elements: list[UIElement] = []
        self._elements_text = ""
        self._token: object | None = None
        self._shot_token: object | None = None  # the screen the last screenshot showed
        self._reset_error = ""
        self._params_cache: tuple[Any, InfoMap] | None = None

    # --- gymnasium API --------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = options or {}
        rng = self.np_random
        template = options.get("task") or self.fixed_task
        if template is None:
            names = self.suite.templates
            template = names[int(rng.integers(len(names)))]
        if isinstance(template, str):
            from antrap_gym.tasks import get_template

            template = get_template(template)
        params = options.get("params")
        if params is None:
            params = template.generate_params(rng)
        try:
            # the phone as it is now is the episode's: one that comes back from an outage
            # as another (rebooted, factory-fresh) must not be judged (`check_identity`)
            self.device.pin_identity()
            if self._boot is None:
                self._boot = self.device.snapshot()
                if not self.device.deterministic:  # a real phone is wherever it was left
                    self.device.restore(self._boot)
            else:
                self.device.restore(self._boot)
            task = template(params)
            task.setup(self.device)
        except DeviceError as e:
            raise self._reset_failed(e, template, "") from e
        self.resume(Episode.start(task, self.max_steps_override or task.max_steps))
        self._reset_error = ""
        try:
            obs = self.observe()
        except DeviceError as e:
            raise self._reset_failed(e, template, "the first observation: ") from e
        return obs, self._info()

    def _reset_failed(self, e: DeviceError, template: Any, stage: str) -> DeviceError:
        """A device fault during reset: there is no episode to truncate, so reset raises
        an error of the same type saying so; step() refuses to run until a reset works."""
        self.episode = Episode(done=True)
        self._reset_error = f"{type(e).__name__}: {e}"
        message = f"reset failed ({getattr(template, '__name__', template)}): {stage}{e}"
        try:
            return type(e)(message)
        except TypeError:  # a subclass with another constructor
            return DeviceError(message)

    def step(self, action: Any):
        ep = self.episode
        if ep.task is None:
            if self._reset_error:
                raise RuntimeError(f"the last reset() failed ({self._reset_error}); call reset() again")
            raise RuntimeError("call reset() before step()")
        ep.step_count += 1
        ep.last_action_error = ""
        terminated = False
        info_extra: dict[str, Any] = {}
        stage = "action"
        obs: dict[str, Any] | None = None
        try:
            try:
                act = Action.parse(action)
                if ep.done:
                    raise ActionError("the episode is over; call reset()")
                terminated = self._execute(act)
                as_dict = act.to_dict()
                ep.history.append(as_dict)
                info_extra["action"] = InfoMap(as_dict)
            except ActionError as e:
                ep.last_action_error = str(e)
                info_extra["action"] = None
            truncated = not terminated and ep.step_count >= ep.budget
            stage = "observation"
            obs = self.observe()
            info = self._info()
            info.update(info_extra)
            reward = 0.0
            if terminated or truncated:
                ep.done = True
                stage = "success check"
                self.device.check_identity()  # judged on the phone it was set up on, or not at all
                from antrap_gym.tasks.base import grade

                reward = float(grade(ep.task, self.device, ep.answer, self.grading))
                info["success"] = reward
            return obs, reward, terminated, truncated, info
        except DeviceError as e:
            return self._device_fault(e, stage, info_extra, obs)

    def _device_fault(self, e: DeviceError, stage: str, info_extra: dict[str, Any],
                      obs: dict[str, Any] | None):
        """A device fault ends the episode: truncated, no reward, the reason in
        info["error"] (and where it happened in info["error_stage"]). The observation is
        the one read this step if there was one; a lost phone, or one that just failed to
        be observed, is not read again."""
        self.episode.done = True
        if obs is None:
            if stage == "action" and not isinstance(e, DeviceLostError):
                obs = self._safe_observe()
            else:
                obs = self._blank_observation()
        info = self._info()
        info.update(info_extra, error=f"{type(e).__name__}: {e}", error_stage=stage, success=0.0)
        return obs, 0.0, False, True, info

    def render(self):
        if self.render_mode == "rgb_array":
            return np.asarray(self.device.screenshot())
        if self.render_mode == "ansi":
            return render_ansi(self.device.ui_elements(), self.screen_size)
        return None

    def close(self) -> None:
        if self._owns_device and self.device is not None:
            self.device.close()
        super().close()

    # --- the episode record ----------------------------------------------------------------
    def resume(self, episode: Episode) -> None:
        """Make `episode` this env's episode, on the phone as it is now (after a reset's
        set-up, or a device restore: a captured stack, a fork of another env's phone)."""
        self.episode = episode
        self._token = None  # the phone changed under the cached observation

    # --- budget (trap wrappers extend it) -----------------------------------------------
    def set_budget_factor(self, factor: float) -> None:
        """Scale the episode's budget (AnTrap extends trapped episodes x1.15)."""
        self.episode.set_budget_factor(factor)

    def add_stolen_steps(self, n: int) -> None:
        """Give back steps a trap took from the agent (deadlocked or hijacked steps)."""
        self.episode.add_stolen_steps(n)

    # --- actions ---------------------------------------------------------------------
    def check_action(self, action: Any) -> Action:
        """`action` as this env takes it, or an `ActionError` saying why it would refuse
        it before touching the phone: malformed, a point off the screen or an element
        index out of range, an app that is not installed. The phone is not touched."""
        a = Action.parse(action)
        t = a.action_type
        if t in POINT_ACTIONS or (t in POINTED_ACTIONS and (a.x is not None or a.index is not None)):
            self.point_of(a)
        if t == "swipe" and a.x2 is not None:
            w, h = self.screen_size
            if not (0 <= a.x2 < w and 0 <= a.y2 < h):
                raise ActionError(f"end point ({a.x2:g}, {a.y2:g}) is outside the {w}x{h} screen")
        if t == "open_app" and self.resolve_app(a.app_name or "") is None:
            raise ActionError(f"no app named {(a.app_name or '')[:60]!r}")
        return a

    def point_of(self, act: Action) -> tuple[int, int]:
        """Resolve an action's target to device pixels (index or x, y), checked."""
        w, h = self.screen_size
        if act.index is not None:
            if not 0 <= act.index < len(self.elements):
                raise ActionError(f"index {act.index} is out of range: the screen has "
                                  f"{len(self.elements)} elements (0..{len(self.elements) - 1})")
            return self.elements[act.index].center
        x, y = act.x, act.y
        if not (0 <= x < w and 0 <= y < h):
            raise ActionError(f"coordinates ({x:g}, {y:g}) are outside the {w}x{h} screen")
        return int(x), int(y)

    def _execute(self, a: Action) -> bool:
        dev = self.device
        t = a.action_type
        w, h = self.screen_size
        if t in POINT_ACTIONS:
            x, y = self.point_of(a)
            if t == "click":
                dev.tap(x, y)
            elif t == "double_tap":
                dev.tap(x, y)
                dev.tap(x, y)
            else:
                dev.long_press(x, y, a.duration_ms or 1000)
        elif t == "input_text":
            at = self.point_of(a) if (a.index is not None or a.x is not None) else None
            # input_text types, then presses Enter (AndroidWorld's action); a text that ends
            # in a newline (UI-TARS's way to submit) means that Enter, not a second one
            text = a.text or ""
            res = dev.enter_text(text[:-1] if text.endswith("\n") else text, at=at,
                                 clear=bool(a.clear_text))
            if not res.ok:
                raise ActionError(f"the device could not type the text: {res.stderr.strip()[:200]}")
        elif t == "scroll":
            x0, y0, x1, y1 = self._scroll_box(a)
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            dx, dy = (x1 - x0) * 0.3, (y1 - y0) * 0.3
            vec = {"down": (0, -dy), "up": (0, dy), "right": (-dx, 0), "left": (dx, 0)}[a.direction]
            dev.swipe(int(cx - vec[0]), int(cy - vec[1]), int(cx + vec[0]), int(cy + vec[1]), 400)
        elif t == "swipe":
            if a.x2 is not None:
                x, y = self.point_of(a)
                x2, y2 = int(a.x2), int(a.y2)
                if not (0 <= x2 < w and 0 <= y2 < h):
                    raise ActionError(f"end point ({x2}, {y2}) is outside the {w}x{h} screen")
            else:
                x, y = self.point_of(a) if (a.x is not None or a.index is not None) else (w // 2, h // 2)
                d = {"up": (0, -0.3 * h), "down": (0, 0.3 * h), "left": (-0.4 * w, 0),
                     "right": (0.4 * w, 0)}[a.direction]
                x2 = int(min(w - 1, max(0, x + d[0])))
                y2 = int(min(h - 1, max(0, y + d[1])))
            dev.swipe(x, y, x2, y2, a.duration_ms or 400)
        elif t == "keyboard_enter":
            dev.key("KEYCODE_ENTER")
        elif t == "navigate_home":
            dev.key("KEYCODE_HOME")
        elif t == "navigate_back":
            dev.key("KEYCODE_BACK")
        elif t == "open_app":
            pkg = self.resolve_app(a.app_name or "")
            if pkg is None:
                known = ", ".join(sorted(self.device.app_packages()))
                raise ActionError(f"no app named {a.app_name[:60]!r}; installed: {known}")
            res = dev.launch(pkg)
            if not res.ok:
                raise ActionError(f"could not open {a.app_name!r}: {res.stderr.strip()[:200]}")
        elif t == "wait":
            dev.wait(a.seconds if a.seconds is not None else 2.0)
        elif t == "answer":
            self.episode.answer = a.text
        elif t == "status":
            if a.text and a.text.strip() and self.episode.answer is None:
                # A finishing action that carries the answer (AndroidLab finish(message=...),
                # UI-TARS finished(content=...)): the answer reaches the task's check. An
                # explicit `answer` given earlier wins over a closing remark.
                self.episode.answer = a.text
            return True
        return False

    def resolve_app(self, name: str) -> str | None:
        apps = self.device.app_packages()
        key = name.strip().lower()
        if key in apps:
            return apps[key]
        if key in apps.values():
            return key
        return None

    def _scroll_box(self, a: Action) -> tuple[int, int, int, int]:
        """The scrollable container to scroll: the one named, else the largest."""
        w, h = self.screen_size
        if a.index is not None or a.x is not None:
            px, py = self.point_of(a)
            hits = [e for e in self.elements if e.is_scrollable and e.bbox_pixels
                    and e.bbox_pixels.contains(px, py)]
            if hits:
                b = min(hits, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height).bbox_pixels
                return b.x_min, b.y_min, b.x_max, b.y_max
        horizontal = a.direction in ("left", "right")
        cands = [e.bbox_pixels for e in self.elements if e.is_scrollable and e.bbox_pixels]
        if horizontal:
            cands = [b for b in cands if b.width > b.height] or cands
        if cands:
            b = max(cands, key=lambda b: b.width * b.height)
            return b.x_min, b.y_min, b.x_max, b.y_max
        return 0, int(h * 0.2), w, int(h * 0.8)

    # --- observations ---------------------------------------------------------------------
    def observe(self) -> dict[str, Any]:
        """The observation of the phone as it is now."""
        token = self.device.observation_token()
        if token is None or token != self._token:
            self.elements = self.device.ui_elements()
            self._elements_text = serialize_elements(self.elements)
            self._token = token
        ep = self.episode
        obs: dict[str, Any] = {
            "ui_elements": self._elements_text,
            "goal": ep.task.goal if ep.task else "",
            "last_action_error": ep.last_action_error,
        }
        if self.obs_mode == "screenshot":
            # no copy: a device's screenshot is a new array or, on the simulated phone, a
            # read-only frame that is never painted over while anyone holds it; the same
            # frame asked for twice (nothing changed) is copied, so that no two
            # observations share memory (Gymnasium's contract)
            shot = self.device.screenshot()
            if token is not None and token == self._shot_token:
                shot = np.array(shot)
            self._shot_token = token
            obs["screenshot"] = shot
        return obs

    def _safe_observe(self) -> dict[str, Any]:
        try:
            return self.observe()
        except DeviceError:
            return self._blank_observation()

    def _blank_observation(self) -> dict[str, Any]:
        """What the agent sees of a phone that cannot be read: no elements, a black screen."""
        w, h = self.screen_size
        ep = self.episode
        obs: dict[str, Any] = {"ui_elements": "", "goal": ep.task.goal if ep.task else "",
                               "last_action_error": ep.last_action_error}
        if self.obs_mode == "screenshot":
            obs["screenshot"] = np.zeros((h, w, 3), np.uint8)
        return obs

    def _params_info(self) -> InfoMap:
        """The episode's task parameters as an InfoMap, made once per episode (they do
        not change within it)."""
        t = self.episode.task
        if self._params_cache is None or self._params_cache[0] is not t:
            self._params_cache = (t, InfoMap(t.params if t else None))
        return self._params_cache[1]

    def _info(self) -> dict[str, Any]:
        """Type-stable across templates, so vector envs can merge it: scalars, strings,
        lists, and InfoMaps (kept whole per env) where the keys vary."""
        ep = self.episode
        t = ep.task
        return {
            "task": t.task_id() if t else None,
            "goal": t.goal if t else None,
            "params": self._params_info(),
            "step": ep.step_count,
            "budget": ep.budget,
            "answer": ep.answer,
            "traps": ep.trap_events,
            "last_action_error": ep.last_action_error,
            "grading": self.grading,
        }


def _episode_attribute(name: str) -> property:
    """`env.<name>` reads and writes `env.episode.<name>`."""

    def get(self: AndroidEnv) -> Any:
        return getattr(self.episode, name)

    def put(self: AndroidEnv, value: Any) -> None:
        setattr(self.episode, name, value)

    return property(get, put, doc=f"The episode record's `{name}` (`episode.{name}`).")


for _name in EPISODE_FIELDS:
    setattr(AndroidEnv, _name, _episode_attribute(_name))
