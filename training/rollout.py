"""Episode-level GRPO rollouts: G whole episodes per (task, variant, trap seed).

`EpisodeRollout` is a TRL `rollout_func`. The dataset it streams (`specs`)
holds one small JSON prompt per group naming the task variant and trap seed;
TRL hands each such prompt over `num_generations` times, and every copy is
played in its own environment with the SAME trap seed (the group differs only
in the policy's samples). All live environments are advanced together: one
batched `generate` per turn on the driver, one batched step per turn on the
rollout workers (`grpo.rollout`: in-process, Gymnasium async vector env
processes, or Ray actors; see `training.workers`).

Each episode is one multi-turn conversation: the first turn is the policy's
usual prompt (system + user); every later turn is a user message with the
same per-step text (goal, step summaries, last error, elements). Returned per
episode: `prompt_ids` (turn 1), `completion_ids` (every reply and every later
observation, in order), `logprobs` (the sampler's for replies, 0 for
observations) and `env_mask` (1 = the policy's tokens, 0 = observations, which
the loss ignores). The reward is the outcome, `success * discount^(turns-1) +
per_step_reward * turns` — a whole-episode credit, the known limitation of
this granularity (use step granularity for per-step credit).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from antrap_gym.agents.policy import PolicySession
from antrap_gym.env.info import plain
from antrap_gym.training.workers import RolloutPool, Transition

SENTINEL = "\u2063ANTRAP\u2063"


class EpisodeRollout:
    def __init__(self, config, policy) -> None:
        from antrap_gym.training.config import ConfigError

        if not policy.text_only:
            raise ConfigError("grpo.granularity episode needs a text policy (policy.observation: text); "
                              "use step granularity for VLM policies")
        self.config = config
        self.policy = policy
        self.tok = policy.tokenizer
        g = config.grpo
        kw = config.env_kwargs()
        self.pool = RolloutPool(kw, slots=max(g.num_envs, generation_batch(config)), backend=g.rollout,
                                workers=g.rollout_workers, ray_address=g.ray_address)
        #: (task, params, turns, success) of the last call's episodes, in prompt order
        self.last: list[dict[str, Any]] = []
        self.trainer = None
        self.log = None
        self.episodes = 0
        self.successes = 0
        self._specs_yielded = 0
        self.max_turns = g.max_turns
        self.max_context = g.max_context_tokens

    # --- the dataset -------------------------------------------------------------------------
    def specs(self):
        """An endless stream of group specs: (task, variant, trap seed) as a JSON prompt."""
        cfg = self.config
        tasks, variants = cfg.tasks(), cfg.variant_seeds()
        rng = np.random.default_rng([cfg.train.seed, 7])
        while True:
            spec = {"task": tasks[int(rng.integers(len(tasks)))],
                    "variant": variants[int(rng.integers(len(variants)))],
                    "trap_seed": int(rng.integers(2**31))}
            self._specs_yielded += 1
            yield {"prompt": [{"role": "user", "content": json.dumps(spec)}]}

    def bind(self, trainer, cb) -> None:
        self.trainer = trainer
        self.log = cb.write

    # --- the conversation -------------------------------------------------------------------
    def _delta_ids(self, history: list[dict[str, Any]], user: str, ended: bool) -> list[int]:
        """Tokens that close the last reply and open the next user turn and reply."""
        base = [*history, {"role": "assistant", "content": SENTINEL}]
        before = self.tok.apply_chat_template(base, tokenize=False)
        after = self.tok.apply_chat_template([*base, {"role": "user", "content": user}], tokenize=False,
                                             add_generation_prompt=True)
        tail = before[before.rindex(SENTINEL) + len(SENTINEL):]
        text = tail + after[len(before):]
        if ended and text.startswith("<|im_end|>"):
            text = text[len("<|im_end|>"):]  # the reply already ended with it
        return self.tok(text, add_special_tokens=False)["input_ids"]

    def __call__(self, prompts: list, trainer=None) -> dict[str, list]:
        specs = [json.loads(p[-1]["content"] if isinstance(p, list) else p) for p in prompts]
        step = int(trainer.state.global_step) if trainer is not None else 0
        first = self.pool.reset({i: (spec["variant"], {"task": spec["task"], "trap_seed": spec["trap_seed"]})
                                 for i, spec in enumerate(specs)})
        eps = []
        for i in range(len(specs)):
            t = first[i]
            eps.append({"slot": i, "t": t, "done": False, "turns": 0, "success": 0.0,
                        "params": plain(t.info.get("params")), "task": specs[i]["task"],
                        "session": PolicySession(t.obs.get("goal") or "", t.screen_size, self.policy.config,
                                                 lenient=True),
                        "prompt": None, "completion": [], "logprobs": [], "mask": [], "history": [],
                        "last_ended": True, "replies": 0, "parsed": 0})
        turn = 0
        while True:
            need = self._run_queued(eps)
            if not need:
                break
            contexts = []
            for ep in need:
                msgs = ep["session"].hf_messages(ep["t"].obs, text_only=True)
                if ep["prompt"] is None:
                    ep["prompt"] = self.policy.encode(msgs)
                    ep["history"] = list(msgs)
                else:
                    user = msgs[-1]["content"]
                    delta = self._delta_ids(ep["history"], user, ep["last_ended"])
                    ep["history"].append({"role": "user", "content": user})
                    ep["completion"] += delta
                    ep["logprobs"] += [0.0] * len(delta)
                    ep["mask"] += [0] * len(delta)
                contexts.append(ep["prompt"] + ep["completion"])
            seed = (self.config.train.seed * 1_000_003 + step * 1009 + turn) & 0x7FFFFFFF
            gens = self.policy.generate_ids(contexts, seed=seed)
            actions = {}
            for ep, gen in zip(need, gens):
                ep["completion"] += gen.completion_ids
                ep["logprobs"] += gen.logprobs
                ep["mask"] += [1] * len(gen.completion_ids)
                ep["last_ended"] = bool(gen.completion_ids) and gen.completion_ids[-1] in self.policy.eos
                ep["history"].append({"role": "assistant", "content": gen.text})
                decision = ep["session"].decode(gen.text)
                ep["replies"] += 1
                ep["parsed"] += decision.error is None
                actions[ep["slot"]] = decision.action
            self._step(eps, actions)
            for ep in need:
                ctx = len(ep["prompt"]) + len(ep["completion"])
                if not ep["done"] and (ctx >= self.max_context
                                       or (self.max_turns is not None and ep["turns"] >= self.max_turns)):
                    ep["done"] = True  # out of context or turns: ends unsolved
            turn += 1
        self.last = [{"task": ep["task"], "params": ep["params"], "turns": ep["turns"],
                      "success": ep["success"]} for ep in eps]
        return self._result(eps, step)

    def _run_queued(self, eps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Execute queued actions (an answer, then finishing) that need no generation,
        in batched steps; returns the live episodes that wait on the policy."""
        while True:
            need, queued = [], {}
            for ep in eps:
                if ep["done"]:
                    continue
                ep["session"].observe(ep["t"].obs)
                action = ep["session"].next_pending()
                if action is None:
                    need.append(ep)
                else:
                    queued[ep["slot"]] = action
            if not queued:
                return need
            self._step(eps, queued)

    def _step(self, eps: list[dict[str, Any]], actions: dict[int, Any]) -> None:
        stepped: dict[int, Transition] = self.pool.step(actions)
        for ep in eps:
            t = stepped.get(ep["slot"])
            if t is None:
                continue
            ep["t"] = t
            ep["turns"] += 1
            if t.done:
                ep["done"] = True
                ep["success"] = float(t.info.get("success", t.reward))

    def _result(self, eps: list[dict[str, Any]], step: int) -> dict[str, list]:
        g = self.config.grpo
        rewards, successes, turns = [], [], []
        for ep in eps:
            if not ep["completion"]:  # never generated (cannot happen for a live episode): keep shapes valid
                ep["completion"], ep["logprobs"], ep["mask"] = [self.policy.eos[0]], [0.0], [1]
            ok = ep["success"] >= 1.0
            outcome = g.discount ** max(0, ep["turns"] - 1) if ok else 0.0
            rewards.append(outcome + g.per_step_reward * ep["turns"])
            successes.append(float(ok))
            turns.append(ep["turns"])
        self.episodes += len(eps)
        self.successes += int(sum(successes))
        if self.log is not None:
            self.log({"event": "episodes", "step": step, "episodes": len(eps),
                      "success_rate": float(np.mean(successes)), "mean_turns": float(np.mean(turns))})
        return {"prompt_ids": [ep["prompt"] for ep in eps],
                "completion_ids": [ep["completion"] for ep in eps],
                "logprobs": [ep["logprobs"] for ep in eps], "env_mask": [ep["mask"] for ep in eps],
                "episode_reward": rewards, "episode_success": successes, "episode_turns": turns,
                "episode_parse_rate": [ep["parsed"] / ep["replies"] if ep["replies"] else 0.0 for ep in eps]}

    # --- rewards ----------------------------------------------------------------------------
    def reward_funcs(self) -> list:
        def outcome_reward(prompts=None, completions=None, episode_reward=None, **_):
            return [float(r) for r in episode_reward]

        def success_reward(prompts=None, completions=None, episode_success=None, **_):
            """Logged with weight 0: the share of episodes that succeeded."""
            return [float(r) for r in episode_success]

        def parse_reward(prompts=None, completions=None, episode_parse_rate=None, **_):
            """Logged with weight 0: the share of the episode's replies that parsed."""
            return [float(r) for r in episode_parse_rate]

        return [outcome_reward, success_reward, parse_reward]

    def stats(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "episode_success_rate":
                (self.successes / self.episodes) if self.episodes else None}

    def close(self) -> None:
        self.pool.close()


def generation_batch(config) -> int:
    """Completions in one TRL generation batch: how many episodes one rollout call plays."""
    g = config.grpo
    extra = g.extra if isinstance(g.extra, dict) else {}
    if extra.get("generation_batch_size"):
        return int(extra["generation_batch_size"])
    return g.batch_size * int(extra.get("steps_per_generation") or g.grad_accum)


__all__ = ["EpisodeRollout", "generation_batch"]
