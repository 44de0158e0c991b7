"""Loading a VLM's processor, Qwen-VL's included where torchvision is missing.

transformers' Qwen2.5-VL and Qwen3-VL processors insist on a video processor,
and video processors need torchvision; screenshots are images only. Where
`AutoProcessor` cannot build the family's processor, the same class is built
without its video part (`image_only_processor`): the same tokens, the same image
processor, the same chat template — only videos are refused.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: families whose processors can run image-only: family name -> transformers class name
_PROCESSORS = {"qwen2_5_vl": "Qwen2_5_VLProcessor", "qwen3_vl": "Qwen3VLProcessor"}


@cache
def image_only_processor(family: str) -> type:
    """The family's processor class with no video processor."""
    import transformers as tf

    base = getattr(tf, _PROCESSORS[family])

    def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs):
        base.__init__(self, image_processor, tokenizer, None, chat_template=chat_template, **kwargs)

    return type(base.__name__, (base,), {"__init__": __init__, "__module__": __name__,
                                         "__doc__": f"{base.__name__} for images only (no torchvision)."})


def load_processor(path: str | Path, **load: Any):
    """`AutoProcessor.from_pretrained(path)`, or the image-only processor of its family
    when the family's own needs what is not installed (torchvision)."""
    import transformers as tf

    from antrap_gym.agents.families import detect_family

    try:
        return tf.AutoProcessor.from_pretrained(path, **load)
    except (ImportError, OSError, ValueError, TypeError, AttributeError):
        fam = detect_family(path)
        if fam is None or fam.name not in _PROCESSORS:
            raise
        return image_only_processor(fam.name).from_pretrained(path, **load)


__all__ = ["image_only_processor", "load_processor"]
