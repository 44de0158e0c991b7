"""A model's reply does on the phone what its format means: UI-TARS's trailing newline
in `type(content=...)` is one Enter (the submit), and a finishing call that carries a
message is the answer and then the finish, stepped through the env."""

from __future__ import annotations

from antrap_gym.agents.parsers import parse_any
from antrap_gym.registration import make_env
from antrap_gym.tasks.apps import markor as mk

EDITOR = mk.PKG + ":id/document__fragment__edit__highlighting_editor"


def _index(env, **want) -> int:
    els = env.unwrapped.elements
    return next(i for i, e in enumerate(els) if all(getattr(e, k) == v for k, v in want.items()))


def _editor_after_typing(reply: str) -> tuple[str, str]:
    """(the note's text before, after) `reply` is stepped at the end of a Markor note."""
    env = make_env(task="MarkorAppendLine", obs_mode="text")
    env.reset(seed=0)
    env.step({"action_type": "open_app", "app_name": "Markor"})
    name = env.unwrapped.task.params["file_name"]
    env.step({"action_type": "click", "index": _index(env, text=name)})
    before = env.unwrapped.elements[_index(env, resource_name=EDITOR)].text or ""
    parsed = parse_any(reply)
    for action in parsed.actions:
        obs, *_ = env.step({**action, "index": _index(env, resource_name=EDITOR)})
        assert not obs["last_action_error"], obs["last_action_error"]
    after = env.unwrapped.elements[_index(env, resource_name=EDITOR)].text or ""
    env.close()
    return before, after


def test_uitars_trailing_newline_is_one_enter_not_two():
    before, after = _editor_after_typing("Thought: add it.\nAction: type(content='Shopping list\\n')")
    # typed at the end of the note, then one Enter: one line break after the text
    assert after == before + "Shopping list\n"


def test_typing_without_a_newline_still_presses_enter_once():
    before, after = _editor_after_typing("Thought: add it.\nAction: type(content='Shopping list')")
    assert after == before + "Shopping list\n"


def test_androidlab_finish_with_a_message_answers_then_finishes():
    parsed = parse_any('The answer is on screen.\nfinish(message="87%")')
    assert parsed.action == {"action_type": "answer", "text": "87%"}
    assert parsed.then == ({"action_type": "status", "goal_status": "complete"},)
    # giving up carries nothing to answer
    given_up = parse_any('Reason: no.\nAction: {"action_type": "status", "goal_status": "infeasible", '
                         '"text": "cannot"}')
    assert given_up.actions == ({"action_type": "status", "goal_status": "infeasible"},)
