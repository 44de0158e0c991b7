"""LoRA (peft) for SFT and GRPO, and merging adapters into an ordinary checkpoint.

With `model.lora` set, the base model is frozen and TRL's trainers get a
`peft.LoraConfig` (`peft_config=`): only the adapters train, and checkpoints and
`final/` hold peft's adapter files (`adapter_config.json`,
`adapter_model.safetensors`) beside the tokenizer and `antrap_policy.json`. The
adapters name their base by its absolute local path. A stage may also start from
such a directory (`grpo.init_from=RUN/sft/final`): with `model.lora` the same
adapters keep training on the same base; without it they are merged in first and
the whole model trains.

`export_merged(adapters, out)` (`antrap train export --merge`) writes the base
with the adapters merged in as a plain `save_pretrained` directory, which the
transformers agent, vLLM or any other tool loads like any checkpoint.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from antrap_gym.agents.adapters import adapter_base, is_adapter_dir
from antrap_gym.training.config import ConfigError, LoRAConfig, TrainConfig

#: what a stage directory carries beside the weights, copied into a merged export
POLICY_FILES = ("antrap_policy.json", "antrap_train.json", "antrap_tiny.json")
EXPORT_INFO = "antrap_export.json"


def lora_config(lora: LoRAConfig):
    """The `peft.LoraConfig` of a `model.lora` section."""
    try:
        from peft import LoraConfig
    except ImportError as e:
        raise ConfigError("model.lora needs peft: pip install 'antrap-gym[train]' or peft") from e
    targets: Any = list(lora.target_modules)
    if targets == ["all-linear"]:
        targets = "all-linear"
    return LoraConfig(r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout, target_modules=targets,
                      bias="none", task_type="CAUSAL_LM")


def check_targets(model, lora: LoRAConfig) -> None:
    """Every name in `model.lora.target_modules` must be a linear layer of `model` (a
    ConfigError lists the names it has)."""
    import torch

    if list(lora.target_modules) == ["all-linear"]:
        return
    linear = sorted({name.rsplit(".", 1)[-1] for name, m in model.named_modules()
                     if isinstance(m, torch.nn.Linear) and name})
    missing = [t for t in lora.target_modules if t not in linear]
    if missing:
        raise ConfigError(f"model.lora.target_modules: {missing} name no linear layer of this model; "
                          f"its linear layers: {', '.join(linear)} (or use [all-linear])")


def _anchor(model, path: Path) -> None:
    """Make the adapters record their base by absolute path (found from any working directory)."""
    model.name_or_path = str(Path(path).expanduser().resolve())


def prepare_model(config: TrainConfig, model_dir: str | Path):
    """`(model, processing class, peft_config or None)` for a stage starting from `model_dir`.

    A full model with `model.lora`: the model and a LoraConfig for the trainer. An
    adapter directory: its base with the adapters, trainable (`model.lora` set: its
    settings are the saved adapters' own) or merged in (`model.lora` null)."""
    from antrap_gym.training.tiny import load_policy

    model_dir = Path(model_dir)
    lora = config.model.lora
    if not is_adapter_dir(model_dir):
        model, proc = load_policy(config.model, model_dir)
        if lora is None:
            return model, proc, None
        check_targets(model, lora)
        _anchor(model, model_dir)
        return model, proc, lora_config(lora)
    from peft import PeftModel

    base = adapter_base(model_dir)
    model, _ = load_policy(config.model, base)
    _, proc = _processing_class(config, model_dir, base)
    _anchor(model, base)
    peft_model = PeftModel.from_pretrained(model, str(model_dir), is_trainable=lora is not None)
    if lora is None:
        return peft_model.merge_and_unload(), proc, None
    return peft_model, proc, None


def _processing_class(config: TrainConfig, adapters: Path, base: Path):
    """The tokenizer or processor saved with the adapters (else the base's)."""
    import transformers as tf

    from antrap_gym.agents.transformers_agent import _is_vlm
    from antrap_gym.agents.vl_processor import load_processor

    load = {"local_files_only": True, "trust_remote_code": config.model.trust_remote_code}
    vlm = _is_vlm(base, tf.AutoConfig.from_pretrained(base, **load))
    has_own = any((adapters / f).exists() for f in ("tokenizer_config.json", "processor_config.json"))
    src = adapters if has_own else base
    return vlm, (load_processor(src, **load) if vlm else tf.AutoTokenizer.from_pretrained(src, **load))


def export_merged(adapters: str | Path, out: str | Path, dtype: str = "auto",
                  trust_remote_code: bool = False) -> Path:
    """Merge the LoRA adapters in `adapters` into their base and save an ordinary checkpoint
    to `out` (weights, config, tokenizer/processor, the policy format and the run record).

    dtype: auto keeps the base checkpoint's own dtype; float32 / bfloat16 / float16 cast."""
    import torch
    import transformers as tf

    from antrap_gym.agents.adapters import load_merged
    from antrap_gym.training.config import ModelConfig

    src, dst = Path(adapters), Path(out)
    if not is_adapter_dir(src):
        raise FileNotFoundError(f"{src} holds no LoRA adapters (adapter_config.json): nothing to merge")
    if dst.resolve() == src.resolve():
        raise ValueError("the merged export needs its own --out directory")
    if dst.exists() and any(dst.iterdir()):
        raise FileExistsError(f"{dst} exists and is not empty: choose another --out")
    base = adapter_base(src)
    cfg = TrainConfig(model=ModelConfig(trust_remote_code=trust_remote_code))
    vlm, proc = _processing_class(cfg, src, base)
    cls = tf.AutoModelForImageTextToText if vlm else tf.AutoModelForCausalLM
    load: dict[str, Any] = {"local_files_only": True, "trust_remote_code": trust_remote_code,
                            "dtype": "auto" if dtype == "auto" else getattr(torch, dtype)}
    model = load_merged(cls, src, **load)
    dst.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(dst)
    proc.save_pretrained(dst)
    for name in POLICY_FILES:
        if (src / name).exists():
            shutil.copy2(src / name, dst / name)
    info = {"merged_from": str(src.resolve()), "base": str(base.resolve()),
            "dtype": str(next(model.parameters()).dtype).removeprefix("torch.")}
    (dst / EXPORT_INFO).write_text(json.dumps(info, indent=1))
    return dst


__all__ = ["EXPORT_INFO", "check_targets", "export_merged", "lora_config", "prepare_model"]
