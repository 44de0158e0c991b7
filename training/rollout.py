"""Episode-level GRPO rollouts: G whole episodes per (task, variant, trap seed).

`EpisodeRollout` is a TRL `rollout_func`. The dataset it streams (`specs`)
holds one small JSON prompt per group naming the task variant and trap seed;
TRL hands each such prompt over `num_generations` times, and every copy is
played in its own environment with the SAME trap seed (the group differs only
in the policy's samples). All live environments are advanced together with one
batched `generate` per turn.

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

SENTINEL = "\u2063ANTRAP\u2063"


class EpisodeRollout:
    def __init__(self, config, policy) -> None:
        from training.config import ConfigError

        if not policy.text_only:
            raise ConfigError("grpo.granularity episode needs a text policy (policy.observation: text); "
                              "use step granularity for VLM policies")
        self.config = config
        self.policy = policy
        self.tok = policy.tokenizer
        self.envs: list[Any] = []
        self.trainer = None
        self.log = None
        self.episodes = 0
        self.successes = 0
        self._specs_yielded = 0
        g = config.grpo
        self.max_turns = g.max_turns
        self.max_context = int(g.extra.get("max_context_tokens", 6144)) if isinstance(g.extra, dict) else 6144

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

    def _env(self, i: int):
        from antrap_gym.env.registration import make_env

        while len(self.envs) <= i:
            self.envs.append(make_env(traps=self.config.trap_stack() or None, **self._env_kwargs()))
        return self.envs[i]

    def _env_kwargs(self) -> dict[str, Any]:
        kw = self.config.env_kwargs()
        kw.pop("traps", None)
        return kw

    def __call__(self, prompts: list, trainer=None) -> dict[str, list]:
        specs = [json.loads(p[-1]["content"] if isinstance(p, list) else p) for p in prompts]
        step = int(trainer.state.global_step) if trainer is not None else 0
        eps = []
        for i, spec in enumerate(specs):
            env = self._env(i)
            obs, _ = env.reset(seed=spec["variant"],
                               options={"task": spec["task"], "trap_seed": spec["trap_seed"]})
            session = PolicySession(obs.get("goal") or "", env.unwrapped.screen_size, self.policy.config,
                                    lenient=True)
            eps.append({"env": env, "obs": obs, "session": session, "done": False, "turns": 0,
                        "success": 0.0, "prompt": None, "completion": [], "logprobs": [], "mask": [],
                        "history": [], "last_ended": True})
        turn = 0
        while True:
            need = []
            for ep in eps:
                while not ep["done"]:  # queued actions (answer, then finish) need no generation
                    ep["session"].observe(ep["obs"])
                    queued = ep["session"].next_pending()
                    if queued is None:
                        need.append(ep)
                        break
                    self._step(ep, queued)
            if not need:
                break
            contexts = []
            for ep in need:
                msgs = ep["session"].hf_messages(ep["obs"], text_only=True)
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
            for ep, gen in zip(need, gens):
                ep["completion"] += gen.completion_ids
                ep["logprobs"] += gen.logprobs
                ep["mask"] += [1] * len(gen.completion_ids)
                ep["last_ended"] = bool(gen.completion_ids) and gen.completion_ids[-1] in self.policy.eos
                ep["history"].append({"role": "assistant", "content": gen.text})
                action = ep["session"].decode(gen.text).action
                self._step(ep, action)
                ctx = len(ep["prompt"]) + len(ep["completion"])
                if not ep["done"] and (ctx >= self.max_context
                                       or (self.max_turns is not None and ep["turns"] >= self.max_turns)):
                    ep["done"] = True  # out of context or turns: ends unsolved
            turn += 1
        return self._result(eps, step)

    def _step(self, ep: dict[str, Any], action: dict[str, Any]) -> None:
        ep["obs"], reward, term, trunc, info = ep["env"].step(action)
        ep["turns"] += 1
        if term or trunc:
            ep["done"] = True
            ep["success"] = float(info.get("success", reward))

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
                "episode_reward": rewards, "episode_success": successes, "episode_turns": turns}

    # --- rewards ----------------------------------------------------------------------------
    def reward_funcs(self) -> list:
        def outcome_reward(prompts=None, completions=None, episode_reward=None, **_):
            return [float(r) for r in episode_reward]

        def success_reward(prompts=None, completions=None, episode_success=None, **_):
            """Logged with weight 0: the share of episodes that succeeded."""
            return [float(r) for r in episode_success]

        return [outcome_reward, success_reward]

    def stats(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "episode_success_rate":
                (self.successes / self.episodes) if self.episodes else None}

    def close(self) -> None:
        for env in self.envs:
            env.close()
        self.envs.clear()


__all__ = ["EpisodeRollout"]
