"""An answer carried by any finishing action, in any supported agent format, reaches
the task's check: for every answer-kind template the oracle's answer, written in each
format, scores what the oracle scores."""

from __future__ import annotations

import json

import pytest

from antrap_gym.agents import OracleAgent
from antrap_gym.agents.parsers import PARSERS, parse_any
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES

ANSWER_TEMPLATES = sorted(t for t, cls in TEMPLATES.items() if cls.answer_task)
SEEDS = (0, 1, 2)


def _uitars_quoted(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def replies(answer: str) -> dict[str, list[str]]:
    """The ways an agent of each format ends an information-retrieval task."""
    tool = lambda args: ('<thinking>I have the answer.</thinking>\n<tool_call>\n'  # noqa: E731
                         + json.dumps({"name": "mobile_use", "arguments": args}) + "\n</tool_call>")
    return {
        "guiowl answer, terminate": [tool({"action": "answer", "text": answer}),
                                     tool({"action": "terminate", "status": "success"})],
        "guiowl terminate with text": [tool({"action": "terminate", "status": "success", "text": answer})],
        "androidworld answer, status": [
            "Reason: found it.\nAction: " + json.dumps({"action_type": "answer", "text": answer}),
            'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}'],
        "androidworld status with text": [
            "Reason: done.\nAction: " + json.dumps({"action_type": "status", "goal_status": "complete",
                                                    "text": answer})],
        "androidlab finish(message=)": [f"The answer is on screen.\nfinish(message={json.dumps(answer)})"],
        "uitars finished(content=)": [
            f"Thought: I found it.\nAction: finished(content={_uitars_quoted(answer)})"],
    }


def _oracle_run(tid: str, seed: int):
    env = make_env(task=tid, obs_mode="text")
    res = run_episode(env, OracleAgent(), seed=seed)
    env.close()
    return res


@pytest.mark.parametrize("tid", ANSWER_TEMPLATES)
def test_the_oracles_answer_in_every_format_scores_the_oracles_success(tid):
    assert ANSWER_TEMPLATES, "no answer-kind templates are registered"
    for seed in SEEDS:
        ref = _oracle_run(tid, seed)
        assert ref.answer and ref.success == 1.0, (tid, seed, ref.answer, ref.success)
        # the oracle's steps before it answered: replayed as they were
        prefix = [s.action for s in ref.trajectory if isinstance(s.action, dict)
                  and s.action.get("action_type") not in ("answer", "status")]
        for fmt, texts in replies(ref.answer).items():
            env = make_env(task=tid, obs_mode="text")
            env.reset(seed=seed)
            for a in prefix:
                env.step(a)
            style = fmt.split()[0]
            info: dict = {}
            done = False
            for text in texts:
                for parsed in (PARSERS[style](text, None), parse_any(text)):
                    assert parsed.style == style, (fmt, parsed)
                for action in parse_any(text).actions:
                    assert not done, (fmt, "the reply's actions went on past the episode's end")
                    obs, reward, term, trunc, info = env.step(action)
                    assert not obs["last_action_error"], (fmt, obs["last_action_error"])
                    done = term or trunc
            assert done, (tid, seed, fmt)
            assert info["success"] == ref.success, (tid, seed, fmt, ref.answer, info.get("answer"))
            env.close()


def test_an_explicit_answer_wins_over_a_closing_remark():
    tid = ANSWER_TEMPLATES[0]
    ref = _oracle_run(tid, 0)
    env = make_env(task=tid, obs_mode="text")
    env.reset(seed=0)
    for s in ref.trajectory:
        if isinstance(s.action, dict) and s.action.get("action_type") != "status":
            env.step(s.action)
    # a finishing status that carries text (the env's reading of such a JSON action)
    _, reward, term, _, info = env.step({"action_type": "status", "goal_status": "complete",
                                         "text": "All done, task complete."})
    assert term and reward == 1.0 and info["answer"] == ref.answer


def test_a_closing_remark_without_an_answer_is_the_answer_and_is_checked():
    """A finishing message is the answer when no answer was given: a wrong one scores 0."""
    tid = ANSWER_TEMPLATES[0]
    env = make_env(task=tid, obs_mode="text")
    env.reset(seed=0)
    answer, finish = parse_any("Action: finished(content='I could not find it')").actions
    _, reward, term, _, info = env.step(answer)
    assert not term
    _, reward, term, _, info = env.step(finish)
    assert term and info["answer"] == "I could not find it" and reward == 0.0
