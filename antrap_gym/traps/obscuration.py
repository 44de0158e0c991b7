"""State-layer trap: part of the screen is blurred or covered for a while."""

from __future__ import annotations

from typing import Any

from antrap_gym.device.elements import BoundingBox
from antrap_gym.tasks.solver import Solver
from antrap_gym.traps import repaint, view
from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.registry import register_trap
from antrap_gym.traps.schedule import TriggerSchedule

PATCH_COLORS = ((32, 32, 36), (128, 128, 128), (240, 240, 240))


@register_trap
class VisualObscuration(TrapWrapper):
    """Gaussian blur (radius 15) or a solid patch over a random element, the key
    element (the one the oracle would touch next) or a random region.

    The screenshot is altered; the elements under the cover are removed from the
    text observation when `hide_elements` is true (the default in text mode,
    where a picture-only cover would hide nothing).
    """

    trap_type = "visual_obscuration"
    default_schedule = TriggerSchedule(duration=(1, 3))
    defaults = {"targets": ("random_element", "key_element", "region"),
                "styles": ("blur", "patch"), "blur_radius": 15, "hide_elements": None}

    def on_reset(self) -> None:
        self._cover: tuple[tuple[int, int, int, int], str, tuple[int, int, int]] | None = None

    def before_observation(self, t, obs):
        active = self.active_at(t)
        if active is None:
            self._cover = None
            return obs
        k, firing = active
        if firing.step == t:
            rng = self.firing_rng(k)
            targets, styles = list(self.params["targets"]), list(self.params["styles"])
            target = targets[int(rng.integers(len(targets)))]
            style = styles[int(rng.integers(len(styles)))]
            items = view.entries(obs["ui_elements"])
            rect, what, picked = self._pick(target, rng, obs, items)
            color = PATCH_COLORS[int(rng.integers(len(PATCH_COLORS)))]
            self._cover = (rect, style, color)
            params = {"target": target, "style": style, "rect": list(rect)}
            if picked != target:
                params["picked"] = picked  # e.g. no key element on this screen: a random one
            event = self.record(t, firing.duration, params=params,
                                substituted={"covered": what}, k=k)
            self.check_solvable(event)
        if self._cover is None:
            return obs
        return self._apply(t, obs)

    def _hide(self) -> bool:
        h = self.params["hide_elements"]
        return (self.base.obs_mode == "text") if h is None else bool(h)

    def _apply(self, t: int, obs: dict[str, Any]) -> dict[str, Any]:
        """Cover the picture the inner traps produced; drop what it hides from
        their elements (the remaining lines keep their indices)."""
        rect, style, color = self._cover
        new = dict(obs)
        if "screenshot" in obs:
            img = obs["screenshot"].copy()
            if style == "blur":
                repaint.blur(img, rect, self.params["blur_radius"])
            else:
                repaint.cover(img, rect, color)
            new["screenshot"] = img
        view.add_cover(self.base, t, rect)
        if self._hide():
            items = view.entries(obs["ui_elements"])
            new["ui_elements"] = view.render(
                [it for it in items if not _mostly_inside(it.element.bbox_pixels, rect)])
        return new

    def _pick(self, target: str, rng, obs, items: list[view.Entry]
              ) -> tuple[tuple[int, int, int, int], str, str]:
        """(rectangle, what it covers, the target kind actually used) among the
        elements the agent is shown."""
        w, h = self.base.screen_size
        shown = [it.element for it in items]
        els = [e for e in shown if e.bbox_pixels is not None and e.label
               and e.bbox_pixels.width * e.bbox_pixels.height < 0.5 * w * h]
        if target == "key_element":
            key = self._key_element(obs, shown)
            if key is not None:
                return _pad(key, w, h), key_label(key, shown), "key_element"
            target = "random_element"
        if target == "random_element" and els:
            e = els[int(rng.integers(len(els)))]
            return _pad(e.bbox_pixels, w, h), e.label, "random_element"
        rw, rh = int(w * rng.uniform(0.25, 0.45)), int(h * rng.uniform(0.12, 0.25))
        x0, y0 = int(rng.integers(0, w - rw)), int(rng.integers(int(h * 0.05), h - rh - int(h * 0.05)))
        return (x0, y0, x0 + rw, y0 + rh), "region", "region"

    def _key_element(self, obs: dict[str, Any], shown: list) -> BoundingBox | None:
        """Where the oracle would touch next on the screen as shown (the solver's
        next action; it never raises, a fault gives an action without a point)."""
        base = self.base
        act = Solver(base.task, base.screen_size).act(
            obs.get("ui_elements", ""), base.device, history=base.history, answer=base.answer,
            check=base.check_action)
        if "x" not in act:
            return None
        hits = [e for e in shown if e.bbox_pixels is not None
                and e.bbox_pixels.contains(act["x"], act["y"])]
        if not hits:
            return None
        return min(hits, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height).bbox_pixels


def key_label(b: BoundingBox, els) -> str:
    inside = [e.label for e in els if e.bbox_pixels == b and e.label]
    return inside[0] if inside else "key element"


def _pad(b: BoundingBox, w: int, h: int, pad: int = 6) -> tuple[int, int, int, int]:
    return (max(0, b.x_min - pad), max(0, b.y_min - pad), min(w, b.x_max + pad),
            min(h, b.y_max + pad))


def _mostly_inside(b: BoundingBox | None, rect: tuple[int, int, int, int]) -> bool:
    if b is None or b.width <= 0 or b.height <= 0:
        return False
    x0, y0 = max(b.x_min, rect[0]), max(b.y_min, rect[1])
    x1, y1 = min(b.x_max, rect[2]), min(b.y_max, rect[3])
    if x1 <= x0 or y1 <= y0:
        return False
    return (x1 - x0) * (y1 - y0) >= 0.5 * b.width * b.height
