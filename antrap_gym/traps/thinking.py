"""Thinking-layer traps: for one step the agent is shown something untrue.

Only the observation of that step changes (screenshot and elements alike);
the phone and every later observation are the truth.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from antrap_gym.device.elements import UIElement, serialize_elements
from antrap_gym.traps import repaint
from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.round import _copy_obs
from antrap_gym.traps.taxonomy import register_trap
from antrap_gym.traps.words import antonym

CHECKABLE_KIND = {"Switch": "switch", "CheckBox": "checkbox", "RadioButton": "radio"}


class OneStepView(TrapWrapper):
    """Armed at its step; alters the first observation where it can."""

    def on_reset(self) -> None:
        self._armed: list[int] = []

    def before_observation(self, t, obs):
        hit = self.firing_at(t)
        if hit is not None:
            self._armed.append(hit[0])
        if not self._armed:
            return obs
        k = self._armed[0]
        out = self.alter(t, obs, k)
        if out is None:
            return obs
        new_obs, params, substituted = out
        self._armed.pop(0)
        event = self.record(t, 1, params=params, substituted=substituted)
        self.check_solvable(event)
        return new_obs

    def alter(self, t: int, obs: dict[str, Any], k: int):
        raise NotImplementedError


@register_trap
class TemporalConflict(OneStepView):
    """The observation from k (default 3) steps earlier, for one step."""

    trap_type = "temporal_conflict"
    defaults = {"k": 3}

    def on_reset(self) -> None:
        super().on_reset()
        self._history: deque[tuple[int, dict[str, Any]]] = deque(maxlen=int(self.params["k"]) + 1)

    def before_observation(self, t, obs):
        self._history.append((t, obs))
        return super().before_observation(t, obs)

    def alter(self, t, obs, k):
        want = t - int(self.params["k"])
        past = [(s, o) for s, o in self._history if s <= max(1, want)]
        if not past:
            return None
        shown_step, stale = past[-1]
        if shown_step == t or stale["ui_elements"] == obs["ui_elements"]:
            return None  # nothing older that differs yet: wait for one
        new = _copy_obs(stale)
        new["goal"] = obs["goal"]
        new["last_action_error"] = obs["last_action_error"]
        return new, {"k": self.params["k"]}, {"shown_step": shown_step}


@register_trap
class VisualHallucination(OneStepView):
    """A label shown as its antonym, or a switch/checkbox shown in the opposite
    state, consistently in the screenshot and the elements, for one step."""

    trap_type = "visual_hallucination"
    defaults = {"modes": ("antonym", "flip")}

    def alter(self, t, obs, k):
        base = self.base
        els = list(base.elements)
        modes = set(self.params["modes"])
        cands: list[tuple[int, str, str]] = []
        for i, e in enumerate(els):
            if e.bbox_pixels is None:
                continue
            if "antonym" in modes and e.text and antonym(e.text):
                cands.append((i, "antonym", antonym(e.text)))
            short = (e.class_name or "").rsplit(".", 1)[-1]
            if "flip" in modes and e.is_checkable and short in CHECKABLE_KIND:
                cands.append((i, "flip", short))
        if not cands:
            return None
        rng = self.firing_rng(k)
        i, mode, what = cands[int(rng.integers(len(cands)))]
        e = els[i]
        if mode == "antonym":
            els[i] = e._replace(text=what)
            sub = {"index": i, "true": e.text, "shown": what}
        else:
            els[i] = e._replace(is_checked=not e.is_checked)
            sub = {"index": i, "true_checked": e.is_checked, "shown_checked": not e.is_checked,
                   "label": _row_label(e, base.elements)}
        new = dict(obs)
        new["ui_elements"] = serialize_elements(els)
        if "screenshot" in obs:
            img = obs["screenshot"].copy()
            dens = base.screen_size[0] / 1080 * 2.625
            if mode == "antonym":
                repaint.relabel(img, e.bbox_pixels, what, dens)
            else:
                repaint.flip_checkable(img, e.bbox_pixels, CHECKABLE_KIND[what], not e.is_checked,
                                       repaint.is_dark(img), dens)
            new["screenshot"] = img
        return new, {"mode": mode}, sub


def _row_label(e: UIElement, els: list[UIElement]) -> str:
    """The text on the same row as a switch (what it switches)."""
    cy = e.center[1]
    same = [o for o in els if o.text and o.bbox_pixels is not None
            and o.bbox_pixels.y_min <= cy <= o.bbox_pixels.y_max and o is not e]
    return same[0].text if same else ""
