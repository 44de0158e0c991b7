"""LoRA (peft) training on the tiny policy: real SFT and GRPO steps on CPU, no mocks.

With `model.lora` the base stays bit-identical while the adapters move; checkpoints
and `final/` hold the adapters (and the policy format) and reload; GRPO runs a step
on the same adapters; the merged export loads in the transformers agent as an
ordinary checkpoint and gives the adapter model's logits; a bad LoRA section is a
clear config error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.paths import ROOT

for _mod in ("torch", "transformers", "trl", "datasets", "tokenizers", "peft"):
    pytest.importorskip(_mod)

from antrap_gym.agents.policy import PolicyConfig  # noqa: E402
from antrap_gym.training.config import ConfigError, load_config  # noqa: E402
from antrap_gym.training.data import collect  # noqa: E402
from tests.training.small_policy import small_policy  # noqa: E402

SMOKE = ROOT / "configs/train/smoke_cpu.yaml"
LORA = "{r: 4, alpha: 8, dropout: 0.0}"


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    return collect(tmp_path_factory.mktemp("sft-data"), traps=["clean"], variants=1,
                   tasks=["SettingsWifiToggle"], policy_cfg=PolicyConfig(observation="text"))


@pytest.fixture(scope="module")
def tiny_dir(data, tmp_path_factory) -> Path:
    return small_policy(data, tmp_path_factory.mktemp("tiny"))


def _cfg(tiny_dir: Path, data: Path, **extra):
    sets = {"model.path": str(tiny_dir), "model.device": "cpu", "model.lora": LORA, "sft.data": f"[{data}]",
            "sft.batch_size": 2, "sft.max_length": 3072, "sft.lr": 1e-2, "train.logging_steps": 1,
            "train.progress": "false", "eval_after.enabled": "false", **extra}
    return load_config(SMOKE, [f"{k}={v}" for k, v in sets.items()])


@pytest.fixture(scope="module")
def sft_run(tiny_dir, data, tmp_path_factory) -> Path:
    """A LoRA SFT run of 4 steps, checkpointing every 2."""
    from antrap_gym.training.sft import run_sft

    run = tmp_path_factory.mktemp("lora-sft") / "run"
    run_sft(_cfg(tiny_dir, data, **{"sft.max_steps": 4, "train.save_steps": 2}), run, resume=False)
    return run


def _prompt_ids(tok, data: Path):
    from antrap_gym.training.data import read_rows

    row = read_rows([data])[0]
    text = tok.apply_chat_template(row["messages"], tokenize=False)
    return tok(text, add_special_tokens=False, return_tensors="pt")["input_ids"]


def test_lora_sft_changes_only_the_adapters(tiny_dir, data, tmp_path):
    import torch
    from trl import SFTTrainer

    from antrap_gym.training.lora import prepare_model
    from antrap_gym.training.sft import build_dataset, sft_args

    cfg = _cfg(tiny_dir, data, **{"sft.max_steps": 3})
    model, tok, peft_config = prepare_model(cfg, tiny_dir)
    assert peft_config is not None and peft_config.r == 4
    before = {k: v.detach().clone() for k, v in model.state_dict().items()}
    dataset, stats = build_dataset([data], tok, cfg.sft.max_length)
    trainer = SFTTrainer(model=model, args=sft_args(cfg, tmp_path / "run", stats["vlm"]),
                         train_dataset=dataset, processing_class=tok, peft_config=peft_config)
    trainer.train()
    assert trainer.state.global_step == 3
    after = dict(trainer.model.named_parameters())
    adapters = {k: v.detach() for k, v in after.items() if "lora_" in k}
    base = {k: v.detach() for k, v in after.items() if "lora_" not in k}
    assert adapters and all(after[k].requires_grad for k in adapters)
    assert base and not any(after[k].requires_grad for k in base)
    for name, v in base.items():  # the frozen base, bit for bit
        key = name.removeprefix("base_model.model.").replace(".base_layer", "")
        assert torch.equal(v, before[key]), name
    moved = [k for k, v in adapters.items() if "lora_B" in k and v.abs().max() > 0]
    assert len(moved) == sum("lora_B" in k for k in adapters)  # every B left its zero start


def test_adapters_are_saved_with_the_policy_format_and_reload(sft_run, tiny_dir):
    import torch
    from peft import AutoPeftModelForCausalLM
    from safetensors.torch import load_file

    final = sft_run / "final"
    for name in ("adapter_config.json", "adapter_model.safetensors", "antrap_policy.json", "tokenizer.json"):
        assert (final / name).exists(), name
    assert not (final / "model.safetensors").exists()  # the base is not copied
    assert json.loads((final / "antrap_policy.json").read_text())["observation"] == "text"
    adapter_cfg = json.loads((final / "adapter_config.json").read_text())
    assert Path(adapter_cfg["base_model_name_or_path"]) == tiny_dir.resolve()
    assert adapter_cfg["r"] == 4 and adapter_cfg["lora_alpha"] == 8
    saved = load_file(final / "adapter_model.safetensors")
    assert saved and all("lora_" in k for k in saved)
    ckpt = sft_run / "checkpoint-2"
    assert (ckpt / "adapter_model.safetensors").exists() and not (ckpt / "model.safetensors").exists()
    assert json.loads((final / "antrap_train.json").read_text())["lora"]["r"] == 4
    model = AutoPeftModelForCausalLM.from_pretrained(final, local_files_only=True)
    loaded = {k: v for k, v in model.state_dict().items() if "lora_" in k}
    for k, v in saved.items():
        match = [n for n in loaded if n.replace(".default", "") == k]
        assert len(match) == 1 and torch.equal(loaded[match[0]], v), k


def test_merged_export_loads_as_a_checkpoint_with_the_adapter_models_logits(sft_run, tiny_dir, data,
                                                                            tmp_path):
    import torch
    from peft import AutoPeftModelForCausalLM

    from antrap_gym.agents import make_agent
    from antrap_gym.training.cli import main

    out = tmp_path / "merged"
    assert main(["train", "export", "--merge", str(sft_run / "final"), "--out", str(out)]) == 0
    assert (out / "config.json").exists() and (out / "model.safetensors").exists()
    assert not (out / "adapter_config.json").exists() and (out / "antrap_policy.json").exists()
    assert main(["train", "export", "--merge", str(sft_run / "final"), "--out", str(out)]) == 2  # not empty
    merged = make_agent("transformers", model_path=str(out), device="cpu", dtype="float32", max_new_tokens=8)
    direct = make_agent("transformers", model_path=str(sft_run / "final"), device="cpu", dtype="float32",
                        max_new_tokens=8)  # the adapter directory itself, merged on load
    reference = AutoPeftModelForCausalLM.from_pretrained(sft_run / "final", local_files_only=True).eval()
    base = make_agent("transformers", model_path=str(tiny_dir), device="cpu", dtype="float32")
    ids = _prompt_ids(merged.tokenizer, data)
    with torch.no_grad():
        want = reference(ids).logits
        got = merged.model(ids).logits
        got_direct = direct.model(ids).logits
        untrained = base.model(ids).logits
    assert torch.allclose(got, want, atol=1e-4, rtol=0), (got - want).abs().max()
    assert torch.allclose(got_direct, want, atol=1e-4, rtol=0)
    assert (untrained - want).abs().max() > 1e-2  # the adapters change the model: the check has teeth


@pytest.mark.slow
def test_grpo_continues_the_sft_adapters(sft_run, tiny_dir, tmp_path):
    from safetensors.torch import load_file

    from antrap_gym.training.grpo import run_grpo

    sets = {"model.device": "cpu", "model.lora": LORA, "grpo.init_from": str(sft_run / "final"),
            "env.tasks": "[SettingsWifiToggle]", "grpo.steps": 1, "grpo.num_generations": 2,
            "grpo.batch_size": 2, "grpo.max_completion_length": 16, "grpo.states_per_refresh": 2,
            "grpo.oracle_share": 1.0, "grpo.lr": 1e-2, "train.logging_steps": 1, "train.save_steps": 1,
            "train.progress": "false", "eval_after.enabled": "false"}
    cfg = load_config(SMOKE, [f"{k}={v}" for k, v in sets.items()])
    final = run_grpo(cfg, tmp_path / "grpo", resume=False)
    result = json.loads((tmp_path / "grpo" / "result.json").read_text())
    assert result["global_step"] == 1
    adapter_cfg = json.loads((final / "adapter_config.json").read_text())
    assert Path(adapter_cfg["base_model_name_or_path"]) == tiny_dir.resolve()  # the same base, still frozen
    saved = load_file(final / "adapter_model.safetensors")
    assert set(saved) == set(load_file(sft_run / "final" / "adapter_model.safetensors"))
    assert (tmp_path / "grpo" / "checkpoint-1" / "adapter_model.safetensors").exists()


@pytest.mark.parametrize("value, message", [
    ("{r: 0}", "model.lora.r must be at least 1"),
    ("{rank: 4}", "unknown config key 'model.lora.rank'"),
    ("{dropout: 1.0}", "model.lora.dropout must be in"),
    ("{alpha: -1}", "model.lora.alpha must be positive"),
    ("{target_modules: []}", "model.lora.target_modules must name"),
    ("8", "model.lora must be a mapping"),
])
def test_a_bad_lora_section_is_a_config_error(value, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_config(SMOKE, [f"model.lora={value}"])


def test_lora_modules_the_model_lacks_are_a_config_error(tiny_dir, data, capsys):
    from antrap_gym.training.cli import main
    from antrap_gym.training.lora import prepare_model

    cfg = _cfg(tiny_dir, data, **{"model.lora": "{target_modules: [q_proj, qkv]}"})
    with pytest.raises(ConfigError, match=r"\['qkv'\] name no linear layer.*q_proj"):
        prepare_model(cfg, tiny_dir)
    assert main(["train", "sft", "--config", str(SMOKE), "--set", "model.lora.r=0"]) == 2
    assert "model.lora.r must be at least 1" in capsys.readouterr().err
