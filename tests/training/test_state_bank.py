"""The fixed bank of trap states: built the same way every time, scored the same way for
every policy, compared state by state (training/state_bank.py, `antrap train bank`)."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from antrap_gym.agents.policy import PolicyConfig
from antrap_gym.tasks.registry import Suite, register_suite
from antrap_gym.training.state_bank import (
    BankSpec,
    StateBank,
    build_bank,
    compare,
    fixed_replier,
    oracle_replier,
    score_bank,
)

SUITE = "bank-test"
TASKS = ("ContactsWhoseNumber", "SettingsWifiToggle", "MarkorCreateNote", "ClockStopWatchRunning")
TEXT = PolicyConfig(prompt="compact", observation="text")
SPEC = BankSpec("external_interruption", suite=SUITE, size=6, variants=2)


@pytest.fixture(scope="module")
def bank() -> StateBank:
    register_suite(Suite(SUITE, TASKS, variants=2, description="the state bank's tests"))
    return build_bank(SPEC, TEXT)


def test_a_bank_is_a_function_of_its_spec(bank):
    assert len(bank.states) == SPEC.size
    again = build_bank(SPEC, TEXT)
    assert [s.key for s in again.states] == [s.key for s in bank.states]
    assert [s.oracle_reply for s in again.states] == [s.oracle_reply for s in bank.states]
    # another prompt format: the same states, prompts of that format
    m3a = build_bank(SPEC, PolicyConfig(prompt="m3a", observation="text"))
    assert [s.key for s in m3a.states] == [s.key for s in bank.states]
    assert m3a.states[0].state.prompt != bank.states[0].state.prompt
    other = build_bank(BankSpec("external_interruption", suite=SUITE, size=6, variants=2, seed=1), TEXT)
    assert [s.key for s in other.states] != [s.key for s in bank.states]


def test_states_spread_over_templates_and_show_the_trap(bank):
    tasks = [s.state.task for s in bank.states]
    assert set(tasks) == set(TASKS)  # round-robin: every template before any second state
    assert len(set(tasks[:len(TASKS)])) == len(TASKS)
    for s in bank.states:
        assert s.state.trapped and s.state.distance > 0
        assert s.key.startswith(s.state.task + "|")


def test_the_oracle_handles_every_state_and_waiting_none(bank):
    oracle = score_bank(bank, oracle_replier, "oracle")
    wait = score_bank(bank, fixed_replier({"action_type": "wait"}, TEXT), "wait")
    assert oracle.summary()["handled_rate"] == 1.0
    # a pop-up waits for a tap: doing nothing never gets the task closer
    assert wait.summary()["handled_rate"] == 0.0
    assert wait.summary()["parse_rate"] == 1.0
    c = compare(oracle, wait)
    assert c["delta"] == 1.0 and c["gained"] == len(bank.states) and c["lost"] == 0
    assert c["ci95_template"] == [1.0, 1.0]
    # Back closes a pop-up: it handles some states, and the paired comparison sees it
    back = score_bank(bank, fixed_replier({"action_type": "navigate_back"}, TEXT), "back")
    assert back.summary()["handled_rate"] > 0
    assert compare(back, wait)["gained"] == sum(r["handled"] for r in back.rows)


def test_unreadable_replies_are_scored_not_raised(bank):
    junk = score_bank(bank, lambda states: ["I would tap somewhere"] * len(states), "junk")
    s = junk.summary()
    assert s["parse_rate"] == 0.0 and s["handled_rate"] == 0.0
    assert all(r["progress"] == -1.0 and r["error"] for r in junk.rows)
    with pytest.raises(ValueError, match="replies for"):
        score_bank(bank, lambda states: [], "none")


def test_compare_refuses_scores_of_different_banks(bank):
    a = score_bank(bank, oracle_replier, "a")
    b = score_bank(bank, oracle_replier, "b")
    b.rows = b.rows[1:]
    with pytest.raises(ValueError, match="same states"):
        compare(a, b)


def test_save_and_load(bank, tmp_path):
    path = bank.save(tmp_path / "b.pkl")
    back = StateBank.load(path)
    assert [s.key for s in back.states] == [s.key for s in bank.states]
    assert score_bank(back, oracle_replier, "o").summary()["handled_rate"] == 1.0
    (tmp_path / "x.pkl").write_bytes(pickle.dumps({"not": "a bank"}))
    with pytest.raises(ValueError, match="not a state bank"):
        StateBank.load(tmp_path / "x.pkl")


def test_cli_scores_several_policies_on_one_cached_bank(bank, tmp_path, capsys):
    from antrap_gym.training.cli import main

    args = ["train", "bank", "--trap", "external_interruption", "--suite", SUITE, "--size", "6",
            "--variants", "2", "--model", "oracle", "--model", "wait", "--banks", str(tmp_path / "banks"),
            "--set", "policy.observation=text", "--set", "policy.prompt=compact"]
    assert main([*args, "--out", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert [p["label"] for p in report["policies"]] == ["oracle", "wait"]
    assert report["policies"][0]["handled_rate"] == 1.0
    assert report["compared_with_first"][0]["delta"] == -1.0
    assert [r["key"] for r in report["rows"]["oracle"]] == [s.key for s in bank.states]
    banks = list((tmp_path / "banks").iterdir())
    assert len(banks) == 1
    mtime = banks[0].stat().st_mtime_ns
    assert main([*args, "--out", str(tmp_path / "r2.json")]) == 0  # the built bank is reused
    assert banks[0].stat().st_mtime_ns == mtime
    assert main(["train", "bank", "--trap", "clean", "--suite", SUITE, "--model", "oracle",
                 "--out", str(tmp_path / "r3.json"), "--banks", str(tmp_path / "banks")]) == 2
    assert "clean has no trap states" in capsys.readouterr().err


@pytest.mark.slow
def test_a_checkpoint_answers_the_bank_greedily(bank, tmp_path):
    for mod in ("torch", "transformers", "tokenizers"):
        pytest.importorskip(mod)
    from antrap_gym.training.state_bank import model_replier
    from tests.training.small_policy import small_policy_of

    lines = [p["content"] for s in bank.states for p in s.state.prompt]
    lines += [s.oracle_reply for s in bank.states]
    ckpt = small_policy_of(lines, tmp_path / "small")
    reply = model_replier(ckpt, TEXT, max_new_tokens=12, threads=1)
    first = score_bank(bank, reply, "small")
    again = score_bank(bank, reply, "small")
    assert [r["reply"] for r in first.rows] == [r["reply"] for r in again.rows]  # greedy
    assert len(first.rows) == len(bank.states)
    assert first.summary()["handled_rate"] < 1.0  # random weights: no better than the oracle
    # a checkpoint trained on another prompt format is not judged on this one's prompts
    m3a = PolicyConfig(prompt="m3a", observation="text")
    (ckpt / "antrap_policy.json").write_text(json.dumps(dataclasses.asdict(m3a)))
    with pytest.raises(ValueError, match="another prompt format"):
        model_replier(ckpt, TEXT, threads=1)
    model_replier(ckpt, m3a, threads=1)  # its own format is taken
