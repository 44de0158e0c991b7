"""Each canonical action is defined once (`ACTION_SPECS`): the validator requires what
its spec says it needs and nothing more, the JSON-action prompt lists every type, and
README's table is made from the specs."""

from __future__ import annotations

import pytest

from antrap_gym.agents.coords import CoordSpace
from antrap_gym.agents.policy import PolicyConfig, system_prompt
from antrap_gym.env.actions import ACTION_SPECS, ACTION_TYPES, Action, ActionError

#: for each kind of need, fields that satisfy it and the field whose absence breaks it
SATISFY = {
    "target": ({"x": 10, "y": 20}, "x"),
    "direction": ({"direction": "down"}, "direction"),
    "direction_or_end": ({"direction": "up"}, "direction"),
    "text": ({"text": "hello"}, "text"),
    "typable": ({"text": "hello"}, None),
    "app_name": ({"app_name": "Contacts"}, "app_name"),
    "goal_status": ({"goal_status": "complete"}, "goal_status"),
}


def _complete(spec) -> dict:
    d = {"action_type": spec.action_type}
    for need in spec.needs:
        d.update(SATISFY[need][0])
    return d


@pytest.mark.parametrize("spec", ACTION_SPECS, ids=lambda s: s.action_type)
def test_an_action_with_what_its_spec_needs_is_valid_and_without_it_is_not(spec):
    assert Action.parse(_complete(spec)).action_type == spec.action_type
    for need in spec.needs:
        field = SATISFY[need][1]
        if field is None:
            continue
        broken = {k: v for k, v in _complete(spec).items() if k != field}
        with pytest.raises(ActionError) as e:
            Action.parse(broken)
        assert f"'{field}'" in str(e.value)


def test_a_typed_text_refuses_control_characters_and_an_answer_does_not_need_to():
    with pytest.raises(ActionError, match="control character"):
        Action.parse({"action_type": "input_text", "text": "a\x00b"})
    assert Action.parse({"action_type": "answer", "text": "a\x00b"}).text == "a\x00b"


def test_a_swipe_may_give_its_end_point_instead_of_a_direction_and_a_scroll_may_not():
    end = {"x": 10, "y": 900, "x2": 10, "y2": 100}
    assert Action.parse({"action_type": "swipe", **end}).x2 == 10
    with pytest.raises(ActionError, match="'direction'"):
        Action.parse({"action_type": "scroll", **end})


def test_the_json_action_prompt_lists_every_action_type_in_the_specs_order():
    prompt = system_prompt(CoordSpace.for_screen((1080, 2400)), PolicyConfig(prompt="m3a"))
    at = [prompt.index(f'{{"action_type": "{t}"') for t in ACTION_TYPES]
    assert at == sorted(at)
    assert tuple(s.action_type for s in ACTION_SPECS) == ACTION_TYPES
