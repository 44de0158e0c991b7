"""A local Hugging Face model as an agent, in the shared policy format.

Models load only from a local directory (`local_files_only`): nothing is ever
downloaded. Text models (AutoTokenizer + AutoModelForCausalLM) read the screen
as element text through their chat template; VLMs (AutoProcessor +
AutoModelForImageTextToText) get the screenshot. torch and transformers are
imported here, lazily, so `antrap_gym` itself imports without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from antrap_gym.agents.adapters import adapter_base, is_adapter_dir, load_merged
from antrap_gym.agents.model_agent import ModelAgent, policy_config
from antrap_gym.agents.policy import QWEN25_FACTOR, PolicySession

_DTYPES = ("auto", "float32", "float16", "bfloat16")


def _is_vlm(path: Path, config: Any) -> bool:
    """A model with a vision tower, or shipped with an image processor."""
    return (getattr(config, "vision_config", None) is not None
            or (path / "preprocessor_config.json").exists())


class TransformersAgent(ModelAgent):
    """A policy model run in-process with transformers.

    model_path: a local directory (`save_pretrained` layout), or a LoRA run's adapter
        directory (its base loads from the local path it names; adapters merged in).
    device: "cpu", "cuda", "cuda:N" or "auto" (CUDA when available).
    dtype: "auto" (bfloat16 on CUDA if supported, else float32), "float32",
        "float16" or "bfloat16".
    max_new_tokens: the reply's length cap.
    do_sample / temperature / top_p / top_k: greedy by default; sampling is
        seeded from `seed` and the episode seed, so a run repeats exactly.
    prompt / coords / observation / element_index / ...: the policy format;
        observation None = "text" for text models, "screenshot" for VLMs.
    coords / factor / min_pixels / max_pixels: None = the model's own: the family
        from config.json (Qwen2.5-VL: absolute pixels, factor 28; Qwen3-VL: relative
        0-1000, factor 32; see `agents.families`), the pixel bounds from its image
        processor; a text model: absolute, 28.
    threads: torch's CPU threads in this process (None: torch's default, one per
        core; with several eval workers on a CPU, cores / workers each).
    """

    name = "transformers"

    def __init__(self, model_path: str | Path, device: str = "cpu", dtype: str = "auto",
                 max_new_tokens: int = 256, prompt: str = "guiowl", coords: str | None = None,
                 observation: str | None = None, element_index: bool | None = None,
                 do_sample: bool = False, temperature: float = 1.0, top_p: float = 1.0,
                 top_k: int | None = None, seed: int = 0, factor: int | None = None,
                 min_pixels: int | None = None, max_pixels: int | None = None, max_history: int = 20,
                 max_element_chars: int = 16_000, lenient: bool = True,
                 trust_remote_code: bool = False, conclusion: bool = True,
                 goal_reminder: bool = False, tool_docs: bool = True,
                 element_bounds: bool = True, threads: int | None = None) -> None:
        import torch
        import transformers as tf

        from antrap_gym.agents.families import detect_family, policy_geometry, processor_geometry
        from antrap_gym.agents.vl_processor import load_processor

        if threads:  # CPU threads for this process (several agents on few cores: 1 each)
            torch.set_num_threads(int(threads))
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise FileNotFoundError(f"{path} is not a local model directory (models are never "
                                    "downloaded: save one with save_pretrained and pass its path)")
        if dtype not in _DTYPES:
            raise ValueError(f"dtype must be one of {_DTYPES}, got {dtype!r}")
        self.torch = torch
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        if dtype == "auto":
            tdtype = (torch.bfloat16 if device.startswith("cuda") and torch.cuda.is_bf16_supported()
                      else torch.float32)
        else:
            tdtype = getattr(torch, dtype)
        load = {"local_files_only": True, "trust_remote_code": trust_remote_code}
        # a LoRA run's adapters: the base model they name, with the adapters merged in
        adapter = is_adapter_dir(path)
        base = adapter_base(path) if adapter else path
        model_config = tf.AutoConfig.from_pretrained(base, **load)
        self.is_vlm = _is_vlm(base, model_config)
        cls = tf.AutoModelForImageTextToText if self.is_vlm else tf.AutoModelForCausalLM
        if self.is_vlm:
            self.processor = load_processor(path, **load)
            self.tokenizer = getattr(self.processor, "tokenizer", self.processor)
        else:
            self.processor = None
            self.tokenizer = tf.AutoTokenizer.from_pretrained(path, **load)
        if adapter:
            self.model = load_merged(cls, path, dtype=tdtype, **load)
        else:
            self.model = cls.from_pretrained(path, dtype=tdtype, **load)
        self.model.to(device)
        self.model.eval()
        if getattr(self.tokenizer, "chat_template", None) is None and (
                self.processor is None or getattr(self.processor, "chat_template", None) is None):
            raise ValueError(f"{path} has no chat template; set tokenizer.chat_template and save it")

        # coordinates and image geometry: given, else the model family's (Qwen2.5-VL: absolute
        # pixels, multiples of 28; Qwen3-VL: relative 0-1000, multiples of 32) and its processor's
        geo = {**policy_geometry(detect_family(base), base), **processor_geometry(path)}
        self.family = detect_family(base)
        self.config = policy_config(
            prompt=prompt, coords=coords or geo.get("coords", "absolute"),
            observation=observation or ("screenshot" if self.is_vlm else "text"),
            element_index=element_index, factor=factor or geo.get("factor", QWEN25_FACTOR),
            min_pixels=min_pixels if min_pixels is not None else geo.get("min_pixels"),
            max_pixels=max_pixels if max_pixels is not None else geo.get("max_pixels"),
            max_history=max_history, max_element_chars=max_element_chars, conclusion=conclusion,
            goal_reminder=goal_reminder, tool_docs=tool_docs, element_bounds=element_bounds)
        self.max_new_tokens = max_new_tokens
        self.do_sample = do_sample
        self.temperature = temperature
        self.top_p = top_p
        self.top_k = top_k
        self.seed = seed
        self.lenient = lenient
        self._begin()

    def reply(self, session: PolicySession, obs: dict[str, Any]) -> str:
        return self.generate(session.hf_messages(obs, text_only=not self.is_vlm))

    # --- generation ----------------------------------------------------------------------------
    def encode(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The model inputs (token ids, and pixel values for a VLM) on the device."""
        templ = self.processor if self.is_vlm else self.tokenizer
        inputs = templ.apply_chat_template(messages, add_generation_prompt=True, tokenize=True,
                                           return_dict=True, return_tensors="pt")
        return {k: v.to(self.device) if hasattr(v, "to") else v for k, v in inputs.items()}

    def generate(self, messages: list[dict[str, Any]]) -> str:
        """The model's reply to Hugging Face-form messages (special tokens removed)."""
        torch = self.torch
        inputs = self.encode(messages)
        tok = self.tokenizer
        gen: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": self.do_sample}
        if self.do_sample:
            gen.update(temperature=self.temperature, top_p=self.top_p)
            if self.top_k is not None:
                gen["top_k"] = self.top_k
        else:  # greedy: drop sampling settings a checkpoint's generation_config may carry
            gen.update(temperature=None, top_p=None, top_k=None)
        eos = [i for i in (tok.convert_tokens_to_ids("<|im_end|>"), tok.eos_token_id)
               if isinstance(i, int) and i >= 0 and i != tok.unk_token_id]
        if eos:
            gen["eos_token_id"] = eos
        pad = tok.pad_token_id if tok.pad_token_id is not None else (eos[0] if eos else None)
        if pad is not None:
            gen["pad_token_id"] = pad
        devices = [torch.device(self.device).index or 0] if self.device.startswith("cuda") else []
        with torch.inference_mode(), torch.random.fork_rng(devices=devices):
            if self.do_sample:
                seed = (self.seed * 1_000_003 + self.episode_seed * 10_007 + self.step_index) % (2 ** 63)
                torch.manual_seed(seed)
            out = self.model.generate(**inputs, **gen)
        new = out[0, inputs["input_ids"].shape[1]:]
        return tok.decode(new, skip_special_tokens=True)


__all__ = ["TransformersAgent"]
