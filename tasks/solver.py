"""The solver: grounds a task's semantic solution steps on whatever the screen shows
now and decides the next action.

It reads the screen it is given (the serialized elements), plus what only a
privileged player knows: the task's solution steps, the task's success check, the
focused package/activity (`dumpsys window`), and the episode's executed actions and
recorded answer. It dismisses pop-ups that are not part of the plan, re-opens the
app after being sent away, walks back to the right screen after being pushed
back, and scrolls to find a target. The oracle agent is a thin adapter over it;
the traps' solvability guard and the oracle's distance run it on a forked phone.

It speaks only to the Device protocol and the task; actions are AndroidWorld's
canonical action dicts. `act` never raises (it is also the progress reward of
training, run from whatever state a policy left): a state its plan has no step for
gets what a person would do there (clear a search or filter that hides the list,
scroll the other way, Back, Home, reopen the app), the same action repeated
without effect is given up for Back or Home, and a fault in its own grounding (or
an action the caller's `check` rejects) is recorded in `faults` and answered with
Back, then Home, then a wait.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from antrap_gym.device.elements import BoundingBox, UIElement, parse_element_lines
from antrap_gym.tasks.browser_pages.shown import elements_painted
from antrap_gym.tasks.labels import is_destructive
from antrap_gym.tasks.steps import (
    Answer,
    ChooseOption,
    DrawStroke,
    LongPress,
    OpenApp,
    PressKey,
    SetChecked,
    SetSlider,
    Step,
    Tap,
    TapColour,
    TypeText,
)

if TYPE_CHECKING:
    from antrap_gym.device import Device
    from antrap_gym.tasks.base import Task

LAUNCHER = "com.google.android.apps.nexuslauncher"
#: labels that close a pop-up without accepting it, most preferred first
DISMISS_LABELS = ("close", "close ad", "dismiss", "cancel", "deny", "don't allow", "not now",
                  "no thanks", "no, thanks", "skip", "later", "got it", "ok", "x", "×")
MAX_SCROLLS = 12
#: the activity of Android's runtime permission request, and its granting buttons
GRANT_ACTIVITY = "permission.ui.GrantPermissionsActivity"
GRANT_LABELS = ("while using the app", "allow", "only this time")
#: buttons that leave a form without saving, when leaving it asks
DISCARD_LABELS = ("discard", "discard changes", "don't save", "leave")
#: the same action from the same screen this many times more, with no effect: escalate
STALL_REPEATS = 4
#: steps done once acted on (the plan moves on; their effect is not read back)
ONE_SHOT = (Tap, LongPress, SetSlider, TapColour, DrawStroke)
BACK: dict[str, Any] = {"action_type": "navigate_back"}
HOME: dict[str, Any] = {"action_type": "navigate_home"}
#: what a fault inside the solver is answered with, one after another
FALLBACKS: tuple[dict[str, Any], ...] = (BACK, HOME, {"action_type": "wait", "seconds": 1})

#: raises (any exception) when the caller's environment would refuse an action
Check = Callable[[dict[str, Any]], object]


class Solver:
    """One episode's plan and the state of grounding it (where in the plan, the
    scroll under way, what was given up on). Build one per episode."""

    def __init__(self, task: Task | None, screen_size: tuple[int, int],
                 plan: list[Step] | None = None) -> None:
        self.task = task
        #: (width, height) of the screen in pixels: what can be touched
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        #: the task's solution steps (`plan`: ones already bound from this very task)
        self.plan: list[Step] = plan if plan is not None else (
            task.solution() if task is not None else [])
        self.ptr = 0
        self.answered = False
        self.restarts = 0
        #: screen, step, directions, direction, count, stuck, progressed, phase, action
        self._scroll: tuple | None = None
        self._last_els: list[UIElement] = []
        self._last_text = ""
        self._last_screen = ""
        #: (step, action, screen text) of the last tap that moved the plan on: if something
        #: else reached the phone in its place (a frozen screen swallowed it) and the screen
        #: did not change, its step is still to do
        self._tapped: tuple[int, dict[str, Any], str] | None = None
        #: (screen, step, filters) whose list was searched end to end without the target
        self._exhausted: set[tuple] = set()
        #: (observation, action, repeats) of the last planned action
        self._stall: tuple[str, dict[str, Any] | None, int] = ("", None, 0)
        self._escalations = 0
        self._gave_up: tuple[str, dict[str, Any]] | None = None
        #: the screen the last action backed out of, and how often backing out of a
        #: screen led to a dialog asking to discard changes
        self._leaving: tuple[str, bool] | None = None  # (screen, it held the plan's typing)
        self._came_from: tuple[str, bool] | None = None
        self._discard_asked: dict[tuple[str, str], int] = {}
        #: faults inside `act` (bugs): each was answered with a fallback action
        self.faults: list[str] = []
        self._fault_streak = 0
        # the call's context (see `decide`)
        self._device: Device | None = None
        self._history: Sequence[dict[str, Any]] = ()
        self._answer: str | None = None

    # --- the policy --------------------------------------------------------------------
    def act(self, elements: str, device: Device, *, history: Sequence[dict[str, Any]] = (),
            answer: str | None = None, check: Check | None = None) -> dict[str, Any]:
        """The next action; never raises. A fault in the solver's own reasoning, or an
        action `check` rejects (the caller's env would refuse it), is recorded in
        `faults` and replaced by a harmless recovery (tests assert there are none)."""
        try:
            action = self.decide(elements, device, history=history, answer=answer)
            if check is not None:
                check(action)
        except Exception as e:  # the contract: an action, whatever happens
            return self.fallback(e)
        self._fault_streak = 0
        return action

    def fallback(self, fault: Exception) -> dict[str, Any]:
        """Record `fault` and give the next harmless action: Back, Home, then waits."""
        self.faults.append(f"{type(fault).__name__}: {fault}")
        action = FALLBACKS[min(self._fault_streak, len(FALLBACKS) - 1)]
        self._fault_streak += 1
        return dict(action)

    def decide(self, elements: str, device: Device, *, history: Sequence[dict[str, Any]] = (),
               answer: str | None = None) -> dict[str, Any]:
        """The next action for the screen `elements` (serialized, as observed) of
        `device`; `history` is the episode's executed actions (canonical dicts, the
        last one last: a try a trap swallowed or replaced is not a try) and `answer`
        the answer it recorded. May raise on a fault; `act` does not."""
        self._device, self._history, self._answer = device, history, answer
        dev = device
        self._restarted = False  # at most one re-grounding of the plan per action
        self._rewound = False
        text = elements or ""
        els = parse_element_lines(text)
        pkg, activity = dev.foreground()
        screen = self._screen_id(activity, els)
        apps = set(self.task.apps)

        if pkg not in apps and pkg != LAUNCHER:
            act = self._elsewhere(pkg, els, activity)
            self._last_text = text
            return act
        if not self.task.answer_task and self.task.is_successful(dev) >= 1.0:
            return {"action_type": "status", "goal_status": "complete"}
        if screen != self._last_screen:
            # a list left and come back to is worth a new search, from its first scroll
            # (an earlier visit's scroll count would end this one before its end)
            self._exhausted.clear()
            self._scroll = None
            self._last_screen = screen
        self._came_from, self._leaving = self._leaving, None
        tapped, self._tapped = self._tapped, None
        if (tapped is not None and self.ptr == tapped[0] + 1 and text == tapped[2]
                and not self._reached_phone(tapped[1])):
            # (else the plan runs on past a Save that never happened, into the next
            # recipe's fields of the same form)
            self.ptr = tapped[0]
        action = self._unstall(text, screen, self._next(els, pkg, activity, screen, text))
        self._last_text = text
        self._last_els = els
        return action

    def _unstall(self, text: str, screen: str, action: dict[str, Any]) -> dict[str, Any]:
        """The same action from the same screen over and over changes nothing (a
        step whose effect the solver cannot see, a plan that no longer fits): back
        out (Back, Back, Home, ...) until the screen changes, instead of spending the
        budget on it. A try a trap swallowed (the env executed something else) does
        not count; an action already given up on this screen gets one retry only."""
        last_text, last_action, repeats = self._stall
        if text != last_text or action != last_action:
            repeats = 0
        elif self._reached_phone(last_action):  # a swallowed action (a frozen phone) is no try
            repeats += 1
        self._stall = (text, action, repeats)
        limit = 1 if self._gave_up == (screen, action) else STALL_REPEATS
        if repeats < limit or action["action_type"] in ("status", "answer"):
            return action
        # kept: while the screen stays as it is, the next try escalates again
        self._gave_up = (screen, action)
        self._escalations += 1
        self._scroll = None
        return dict(HOME if self._escalations % 3 == 0 else BACK)

    def _reached_phone(self, action: dict[str, Any] | None) -> bool:
        """Whether the env executed `action` last (privileged: its history), and not
        something a trap put in its place. The solver's actions are canonical dicts,
        as the history records them."""
        history = self._history
        return bool(history) and action is not None and history[-1] == action

    def _back_out(self, screen: str, els: list[UIElement]) -> dict[str, Any]:
        """Leave a screen the plan has no step for. Back, except where leaving a form
        that holds none of the plan's typing asks to discard changes: Back there
        cancels and the same form comes back, so the second time, discard."""
        came_from = self._came_from
        if came_from is not None and not came_from[1] and "|" in screen:
            button = next((e for e in els if e.is_clickable and self._touchable(e)
                           and (e.label or "").strip().casefold() in DISCARD_LABELS), None)
            if button is not None:
                key = (came_from[0], screen)
                self._discard_asked[key] = self._discard_asked.get(key, 0) + 1
                if self._discard_asked[key] >= 2:
                    x, y = button.center
                    return {"action_type": "click", "x": x, "y": y}
        typed = [s for s in self.plan if isinstance(s, TypeText) and s.text.strip()]
        self._leaving = (screen, any(self._satisfied(s, els, self._device) for s in typed))
        return dict(BACK)

    def _touchable(self, el: UIElement) -> bool:
        """A box of some area whose centre is on the screen."""
        w, h = self.screen_size
        return _visible(el) and 0 <= el.center[0] < w and 0 <= el.center[1] < h

    def _elsewhere(self, pkg: str, els: list[UIElement], activity: str = "") -> dict[str, Any]:
        """Another window is in front: an app the task does not use is left for the
        task's (as a person switches apps); a runtime permission request of the task's
        app (the permission controller's own activity, not a pop-up drawn over the
        screen) is granted, as the app needs it; a system window the plan names (the
        "Open with" chooser) is used; anything else is a pop-up to close."""
        if activity.endswith(GRANT_ACTIVITY):
            grant = self._labelled(els, GRANT_LABELS)
            if grant is not None:
                x, y = grant.center
                return {"action_type": "click", "x": x, "y": y}
        if pkg in self._device.app_packages().values():
            label = self._app_label_of(min(self.ptr, len(self.plan) - 1)) or next(
                (s.app for s in self.plan if isinstance(s, OpenApp)), "")
            if label:
                return {"action_type": "open_app", "app_name": label}
        planned = self._planned_here(activity, els)
        if planned is not None:
            return planned
        return self._dismiss(els)

    def _planned_here(self, activity: str, els: list[UIElement]) -> dict[str, Any] | None:
        """A system window the plan names (Android's "Open with" chooser): the first step
        from the current one on that is not done, is on it and shows its target."""
        for j in range(self.ptr, len(self.plan)):
            s = self.plan[j]
            if s.screen is None or not s.screen.partition("|")[0].strip(".") or (
                    s.done is not None and self._satisfied(s, els, self._device)):
                continue
            if self._on(s, activity, self._screen_id(activity, els), els):
                el = self._target(s, els)
                if el is not None:
                    self.ptr = j + 1 if isinstance(s, ONE_SHOT) else j
                    return self._act_on(s, el)
            if s.done is None:
                return None
        return None

    def _next(self, els, pkg, activity, screen, text) -> dict[str, Any]:
        dev = self._device
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
            if self.task.answer_task and not self._answer_holds(dev):
                # the answer was never given (the solver's answer was overridden, or a
                # wrong one came before): give it again
                j = max((i for i, s in enumerate(self.plan) if isinstance(s, Answer)), default=None)
                if j is None:
                    return {"action_type": "wait", "seconds": 1}
                self.ptr = j
                return self._next(els, pkg, activity, screen, text)
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
        app_pkg = self._app_of(k, pkg)
        if app_pkg is not None and pkg != app_pkg:
            return {"action_type": "open_app", "app_name": self._app_label_of(k, pkg)}
        if isinstance(step, ChooseOption) and step.target.find(els) is None:
            option = self._option(step, els)
            if option is not None:  # its list is open: pick the option
                self.ptr = k + 1
                x, y = option.center
                return {"action_type": "click", "x": x, "y": y}
        if self._on(step, activity, screen, els):
            el = self._target(step, els)
            if el is not None:
                self._scroll = None
                if isinstance(step, Tap):
                    unfinished = self._unfinished_field(k, els)
                    if unfinished is not None:  # read the form over before submitting it
                        return self._act_on(*unfinished)
                action = self._act_on(step, el)
                if isinstance(step, ONE_SHOT):
                    self.ptr = k + 1
                    self._tapped = (k, action, text)
                return action
            # the target lives in a popup that an earlier step opens, or further down a list
            j = self._earlier_visible(k, activity, screen, els)
            if j is not None:
                self.ptr = j + 1
                return self._act_on(self.plan[j], self._target(self.plan[j], els))
            unfilter = self._unfilter(els)
            if unfilter is not None:
                return unfilter
            scroll = self._scroll_for(k, screen, els, text)
            if scroll is not None:
                return scroll
            if step.stay and self._target(step, self._device.ui_elements()) is not None:
                return {"action_type": "wait", "seconds": 1}
            return self._back_out(screen, els)
        # not on the step's screen: an action did more than expected, or less
        for j in range(k + 1, n):
            s = self.plan[j]
            if s.done is not None and self._satisfied(s, els, self._device):
                continue  # a later part done already (a composite's other half)
            el = self._target(s, els) if s.screen is not None else None
            if el is not None and self._on(s, activity, screen, els) and not (
                    s.requires is None and is_destructive(el.label)):
                # (a destructive step is not jumped to unless the screen says whose it
                # is: a "Delete this contact?" the solver did not open may be anyone's)
                self.ptr = j
                return self._next(els, pkg, activity, screen, text)
        earlier_here = None
        for j in range(k - 1, -1, -1):
            s = self.plan[j]
            if isinstance(s, (OpenApp, Answer, PressKey)) or s.screen is None:
                continue
            if self._satisfied(s, els, self._device):
                continue  # done already: redoing it would wait (a switch as wanted) or undo
            if self._on(s, activity, screen, els):
                el = self._target(s, els)
                if el is not None:
                    self.ptr = j + 1 if isinstance(s, ONE_SHOT) else j
                    return self._act_on(s, el)
                if earlier_here is None:
                    earlier_here = j
        if earlier_here is not None and not self._rewound:
            # pushed back to an earlier screen whose target is off-screen: redo from there
            self._rewound = True
            self.ptr = earlier_here
            return self._next(els, pkg, activity, screen, text)
        return self._back_out(screen, els)

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
        if step.requires is not None:
            needs = step.requires if isinstance(step.requires, tuple) else (step.requires,)
            if any(t.find(els) is None for t in needs):
                return False
        if step.screen is None:
            return True
        want_act, _, want_popup = step.screen.partition("|")
        act, _, popup = screen.partition("|")
        if want_act and not (act.endswith(want_act) or act == want_act.lstrip(".")):
            return False
        return want_popup == popup if (want_popup or popup) else True

    def _target(self, step: Step, els: list[UIElement]) -> UIElement | None:
        """The step's target among the elements that can be touched (a box of some
        area, its centre on the screen)."""
        touchable = [e for e in els if self._touchable(e)]
        if isinstance(step, TapColour):
            painted = elements_painted(self._device, touchable, step.colour)
            return painted[step.nth] if len(painted) > step.nth else None
        target = getattr(step, "target", None)
        if target is None:
            return None
        return target.find(touchable)

    def _option(self, step: ChooseOption, els: list[UIElement]) -> UIElement | None:
        """The option `step` picks, in its drop-down's open list."""
        return next((e for e in els if self._touchable(e) and (e.text or "").strip() == step.option), None)

    def _answer_holds(self, dev) -> bool:
        """Whether the episode's recorded answer (privileged: the env's) is right."""
        answer = self._answer
        return answer is not None and self.task.is_successful(dev, answer) >= 1.0

    def _unfilter(self, els: list[UIElement]) -> dict[str, Any] | None:
        """A search query or a filter chip the plan did not set hides the row the
        step looks for: clear the query, or tap the "All" chip."""
        typed = {s.text.rstrip() for s in self.plan if isinstance(s, TypeText)}
        for el in els:
            if (el.is_editable and el.text and self._touchable(el) and _is_search(el)
                    and el.text.rstrip() not in typed):
                x, y = el.center
                return {"action_type": "input_text", "text": "", "x": x, "y": y,
                        "clear_text": True}
        chips = [e for e in els if (e.class_name or "").endswith("Chip") and self._touchable(e)]
        on = [e for e in chips if e.is_checked]
        planned = [s.target for s in self.plan if isinstance(s, Tap)]
        if not on or any(_is_all(e) for e in on) or any(t.matches(e) for e in on for t in planned):
            return None
        every = next((e for e in chips if not e.is_checked and _is_all(e)), None)
        if every is None:
            return None
        x, y = every.center
        return {"action_type": "click", "x": x, "y": y}

    def _satisfied(self, step: Step, els: list[UIElement], dev) -> bool:
        if step.done is not None:
            return bool(step.done(dev))
        if isinstance(step, SetChecked):
            el = step.target.find(els)
            return el is not None and el.is_checked == step.checked
        if isinstance(step, ChooseOption):
            el = step.target.find(els)
            return el is not None and (el.text or "").strip() == step.option
        if isinstance(step, TypeText):
            el = step.target.find(els)
            return el is not None and (el.text or "").rstrip() == step.text.rstrip()
        return False

    def _unfinished_field(self, k: int, els: list[UIElement]) -> tuple[TypeText, UIElement] | None:
        """A field of the form tap k submits (the typing steps right before it, on its
        screen) that is in view but does not hold its text: a keystroke that went to
        another field (a stale frame, a missed tap) is put right before the form is
        saved, as a person reads a form over before tapping Save."""
        screen = self.plan[k].screen
        j = k - 1
        while j >= 0 and isinstance(self.plan[j], TypeText):
            s = self.plan[j]
            if s.screen == screen and s.done is None and not self._satisfied(s, els, self._device):
                el = self._target(s, els)
                if el is not None:
                    return s, el
            j -= 1
        return None

    def _act_on(self, step: Step, el: UIElement) -> dict[str, Any]:
        x, y = el.center
        if isinstance(step, LongPress):
            return {"action_type": "long_press", "x": x, "y": y}
        if isinstance(step, TypeText):
            return {"action_type": "input_text", "text": step.text, "x": x, "y": y,
                    "clear_text": True}
        if isinstance(step, SetSlider) and el.bbox_pixels is not None:
            b = el.bbox_pixels
            sx = b.x_min + round(step.fraction * (b.width - 1))
            return {"action_type": "click", "x": sx, "y": y}
        if isinstance(step, SetChecked) and el.is_checked == step.checked:
            return {"action_type": "wait", "seconds": 1}
        if isinstance(step, DrawStroke) and el.bbox_pixels is not None and len(step.points) >= 2:
            # the action space's stroke is a straight drag: from the first point to the last
            b = el.bbox_pixels
            (fx0, fy0), (fx1, fy1) = step.points[0], step.points[-1]

            def at(fx: float, fy: float) -> tuple[int, int]:
                return b.x_min + round(fx * (b.width - 1)), b.y_min + round(fy * (b.height - 1))

            (x0, y0), (x1, y1) = at(fx0, fy0), at(fx1, fy1)
            return {"action_type": "swipe", "x": x0, "y": y0, "x2": x1, "y2": y1}
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
        move, or moved the wrong way, is retried once before the direction is given
        up; one that never reached the phone (a trap swallowed or changed it) is not
        a try. The plan of directions is the screen's own: when the scrollables
        change (a filter emptied the list), the search starts over."""
        vertical = [e for e in els if e.is_scrollable and _visible(e)
                    and e.bbox_pixels.height >= e.bbox_pixels.width * 0.5]
        horizontal = [e for e in els if e.is_scrollable and _visible(e)
                      and e.bbox_pixels.height < e.bbox_pixels.width * 0.5]
        # down and up twice: a frozen or lost scroll can make a list look finished
        order = (("down", "up", "down", "up") if vertical else ()) + (
            ("right", "left") if horizontal else ())
        if not order:
            self._scroll = None
            return None
        searched = (screen, k, _filters(els))
        if searched in self._exhausted:  # searched end to end already: back out instead
            return None
        st = self._scroll
        if st is None or st[:3] != (screen, k, order):
            direction, count, stuck, progressed, phase = order[0], 0, 0, False, 0
        else:
            direction, count, stuck, progressed, phase = st[3:8]
            box = _largest(vertical if direction in ("down", "up") else horizontal).bbox_pixels
            moved = _content_shift(self._last_els, els, direction, box)
            if not self._reached_phone(st[8]) or moved < 0:
                # lost, frozen or reversed on the way, or the list went the other way: it
                # says nothing about the list, and is not one of the direction's tries
                count -= 1
            elif moved > 0:
                stuck, progressed = 0, True
            else:
                stuck += 1
            if stuck >= 2 or count >= MAX_SCROLLS:
                phase += 1
                if phase >= len(order):
                    self._scroll = None
                    self._exhausted.add(searched)
                    return None
                direction, count, stuck, progressed = order[phase], 0, 0, False
        cx, cy = _largest(vertical if direction in ("down", "up") else horizontal).center
        w, h = self.screen_size
        action = {"action_type": "scroll", "direction": direction,
                  "x": min(max(cx, 0), w - 1), "y": min(max(cy, 0), h - 1)}
        self._scroll = (screen, k, order, direction, count + 1, stuck, progressed, phase, action)
        return action

    def _app_step(self, k: int, pkg: str | None = None) -> OpenApp | None:
        """The OpenApp that step k's app comes from: the last one up to k, unless the
        phone is in another app and that OpenApp's `done` holds (the app no longer holds
        what the plan left there, e.g. a page whose tab was closed): then an earlier one
        whose `done` does not hold, the way back in."""
        found = [s for s in self.plan[k::-1] if isinstance(s, OpenApp)] if k >= 0 else []
        if not found:
            return None
        if pkg is not None and pkg != found[0].package and found[0].done is not None and len(found) > 1:
            els = self._last_els
            if self._satisfied(found[0], els, self._device):
                return next((s for s in found[1:] if not self._satisfied(s, els, self._device)), found[0])
        return found[0]

    def _app_of(self, k: int, pkg: str | None = None) -> str | None:
        s = self._app_step(k, pkg)
        return s.package if s is not None else None

    def _app_label_of(self, k: int, pkg: str | None = None) -> str:
        s = self._app_step(k, pkg)
        return s.app if s is not None else ""

    def _dismiss(self, els: list[UIElement]) -> dict[str, Any]:
        """Close a window that is not part of the task (a pop-up, an ad)."""
        el = self._labelled(els, DISMISS_LABELS)
        if el is not None:
            x, y = el.center
            return {"action_type": "click", "x": x, "y": y}
        return {"action_type": "navigate_back"}

    def _labelled(self, els: list[UIElement], labels: Sequence[str]) -> UIElement | None:
        """The touchable, clickable element showing the first of `labels` found."""
        by_label: dict[str, UIElement] = {}
        for el in els:
            if not el.is_clickable or not self._touchable(el):
                continue
            for label in (el.text, el.content_description):
                if label:
                    by_label.setdefault(label.strip().casefold(), el)
        return next((by_label[w] for w in labels if w in by_label), None)


def _visible(el: UIElement) -> bool:
    """An element with a box of some area: one that can be touched or scrolled."""
    b = el.bbox_pixels
    return b is not None and b.width > 0 and b.height > 0


def _is_search(el: UIElement) -> bool:
    return any("search" in (v or "").casefold() for v in (el.hint_text, el.resource_name))


def _is_all(el: UIElement) -> bool:
    """The chip that filters nothing ("All", "All contacts")."""
    return (el.label or "").strip().casefold().split(" ")[0] == "all"


def _filters(els: list[UIElement]) -> tuple:
    """What narrows a list without scrolling it: field texts and checked chips."""
    return tuple(sorted((e.label, e.is_checked) for e in els if e.is_editable or (
        e.is_checkable and e.is_checked)))


def _largest(els: list[UIElement]) -> UIElement:
    return max(els, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height)


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
    return {"back": dict(BACK), "home": dict(HOME),
            "enter": {"action_type": "keyboard_enter"}}.get(key, {"action_type": "wait", "seconds": 1})
