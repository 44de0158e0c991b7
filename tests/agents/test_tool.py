"""The `mobile_use` tool is defined once (agents/tool.py): the prompt offers exactly its
actions, the reader reads each of them (and each alias) to the canonical actions it says
it makes, and every canonical action can be reached through the tool."""

from __future__ import annotations

import re

import pytest

from antrap_gym.agents.coords import CoordSpace, ParseError
from antrap_gym.agents.parsers import tool_args_to_action
from antrap_gym.agents.policy import PolicyConfig, tool_schema
from antrap_gym.agents.tool import BUTTON_ALIASES, SYSTEM_BUTTONS, TOOL_ACTIONS, TOOL_ALIASES
from antrap_gym.env.actions import ACTION_TYPES, Action

SPACE = CoordSpace.for_screen((1080, 2400))

#: arguments that make a complete call of each tool action (pixel coordinates)
CALLS: dict[str, list[dict]] = {
    "click": [{"coordinate": [100, 200]}],
    "double_tap": [{"coordinate": [100, 200]}],
    "long_press": [{"coordinate": [100, 200], "time": 1}],
    "swipe": [{"coordinate": [100, 900], "coordinate2": [100, 300]}, {"direction": "up"}],
    "scroll": [{"direction": "down"}],
    "type": [{"text": "hello", "clear": True}],
    "key": [{"text": "back"}, {"text": "home"}, {"text": "enter"}],
    "system_button": [{"button": b} for b in SYSTEM_BUTTONS if b != "Menu"],
    "open": [{"text": "Contacts"}],
    "answer": [{"text": "42"}],
    "wait": [{"time": 1}],
    "terminate": [{"status": "success"}, {"status": "failure"}],
}


def _read(name: str, args: dict) -> dict:
    action = tool_args_to_action({"action": name, **args})
    Action.parse(action)  # a valid canonical action, or this raises
    return action


def test_the_schema_offers_exactly_the_tools_actions_with_their_docs():
    for cfg in (PolicyConfig(), PolicyConfig(tool_docs=False)):
        schema = tool_schema(SPACE, cfg)
        prop = schema["function"]["parameters"]["properties"]["action"]
        assert prop["enum"] == [a.name for a in TOOL_ACTIONS]
    described = tool_schema(SPACE, PolicyConfig())["function"]["parameters"]["properties"]
    for a in TOOL_ACTIONS:
        assert f"* `{a.name}`: {a.doc}" in described["action"]["description"]
    assert described["button"]["enum"] == list(SYSTEM_BUTTONS)


@pytest.mark.parametrize("tool_action", TOOL_ACTIONS, ids=lambda a: a.name)
def test_each_tool_action_reads_to_the_canonical_actions_it_says_it_makes(tool_action):
    calls = CALLS[tool_action.name]
    made = {_read(tool_action.name, args)["action_type"] for args in calls}
    assert made == set(tool_action.makes)


@pytest.mark.parametrize("alias", sorted(TOOL_ALIASES))
def test_each_alias_reads_as_its_action(alias):
    target = TOOL_ALIASES[alias]
    if target.startswith("system_button:"):
        button = target.partition(":")[2]
        assert _read(alias, {}) == _read("system_button", {"button": button})
        assert BUTTON_ALIASES[alias] == button
    else:
        for args in CALLS[target]:
            assert _read(alias, args) == _read(target, args)


def test_every_canonical_action_is_reachable_through_the_tool():
    made = {t for a in TOOL_ACTIONS for t in a.makes}
    assert made == set(ACTION_TYPES)
    assert CALLS.keys() == {a.name for a in TOOL_ACTIONS}


def test_a_name_outside_the_tool_is_refused_with_the_tools_actions():
    with pytest.raises(ParseError) as e:
        tool_args_to_action({"action": "teleport"})
    assert all(a.name in str(e.value) for a in TOOL_ACTIONS)


def test_the_compact_prompts_action_line_is_made_from_the_tools_definitions():
    """The compact prompt lists the tool's actions that carry a `brief`, in COMPACT_ORDER,
    each with its arguments (actions taking the same ones share them), and nothing the
    reader does not know: it is written from `TOOL_ACTIONS`, not beside it."""
    from antrap_gym.agents.policy import PolicyConfig, build_messages
    from antrap_gym.agents.tool import COMPACT_ORDER, TOOL_ACTION_NAMES, TOOL_ACTIONS

    cfg = PolicyConfig(observation="text", prompt="compact", element_bounds=False, index_targets=True)
    line = build_messages("Turn Wi-Fi on", (1080, 2400), config=cfg, elements="")[0]["content"]
    line = line.split("\nActions: ", 1)[1].rstrip(".")
    offered: dict[str, str] = {}
    for names, args in re.findall(r"([a-z_]+(?:, [a-z_]+)*)(?: \(([^()]*(?:\([^()]*\))?[^()]*)\))?(?:; |$)",
                                  line):
        for name in names.split(", "):
            offered[name] = args
    by_name = {a.name: a for a in TOOL_ACTIONS}
    assert list(offered) == [n for n in COMPACT_ORDER if by_name[n].brief is not None]
    assert set(offered) <= set(TOOL_ACTION_NAMES)
    for name, args in offered.items():
        brief = by_name[name].brief.format(target="{target}", field="{field}")
        if "{" not in brief:
            assert args == brief, name
    assert "index: an element's [i]" in offered["click"] == offered["long_press"]
    assert "double_tap" not in offered and by_name["double_tap"].brief is None
