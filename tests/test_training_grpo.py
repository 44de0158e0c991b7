"""GRPO with TRL on the tiny policy: real generation, real rewards from the simulated
phone, real optimizer steps on CPU (marked slow; CI runs them).

A policy warmed up by a short SFT on oracle steps samples replies that differ
in reward, so a GRPO step has a non-zero advantage and must move the weights;
step and episode granularity both run end to end; a run continues from its
checkpoint with resume; the episode rollout's token layout is checked exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

for _mod in ("torch", "transformers", "trl", "datasets", "tokenizers"):
    pytest.importorskip(_mod)

from antrap_gym.agents.policy import PolicyConfig  # noqa: E402
from training.callbacks import last_checkpoint, read_metrics  # noqa: E402
from training.config import load_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TASKS = "[SettingsWifiToggle]"

pytestmark = pytest.mark.slow


def _sets(**extra) -> list[str]:
    base = {"model.device": "cpu", "env.tasks": TASKS, "env.variants": 1, "train.logging_steps": 1,
            "train.progress": "false", "eval_after.enabled": "false", "policy.conclusion": "false",
            "model.tiny.hidden_size": 128, "model.tiny.num_layers": 4, "model.tiny.intermediate_size": 256}
    return [f"{k}={v}" for k, v in {**base, **extra}.items()]


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> Path:
    """The tiny policy after SFT on the oracle's clean steps of one task variant (replies
    without thought or conclusion): its samples mostly parse, and differ."""
    from training.sft import run_sft

    out = tmp_path_factory.mktemp("warm")
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml",
                      _sets(**{"sft.max_steps": 200, "sft.lr": 3e-3, "sft.lr_scheduler": "constant",
                               "sft.collect.thought": "none", "train.save_steps": 1000}))
    return run_sft(cfg, out / "sft", resume=False)


def _weights(path: Path) -> dict:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def _changed(a: dict, b: dict) -> float:
    return max(float((a[k] - b[k]).abs().max()) for k in a)


def _grpo_cfg(warm: Path, **extra):
    sets = _sets(**{"grpo.init_from": str(warm), "grpo.num_generations": 4, "grpo.batch_size": 4,
                    "grpo.max_completion_length": 96, "grpo.temperature": 1.0, "grpo.lr": 1e-3, **extra})
    return load_config(ROOT / "configs/train/smoke_cpu.yaml", sets)


def _rows(run: Path, key: str) -> list[dict]:
    return [r for r in read_metrics(run) if key in r]


def test_step_grpo_moves_the_weights_with_verified_rewards(warm, tmp_path):
    from training.grpo import run_grpo

    cfg = _grpo_cfg(warm, **{"grpo.steps": 3, "grpo.states_per_refresh": 6, "grpo.refresh_every": 2,
                             "train.save_steps": 3})
    final = run_grpo(cfg, tmp_path / "run", resume=False)
    logged = _rows(tmp_path / "run", "rewards/progress_reward/mean")
    assert [r["step"] for r in logged] == [1, 2, 3]
    assert any(r["reward_std"] > 0 for r in logged), logged  # the warm policy's samples differ in reward
    assert all(0.0 <= r["parse_rate"] <= 1.0 and "success_rate" in r for r in logged)
    assert any(r["parse_rate"] > 0 for r in logged)  # the warm policy mostly writes parseable replies
    assert _changed(_weights(warm), _weights(final)) > 0
    states = [r for r in read_metrics(tmp_path / "run") if r.get("event") == "states"]
    assert states and states[0]["states"] == 6
    assert states[0]["from_policy"] > 0  # half the states come from the policy's own episodes
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["global_step"] == 3 and result["replies_executed"] > 0
    # the result is a policy the harness runs
    from antrap_gym.agents import make_agent

    agent = make_agent("transformers", model_path=str(final), max_new_tokens=64, device="cpu")
    assert agent is not None


def test_grpo_resumes_from_its_checkpoint(warm, tmp_path):
    from training.grpo import run_grpo

    run = tmp_path / "run"
    cfg = _grpo_cfg(warm, **{"grpo.steps": 2, "grpo.states_per_refresh": 4, "train.save_steps": 1,
                             "train.save_total_limit": 5})
    run_grpo(cfg, run, resume=False)
    assert last_checkpoint(run).name == "checkpoint-2"
    with pytest.raises(RuntimeError, match="already holds a training run"):
        run_grpo(cfg, run, resume=False)
    import shutil

    shutil.rmtree(run / "final")  # as if killed after the checkpoint
    longer = _grpo_cfg(warm, **{"grpo.steps": 3, "grpo.states_per_refresh": 4, "train.save_steps": 1,
                                "train.save_total_limit": 5})
    run_grpo(longer, run, resume=True)
    result = json.loads((run / "result.json").read_text())
    assert result["global_step"] == 3 and result["resumed_from"].endswith("checkpoint-2")
    steps = [r["step"] for r in _rows(run, "rewards/progress_reward/mean")]
    assert steps == [1, 2, 3]  # the resumed run logged step 3 only; nothing restarted from 0


def test_episode_grpo_runs_whole_episodes_per_group(warm, tmp_path):
    from training.grpo import run_grpo

    cfg = _grpo_cfg(warm, **{"grpo.granularity": "episode", "grpo.steps": 2, "grpo.max_turns": 4,
                             "grpo.per_step_reward": -0.05, "train.save_steps": 2,
                             "grpo.rollout": "async", "grpo.num_envs": 2})
    final = run_grpo(cfg, tmp_path / "run", resume=False)
    eps = [r for r in read_metrics(tmp_path / "run") if r.get("event") == "episodes"]
    assert len(eps) == 2 and all(e["episodes"] == 4 and 1 <= e["mean_turns"] <= 4 for e in eps)
    logged = _rows(tmp_path / "run", "rewards/outcome_reward/mean")
    assert [r["step"] for r in logged] == [1, 2]
    assert all(0.0 <= r["parse_rate"] <= 1.0 for r in logged) and any(r["parse_rate"] > 0 for r in logged)
    if any(r["reward_std"] > 0 for r in logged):
        assert _changed(_weights(warm), _weights(final)) > 0


def test_episode_rollout_token_layout(warm):
    """Replies are the policy's tokens (mask 1), observations are user turns (mask 0);
    the four copies of a group share the trap seed and run to the end."""
    from training.live_policy import BatchedPolicy
    from training.rollout import EpisodeRollout
    from training.tiny import load_policy

    cfg = _grpo_cfg(warm, **{"grpo.granularity": "episode", "grpo.max_turns": 3})
    model, tok = load_policy(cfg.model, warm)
    policy = BatchedPolicy(model, tok, PolicyConfig(observation="text"), max_new_tokens=64)
    rollout = EpisodeRollout(cfg, policy)
    spec = json.dumps({"task": "SettingsWifiToggle", "variant": 3, "trap_seed": 11})
    out = rollout([[{"role": "user", "content": spec}]] * 2, None)
    assert set(out) >= {"prompt_ids", "completion_ids", "logprobs", "env_mask", "episode_reward"}
    for ids, mask, lps in zip(out["completion_ids"], out["env_mask"], out["logprobs"]):
        assert len(ids) == len(mask) == len(lps)
        assert mask[0] == 1  # the first reply starts the completion
        obs = [t for t, m in zip(ids, mask) if m == 0]
        replies = [t for t, m in zip(ids, mask) if m == 1]
        assert all(lp == 0.0 for lp, m in zip(lps, mask) if m == 0)
        assert all(lp <= 0.0 for lp, m in zip(lps, mask) if m == 1)
        if obs:
            text = tok.decode(obs)
            assert "<|im_start|>user" in text and "The user query" in text
            assert "<|im_start|>assistant" in text
        assert replies
    assert all(t <= 3 for t in out["episode_turns"])
    first, second = rollout.last
    assert first["task"] == second["task"] == "SettingsWifiToggle"
    assert first["params"] == second["params"] and first["params"]
    rollout.close()
    # the same episodes, token for token, with the environments in async vector env workers
    cfg.grpo.rollout = "async"
    remote = EpisodeRollout(cfg, policy)
    try:
        again = remote([[{"role": "user", "content": spec}]] * 2, None)
        assert remote.pool.workers >= 2 and remote.pool.calls > 1
    finally:
        remote.close()
    for key in ("prompt_ids", "completion_ids", "env_mask", "episode_reward", "episode_turns"):
        assert again[key] == out[key], key


def test_step_grpo_on_a_vlm_reads_screenshots(tmp_path):
    """TRL's VLM route: prompts with image placeholders, screenshots in the `images`
    column, a tiny LLaVA generating for the policy's own rollouts too."""
    from tests.tiny_vlm import build_tiny_llava
    from training.grpo import run_grpo

    vlm = build_tiny_llava(tmp_path / "tiny-llava")
    sets = _sets(**{"model.path": str(vlm), "policy.observation": "screenshot", "grpo.steps": 1,
                    "grpo.num_generations": 2, "grpo.batch_size": 2, "grpo.max_completion_length": 16,
                    "grpo.states_per_refresh": 2, "grpo.num_envs": 1, "train.save_steps": 1})
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml", sets)
    final = run_grpo(cfg, tmp_path / "run", resume=False)
    states = [r for r in read_metrics(tmp_path / "run") if r.get("event") == "states"]
    assert states[0]["states"] == 2 and states[0]["from_policy"] == 1
    logged = _rows(tmp_path / "run", "rewards/format_reward/mean")
    assert [r["step"] for r in logged] == [1]
    assert (final / "model.safetensors").exists()
