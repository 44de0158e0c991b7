"""Tiny Qwen2.5-VL and Qwen3-VL policies (GUI-Owl's own architectures), built locally.

`build_tiny_qwen_vl(out, family)` makes a random-weight model of the family's
own classes (`Qwen2_5_VLForConditionalGeneration` / `Qwen3VLForConditionalGeneration`)
at toy sizes, with the family's processor assembled here: its image processor
with the family's patch and merge sizes and a small `max_pixels` (a phone
screenshot becomes a few dozen image tokens, so CPU steps are fast), a byte-level
BPE tokenizer trained on the phone's text carrying the family's special tokens
(`<|im_start|>`, `<|vision_start|>`, `<|image_pad|>` ...), and TRL's chat
template for the family. Nothing comes from a hub; the same seed gives the same
files. `antrap train` builds one when `model.family` is set and `model.path` is null.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from antrap_gym.agents.families import family as get_family
from antrap_gym.agents.vl_processor import image_only_processor
from antrap_gym.training.tiny import BUILD_INFO, SPECIAL_TOKENS, TAG_TOKENS

if TYPE_CHECKING:
    from antrap_gym.training.config import TinyConfig

#: the family's vision and box tokens, special as in Qwen's vocabulary
VISION_TOKENS = ["<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>",
                 "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
                 "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>"]
#: the image processor's normalisation: CLIP's for Qwen2.5-VL, 0.5 for Qwen3-VL
_NORM = {"qwen2_5_vl": ([0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711]),
         "qwen3_vl": ([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])}


def image_pixels(family: str, image_tokens: int) -> tuple[int, int]:
    """(min_pixels, max_pixels) for at most `image_tokens` merged tokens of the family
    (what `TrainConfig.model_geometry` declares for the tiny model)."""
    from antrap_gym.training.config import ModelConfig, TinyConfig, TrainConfig

    cfg = TrainConfig(model=ModelConfig(family=family, tiny=TinyConfig(image_tokens=image_tokens)))
    geo = cfg.model_geometry()
    return geo["min_pixels"], geo["max_pixels"]


def chat_template(family: str) -> str:
    """TRL's chat template of the family (images as `<|vision_start|><|image_pad|><|vision_end|>`)."""
    from trl import chat_template_utils as ctu

    if get_family(family).name == "qwen3_vl":
        return ctu.qwen3_vl_chat_template
    return ctu.qwen2_5_vl_chat_template


def build_processor(family: str, lines: list[str], vocab_size: int = 4096, image_tokens: int = 36):
    """The family's processor: image processor (family defaults, small max_pixels), a
    tokenizer trained on `lines` with the family's special tokens, the chat template."""
    import transformers as tf

    from antrap_gym.training.tiny import train_tokenizer

    fam = get_family(family)
    tok = train_tokenizer(lines, vocab_size)
    tok.add_special_tokens({"additional_special_tokens": VISION_TOKENS})
    template = chat_template(fam.name)
    tok.chat_template = template
    lo, hi = image_pixels(fam.name, image_tokens)
    mean, std = _NORM[fam.name]
    cls = getattr(tf, "Qwen2VLImageProcessorPil", None) or tf.Qwen2VLImageProcessor
    image_proc = cls(patch_size=fam.patch_size, merge_size=fam.merge_size, temporal_patch_size=2,
                     size={"shortest_edge": lo, "longest_edge": hi}, image_mean=mean, image_std=std)
    try:  # the family's own class needs a video processor, hence torchvision
        cls_name = "Qwen3VLProcessor" if fam.name == "qwen3_vl" else "Qwen2_5_VLProcessor"
        return getattr(tf, cls_name)(image_processor=image_proc, tokenizer=tok,
                                     video_processor=_video_processor(fam), chat_template=template)
    except (ImportError, ValueError, TypeError, AttributeError):
        return image_only_processor(fam.name)(image_processor=image_proc, tokenizer=tok,
                                              chat_template=template)


def _video_processor(fam):
    import transformers as tf

    cls = tf.Qwen3VLVideoProcessor if fam.name == "qwen3_vl" else tf.Qwen2VLVideoProcessor
    return cls(patch_size=fam.patch_size, merge_size=fam.merge_size, temporal_patch_size=2)


def model_config(family: str, tok, tiny: TinyConfig):
    """The family's config at tiny sizes (`model.tiny`), token ids from `tok`."""
    import transformers as tf

    fam = get_family(family)
    ids = {name: tok.convert_tokens_to_ids(t) for name, t in (
        ("image_token_id", "<|image_pad|>"), ("video_token_id", "<|video_pad|>"),
        ("vision_start_token_id", "<|vision_start|>"), ("vision_end_token_id", "<|vision_end|>"))}
    eos, pad = tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>")
    head_dim = tiny.hidden_size // tiny.num_heads
    half = head_dim // 2  # mrope splits the rotary half over (time, height, width)
    section = [half - 2 * (half // 3), half // 3, half // 3]
    text = {"vocab_size": len(tok), "hidden_size": tiny.hidden_size,
            "intermediate_size": tiny.intermediate_size,
            "num_hidden_layers": tiny.num_layers, "num_attention_heads": tiny.num_heads,
            "num_key_value_heads": tiny.num_kv_heads, "max_position_embeddings": tiny.max_position_embeddings,
            "eos_token_id": eos, "pad_token_id": pad, "bos_token_id": None}
    vh = tiny.vision_hidden_size
    vision = {"depth": tiny.vision_layers, "hidden_size": vh, "intermediate_size": 2 * vh,
              "num_heads": tiny.vision_heads, "out_hidden_size": tiny.hidden_size,
              "patch_size": fam.patch_size, "spatial_merge_size": fam.merge_size, "temporal_patch_size": 2}
    if fam.name == "qwen3_vl":
        text.update(head_dim=head_dim, rope_parameters={"rope_type": "default", "rope_theta": 5_000_000.0,
                                                       "mrope_section": section, "mrope_interleaved": True})
        vision.update(num_position_embeddings=64, deepstack_visual_indexes=[tiny.vision_layers - 1])
        return tf.Qwen3VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=True, **ids), \
            tf.Qwen3VLForConditionalGeneration
    text.update(rope_parameters={"rope_type": "default", "rope_theta": 1_000_000.0, "mrope_section": section})
    vision.update(window_size=fam.factor * 4, fullatt_block_indexes=[tiny.vision_layers - 1])
    return tf.Qwen2_5_VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=True, **ids), \
        tf.Qwen2_5_VLForConditionalGeneration


def build_tiny_qwen_vl(out_dir: str | Path, family: str, tiny_cfg: TinyConfig | None = None,
                       lines: list[str] | None = None, seed: int = 0) -> Path:
    """Build, save and return a tiny model of `family` (`qwen2_5_vl` or `qwen3_vl`).

    `lines` train the tokenizer (default: `phone_corpus` in the text policy format).
    """
    import dataclasses

    import torch
    from transformers import GenerationConfig

    from antrap_gym.training.config import TinyConfig
    from antrap_gym.training.data import phone_corpus

    fam = get_family(family)
    tiny = tiny_cfg or TinyConfig()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if lines is None:
        lines = phone_corpus(variants=tiny.corpus_variants, seed=seed)
    proc = build_processor(fam.name, lines, tiny.vocab_size, tiny.image_tokens)
    tok = proc.tokenizer
    config, cls = model_config(fam.name, tok, tiny)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = cls(config)
    eos, pad = tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>")
    model.generation_config = GenerationConfig(eos_token_id=[eos, pad], pad_token_id=pad, do_sample=False)
    model.save_pretrained(out)
    proc.save_pretrained(out)
    info = {"arch": config.model_type, "family": fam.name, "seed": seed, "tiny": dataclasses.asdict(tiny),
            "vocab": len(tok), "parameters": sum(p.numel() for p in model.parameters()),
            "corpus_lines": len(lines), "special_tokens": SPECIAL_TOKENS + VISION_TOKENS, "tags": TAG_TOKENS}
    (out / BUILD_INFO).write_text(json.dumps(info, indent=1))
    return out


__all__ = ["VISION_TOKENS", "build_processor", "build_tiny_qwen_vl", "chat_template", "image_pixels",
           "model_config"]
