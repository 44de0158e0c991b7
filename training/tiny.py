"""The tiny policy (built locally, never downloaded) and loading policies from local paths.

`build_tiny_policy` makes a small random-weight Qwen-family causal LM (Qwen3
when this transformers has it, else Qwen2) with a byte-level BPE tokenizer
trained here on the simulated phone's own text in the policy format (task
goals, element lines, system prompts, user turns, completions), so the
tokenizer covers what the policy reads and writes. The chat template is TRL's
`qwen2_5_chat_template`, byte for byte (TRL recognises tool calling only on the
templates it ships). The result is a `save_pretrained` directory that
`TransformersAgent(model_path=...)`, `SFTTrainer` and `GRPOTrainer` load.
The same seed gives the same tokenizer and weights.

The tokenizer's corpus comes from oracle episodes over every template (~30 s on
2 cores), so `phone_tokenizer` keeps each trained tokenizer in a cache
(`$ANTRAP_CACHE_DIR`, default `~/.cache/antrap-gym`), keyed by its settings and a
digest of this package's source: any change to an app, template or prompt makes a
new key, so a cached tokenizer is always the one training would give now.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from antrap_gym.agents.policy import PolicyConfig

if TYPE_CHECKING:
    from antrap_gym.training.config import ModelConfig, TinyConfig, TrainConfig

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
#: plain added tokens, as Qwen's vocabulary has them (kept when decoding)
TAG_TOKENS = ["<tool_call>", "</tool_call>", "<thinking>", "</thinking>", "<conclusion>", "</conclusion>",
              "<think>", "</think>", "<tools>", "</tools>"]
TINY_DIR = "tiny-init"
BUILD_INFO = "antrap_tiny.json"


def chat_template() -> str:
    """TRL's Qwen2.5 chat template (tool-calling aware)."""
    from trl.chat_template_utils import qwen2_5_chat_template

    return qwen2_5_chat_template


def train_tokenizer(lines: list[str], vocab_size: int):
    """A byte-level BPE tokenizer (Qwen's special tokens and tags) trained on `lines`."""
    return _wrap(_train_bpe(lines, vocab_size))


def _train_bpe(lines: list[str], vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(lines, trainer)
    return tok


def _wrap(tok):
    """The trained BPE as a transformers tokenizer: Qwen's special tokens, tags, chat template."""
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   model_max_length=131072, padding_side="right",
                                   clean_up_tokenization_spaces=False)
    fast.add_tokens(TAG_TOKENS)
    fast.chat_template = chat_template()
    return fast


def cache_dir() -> Path:
    """Where built artefacts are kept between runs (`$ANTRAP_CACHE_DIR`, else
    `$XDG_CACHE_HOME/antrap-gym`, else `~/.cache/antrap-gym`)."""
    if os.environ.get("ANTRAP_CACHE_DIR"):
        return Path(os.environ["ANTRAP_CACHE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "antrap-gym"


def source_digest() -> str:
    """A digest of every Python file of the package (the phone, its apps, the templates,
    the policy format): what the phone's text, and so a tokenizer's corpus, comes from."""
    import antrap_gym
    import antrap_gym.tasks
    import antrap_gym.training

    h = hashlib.sha256()
    roots = {Path(p).resolve() for mod in (antrap_gym, antrap_gym.tasks, antrap_gym.training)
             for p in mod.__path__}
    for root in sorted(roots):
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def tokenizer_cache_path(policy: PolicyConfig, vocab_size: int, variants: int = 2,
                         seed: int = 0) -> Path:
    """Where `phone_tokenizer` keeps the BPE of these settings for this source."""
    settings = json.dumps({"policy": _asdict(policy), "vocab_size": vocab_size,
                           "variants": variants, "seed": seed}, sort_keys=True, default=str)
    key = hashlib.sha256((settings + source_digest()).encode()).hexdigest()[:24]
    return cache_dir() / "tokenizers" / f"{key}.json"


def phone_tokenizer(policy: PolicyConfig, vocab_size: int, variants: int = 2, seed: int = 0,
                    cache: bool = True):
    """The tokenizer `train_tokenizer` makes from `phone_corpus(policy, variants, seed)`,
    from the cache when it holds one for these settings and this source (see module doc)."""
    from tokenizers import Tokenizer

    from antrap_gym.training.data import phone_corpus

    where = tokenizer_cache_path(policy, vocab_size, variants, seed)
    key = where.stem
    if cache and where.is_file():
        return _wrap(Tokenizer.from_file(str(where)))
    bpe = _train_bpe(phone_corpus(policy, variants=variants, seed=seed), vocab_size)
    if cache:
        try:  # written aside, then moved in: workers building the same key never see half
            where.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{key}-")
            os.close(fd)
            bpe.save(tmp)
            os.replace(tmp, where)
        except OSError:
            pass  # a read-only or full disk only costs the next build its 30 s
    return _wrap(bpe)


def _model_config(tiny: TinyConfig, vocab_size: int, eos: int, pad: int):
    import transformers as tf

    arch = tiny.arch
    if arch == "auto":
        arch = "qwen3" if hasattr(tf, "Qwen3Config") else "qwen2"
    common = {"vocab_size": vocab_size, "hidden_size": tiny.hidden_size,
              "intermediate_size": tiny.intermediate_size, "num_hidden_layers": tiny.num_layers,
              "num_attention_heads": tiny.num_heads, "num_key_value_heads": tiny.num_kv_heads,
              "max_position_embeddings": tiny.max_position_embeddings, "tie_word_embeddings": True,
              "eos_token_id": eos, "pad_token_id": pad, "bos_token_id": None}
    if arch == "qwen3":
        return tf.Qwen3Config(head_dim=tiny.hidden_size // tiny.num_heads, **common), tf.Qwen3ForCausalLM
    return tf.Qwen2Config(**common), tf.Qwen2ForCausalLM


def build_tiny_policy(out_dir: str | Path, tiny_cfg: TinyConfig | None = None,
                      policy_cfg: PolicyConfig | None = None, seed: int = 0,
                      cache: bool = True) -> Path:
    """Build, save and return the tiny policy directory (tokenizer + random weights).
    cache: take the tokenizer from the cache when it holds it (`phone_tokenizer`)."""
    import torch
    from transformers import GenerationConfig

    from antrap_gym.training.config import TinyConfig

    tiny = tiny_cfg or TinyConfig()
    policy = policy_cfg or PolicyConfig(observation="text")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = phone_tokenizer(policy, tiny.vocab_size, variants=tiny.corpus_variants, seed=seed,
                          cache=cache)
    eos = tok.convert_tokens_to_ids("<|im_end|>")
    pad = tok.convert_tokens_to_ids("<|endoftext|>")
    config, cls = _model_config(tiny, len(tok), eos, pad)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = cls(config)
    model.generation_config = GenerationConfig(eos_token_id=[eos, pad], pad_token_id=pad, do_sample=False)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    info = {"arch": config.model_type, "seed": seed, "tiny": _asdict(tiny), "vocab": len(tok),
            "parameters": sum(p.numel() for p in model.parameters()),
            "policy": _asdict(policy)}
    (out / BUILD_INFO).write_text(json.dumps(info, indent=1))
    return out


def _asdict(obj: Any) -> dict[str, Any]:
    import dataclasses

    return dataclasses.asdict(obj)


def is_model_dir(path: str | Path) -> bool:
    """A complete `save_pretrained` directory (config, weights and a tokenizer or processor)."""
    p = Path(path)
    has_weights = any(p.glob("*.safetensors")) or any(p.glob("*.bin"))
    names = ("tokenizer.json", "tokenizer_config.json", "processor_config.json")
    has_tok = any((p / f).exists() for f in names)
    return (p / "config.json").exists() and has_weights and has_tok


def policy_path(cfg: TrainConfig, run_dir: str | Path, stage: str = "sft") -> Path:
    """The model a stage starts from: `grpo.init_from` (grpo), else `model.path`, else the
    tiny policy built (once; reused on resume) in `<run_dir>/tiny-init` (a tiny
    Qwen2.5-VL / Qwen3-VL when `model.family` is set)."""
    if stage == "grpo" and cfg.grpo.init_from:
        p = Path(cfg.grpo.init_from).expanduser()
    elif cfg.model.path:
        p = Path(cfg.model.path).expanduser()
    else:
        p = Path(run_dir) / TINY_DIR
        if not is_model_dir(p):
            if cfg.model.family:  # GUI-Owl's own architecture at toy sizes
                from antrap_gym.training.tiny_qwen_vl import build_tiny_qwen_vl

                build_tiny_qwen_vl(p, cfg.model.family, cfg.model.tiny, seed=cfg.train.seed)
            else:
                build_tiny_policy(p, cfg.model.tiny, cfg.policy_config(), cfg.train.seed)
        return p
    if not p.is_dir():
        raise FileNotFoundError(f"{p} is not a local model directory (models are never downloaded: "
                                "save one with save_pretrained and give its path)")
    return p


def load_policy(model_cfg: ModelConfig, path: str | Path | None = None):
    """`(model, tokenizer or processor)` from a local directory (`path`, else `model_cfg.path`).

    Text LMs load with AutoTokenizer + AutoModelForCausalLM, VLMs with
    AutoProcessor + AutoModelForImageTextToText; always `local_files_only`. The
    dtype follows `resolve_dtype` (float32 on CPU). The model stays on the CPU:
    the trainer places it.
    """
    import torch
    import transformers as tf

    from antrap_gym.agents.transformers_agent import _is_vlm
    from antrap_gym.agents.vl_processor import load_processor
    from antrap_gym.training.config import resolve_dtype

    src = path or model_cfg.path
    if src is None:
        raise ValueError("no model path: build the tiny policy first (training.tiny.policy_path)")
    p = Path(src).expanduser()
    if not p.is_dir():
        raise FileNotFoundError(f"{p} is not a local model directory (models are never downloaded)")
    load: dict[str, Any] = {"local_files_only": True, "trust_remote_code": model_cfg.trust_remote_code}
    kw: dict[str, Any] = {"dtype": getattr(torch, resolve_dtype(model_cfg))}
    if model_cfg.attn_implementation:
        kw["attn_implementation"] = model_cfg.attn_implementation
    config = tf.AutoConfig.from_pretrained(p, **load)
    if _is_vlm(p, config):
        proc = load_processor(p, **load)
        model = tf.AutoModelForImageTextToText.from_pretrained(p, **kw, **load)
        template = getattr(proc, "chat_template", None) or getattr(getattr(proc, "tokenizer", None),
                                                                   "chat_template", None)
    else:
        proc = tf.AutoTokenizer.from_pretrained(p, **load)
        model = tf.AutoModelForCausalLM.from_pretrained(p, **kw, **load)
        template = proc.chat_template
    if not template:
        raise ValueError(f"{p} has no chat template; set one and save it")
    return model, proc


__all__ = ["SPECIAL_TOKENS", "TAG_TOKENS", "build_tiny_policy", "cache_dir", "chat_template", "is_model_dir",
           "load_policy", "phone_tokenizer", "policy_path", "source_digest", "tokenizer_cache_path",
           "train_tokenizer"]
