"""Action-layer traps: what the agent meant is not what reaches the phone.

A firing arms the trap at its scheduled step; it acts on the first action it
applies to (a tap for grounding error, any retargetable action for intent
deviation, ...), so every firing perturbs something. The agent's observation
is untouched; the event records the intended and the executed action.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from antrap_gym.device.elements import UIElement
from antrap_gym.env.actions import Action
from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.registry import register_trap
from antrap_gym.traps.schedule import Firing
from antrap_gym.traps.words import antonym, is_destructive

POINTED = ("click", "double_tap", "long_press")
REVERSE = {"up": "down", "down": "up", "left": "right", "right": "left"}


class ActionTrap(TrapWrapper):
    """Armed at a scheduled step, fires on the next action it can perturb.

    With `at_least_once` the first firing is armed from the first eligible step,
    so it lands on the agent's earliest action it applies to: an agent may stop
    right after any action, so no later placement can guarantee a firing."""

    guarantee_at = "first"
    pulls_forward = False  # a `status` or an `answer` has nothing to perturb

    def on_reset(self) -> None:
        self._armed: list[tuple[int, Firing]] = []
        self._check_after: dict[str, Any] | None = None

    def armed(self) -> bool:
        return bool(self._armed)

    def before_action(self, t: int, action: Any) -> Any:
        self._check_after = None
        hit = self.firing_at(t)
        if hit is not None:
            self._armed.append(hit)
        if not self._armed:
            return action
        act = self.parse_action(action)
        if act is None:
            return action
        k, firing = self._armed[0]
        out = self.perturb(act, self.firing_rng(k))
        if out is None:  # not applicable to this action: stay armed
            return action
        new, params = out
        pre = self.where()
        self._armed.pop(0)
        event = self.record(t, 1, params=params,
                            substituted={"intended": act.to_dict(), "executed": new}, pre=pre,
                            k=k)
        event["armed_at"] = firing.step
        self._check_after = event
        return new

    def after_step(self, t: int, done: bool) -> None:
        if self._check_after is not None:
            self.check_solvable(self._check_after)
            self._check_after = None

    def perturb(self, act: Action, rng: np.random.Generator) -> tuple[dict, dict] | None:
        raise NotImplementedError

    # shared helpers ---------------------------------------------------------------------
    def keeps_solvable(self, action: dict[str, Any]) -> bool:
        """On the simulated phone, prove on a fork that the task stays solvable after
        this perturbed action (elsewhere the label rules are all we have)."""
        base = self.base
        if not self.params.get("prove_solvable", True) or not self._prover.available(base):
            return True
        return self._prover.distance(base, first_action=action) is not None

    def target_point(self, act: Action) -> tuple[int, int] | None:
        if act.index is None and act.x is None:
            return None
        return self.point_of(act)

    def clamp(self, x: float, y: float) -> tuple[int, int]:
        w, h = self.base.screen_size
        return int(min(w - 1, max(0, round(x)))), int(min(h - 1, max(0, round(y))))


def _pointed(act: Action, x: int, y: int, kind: str | None = None) -> dict[str, Any]:
    d = act.to_dict()
    d.pop("index", None)
    d.update(x=x, y=y)
    if kind:
        d["action_type"] = kind
    return d


@register_trap
class GroundingError(ActionTrap):
    """The tap lands 20-50 px away, in a random direction: a tap, long press or
    double tap, or the tap that focuses the field an `input_text` names."""

    trap_type = "grounding_error"
    defaults = {"min_px": 20, "max_px": 50}

    def perturb(self, act, rng):
        if act.action_type not in POINTED and act.action_type != "input_text":
            return None
        p = self.target_point(act)
        if p is None:
            return None
        angle = float(rng.uniform(0, 2 * math.pi))
        dist = float(rng.uniform(self.params["min_px"], self.params["max_px"]))
        x, y = self.clamp(p[0] + dist * math.cos(angle), p[1] + dist * math.sin(angle))
        return _pointed(act, x, y), {"from": list(p), "to": [x, y], "distance": round(dist, 1),
                                     "angle_deg": round(math.degrees(angle), 1)}


@register_trap
class TypeMismatch(ActionTrap):
    """The action type changes: tap <-> long press <-> double tap, swipe and scroll
    reversed, typing becomes a tap."""

    trap_type = "type_mismatch"
    defaults: dict[str, Any] = {}

    def perturb(self, act, rng):
        t = act.action_type
        if t in POINTED:
            p = self.target_point(act)
            if p is None:
                return None
            others = [k for k in POINTED if k != t]
            new_type = others[int(rng.integers(len(others)))]
            return _pointed(act, p[0], p[1], new_type), {"from_type": t, "to_type": new_type}
        if t in ("scroll", "swipe"):
            d = act.to_dict()
            if act.direction:
                d["direction"] = REVERSE[act.direction]
            if act.x2 is not None:
                d["x"], d["y"], d["x2"], d["y2"] = act.x2, act.y2, act.x, act.y
            return d, {"from_type": t, "to_type": t, "reversed": True}
        if t == "input_text":
            p = self.target_point(act)
            if p is None:
                focused = next((e for e in self.base.elements if e.is_focused), None)
                if focused is None:
                    return None
                p = focused.center
            return ({"action_type": "click", "x": p[0], "y": p[1]},
                    {"from_type": t, "to_type": "click", "dropped_text": act.text})
        return None


@register_trap
class IntentDeviation(ActionTrap):
    """The action goes to a plausible but different target: the opposite-labelled
    element, or a nearby clickable one (never a destructive one), or the typed
    text is altered."""

    trap_type = "intent_deviation"
    defaults = {"radius": 0.35, "allow_checkable": False, "prove_solvable": True}

    def perturb(self, act, rng):
        if act.action_type == "input_text" and act.text:
            new_text, how = alter_text(act.text, rng)
            d = act.to_dict()
            d["text"] = new_text
            if not self.keeps_solvable(d):
                return None
            return d, {"mode": "text", "how": how, "from_text": act.text, "to_text": new_text}
        if act.action_type not in POINTED:
            return None
        p = self.target_point(act)
        if p is None:
            return None
        els = self.base.elements
        here = _element_at(els, p)
        # 1. the element with the opposite label
        opp = antonym(here.label) if here is not None else None
        if opp:
            target = next((e for e in els if e.label.casefold() == opp.casefold()
                           and self._eligible(e, els, p)), None)
            if target is not None and self.keeps_solvable(_pointed(act, *target.center)):
                x, y = target.center
                return _pointed(act, x, y), {"mode": "antonym", "from_label": here.label,
                                             "to_label": target.label, "from": list(p),
                                             "to": [x, y]}
        # 2. a nearby clickable element
        w, h = self.base.screen_size
        radius = self.params["radius"] * min(w, h)
        near = [e for e in els if self._eligible(e, els, p) and e.bbox_pixels is not None
                and math.dist(e.center, p) <= radius]
        for i in rng.permutation(len(near)):
            target = near[int(i)]
            x, y = target.center
            new = _pointed(act, x, y)
            if self.keeps_solvable(new):
                return new, {"mode": "nearby", "from_label": here.label if here else "",
                             "to_label": _label_within(target, els), "from": list(p),
                             "to": [x, y], "radius_px": round(radius, 1)}
        return None

    def _eligible(self, e: UIElement, els: list[UIElement], p: tuple[int, int]) -> bool:
        b = e.bbox_pixels
        if b is None or not e.is_clickable or b.contains(*p):
            return False
        if e.is_checkable and not self.params["allow_checkable"]:
            return False
        if e.is_editable:
            return False
        return not is_destructive(_label_within(e, els))


def _element_at(els: list[UIElement], p: tuple[int, int]) -> UIElement | None:
    """The smallest labelled-or-clickable element under a point."""
    under = [e for e in els if e.bbox_pixels is not None and e.bbox_pixels.contains(*p)]
    labelled = [e for e in under if e.label] or under
    if not labelled:
        return None
    return min(labelled, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height)


def _label_within(e: UIElement, els: list[UIElement]) -> str:
    """An element's own label plus the labels drawn inside it (a row's title)."""
    b = e.bbox_pixels
    parts = [e.label] if e.label else []
    if b is not None:
        for o in els:
            ob = o.bbox_pixels
            if o is not e and o.label and ob is not None and b.x_min <= ob.x_min and \
                    ob.x_max <= b.x_max and b.y_min <= ob.y_min and ob.y_max <= b.y_max:
                parts.append(o.label)
    return " | ".join(parts)


def alter_text(text: str, rng: np.random.Generator) -> tuple[str, str]:
    """A plausible typo: drop, duplicate or swap a character, or change a digit."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    letters = [i for i, ch in enumerate(text) if ch.isalpha()]
    modes = ["drop", "swap", "double"] + (["digit"] if digits else [])
    mode = modes[int(rng.integers(len(modes)))]
    if mode == "digit":
        i = digits[int(rng.integers(len(digits)))]
        new_digit = str((int(text[i]) + 1 + int(rng.integers(8))) % 10)
        return text[:i] + new_digit + text[i + 1 :], "digit"
    pool = letters or list(range(len(text)))
    i = pool[int(rng.integers(len(pool)))]
    if mode == "drop" and len(text) > 1:
        return text[:i] + text[i + 1 :], "drop"
    if mode == "swap" and len(text) > 1:
        j = i + 1 if i + 1 < len(text) else i - 1
        a, b = sorted((i, j))
        if text[a] != text[b]:
            return text[:a] + text[b] + text[a] + text[b + 1 :], "swap"
    return text[: i + 1] + text[i] + text[i + 1 :], "double"
