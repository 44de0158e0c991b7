"""The canonical action: AndroidWorld's JSON action, defined once and validated.

`ACTION_SPECS` is each action type's definition: the validator requires what its
`needs` name, the JSON-action prompt (`agents.policy`, style "m3a") lists its `prompt`
line, and README's table of actions is made from its `fields`
(`docs/tools/actions_table.py`); the `mobile_use` tool (`agents/tool.py`) reads to these.

`Action.parse` takes a JSON string, a dict or an `Action` and either returns a
valid action or raises `ActionError` with a message meant for the agent
(it becomes `obs["last_action_error"]`). Coordinates are device pixels.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class ActionSpec:
    """One canonical action, defined once: what it takes (README's table), what the
    validator requires of it (`needs`: kinds in `_NEEDS`) and the JSON-action prompt's
    line for it (`{target}` stands for the model's way of pointing)."""

    action_type: str
    fields: str
    needs: tuple[str, ...]
    prompt: str


ACTION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("click", "`x`, `y` or `index` (of `ui_elements`)", ("target",),
               '{{"action_type": "click", {target}}}'),
    ActionSpec("double_tap", "`x`, `y` or `index` (of `ui_elements`)", ("target",),
               '{{"action_type": "double_tap", {target}}}'),
    ActionSpec("long_press", "`x`, `y` or `index` (of `ui_elements`)", ("target",),
               '{{"action_type": "long_press", {target}}}'),
    ActionSpec("scroll", "`direction` (up/down/left/right: where the content goes), optional "
               "target", ("direction",),
               '{{"action_type": "scroll", "direction": <up|down|left|right>}}  (reveals content '
               "in that direction; a target is optional)"),
    ActionSpec("swipe", "`direction` (finger direction), or `x`,`y`,`x2`,`y2` for a drag",
               ("direction_or_end",),
               '{{"action_type": "swipe", "x": <x>, "y": <y>, "x2": <x2>, "y2": <y2>}}'),
    ActionSpec("input_text", "`text`, optional target (`x`,`y` / `index`), `clear_text`; taps, "
               "types, presses Enter (a trailing newline in `text` is that Enter)",
               ("text", "typable"),
               '{{"action_type": "input_text", "text": <text>, {target}}}  (types into the '
               'field, then presses Enter; add "clear_text": true to replace its text)'),
    ActionSpec("keyboard_enter", "—", (), '{{"action_type": "keyboard_enter"}}'),
    ActionSpec("navigate_home", "—", (), '{{"action_type": "navigate_home"}}'),
    ActionSpec("navigate_back", "—", (), '{{"action_type": "navigate_back"}}'),
    ActionSpec("open_app", "`app_name` (launcher label, e.g. `Settings`)", ("app_name",),
               '{{"action_type": "open_app", "app_name": <name>}}'),
    ActionSpec("wait", "optional `seconds`", (), '{{"action_type": "wait"}}'),
    ActionSpec("answer", "`text` (information-retrieval tasks)", ("text",),
               '{{"action_type": "answer", "text": <answer>}}  (to answer a question about the '
               "phone)"),
    ActionSpec("status", "`goal_status`: `complete` or `infeasible` (ends the episode); optional "
               "`text`: the answer, when no `answer` came before (the parsers turn AndroidLab "
               "`finish(message=…)` and UI-TARS `finished(content=…)` into `answer`, then "
               "`status`)", ("goal_status",),
               '{{"action_type": "status", "goal_status": <complete|infeasible>}}  (ends the '
               "task)"),
)
SPECS: dict[str, ActionSpec] = {s.action_type: s for s in ACTION_SPECS}
ACTION_TYPES = tuple(SPECS)
DIRECTIONS = ("up", "down", "left", "right")
GOAL_STATUSES = ("complete", "infeasible")
POINT_ACTIONS = tuple(s.action_type for s in ACTION_SPECS if "target" in s.needs)
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
        for need in SPECS[t].needs:
            _NEEDS[need](self)
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


# --- what an action type needs (`ActionSpec.needs`) -----------------------------------------


def _needs_target(a: Action) -> None:
    if a.x is None and a.index is None:
        raise ActionError(f"{a.action_type} needs a target: 'x' and 'y', or 'index'")


def _needs_direction(a: Action, or_end: bool = False) -> None:
    t = a.action_type
    if a.direction is None and not (or_end and a.x2 is not None):
        raise ActionError(f"{t} needs 'direction' (one of {', '.join(DIRECTIONS)})")
    if a.direction is not None and a.direction not in DIRECTIONS:
        raise ActionError(f"'direction' must be one of {', '.join(DIRECTIONS)}, "
                          f"got {str(a.direction)[:20]!r}")
    if (a.x2 is None) != (a.y2 is None):
        raise ActionError("give both 'x2' and 'y2', or neither")
    if a.x2 is not None and a.x is None:
        raise ActionError("a swipe to (x2, y2) needs a start point 'x', 'y'")


def _needs_text(a: Action) -> None:
    if not isinstance(a.text, str):
        raise ActionError(f"{a.action_type} needs 'text' (a string)")
    if len(a.text) > MAX_TEXT_CHARS:
        raise ActionError(f"'text' is too long ({len(a.text)} > {MAX_TEXT_CHARS} characters)")


def _needs_typable(a: Action) -> None:
    bad = next((ch for ch in a.text or "" if _is_control(ch)), None)
    if bad is not None:
        raise ActionError(f"'text' contains a control character U+{ord(bad):04X}")


def _needs_app_name(a: Action) -> None:
    if not isinstance(a.app_name, str) or not a.app_name.strip():
        raise ActionError("open_app needs 'app_name'")


def _needs_goal_status(a: Action) -> None:
    if a.goal_status not in GOAL_STATUSES:
        raise ActionError(f"status needs 'goal_status' in {', '.join(GOAL_STATUSES)}")


_NEEDS: dict[str, Callable[[Action], None]] = {
    "target": _needs_target,
    "direction": _needs_direction,
    "direction_or_end": lambda a: _needs_direction(a, or_end=True),
    "text": _needs_text,
    "typable": _needs_typable,
    "app_name": _needs_app_name,
    "goal_status": _needs_goal_status,
}
