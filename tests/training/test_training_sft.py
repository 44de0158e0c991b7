"""SFT with TRL on the tiny policy: real training steps on CPU, no mocks.

SFT on a few oracle steps must lower the loss and log every step to
metrics.jsonl; a run killed with SIGKILL after its first checkpoint must
continue from that checkpoint's step with --resume (nothing restarts from 0);
the `collect` and `train sft` commands must run end to end, evaluation included.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.paths import ROOT

for _mod in ("torch", "transformers", "trl", "datasets", "tokenizers"):
    pytest.importorskip(_mod)

from antrap_gym.agents.policy import PolicyConfig  # noqa: E402
from antrap_gym.training.callbacks import last_checkpoint, read_metrics  # noqa: E402
from antrap_gym.training.config import load_config  # noqa: E402
from antrap_gym.training.data import collect  # noqa: E402


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    from antrap_gym.training.tiny import build_tiny_policy

    return build_tiny_policy(tmp_path_factory.mktemp("tiny"), seed=0)


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    return collect(tmp_path_factory.mktemp("sft-data"), traps=["clean"], variants=1,
                   tasks=["SettingsWifiToggle", "SettingsBrightness"],
                   policy_cfg=PolicyConfig(observation="text"))


def _overrides(tiny_dir: Path, data: Path, **extra) -> list[str]:
    sets = {"model.path": str(tiny_dir), "model.device": "cpu", "sft.data": f"[{data}]", "sft.batch_size": 2,
            "sft.max_length": 3072, "train.logging_steps": 1, "train.progress": "false",
            "eval_after.enabled": "false", **extra}
    return [f"{k}={v}" for k, v in sets.items()]


def _losses(rows: list[dict]) -> list[tuple[int, float]]:
    return [(r["step"], r["loss"]) for r in rows if "loss" in r and "event" not in r]


def test_sft_lowers_the_loss_and_logs_every_step(tiny_dir, data, tmp_path):
    from antrap_gym.agents import make_agent
    from antrap_gym.training.sft import run_sft

    sets = _overrides(tiny_dir, data, **{"sft.max_steps": 16, "sft.lr": 3e-3, "train.save_steps": 8})
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml", sets)
    final = run_sft(cfg, tmp_path / "run", resume=False)
    assert final == tmp_path / "run" / "final" and (final / "model.safetensors").exists()
    rows = read_metrics(tmp_path / "run")
    losses = _losses(rows)
    assert [s for s, _ in losses] == list(range(1, 17))
    first, last = losses[0][1], sum(v for _, v in losses[-3:]) / 3
    assert last < first - 0.5, losses  # it learns the oracle's replies
    step = next(r for r in rows if r.get("step") == 2 and "loss" in r)
    for key in ("epoch", "lr", "grad_norm", "tokens_per_s", "s_per_step", "wall_s"):
        assert key in step, key
    assert rows[0]["event"] == "train_begin" and rows[0]["resumed"] is False
    assert rows[0]["dataset"]["used"] == rows[0]["dataset"]["rows"] > 5
    assert rows[-1]["event"] == "train_end" and rows[-1]["step"] == 16
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["global_step"] == 16 and result["resumed_from"] is None
    assert last_checkpoint(tmp_path / "run").name == "checkpoint-16"
    assert load_config(tmp_path / "run" / "train_config.yaml").to_dict() == cfg.to_dict()  # the run's config
    # the trained checkpoint is a policy the harness can run
    agent = make_agent("transformers", model_path=str(final), max_new_tokens=4)
    assert agent.tokenizer.chat_template == load_tokenizer_template(tiny_dir)


def load_tokenizer_template(path: Path) -> str:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(path, local_files_only=True).chat_template


def test_rows_become_prompt_completion_with_the_loss_on_the_reply(tiny_dir, data):
    from transformers import AutoTokenizer

    from antrap_gym.training.sft import build_dataset

    tok = AutoTokenizer.from_pretrained(tiny_dir, local_files_only=True)
    ds, stats = build_dataset([data], tok, 3072)
    assert set(ds.column_names) == {"prompt", "completion"}
    assert [m["role"] for m in ds[0]["prompt"]] == ["system", "user"]
    reply = ds[0]["completion"][0]
    assert reply["role"] == "assistant" and "<tool_call>" in reply["content"]
    assert stats["dropped_too_long"] == 0 and stats["used"] == len(ds)
    short, stats = build_dataset([data], tok, stats["max_tokens"] - 1)  # the longest row is dropped, not cut
    assert stats["dropped_too_long"] >= 1 and len(short) == len(ds) - stats["dropped_too_long"]
    with pytest.raises(ValueError, match=r"longer than sft\.max_length"):
        build_dataset([data], tok, 16)


def test_cli_train_sft_runs_evaluates_and_refuses_to_overwrite(tiny_dir, data, tmp_path, capsys):
    from antrap_gym.training.cli import main

    out = tmp_path / "cli-run"
    sets = _overrides(tiny_dir, data, **{"sft.max_steps": 2, "eval_after.enabled": "true",
                                         "eval_after.max_new_tokens": 8})
    argv = ["train", "sft", "--config", "smoke_cpu", "--out", str(out)]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip().endswith(str(out / "final"))
    summary = json.loads((out / "eval" / "summary.json").read_text())
    (agent,) = summary["agents"].values()
    assert agent["episodes"] == 1 and agent["errors"] == 0  # eval_after: SettingsWifiToggle, clean
    result = json.loads((out / "result.json").read_text())
    assert result["eval"]["out"] == str(out / "eval")
    assert main(argv) == 2  # the run exists: --resume or another --out
    assert "pass --resume" in capsys.readouterr().err
    assert main(["train", "sft", "--config", "smoke_cpu", "--set", "sft.epoch=1"]) == 2
    assert "did you mean 'epochs'" in capsys.readouterr().err


def test_vlm_sft_runs_on_png_rows(tmp_path):
    """TRL's VLM route on the collected PNG rows: a tiny LLaVA trains and is evaluated."""
    from transformers import AutoProcessor

    from antrap_gym.training.sft import build_dataset, run_sft
    from tests.training.tiny_vlm import build_tiny_llava

    vlm = build_tiny_llava(tmp_path / "tiny-llava")
    proc = AutoProcessor.from_pretrained(vlm, local_files_only=True)
    data = collect(tmp_path / "vlm-data", traps=["clean"], variants=1, tasks=["SettingsWifiToggle"],
                   policy_cfg=PolicyConfig(observation="screenshot"))
    ds, stats = build_dataset([data], proc, 4096)
    assert stats["vlm"] and ds[0]["images"][0].size == PolicyConfig().space((1080, 2400)).image_size
    sets = [f"model.path={vlm}", "model.device=cpu", f"sft.data=[{data}]", "sft.max_steps=3",
            "policy.observation=screenshot", "train.save_steps=2", "train.progress=false",
            "eval_after.max_new_tokens=8"]
    final = run_sft(load_config("smoke_cpu", sets), tmp_path / "run", resume=False)
    losses = _losses(read_metrics(tmp_path / "run"))
    assert [s for s, _ in losses] == [1, 2, 3] and all(v > 0 for _, v in losses)
    assert (final / "preprocessor_config.json").exists() or (final / "processor_config.json").exists()
    summary = json.loads((tmp_path / "run" / "eval" / "summary.json").read_text())
    (agent,) = summary["agents"].values()
    assert agent["episodes"] == 1 and agent["errors"] == 0


def test_cli_train_grpo_runs_a_step(tiny_dir, tmp_path, capsys):
    """`antrap train grpo` end to end: one real GRPO step, the final model, result.json."""
    from antrap_gym.training.cli import main

    out = tmp_path / "grpo"
    argv = ["train", "grpo", "--config", "smoke_cpu", "--out", str(out)]
    for s in (f"model.path={tiny_dir}", "model.device=cpu", "grpo.steps=1", "grpo.states_per_refresh=2",
              "eval_after.enabled=false", "train.progress=false", "env.tasks=[SettingsWifiToggle]"):
        argv += ["--set", s]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip().endswith(str(out / "final"))
    result = json.loads((out / "result.json").read_text())
    assert result["global_step"] == 1 and result["stage"] == "grpo"
    assert (out / "final" / "model.safetensors").exists()


@pytest.mark.slow
def test_resume_after_sigkill_continues_from_the_checkpoint(tiny_dir, data, tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "antrap_gym.training.cli", "train", "sft", "--config", "smoke_cpu",
           "--out", str(out)]
    for s in _overrides(tiny_dir, data, **{"sft.max_steps": 12, "train.save_steps": 3, "sft.lr": 1e-3}):
        cmd += ["--set", s]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while last_checkpoint(out) is None:
            assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
            assert time.monotonic() < deadline, "no checkpoint within 4 minutes"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "final").exists()
    ckpt = last_checkpoint(out)
    n = int(ckpt.name.split("-")[1])
    assert 3 <= n < 12 and n % 3 == 0
    before = _losses(read_metrics(out))
    assert before and before[0][0] == 1

    done = subprocess.run([*cmd, "--resume"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = read_metrics(out)
    begins = [r for r in rows if r.get("event") == "train_begin"]
    assert [(b["step"], b["resumed"]) for b in begins] == [(0, False), (n, True)]
    losses = _losses(rows)
    assert [s for s, _ in losses] == list(range(1, 13))  # steps after the checkpoint were redone once
    # the killed run's log up to the checkpoint is kept as it was
    assert [x for x in losses if x[0] <= n] == [x for x in before if x[0] <= n]
    result = json.loads((out / "result.json").read_text())
    assert result["global_step"] == 12 and result["resumed_from"] == str(ckpt)
    assert last_checkpoint(out).name == "checkpoint-12"


def test_the_evaluated_agent_reads_the_prompt_it_was_trained_on(tiny_dir):
    """Every policy-format option of a training config reaches the evaluation agent."""
    from antrap_gym.agents import make_agent
    from antrap_gym.training.evaluation import agent_kwargs

    sets = ["model.device=cpu", "policy.conclusion=false", "policy.element_index=true",
            "policy.max_history=5", "policy.max_element_chars=4000", "policy.coords=relative",
            "policy.prompt=m3a", "policy.goal_reminder=true", "policy.tool_docs=false",
            "policy.element_bounds=false"]
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml", sets)
    agent = make_agent("transformers", **agent_kwargs(tiny_dir, cfg))
    assert agent.config == cfg.policy_config()
