"""Thinking-layer traps: for one step the agent is shown something untrue.

Only the observation of that step changes (screenshot and elements alike);
the phone and every later observation are the truth. Both traps work on the
observation the inner traps of the stack produced (`antrap_gym.traps.view`).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from antrap_gym.device.elements import UIElement
from antrap_gym.traps import view
from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.registry import register_trap
from antrap_gym.traps.round import _copy_obs
from antrap_gym.traps.words import antonym

CHECKABLE_KIND = {"Switch": "switch", "CheckBox": "checkbox", "RadioButton": "radio"}
#: icon buttons whose label has an antonym with an icon of its own: label -> (icon, checked)
ICON_OF = {"save": ("save", False), "delete": ("delete", False),
           "add to favourites": ("star_border", False),
           "remove from favourites": ("star", True)}


class OneStepView(TrapWrapper):
    """Armed at its step; alters the first observation where it can."""

    def on_reset(self) -> None:
        self._armed: list[int] = []

    def armed(self) -> bool:
        return bool(self._armed)

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
        event = self.record(t, 1, params=params, substituted=substituted, k=k)
        self.check_solvable(event)
        return new_obs

    def alter(self, t: int, obs: dict[str, Any], k: int):
        raise NotImplementedError


@register_trap
class TemporalConflict(OneStepView):
    """The observation from k (default 3) steps earlier, for one step.

    Only eligible from step k + 1 on, when that frame exists. If the frame from
    k steps back looks like the present one (the agent came back to the same
    screen), the latest earlier frame that differs is shown instead, so the
    picture is always at least k steps stale; with none, the firing waits."""

    trap_type = "temporal_conflict"
    defaults = {"k": 3}

    def min_step(self) -> int:
        return int(self.params["k"]) + 1

    def on_reset(self) -> None:
        super().on_reset()
        self._history: deque[tuple[int, dict[str, Any]]] = deque(maxlen=int(self.params["k"]) + 1)
        #: the latest frame that left the history looking unlike the one after it
        self._older: tuple[int, dict[str, Any]] | None = None

    def before_observation(self, t, obs):
        h = self._history
        if len(h) == h.maxlen:
            gone = h[0]
            if gone[1]["ui_elements"] != h[1 if len(h) > 1 else 0][1]["ui_elements"]:
                self._older = gone
        h.append((t, obs))
        return super().before_observation(t, obs)

    def alter(self, t, obs, k):
        want = t - int(self.params["k"])
        past = [(s, o) for s, o in self._history if s == want]
        if not past:
            return None  # no frame k steps back yet
        if past[0][1]["ui_elements"] == obs["ui_elements"]:
            older = self._older
            if older is None or older[1]["ui_elements"] == obs["ui_elements"]:
                return None  # nothing stale that looks different: wait
            past = [older]
        shown_step, stale = past[0]
        new = _copy_obs(stale)
        new["goal"] = obs["goal"]
        new["last_action_error"] = obs["last_action_error"]
        return new, {"k": self.params["k"]}, {"shown_step": shown_step}


@register_trap
class VisualHallucination(OneStepView):
    """A label shown as its antonym, or a switch/checkbox shown in the opposite
    state, consistently in the screenshot and the elements, for one step.

    It changes the observation it is given: an element an inner trap removed
    stays removed, and nothing under an inner trap's blur or patch is repainted."""

    trap_type = "visual_hallucination"
    defaults = {"modes": ("antonym", "flip")}

    def _candidates(self, items: list[view.Entry], covered: list[view.Rect]
                    ) -> list[tuple[int, str, str]]:
        """(entry, mode, what is shown instead) for everything this trap can misshow."""
        modes = set(self.params["modes"])
        cands: list[tuple[int, str, str]] = []
        for j, it in enumerate(items):
            e = it.element
            if e.bbox_pixels is None or any(view.overlaps(e.bbox_pixels, r) for r in covered):
                continue
            if "antonym" in modes and e.text and antonym(e.text):
                cands.append((j, "antonym", antonym(e.text)))
            elif ("antonym" in modes and not e.text and _is_icon_button(e)
                  and (antonym(e.content_description) or "").casefold() in ICON_OF):
                cands.append((j, "antonym_icon", antonym(e.content_description)))
            short = (e.class_name or "").rsplit(".", 1)[-1]
            if "flip" in modes and e.is_checkable and short in CHECKABLE_KIND:
                cands.append((j, "flip", short))
        return cands

    def could_fire_now(self) -> bool:
        # the phone's elements as of the last look (no screenshot taken for this)
        items = [view.Entry(i, e, "") for i, e in enumerate(self.base.elements)]
        return bool(self._candidates(items, []))

    def alter(self, t, obs, k):
        base = self.base
        items = view.entries(obs["ui_elements"])
        cands = self._candidates(items, view.covers(base, t))
        if not cands:
            return None
        rng = self.firing_rng(k)
        j, mode, what = cands[int(rng.integers(len(cands)))]
        index, e = items[j].index, items[j].element
        if mode == "antonym":
            shown = e._replace(text=what)
            sub = {"index": index, "true": e.text, "shown": what}
        elif mode == "antonym_icon":  # an icon button: its label, icon (and state) swapped
            icon, checked = ICON_OF[what.casefold()]
            shown = e._replace(content_description=what,
                               is_checked=checked if e.is_checkable else e.is_checked)
            sub = {"index": index, "true": e.content_description, "shown": what, "icon": icon}
            mode = "antonym"
        else:
            shown = e._replace(is_checked=not e.is_checked)
            sub = {"index": index, "true_checked": e.is_checked, "shown_checked": not e.is_checked,
                   "label": _row_label(e, [it.element for it in items])}
        new = dict(obs)
        new["ui_elements"] = view.render(view.replaced(items, index, shown))
        if "screenshot" in obs:
            img = obs["screenshot"].copy()
            painter = base.device.repainter()
            if "icon" in sub:
                painter.icon_button(img, e.bbox_pixels, sub["icon"], e.is_checkable,
                                    shown.is_checked)
            elif mode == "antonym":
                painter.relabel(img, e.bbox_pixels, what)
            else:
                painter.checkable(img, e.bbox_pixels, CHECKABLE_KIND[what], not e.is_checked)
            new["screenshot"] = img
        return new, {"mode": mode}, sub


def _is_icon_button(e: UIElement) -> bool:
    return (e.class_name or "").rsplit(".", 1)[-1] == "ImageButton" and bool(e.content_description)


def _row_label(e: UIElement, els: list[UIElement]) -> str:
    """The text on the same row as a switch (what it switches)."""
    cy = e.center[1]
    same = [o for o in els if o.text and o.bbox_pixels is not None
            and o.bbox_pixels.y_min <= cy <= o.bbox_pixels.y_max and o != e]
    return same[0].text if same else ""
