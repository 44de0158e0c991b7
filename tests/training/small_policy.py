"""A small text policy for training tests, built in seconds: a 64-wide, 2-layer Qwen3 whose
tokenizer is trained on the given SFT rows alone (the phone-wide corpus of
`build_tiny_policy` takes ~30 s on a busy 2-core machine when it is not cached)."""

from __future__ import annotations

from pathlib import Path


def small_policy(data: Path, out: Path, vocab_size: int = 1024) -> Path:
    from antrap_gym.training.data import read_rows

    return small_policy_of([m["content"] for r in read_rows([data]) for m in r["messages"]], out,
                           vocab_size)


def small_policy_of(lines: list[str], out: Path, vocab_size: int = 1024) -> Path:
    """`small_policy` with its tokenizer trained on `lines`."""
    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    from antrap_gym.training.tiny import train_tokenizer

    tok = train_tokenizer(lines, vocab_size)
    eos, pad = tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>")
    config = Qwen3Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=16, tie_word_embeddings=True,
                         max_position_embeddings=8192, eos_token_id=eos, pad_token_id=pad, bos_token_id=None)
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=[eos, pad], pad_token_id=pad, do_sample=False)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out
