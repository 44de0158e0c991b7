"""The `mobile_use` tool, defined once: each action a model may call, what it does (the
prompt's schema says it), the canonical actions it reads to (`env/actions.py`), and the
other names models give it.

The prompt side (`policy.tool_schema`, and the compact prompt's one-line list,
`compact_action_list`) and the reader (`parsers.tool_args_to_action`) both take the
actions from here, so a tool action cannot be offered without being read,
or read under a name the prompt does not know; `tests/agents/test_tool.py` holds each
action to the canonical actions it says it makes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToolAction:
    """One value of the tool's `action` argument."""

    name: str
    #: what it does, in the schema's words (arguments in backticks)
    doc: str
    #: the canonical action types (`env.actions.ACTION_TYPES`) a call of it reads to
    makes: tuple[str, ...]
    #: other names models use for it (read as this action)
    aliases: tuple[str, ...] = ()
    #: its arguments in the compact prompt's words ("" for none; `{target}`: how an element
    #: is pointed at, `{field}`: how a field is); None: the compact prompt leaves it out
    brief: str | None = None


TOOL_ACTIONS: tuple[ToolAction, ...] = (
    ToolAction("click", "Tap the point `coordinate`.", ("click",), ("tap", "left_click"), "{target}"),
    ToolAction("double_tap", "Tap the point `coordinate` twice quickly.", ("double_tap",),
               ("double_click", "doubletap")),
    ToolAction("long_press", "Press and hold the point `coordinate` for `time` seconds "
               "(default 1).", ("long_press",), ("long_click", "longpress"), "{target}"),
    ToolAction("swipe", "Drag a finger from `coordinate` to `coordinate2`; or, with "
               "`direction`, move the finger that way from `coordinate` (default: the screen "
               "centre).", ("swipe",), ("drag",), "coordinate, coordinate2"),
    ToolAction("scroll", "Scroll the list under `coordinate` (default: the main list) to "
               "reveal the content in `direction` (\"down\" shows what is below).", ("scroll",), (),
               "direction: up, down, left, right"),
    ToolAction("type", "Type `text` into the focused input field (give `coordinate` to tap a "
               "field first; `clear`: true replaces its text). Enter is pressed after typing.",
               ("input_text",), ("input", "type_text", "input_text"), "text, clear; the field's {field}"),
    ToolAction("key", "Press a key named in `text`: back, home or enter.",
               ("navigate_back", "navigate_home", "keyboard_enter"), ("press",)),
    ToolAction("system_button", "Press the system button `button`.",
               ("navigate_back", "navigate_home", "keyboard_enter"), (), "button: Back, Home, Enter"),
    ToolAction("open", "Open the app named in `text`.", ("open_app",),
               ("open_app", "launch", "awake"), "text: the app's name"),
    ToolAction("answer", "Give the answer `text` to the user's question.", ("answer",), (), "text"),
    ToolAction("wait", "Wait `time` seconds (default 2) for the screen to change.", ("wait",), (), ""),
    ToolAction("terminate", "End the task, with `status` success (done) or failure "
               "(impossible).", ("status",), ("finish", "done"), "status: success or failure"),
)

#: the system buttons `system_button` names (Menu, the recent apps, is refused: the
#: phone's tasks are switched with `open`)
SYSTEM_BUTTONS = ("Back", "Home", "Menu", "Enter")
#: names models give a system button's press, read as `system_button` with that button
BUTTON_ALIASES = {
    "back": "Back", "navigate_back": "Back",
    "home": "Home", "navigate_home": "Home",
    "enter": "Enter", "keyboard_enter": "Enter",
}

TOOL_ACTION_NAMES = tuple(a.name for a in TOOL_ACTIONS)
#: the compact prompt's order: pointing first, then typing and moving, then the rest
COMPACT_ORDER = ("click", "long_press", "type", "scroll", "swipe", "system_button", "open", "answer",
                 "wait", "terminate")


def compact_action_list(target: str, field: str) -> str:
    """The compact prompt's line of actions, from each action's `brief`: actions that take
    the same arguments share them (`click, long_press (...)`); `target` and `field` say how
    an element and a field are pointed at."""
    by_name = {a.name: a for a in TOOL_ACTIONS}
    groups: list[tuple[list[str], str]] = []
    for name in COMPACT_ORDER:
        brief = by_name[name].brief
        if brief is None:
            continue
        if groups and brief and groups[-1][1] == brief:
            groups[-1][0].append(name)
        else:
            groups.append(([name], brief))
    parts = [", ".join(names) + (f" ({brief})" if brief else "") for names, brief in groups]
    return ("Actions: " + "; ".join(parts) + ".").format(target=target, field=field)
#: every other name a call's `action` may have -> the tool action it is read as
#: (`system_button:<Button>` for a button's press)
TOOL_ALIASES: dict[str, str] = {
    **{alias: a.name for a in TOOL_ACTIONS for alias in a.aliases},
    **{alias: f"system_button:{button}" for alias, button in BUTTON_ALIASES.items()},
}
