"""The canonical action: AndroidWorld's JSON action, validated.

`Action.parse` takes a JSON string, a dict or an `Action` and either returns a
valid action or raises `ActionError` with a message meant for the agent
(it becomes `obs["last_action_error"]`). Coordinates are device pixels.
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass, fields
from typing import Any

ACTION_TYPES = (
    "click",
    "double_tap",
    "long_press",
    "scroll",
    "swipe",
    "input_text",
    "keyboard_enter",
    "navigate_home",
    "navigate_back",
    "open_app",
    "wait",
    "answer",
    "status",
)
DIRECTIONS = ("up", "down", "left", "right")
GOAL_STATUSES = ("complete", "infeasible")
POINT_ACTIONS = ("click", "double_tap", "long_press")
MAX_TEXT_CHARS = 10_000
MAX_JSON_CHARS = 100_000
_ALIASES = {
    "tap": "click",
    "type": "input_text",
    "enter": "keyboard_enter",
    "home": "navigate_home",
    "back": "navigate_back",
    "open": "open_app",
    "terminate": "status",
}


class ActionError(ValueError):
    """The action is malformed or impossible; the message is for the agent."""


@dataclass(frozen=True, slots=True)
class Action:
    action_type: str
    x: float | None = None
    y: float | None = None
    index: int | None = None
    text: str | None = None
    direction: str | None = None
    app_name: str | None = None
    goal_status: str | None = None
    clear_text: bool | None = None
    # swipe end point (a drag from (x, y) to (x2, y2)); optional
    x2: float | None = None
    y2: float | None = None
    duration_ms: int | None = None
    seconds: float | None = None  # for wait

    @classmethod
    def parse(cls, raw: Any) -> Action:
        if isinstance(raw, Action):
            return raw.validated()
        if isinstance(raw, (bytes, bytearray)):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ActionError("action bytes are not UTF-8") from None
        if isinstance(raw, str):
            if len(raw) > MAX_JSON_CHARS:
                raise ActionError(f"action is too long ({len(raw)} characters)")
            try:
                raw = json.loads(raw)
            except (json.JSONDecodeError, RecursionError) as e:
                raise ActionError(f"action is not valid JSON: {str(e)[:120]}") from None
        if not isinstance(raw, dict):
            raise ActionError(
                f"action must be a JSON object with an 'action_type', got {type(raw).__name__}")
        return cls.from_dict(raw)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        kind = d.get("action_type", d.get("action"))
        if not isinstance(kind, str):
            raise ActionError(f"'action_type' must be one of {', '.join(ACTION_TYPES)}")
        kind = _ALIASES.get(kind.strip().lower(), kind.strip().lower())
        if kind not in ACTION_TYPES and isinstance(d.get("error"), str) and d["error"]:
            # an agent that could not read its model's output says why: pass that on
            raise ActionError(f"could not read an action from the model's output: "
                              f"{d['error'][:500]}")
        if kind not in ACTION_TYPES:
            raise ActionError(f"unknown action_type {kind[:40]!r}; expected one of "
                              f"{', '.join(ACTION_TYPES)}")
        known = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {k: v for k, v in d.items() if k in known and k != "action_type"}
        if "coordinate" in d and "x" not in kw:  # GUI-Owl style [x, y]
            c = d["coordinate"]
            if isinstance(c, (list, tuple)) and len(c) == 2:
                kw["x"], kw["y"] = c
        return cls(action_type=kind, **kw).validated()

    def validated(self) -> Action:
        """Check types and ranges that do not depend on the screen."""
        t = self.action_type
        if t not in ACTION_TYPES:
            raise ActionError(f"unknown action_type {t!r}")
        for name in ("x", "y", "x2", "y2"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or not math.isfinite(v)):
                raise ActionError(f"'{name}' must be a finite number, got {v!r:.40}")
        if self.index is not None and (isinstance(self.index, bool) or not isinstance(self.index, int)):
            raise ActionError(f"'index' must be an integer, got {self.index!r:.40}")
        if (self.x is None) != (self.y is None):
            raise ActionError("give both 'x' and 'y', or neither")
        if t in POINT_ACTIONS and self.x is None and self.index is None:
            raise ActionError(f"{t} needs a target: 'x' and 'y', or 'index'")
        if t in ("scroll", "swipe"):
            if self.direction is None and not (t == "swipe" and self.x2 is not None):
                raise ActionError(f"{t} needs 'direction' (one of {', '.join(DIRECTIONS)})")
            if self.direction is not None and self.direction not in DIRECTIONS:
                raise ActionError(f"'direction' must be one of {', '.join(DIRECTIONS)}, "
                                  f"got {str(self.direction)[:20]!r}")
            if (self.x2 is None) != (self.y2 is None):
                raise ActionError("give both 'x2' and 'y2', or neither")
            if self.x2 is not None and self.x is None:
                raise ActionError("a swipe to (x2, y2) needs a start point 'x', 'y'")
        if t in ("input_text", "answer"):
            if not isinstance(self.text, str):
                raise ActionError(f"{t} needs 'text' (a string)")
            if len(self.text) > MAX_TEXT_CHARS:
                raise ActionError(f"'text' is too long ({len(self.text)} > {MAX_TEXT_CHARS} characters)")
            if t == "input_text":
                bad = next((ch for ch in self.text if _is_control(ch)), None)
                if bad is not None:
                    raise ActionError(f"'text' contains a control character U+{ord(bad):04X}")
        if t == "open_app" and (not isinstance(self.app_name, str) or not self.app_name.strip()):
            raise ActionError("open_app needs 'app_name'")
        if t == "status" and self.goal_status not in GOAL_STATUSES:
            raise ActionError(f"status needs 'goal_status' in {', '.join(GOAL_STATUSES)}")
        if self.clear_text is not None and not isinstance(self.clear_text, bool):
            raise ActionError("'clear_text' must be true or false")
        if self.duration_ms is not None and (not isinstance(self.duration_ms, int)
                                             or not 0 <= self.duration_ms <= 60_000):
            raise ActionError("'duration_ms' must be an integer in 0..60000")
        if self.seconds is not None and (not isinstance(self.seconds, (int, float))
                                         or not 0 <= self.seconds <= 60):
            raise ActionError("'seconds' must be a number in 0..60")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k in _FIELDS if (v := getattr(self, k)) is not None}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)


_FIELDS = tuple(f.name for f in fields(Action))


def _is_control(ch: str) -> bool:
    if ch in "\n\t":
        return False
    return unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029"
