"""A tiny LLaVA (CLIP vision tower + Qwen-family text model), built locally for tests
of the VLM routes: random weights, a tokenizer trained on the phone's text."""

from __future__ import annotations

from pathlib import Path


def build_tiny_llava(path: Path) -> Path:
    import torch
    from transformers import (
        CLIPImageProcessor,
        CLIPVisionConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )

    from antrap_gym.training.data import phone_corpus
    from antrap_gym.training.tiny import train_tokenizer
    from tests.agents.test_transformers_agent import CHAT_TEMPLATE, qwen_text_config

    tok = train_tokenizer(phone_corpus(variants=1), 2048)
    tok.add_special_tokens({"additional_special_tokens": ["<image>"]})
    tok.chat_template = CHAT_TEMPLATE
    image_proc = CLIPImageProcessor(size={"shortest_edge": 56}, crop_size={"height": 56, "width": 56})
    proc = LlavaProcessor(image_processor=image_proc, tokenizer=tok, chat_template=CHAT_TEMPLATE,
                          patch_size=14, vision_feature_select_strategy="default", image_token="<image>",
                          num_additional_image_tokens=1)
    cfg = LlavaConfig(
        vision_config=CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                       image_size=56, num_attention_heads=2, patch_size=14,
                                       projection_dim=32),
        text_config=qwen_text_config(len(tok), tok), image_token_id=tok.convert_tokens_to_ids("<image>"),
        vision_feature_layer=-1, vision_feature_select_strategy="default")
    torch.manual_seed(0)
    LlavaForConditionalGeneration(cfg).save_pretrained(path)
    proc.save_pretrained(path)
    return path
