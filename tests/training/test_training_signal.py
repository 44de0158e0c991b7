"""A step that cannot teach the policy anything is said so: a GRPO step whose groups all
tied, one where no reply parsed, one with a zero gradient. Driven through the metrics
callback with transformers' own trainer state and control, as the trainer calls it."""

from __future__ import annotations

import json
import logging

import pytest

pytest.importorskip("transformers")

from transformers import TrainerControl, TrainerState, TrainingArguments

from antrap_gym.training.callbacks import METRICS_FILE, MetricsCallback, no_signal


def _run(tmp_path, logs: list[dict]) -> tuple[MetricsCallback, list[dict]]:
    cb = MetricsCallback(tmp_path, "grpo", progress=False)
    args = TrainingArguments(output_dir=str(tmp_path), use_cpu=True, report_to=[])
    state, control = TrainerState(max_steps=len(logs)), TrainerControl()
    cb.on_train_begin(args, state, control)
    for i, row in enumerate(logs, start=1):
        state.global_step = i
        cb.on_log(args, state, control, logs=row)
    cb.on_train_end(args, state, control)
    lines = [json.loads(x) for x in (tmp_path / METRICS_FILE).read_text().splitlines()]
    return cb, lines


def test_steps_without_a_training_signal_are_warned_about_and_counted(tmp_path, caplog):
    logs = [
        {"loss": 0.0, "grad_norm": 0.0, "frac_reward_zero_std": 1.0,
         "rewards/parse_reward/mean": 0.0},                                    # nothing at all
        {"loss": 0.1, "grad_norm": 0.3, "frac_reward_zero_std": 0.5,
         "rewards/parse_reward/mean": 0.5},                                    # a real step
        {"loss": 0.0, "grad_norm": 0.0, "frac_reward_zero_std": 1.0,
         "rewards/parse_reward/mean": 1.0},                                    # parsed, all tied
    ]
    with caplog.at_level(logging.WARNING, logger="antrap_gym.training.callbacks"):
        cb, lines = _run(tmp_path, logs)
    steps = [x for x in lines if "step" in x and "event" not in x]
    assert [x.get("no_signal", []) for x in steps] == [
        ["no_reward_variance", "no_reply_parsed", "zero_gradient"], [],
        ["no_reward_variance", "zero_gradient"]]
    counts = {"no_reward_variance": 2, "no_reply_parsed": 1, "zero_gradient": 2}
    assert cb.no_signal == counts
    assert lines[-1]["event"] == "train_end" and lines[-1]["no_signal_steps"] == counts
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 3  # the first step of each kind, not every step
    assert any("rewards tied" in w for w in warned) and any("no reply parsed" in w for w in warned)


def test_a_figure_not_logged_says_nothing():
    assert no_signal({"loss": 0.0}) == []
    assert no_signal({"grad_norm": float("nan"), "parse_rate": None}) == []
    assert no_signal({"frac_reward_zero_std": 0.99, "grad_norm": 1e-9}) == []
