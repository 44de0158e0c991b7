"""The oracle: a privileged, closed-loop agent that grounds a task's semantic
solution on whatever the screen shows now.

It reads the observation it is given (the serialized elements), plus three
privileged things: the task's solution steps, the task's success check, and
the focused package/activity (`dumpsys window`). It dismisses pop-ups that are
not part of the plan, re-opens the app after being sent away, walks back to
the right screen after being pushed back, and scrolls to find a target. It is
the "human" row of the benchmark and the proof that trapped tasks stay solvable.
"""

from __future__ import annotations

from typing import Any

from antrap_gym.agents.base import Agent
from antrap_gym.device.elements import BoundingBox, UIElement, parse_element_lines
from tasks.steps import (
    Answer,
    LongPress,
    OpenApp,
    PressKey,
    SetChecked,
    SetSlider,
    Step,
    Tap,
    TypeText,
)

LAUNCHER = "com.google.android.apps.nexuslauncher"
#: labels that close a pop-up without accepting it, most preferred first
DISMISS_LABELS = ("close", "close ad", "dismiss", "cancel", "deny", "don't allow", "not now",
                  "no thanks", "no, thanks", "skip", "later", "got it", "ok", "x", "×")
MAX_SCROLLS = 12


class OracleAgent(Agent):
    name = "oracle"

    def __init__(self) -> None:
        self.plan: list[Step] = []
        self.ptr = 0
        self.answered = False
        self.restarts = 0
        self._scroll: tuple | None = None  # screen, step, direction, count, stuck, progressed
        self._last_els: list[UIElement] = []
        self._last_text = ""

    def reset(self, env, obs, info, seed=None) -> None:
        self.env = env.unwrapped
        self.task = self.env.task
        self.plan = self.task.solution()
        self.ptr = 0
        self.answered = False
        self.restarts = 0
        self._scroll = None
        self._last_text = ""
        self._last_els = []

    # --- the policy --------------------------------------------------------------------
    def act(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        dev = self.env.device
        self._restarted = False  # at most one re-grounding of the plan per action
        self._rewound = False
        text = obs.get("ui_elements", "")
        els = parse_element_lines(text)
        pkg, activity = dev.foreground()
        screen = self._screen_id(activity, els)
        apps = set(self.task.apps)

        if pkg not in apps and pkg != LAUNCHER:
            act = self._dismiss(els)
            self._last_text = text
            return act
        if not self.task.answer_task and self.task.is_successful(dev) >= 1.0:
            return {"action_type": "status", "goal_status": "complete"}
        action = self._next(els, pkg, activity, screen, text)
        self._last_text = text
        self._last_els = els
        return action

    def _next(self, els, pkg, activity, screen, text) -> dict[str, Any]:
        dev = self.env.device
        n = len(self.plan)
        k = self.ptr
        while k < n and self._satisfied(self.plan[k], els, dev):
            k += 1
        self.ptr = k
        if k >= n:
            if (not self.task.answer_task and not self._restarted
                    and self.task.is_successful(dev) < 1.0):
                # every step was taken yet the goal does not hold (an action was lost
                # or went astray): ground the whole plan again from this screen
                self._restarted = True
                self.restarts += 1
                self.ptr = 0
                return self._next(els, pkg, activity, screen, text)
            if self.task.answer_task and not self.answered:
                return {"action_type": "wait"}
            return {"action_type": "status", "goal_status": "complete"}
        step = self.plan[k]
        if isinstance(step, OpenApp):
            if pkg == step.package:
                self.ptr = k + 1
                return self._next(els, pkg, activity, screen, text)
            return {"action_type": "open_app", "app_name": step.app}
        if isinstance(step, Answer):
            self.ptr = k + 1
            self.answered = True
            return {"action_type": "answer", "text": step.text}
        if isinstance(step, PressKey):
            self.ptr = k + 1
            return _key_action(step.key)
        app_pkg = self._app_of(k)
        if app_pkg is not None and pkg != app_pkg:
            return {"action_type": "open_app", "app_name": self._app_label_of(k)}
        if self._on(step, activity, screen, els):
            el = self._target(step, els)
            if el is not None:
                self._scroll = None
                if isinstance(step, (Tap, LongPress, SetSlider)):
                    self.ptr = k + 1
                return self._act_on(step, el)
            # the target lives in a popup that an earlier step opens, or further down a list
            j = self._earlier_visible(k, activity, screen, els)
            if j is not None:
                self.ptr = j + 1
                return self._act_on(self.plan[j], self._target(self.plan[j], els))
            scroll = self._scroll_for(k, screen, els, text)
            if scroll is not None:
                return scroll
            return {"action_type": "navigate_back"}
        # not on the step's screen: an action did more than expected, or less
        for j in range(k + 1, n):
            s = self.plan[j]
            if s.screen is not None and self._on(s, activity, screen, els) and self._target(s, els):
                self.ptr = j
                return self._next(els, pkg, activity, screen, text)
        earlier_here = None
        for j in range(k - 1, -1, -1):
            s = self.plan[j]
            if isinstance(s, (OpenApp, Answer, PressKey)) or s.screen is None:
                continue
            if self._on(s, activity, screen, els):
                el = self._target(s, els)
                if el is not None:
                    self.ptr = j + 1 if isinstance(s, (Tap, LongPress, SetSlider)) else j
                    return self._act_on(s, el)
                if earlier_here is None:
                    earlier_here = j
        if earlier_here is not None and not self._rewound:
            # pushed back to an earlier screen whose target is off-screen: redo from there
            self._rewound = True
            self.ptr = earlier_here
            return self._next(els, pkg, activity, screen, text)
        return {"action_type": "navigate_back"}

    # --- grounding -------------------------------------------------------------------------
    @staticmethod
    def _screen_id(activity: str, els: list[UIElement]) -> str:
        for el in els:
            if (el.resource_name or "").endswith("alertTitle") and el.text:
                return f"{activity}|{el.text}"
        if any((el.class_name or "").endswith("ListView") for el in els):
            return f"{activity}|menu"
        return activity

    @staticmethod
    def _on(step: Step, activity: str, screen: str, els: list[UIElement]) -> bool:
        """Whether the phone shows the screen a step belongs to."""
        if step.requires is not None and step.requires.find(els) is None:
            return False
        if step.screen is None:
            return True
        want_act, _, want_popup = step.screen.partition("|")
        act, _, popup = screen.partition("|")
        if want_act and not (act.endswith(want_act) or act == want_act.lstrip(".")):
            return False
        return want_popup == popup if (want_popup or popup) else True

    @staticmethod
    def _target(step: Step, els: list[UIElement]) -> UIElement | None:
        target = getattr(step, "target", None)
        return target.find(els) if target is not None else None

    def _satisfied(self, step: Step, els: list[UIElement], dev) -> bool:
        if step.done is not None:
            return bool(step.done(dev))
        if isinstance(step, SetChecked):
            el = step.target.find(els)
            return el is not None and el.is_checked == step.checked
        if isinstance(step, TypeText):
            el = step.target.find(els)
            return el is not None and (el.text or "").rstrip() == step.text.rstrip()
        return False

    def _act_on(self, step: Step, el: UIElement) -> dict[str, Any]:
        x, y = el.center
        if isinstance(step, LongPress):
            return {"action_type": "long_press", "x": x, "y": y}
        if isinstance(step, TypeText):
            return {"action_type": "input_text", "text": step.text, "x": x, "y": y,
                    "clear_text": True}
        if isinstance(step, SetSlider):
            b = el.bbox_pixels
            sx = b.x_min + round(step.fraction * (b.width - 1))
            return {"action_type": "click", "x": sx, "y": y}
        if isinstance(step, SetChecked) and el.is_checked == step.checked:
            return {"action_type": "wait", "seconds": 1}
        return {"action_type": "click", "x": x, "y": y}

    def _earlier_visible(self, k: int, activity: str, screen: str,
                         els: list[UIElement]) -> int | None:
        """An earlier tap on this same screen whose target is visible (it opens the
        popup that holds step k's target)."""
        want_popup = (self.plan[k].screen or "").partition("|")[2]
        if not want_popup:
            return None
        for j in range(k - 1, -1, -1):
            s = self.plan[j]
            if isinstance(s, Tap) and s.screen and self._on(s, activity, screen, els) \
                    and self._target(s, els) is not None:
                return j
        return None

    def _scroll_for(self, k: int, screen: str, els: list[UIElement], text: str) -> dict | None:
        """Scroll the screen's list towards step k's target: down until the list
        stops moving, then up, then sideways for chip rows. A scroll that did not
        move, or moved the wrong way (it was lost or reversed), is retried before
        the direction is given up."""
        vertical = [e for e in els if e.is_scrollable and e.bbox_pixels
                    and e.bbox_pixels.height >= e.bbox_pixels.width * 0.5]
        horizontal = [e for e in els if e.is_scrollable and e.bbox_pixels
                      and e.bbox_pixels.height < e.bbox_pixels.width * 0.5]
        # down and up twice: a frozen or lost scroll can make a list look finished
        order = (["down", "up", "down", "up"] if vertical else []) + (
            ["right", "left"] if horizontal else [])
        if not order:
            return None
        st = self._scroll
        if st is None or st[0] != screen or st[1] != k:
            direction, count, stuck, progressed, phase = order[0], 0, 0, False, 0
        else:
            _, _, direction, count, stuck, progressed, phase = st
            pool = vertical if direction in ("down", "up") else horizontal
            box = max(pool, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height).bbox_pixels \
                if pool else None
            moved = _content_shift(self._last_els, els, direction, box)
            if moved > 0:
                stuck, progressed = 0, True
            elif moved == 0:
                stuck += 1
            # moved < 0: the scroll went the other way; just try again
            if (stuck >= 2 and progressed) or stuck >= 4 or count >= MAX_SCROLLS:
                phase += 1
                if phase >= len(order):
                    self._scroll = None
                    return None
                direction, count, stuck, progressed = order[phase], 0, 0, False
        self._scroll = (screen, k, direction, count + 1, stuck, progressed, phase)
        pool = vertical if direction in ("down", "up") else horizontal
        box = max(pool, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height)
        cx, cy = box.center
        return {"action_type": "scroll", "direction": direction, "x": cx, "y": cy}

    def _app_of(self, k: int) -> str | None:
        for j in range(k, -1, -1):
            if isinstance(self.plan[j], OpenApp):
                return self.plan[j].package
        return None

    def _app_label_of(self, k: int) -> str:
        for j in range(k, -1, -1):
            if isinstance(self.plan[j], OpenApp):
                return self.plan[j].app
        return ""

    def _dismiss(self, els: list[UIElement]) -> dict[str, Any]:
        """Close a window that is not part of the task (a pop-up, an ad)."""
        by_label: dict[str, UIElement] = {}
        for el in els:
            if not el.is_clickable:
                continue
            for label in (el.text, el.content_description):
                if label:
                    by_label.setdefault(label.strip().casefold(), el)
        for want in DISMISS_LABELS:
            el = by_label.get(want)
            if el is not None:
                x, y = el.center
                return {"action_type": "click", "x": x, "y": y}
        return {"action_type": "navigate_back"}


def _content_shift(before: list[UIElement], after: list[UIElement], direction: str,
                   box: BoundingBox | None = None) -> int:
    """+1 if the content moved the way a scroll in `direction` moves it, -1 if the
    other way, 0 if it did not move (judged by labels inside the scrolled box
    that are present in both)."""
    axis = 1 if direction in ("down", "up") else 0
    sign = 1 if direction in ("down", "right") else -1

    def inside(e: UIElement) -> bool:
        b = e.bbox_pixels
        return bool(e.label) and b is not None and (box is None or (
            box.x_min <= b.x_min and b.x_max <= box.x_max and box.y_min <= b.y_min
            and b.y_max <= box.y_max))

    pos = {(e.label, e.class_name): e.center[axis] for e in before if inside(e)}
    deltas = [pos[(e.label, e.class_name)] - e.center[axis] for e in after
              if inside(e) and (e.label, e.class_name) in pos]
    if not deltas:
        return 1  # nothing in common: the content moved a whole page
    shift = sorted(deltas)[len(deltas) // 2] * sign
    return 1 if shift > 0 else -1 if shift < 0 else 0


def _key_action(key: str) -> dict[str, Any]:
    return {"back": {"action_type": "navigate_back"}, "home": {"action_type": "navigate_home"},
            "enter": {"action_type": "keyboard_enter"}}[key]
