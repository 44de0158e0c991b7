"""Loading a peft (LoRA) adapter directory as a plain model.

A LoRA run saves only its adapters (`adapter_config.json`, `adapter_model.safetensors`)
with the tokenizer and the policy format beside them; the frozen base is the local
directory named in `adapter_config.json`. Here the base loads from there, the
adapters are applied and merged into it (one ordinary model, as fast as the base at
inference), all from local files. peft is imported only when an adapter is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ADAPTER_CONFIG = "adapter_config.json"


def is_adapter_dir(path: str | Path) -> bool:
    """A directory of peft adapters (and no full model of its own)."""
    p = Path(path)
    return (p / ADAPTER_CONFIG).exists() and not (p / "config.json").exists()


def adapter_base(path: str | Path) -> Path:
    """The local base-model directory an adapter directory was trained on."""
    p = Path(path)
    cfg = json.loads((p / ADAPTER_CONFIG).read_text(encoding="utf-8"))
    base = cfg.get("base_model_name_or_path")
    if not base:
        raise ValueError(f"{p / ADAPTER_CONFIG} names no base model (base_model_name_or_path)")
    b = Path(base).expanduser()
    if not b.is_absolute() and not b.is_dir():
        b = p / b  # a path written relative to the adapter directory
    if not b.is_dir():
        raise FileNotFoundError(f"the adapters in {p} need their base model {base}, which is not a local "
                                "directory (models are never downloaded: set base_model_name_or_path in "
                                f"{ADAPTER_CONFIG} to where it is)")
    return b


def load_merged(model_cls: Any, path: str | Path, **load: Any):
    """The base model of the adapters in `path` (loaded with `model_cls.from_pretrained(base,
    **load)`), with the adapters applied and merged in."""
    try:
        from peft import PeftModel
    except ImportError as e:
        raise ImportError(f"{path} holds LoRA adapters: loading them needs peft (pip install peft)") from e

    base = model_cls.from_pretrained(adapter_base(path), **load)
    model = PeftModel.from_pretrained(base, str(path), is_trainable=False)
    return model.merge_and_unload()


__all__ = ["ADAPTER_CONFIG", "adapter_base", "is_adapter_dir", "load_merged"]
