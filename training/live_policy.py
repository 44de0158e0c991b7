"""The policy being trained, acting in environments with batched generation.

`BatchedPolicy` wraps an in-memory model (the one GRPO is updating) with the
shared policy format: it builds each environment's prompt with a
`PolicySession`, runs ONE `generate` call for every environment waiting on the
policy (left-padded batch), and decodes each reply back into an action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from antrap_gym.agents.policy import PolicyConfig, PolicySession


@dataclass
class Generation:
    text: str
    prompt_ids: list[int]
    completion_ids: list[int]
    logprobs: list[float]


def eos_ids(tokenizer) -> list[int]:
    ids = []
    for tok in ("<|im_end|>", "<|endoftext|>"):
        i = tokenizer.convert_tokens_to_ids(tok)
        if isinstance(i, int) and i >= 0 and i != tokenizer.unk_token_id:
            ids.append(i)
    if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in ids:
        ids.append(tokenizer.eos_token_id)
    return ids


class BatchedPolicy:
    def __init__(self, model, tokenizer, config: PolicyConfig, *, max_new_tokens: int = 128,
                 temperature: float = 1.0, do_sample: bool = True, processor=None) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.processor = processor
        self.config = config
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.do_sample = do_sample
        self.eos = eos_ids(tokenizer)
        self.pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self.eos[0]

    @property
    def text_only(self) -> bool:
        return self.processor is None

    def session(self, goal: str, screen_size: tuple[int, int]) -> PolicySession:
        return PolicySession(goal, screen_size, self.config, lenient=True)

    def encode(self, messages: list[dict[str, Any]]) -> list[int]:
        ids = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True,
                                                 tokenize=True, return_dict=False)
        if isinstance(ids, dict):  # some tokenizers return a BatchEncoding regardless
            ids = ids["input_ids"]
        return list(ids)

    @torch.no_grad()
    def generate_ids(self, prompts: list[list[int]], seed: int | None = None) -> list[Generation]:
        """One batched generate over token-id prompts; returns texts, ids and the
        sampling log-probabilities of the generated tokens."""
        if not prompts:
            return []
        width = max(len(p) for p in prompts)
        input_ids = torch.full((len(prompts), width), self.pad, dtype=torch.long)
        attention = torch.zeros((len(prompts), width), dtype=torch.long)
        for i, p in enumerate(prompts):  # left padding: every prompt ends at the same column
            input_ids[i, width - len(p):] = torch.tensor(p)
            attention[i, width - len(p):] = 1
        return self._generate({"input_ids": input_ids, "attention_mask": attention}, prompts, seed)

    @torch.no_grad()
    def generate_messages(self, conversations: list[list[dict[str, Any]]], seed: int | None = None
                          ) -> list[Generation]:
        """One batched generate over chat prompts with images (VLM policies)."""
        if not conversations:
            return []
        texts, images = [], []
        for msgs in conversations:
            texts.append(self.processor.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False))
            images.append([p["image"] for m in msgs if isinstance(m["content"], list)
                           for p in m["content"] if p.get("type") == "image" and p.get("image") is not None])
        tok = self.tokenizer
        side = tok.padding_side
        tok.padding_side = "left"
        try:
            inputs = self.processor(text=texts, images=images if any(images) else None, padding=True,
                                    return_tensors="pt")
        finally:
            tok.padding_side = side
        prompts = [[int(t) for t, a in zip(row, mask) if a] for row, mask in
                   zip(inputs["input_ids"].tolist(), inputs["attention_mask"].tolist())]
        return self._generate(dict(inputs), prompts, seed)

    def _generate(self, inputs: dict[str, Any], prompts: list[list[int]], seed: int | None
                  ) -> list[Generation]:
        device = next(self.model.parameters()).device
        width = inputs["input_ids"].shape[1]
        gen: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": self.do_sample,
                               "eos_token_id": self.eos, "pad_token_id": self.pad,
                               "output_scores": True, "return_dict_in_generate": True}
        if self.do_sample:
            gen.update(temperature=self.temperature, top_p=1.0, top_k=0)
        else:
            gen.update(temperature=None, top_p=None, top_k=None)
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.random.fork_rng(devices=[]):
                if seed is not None:
                    torch.manual_seed(seed)
                out = self.model.generate(**{k: v.to(device) if hasattr(v, "to") else v
                                             for k, v in inputs.items()}, **gen)
        finally:
            if was_training:
                self.model.train()
        seqs = out.sequences[:, width:].cpu()
        # scores are the processed logits the tokens were sampled from
        logps = torch.stack([torch.log_softmax(s.float(), dim=-1) for s in out.scores], dim=1).cpu()
        results = []
        for i, p in enumerate(prompts):
            ids: list[int] = []
            lps: list[float] = []
            for t, tok in enumerate(seqs[i].tolist()):
                ids.append(tok)
                lps.append(float(logps[i, t, tok]))
                if tok in self.eos:
                    break
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            results.append(Generation(text, list(p), ids, lps))
        return results

    def act_batch(self, sessions: list[PolicySession], observations: list[dict[str, Any]],
                  seed: int | None = None, observed: bool = False
                  ) -> list[tuple[dict[str, Any], Generation | None]]:
        """One action per environment, with a single generate for all that need the model
        (`observed`: the sessions have already taken in these observations)."""
        out: list[tuple[dict[str, Any], Generation | None] | None] = [None] * len(sessions)
        need: list[int] = []
        prompts: list[Any] = []
        for i, (s, obs) in enumerate(zip(sessions, observations)):
            queued = s.take(obs, observed)
            if queued is not None:
                out[i] = (queued, None)
                continue
            need.append(i)
            msgs = s.hf_messages(obs, text_only=self.text_only)
            prompts.append(self.encode(msgs) if self.text_only else msgs)
        gens = self.generate_ids(prompts, seed) if self.text_only else self.generate_messages(prompts, seed)
        for i, g in zip(need, gens):
            out[i] = (sessions[i].decode(g.text).action, g)
        return out  # type: ignore[return-value]
