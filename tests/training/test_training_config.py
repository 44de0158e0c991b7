"""Training config errors: `antrap train` refuses a bad config with one line on stderr and
exit status 2 — no traceback, no `--out` folder — and `load_config` names the dotted key
of every problem (bounds, unknown keys with the nearest known one, TRL passthrough keys)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from antrap_gym.training.config import ConfigError, TrapsConfig, from_dict, load_config
from tests.paths import ROOT

SMOKE = ROOT / "configs" / "train" / "smoke_cpu.yaml"


def _train(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`antrap train ...` as a user runs it, in `cwd` (this tree's code)."""
    return subprocess.run([sys.executable, "-m", "antrap_gym.cli.main", "train", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _refused(proc: subprocess.CompletedProcess, *words: str) -> str:
    """The run was refused as a usage error: status 2, one `antrap:` line, no traceback."""
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("antrap: "), proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert proc.stdout == ""
    return lines[0]


# --- the CLI -------------------------------------------------------------------------------------


def test_malformed_yaml_is_one_line_naming_the_file_and_line(tmp_path):
    (tmp_path / "bad.yaml").write_text("sft:\n  lr: 1e-4\n  data: [a.jsonl\ngrpo:\n  steps: 2\n")
    line = _refused(_train(tmp_path, "sft", "--config", "bad.yaml", "--out", "out"), "bad.yaml",
                    "not valid YAML", "line ")
    assert "found" in line or "expected" in line  # the parser's own words for what is wrong
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text", ["", "\n\n", "# only comments\n# nothing set\n"])
def test_an_empty_config_file_is_refused_not_run_with_the_defaults(tmp_path, text):
    (tmp_path / "empty.yaml").write_text(text)
    _refused(_train(tmp_path, "sft", "--config", "empty.yaml", "--out", "out"), "empty.yaml",
             "config file is empty")
    assert not (tmp_path / "out").exists()


def test_a_negative_step_count_names_the_key_and_the_value(tmp_path):
    (tmp_path / "neg.yaml").write_text(f"extends: {SMOKE}\nsft:\n  max_steps: -5\n")
    _refused(_train(tmp_path, "sft", "--config", "neg.yaml", "--out", "out"), "sft.max_steps", "-5")
    assert not (tmp_path / "out").exists()


def test_an_unknown_key_is_named_with_the_nearest_known_one(tmp_path):
    (tmp_path / "typo.yaml").write_text(f"extends: {SMOKE}\ngrpo:\n  num_generation: 4\n")
    _refused(_train(tmp_path, "grpo", "--config", "typo.yaml", "--out", "out"),
             "'grpo.num_generation'", "did you mean 'num_generations'")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("setting, words", [
    ("sft.lr=fast", ["sft.lr must be a number", "'fast'"]),
    ("grpo.rollout=threads", ["grpo.rollout must be one of sync, async, ray", "'threads'"]),
    ("train.save_steps=0", ["train.save_steps must be at least 1", "got 0"]),
    ("grpo.top_p=1.5", ["grpo.top_p", "1.5"]),
    ("sft.max_steps", ["key.sub=value"]),
])
def test_a_bad_set_value_names_the_key(tmp_path, setting, words):
    _refused(_train(tmp_path, "sft", "--config", str(SMOKE), "--out", "out", "--set", setting), *words)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("key, words", [
    ("num_generation", ["'grpo.extra.num_generation'", "trl.GRPOConfig", "did you mean 'num_generations'"]),
    ("max_context_tokens", ["'grpo.extra.max_context_tokens'", "set grpo.max_context_tokens instead"]),
])
def test_grpo_extra_takes_only_trl_grpo_config_arguments(tmp_path, key, words):
    pytest.importorskip("trl")
    proc = _train(tmp_path, "grpo", "--config", str(SMOKE), "--out", "out", "--set", f"grpo.extra.{key}=4")
    _refused(proc, *words)
    assert not (tmp_path / "out").exists()


def test_a_run_that_fails_before_training_removes_the_folders_it_made(tmp_path):
    """A missing warm start is found once the run has begun: the folders it created go again."""
    pytest.importorskip("trl")
    proc = _train(tmp_path, "grpo", "--config", str(SMOKE), "--out", "runs/new/grpo",
                  "--set", "grpo.init_from=missing/final")
    _refused(proc, "missing/final", "not a local model directory")
    assert not (tmp_path / "runs").exists()


def test_a_failed_run_leaves_an_existing_out_folder_alone(tmp_path):
    pytest.importorskip("trl")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("kept")
    proc = _train(tmp_path, "grpo", "--config", str(SMOKE), "--out", "mine",
                  "--set", "grpo.init_from=missing/final")
    _refused(proc, "missing/final")
    assert (out / "notes.txt").read_text() == "kept"


# --- load_config ---------------------------------------------------------------------------------


@pytest.mark.parametrize("setting, message", [
    ("sft.max_steps=-5", "sft.max_steps must be at least 1, got -5"),
    ("sft.max_steps=0", "sft.max_steps must be at least 1, got 0"),
    ("sft.epochs=0", "sft.epochs must be positive, got 0"),
    ("sft.lr=-1e-4", "sft.lr must be at least 0"),
    ("grpo.steps=-1", "grpo.steps must be at least 1, got -1"),
    ("grpo.num_generations=1", "grpo.num_generations must be at least 2, got 1"),
    ("grpo.oracle_share=1.5", "grpo.oracle_share must be in [0, 1], got 1.5"),
    ("grpo.discount=-0.1", "grpo.discount must be in [0, 1], got -0.1"),
    ("grpo.temperature=0", "grpo.temperature must be positive, got 0"),
    ("grpo.max_context_tokens=0", "grpo.max_context_tokens must be at least 1, got 0"),
    ("grpo.lr=.nan", "grpo.lr must be a finite number"),
    ("traps.p=2", "traps.p must be in [0, 1], got 2"),
    ("env.first_variant=-1", "env.first_variant must be at least 0, got -1"),
    ("train.seed=-3", "train.seed must be at least 0, got -3"),
    ("model.trust_remote_code=1", "model.trust_remote_code must be true or false, got 1"),
    ("sft.batch_size=true", "sft.batch_size must be an integer, got True"),
    ("model.dtype=fp8", "model.dtype must be one of auto, float32, bfloat16, float16, got 'fp8'"),
    ("model.tiny.image_tokens=2", "model.tiny.image_tokens must be at least 4, got 2"),
    ("sft.collect.noise_kinds={slap: 1}", "sft.collect.noise_kinds: unknown disturbance kinds ['slap']"),
    ("eval_after=none", "eval_after must be a mapping, got 'none'"),
])
def test_out_of_range_values_name_the_key_and_the_value(setting, message):
    with pytest.raises(ConfigError) as e:
        load_config(SMOKE, [setting])
    assert message in str(e.value)


def test_every_problem_of_a_config_is_named_at_once():
    with pytest.raises(ConfigError) as e:
        load_config(None, ["sft.max_steps=-5", "grpo.reward_weights.progres=2", "train.threads=0"])
    text = str(e.value)
    assert "sft.max_steps must be at least 1, got -5" in text
    assert "unknown config key 'grpo.reward_weights.progres' (did you mean 'progress'?)" in text
    assert "train.threads must be at least 1, got 0" in text


def test_malformed_empty_and_unreadable_files_are_config_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("model:\n  tiny: {hidden_size: 64\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: not valid YAML at line \d+"):
        load_config(bad)
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing\n")
    with pytest.raises(ConfigError, match=r"empty\.yaml: config file is empty"):
        load_config(empty)
    child = tmp_path / "child.yaml"
    child.write_text("extends: empty.yaml\nsft: {lr: 1e-4}\n")
    with pytest.raises(ConfigError, match=r"empty\.yaml: config file is empty"):  # the parent is named
        load_config(child)
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path)  # a folder
    (tmp_path / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "latin1.yaml")


def test_source_is_not_a_config_key():
    with pytest.raises(ConfigError, match=r"unknown config key 'source'"):
        load_config(None, ["source=elsewhere.yaml"])


def test_sections_check_their_values_when_built_or_changed():
    with pytest.raises(ValueError, match="p"):
        TrapsConfig(p=1.5)
    cfg = load_config(SMOKE)
    with pytest.raises(ValueError, match="max_steps"):
        cfg.sft.max_steps = -5
    cfg.sft.max_steps = 7
    assert cfg.sft.max_steps == 7


def test_yaml_text_numbers_and_comma_lists_read_as_before():
    cfg = load_config(SMOKE, ["sft.lr=1e-4", "grpo.steps=1e3",
                              "env.tasks=SettingsWifiToggle, SettingsBrightness",
                              "traps.mode=loop", "traps.duration=2,3", "model.trust_remote_code=yes"])
    assert cfg.sft.lr == pytest.approx(1e-4) and isinstance(cfg.sft.lr, float)
    assert cfg.grpo.steps == 1000 and isinstance(cfg.grpo.steps, int)
    assert cfg.env.tasks == ["SettingsWifiToggle", "SettingsBrightness"]
    assert cfg.traps.duration == [2, 3] and cfg.model.trust_remote_code is True


@pytest.mark.parametrize("path", sorted((ROOT / "configs" / "train").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_config_round_trips_through_its_yaml(path):
    import yaml

    cfg = load_config(path)
    again = from_dict(yaml.safe_load(cfg.to_yaml()))
    assert again.to_dict() == cfg.to_dict()


def test_max_context_tokens_ends_long_episodes(tmp_path):
    """The documented bound reaches the episode rollout: with a context smaller than the
    first prompt every episode ends after one turn; with the default it plays on."""
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    from antrap_gym.training.live_policy import BatchedPolicy
    from antrap_gym.training.rollout import EpisodeRollout
    from antrap_gym.training.tiny import load_policy
    from tests.training.small_policy import small_policy

    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"messages": [{"role": "user", "content": "Turn on Wi-Fi in Settings"},
                                             {"role": "assistant", "content": "<tool_call>tap</tool_call>"}]})
                    + "\n")
    model_dir = small_policy(rows, tmp_path / "policy", vocab_size=400)
    base = ["model.device=cpu", "env.tasks=[SettingsWifiToggle]", "grpo.granularity=episode",
            "grpo.max_turns=3", "grpo.num_envs=2"]
    turns = {}
    for limit in (1, None):
        cfg = load_config(SMOKE, base + ([f"grpo.max_context_tokens={limit}"] if limit else []))
        model, tok = load_policy(cfg.model, model_dir)
        policy = BatchedPolicy(model, tok, cfg.policy_config(), max_new_tokens=8)
        rollout = EpisodeRollout(cfg, policy)
        try:
            spec = json.dumps({"task": "SettingsWifiToggle", "variant": 100, "trap_seed": 1})
            turns[limit] = rollout([[{"role": "user", "content": spec}]] * 2, None)["episode_turns"]
        finally:
            rollout.close()
    assert turns[1] == [1, 1]
    assert all(t > 1 for t in turns[None])  # the same episodes play on under the default bound


def test_a_text_policy_without_bounds_is_warned_unless_it_targets_indices():
    """Without bounds the prompt does not say where an element is: coordinate targets can only
    be memorised screen by screen, so the config says so (smollm2_cpu once trained that way)."""
    import warnings

    smoke = ROOT / "configs/train/smoke_cpu.yaml"
    with pytest.warns(UserWarning, match="index_targets"):
        load_config(smoke, ["policy.element_bounds=false"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_config(smoke, ["policy.element_bounds=false", "policy.index_targets=true"])
        load_config(smoke, [])
        load_config(ROOT / "configs/train/smollm2_cpu.yaml")
