"""What a model answers: a canonical action written as a reply (`format_completion`, the
SFT targets), a reply read back into one (`parse_completion`), and the one-line summaries
of earlier steps a prompt shows (`summarize_action`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from antrap_gym.agents import parsers
from antrap_gym.agents.coords import (
    TOOL_NAME,
    CoordSpace,
    model_point,
)
from antrap_gym.agents.parsers import Parsed
from antrap_gym.agents.policy_config import DEFAULT_CONFIG, PolicyConfig
from antrap_gym.device.elements import (
    UIElement,
    parse_element_lines,
    parse_numbered_element_lines,
)
from antrap_gym.env.actions import Action

if TYPE_CHECKING:
    pass

#: action sent to the env when a reply cannot be parsed: the env rejects it
#: (`unknown action_type 'unparseable model output'`), the phone is unchanged
UNPARSEABLE = "unparseable model output"
MAX_SUMMARY_CHARS = 160


# --- completions ------------------------------------------------------------------------------------


def action_to_tool_args(action: dict[str, Any] | Action | str, space: CoordSpace | None = None
                        ) -> dict[str, Any]:
    """A canonical action as `mobile_use` arguments, coordinates in the model's space.

    GUI-Owl's actions cover most of AndroidWorld's; `double_tap`, `scroll`, a
    `swipe` by `direction`, `type` with a target/`clear` and `index` targets are
    this format's extensions for the rest, so every canonical action round-trips.
    """
    a = Action.parse(action)
    t = a.action_type
    target: dict[str, Any] = {}
    if a.index is not None:
        target["index"] = a.index
    elif a.x is not None:
        target["coordinate"] = list(model_point(space, a.x, a.y))
    args: dict[str, Any]
    if t in ("click", "double_tap"):
        args = {"action": t, **target}
    elif t == "long_press":
        args = {"action": "long_press", **target}
        if a.duration_ms is not None:
            args["time"] = a.duration_ms / 1000
    elif t == "swipe":
        args = {"action": "swipe", **target}
        if a.x2 is not None:
            args["coordinate2"] = list(model_point(space, a.x2, a.y2))
        else:
            args["direction"] = a.direction
        if a.duration_ms is not None:
            args["time"] = a.duration_ms / 1000
    elif t == "scroll":
        args = {"action": "scroll", "direction": a.direction, **target}
    elif t == "input_text":
        args = {"action": "type", "text": a.text, **target}
        if a.clear_text is not None:
            args["clear"] = a.clear_text
    elif t in ("keyboard_enter", "navigate_home", "navigate_back"):
        button = {"keyboard_enter": "Enter", "navigate_home": "Home", "navigate_back": "Back"}[t]
        args = {"action": "system_button", "button": button}
    elif t == "open_app":
        args = {"action": "open", "text": a.app_name}
    elif t == "wait":
        args = {"action": "wait"}
        if a.seconds is not None:
            args["time"] = a.seconds
    elif t == "answer":
        args = {"action": "answer", "text": a.text}
    else:  # status
        args = {"action": "terminate", "status": "success" if a.goal_status == "complete" else "failure"}
    return args


def action_to_model_json(action: dict[str, Any] | Action | str, space: CoordSpace | None = None
                         ) -> dict[str, Any]:
    """A canonical action with its coordinates in the model's space (the `m3a` answer)."""
    d = Action.parse(action).to_dict()
    if "x" in d:
        d["x"], d["y"] = model_point(space, d["x"], d["y"])
    if "x2" in d:
        d["x2"], d["y2"] = model_point(space, d["x2"], d["y2"])
    return d


def _label_at(elements: Sequence[UIElement], x: float, y: float) -> str:
    """The label of the smallest labelled element under a device point."""
    best, area = "", None
    for el in elements:
        b = el.bbox_pixels
        if b is None or not el.label or not b.contains(x, y):
            continue
        if area is None or b.width * b.height < area:
            best, area = el.label, b.width * b.height
    return best


def shorten(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def summarize_action(action: dict[str, Any] | Action | str, space: CoordSpace | None = None,
                     elements: str | Sequence[UIElement] | None = None) -> str:
    """A one-line summary of an action for the step history (the `<conclusion>`
    when the model gave none). Coordinates are in the model's space; with
    `elements` (device pixels) the touched element's label is named."""
    a = Action.parse(action)
    els = parse_element_lines(elements) if isinstance(elements, str) else list(elements or ())
    t = a.action_type
    label = ""
    where = ""
    if a.index is not None:
        where = f"element [{a.index}]"
        if 0 <= a.index < len(els):
            label = els[a.index].label
    elif a.x is not None:
        mx, my = model_point(space, a.x, a.y)
        where = f"({mx}, {my})"
        label = _label_at(els, a.x, a.y)
    on = (f'"{shorten(label)}" at {where}' if label else where)
    if t in ("click", "double_tap", "long_press"):
        verb = {"click": "Tap", "double_tap": "Double-tap", "long_press": "Long-press"}[t]
        s = f"{verb} {on}"
    elif t == "input_text":
        s = ("Replace the text with" if a.clear_text else "Type") + f' "{shorten(a.text or "")}"'
        if on:
            s += f" into {on}"
    elif t == "scroll":
        s = f"Scroll {a.direction}" + (f" in {on}" if on else "")
    elif t == "swipe":
        if a.x2 is not None:
            s = f"Swipe from {where} to {model_point(space, a.x2, a.y2)}"
        else:
            s = f"Swipe {a.direction}" + (f" from {on}" if on else "")
    elif t == "keyboard_enter":
        s = "Press Enter"
    elif t == "navigate_home":
        s = "Go to the home screen"
    elif t == "navigate_back":
        s = "Go back"
    elif t == "open_app":
        s = f"Open the {a.app_name} app"
    elif t == "wait":
        s = "Wait" + (f" {a.seconds:g} s" if a.seconds is not None else "")
    elif t == "answer":
        s = f'Answer "{shorten(a.text or "", 100)}"'
    else:
        s = ("Finish: the task is done" if a.goal_status == "complete"
             else "Stop: the task is infeasible")
    return shorten(s, MAX_SUMMARY_CHARS)


def clean_tag_text(s: str) -> str:
    for tag in ("thinking", "tool_call", "conclusion", "think"):
        s = s.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    return s.strip()


#: action types whose coordinate target can become an element index
_INDEXABLE = ("click", "double_tap", "long_press", "input_text")


def index_target(action: dict[str, Any] | Action | str, elements: str | Sequence[UIElement]
                 ) -> dict[str, Any]:
    """`action` with its coordinate target replaced by the `[i]` of the element it
    touches: the smallest element under the point whose centre it is (acting by
    index taps the centre, so the effect is the same). Unchanged when no element
    fits (a point off-centre, as on a slider; a swipe; an action with no target)."""
    a = Action.parse(action).to_dict()
    if a["action_type"] not in _INDEXABLE or a.get("x") is None or a.get("index") is not None:
        return a
    x, y = a["x"], a["y"]
    if isinstance(elements, str):
        found = parse_numbered_element_lines(elements)
    else:
        found = list(enumerate(elements))
    best: tuple[int, int] | None = None  # (area, index)
    for i, el in found:
        b = el.bbox_pixels
        if b is None or not b.contains(x, y) or b.center != (x, y):
            continue
        area = b.width * b.height
        if best is None or area < best[0]:
            best = (area, i)
    if best is None:
        return a
    a.pop("x")
    a.pop("y")
    a["index"] = best[1]
    return a


def format_completion(action: dict[str, Any] | Action | str, thought: str = "", *,
                      space: CoordSpace | None = None, config: PolicyConfig = DEFAULT_CONFIG,
                      conclusion: str | None = None,
                      elements: str | Sequence[UIElement] | None = None) -> str:
    """A canonical action (device pixels) as the assistant's reply — an SFT target.

    guiowl (and compact, which leaves out an empty thinking block):
    `<thinking>\\n{thought}\\n</thinking>\\n<tool_call>\\n{json}\\n</tool_call>`
    and, when `config.conclusion`, `\\n<conclusion>\\n{conclusion}\\n</conclusion>`
    (default: `summarize_action`). m3a: `Reason: {thought}\\nAction: {json}`.
    With `config.index_targets` and `elements`, a touch at an element's centre is
    written as that element's `[i]` (`index_target`).
    Raises `ActionError` (a ValueError) for an invalid action.
    """
    if config.index_targets and config.uses_index and elements:
        action = index_target(action, elements)
    if config.prompt == "m3a":
        body = json.dumps(action_to_model_json(action, space), ensure_ascii=False)
        return f"Reason: {' '.join(thought.split())}\nAction: {body}"
    args = action_to_tool_args(action, space)
    call = json.dumps({"name": TOOL_NAME, "arguments": args}, ensure_ascii=False)
    out = f"<thinking>\n{clean_tag_text(thought)}\n</thinking>\n<tool_call>\n{call}\n</tool_call>"
    if config.prompt == "compact" and not thought.strip():
        out = f"<tool_call>\n{call}\n</tool_call>"  # no empty thinking block to learn
    if config.conclusion:
        if conclusion is None:
            conclusion = summarize_action(action, space, elements)
        out += f"\n<conclusion>\n{clean_tag_text(conclusion)}\n</conclusion>"
    return out


def parse_completion(text: str, *, space: CoordSpace | None = None,
                     config: PolicyConfig = DEFAULT_CONFIG, lenient: bool = False
                     ) -> tuple[dict[str, Any], str]:
    """A reply in the policy's format back to `(canonical action dict, thought)`.

    Coordinates are mapped from the model's space to device pixels (`space`;
    None = they already are device pixels). `lenient=True` also accepts the
    other supported output styles (`parsers.parse_any`). Raises `ParseError`.
    """
    p = parse_reply(text, space=space, config=config, lenient=lenient)
    return p.action, p.thought


def parse_reply(text: str, *, space: CoordSpace | None = None,
                config: PolicyConfig = DEFAULT_CONFIG, lenient: bool = False) -> Parsed:
    """`parse_completion`'s whole `Parsed`: the action, and the actions the reply implies
    after it (`Parsed.then`, e.g. the `status` after a final answer)."""
    if lenient:
        prefer = "guiowl" if config.prompt == "guiowl" else "androidworld"
        return parsers.parse_any(text, space=space, prefer=prefer)
    if config.prompt == "m3a":
        return parsers.parse_androidworld(text, space=space)
    return parsers.parse_guiowl(text, space=space)
