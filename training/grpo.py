"""GRPO on the simulated phone with TRL's `GRPOTrainer`, clean or under traps.

Two granularities (`grpo.granularity`):

**step** (AnTrap's recipe): the group is G replies to ONE decision point. States
are gathered live — from oracle and current-policy episodes under the training
trap stack, trapped states preferred — into a streaming dataset that the
trainer reads as it goes, so every `refresh_every` optimizer steps the states
come from the policy as it is now. Each reply is executed on a restored copy
of its state and scored for format, validity and progress (`training.rewards`).

**episode**: the group is G whole episodes of one (task, variant, trap seed);
`rollout.EpisodeRollout` plays them with batched generation as one multi-turn
conversation per episode (observations as user turns, masked out of the loss
with `env_mask`) and the reward is the outcome: success discounted by
`discount^(turns-1)`, plus `per_step_reward` per turn.

`run_grpo(config, out, resume)` writes checkpoints (`<out>/checkpoint-N`,
resumable), `metrics.jsonl`, the final model (`<out>/final`) and, with
`eval_after.enabled`, the harness's evaluation of it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from antrap_gym.training.callbacks import MetricsCallback
from antrap_gym.training.config import (
    TrainConfig,
    trainer_kwargs,
    vllm_kwargs,
)
from antrap_gym.training.distributed import world_size


def prompts_per_step(config: TrainConfig) -> int:
    """Distinct prompts (groups) one optimizer step consumes."""
    g = config.grpo
    return max(1, g.batch_size * g.grad_accum // g.num_generations)


class LiveStates:
    """The step-level training stream: fresh states every `refresh_every` steps.

    A generator for `datasets.IterableDataset.from_generator`: it gathers
    `states_per_refresh` states with the model as it is at that moment (the
    trainer's own model), registers them with the rewarder, and yields them
    (cycling if needed) for `refresh_every` steps' worth of prompts.
    """

    def __init__(self, config: TrainConfig, gatherer, rewarder, policy=None, log=None) -> None:
        self.config = config
        self.gatherer = gatherer
        self.rewarder = rewarder
        self.policy = policy  # a BatchedPolicy over the model being trained (None: oracle states only)
        self.log = log
        self.trainer = None
        self.rounds = 0
        self._previous: set[str] = set()

    def step(self) -> int:
        return int(self.trainer.state.global_step) if self.trainer is not None else 0

    def gather(self) -> list:
        g = self.config.grpo
        step = self.step()
        rng = np.random.default_rng([self.config.train.seed, step, self.rounds])
        t0 = time.monotonic()
        share = g.oracle_share if self.policy is not None else 1.0
        states = self.gatherer.gather(g.states_per_refresh, rng, policy=self.policy if share < 1 else None,
                                      oracle_share=share, seed=self.config.train.seed + step)
        current = {s.id for s in states}
        self.rewarder.forget(self._previous | current)  # batches in flight may still use the last round
        self.rewarder.add(states)
        self._previous = current
        self.rounds += 1
        if self.log is not None:
            self.log({"event": "states", "step": step, "round": self.rounds, "states": len(states),
                      "trapped": sum(s.trapped for s in states),
                      "from_policy": sum(s.source == "policy" for s in states),
                      "mean_distance": float(np.mean([s.distance for s in states])) if states else None,
                      "gather_s": round(time.monotonic() - t0, 2)})
        return states

    def rows(self):
        per_round = self.config.grpo.refresh_every * prompts_per_step(self.config)
        while True:
            states = self.gather()
            if not states:
                raise RuntimeError("no usable training states could be gathered "
                                   "(the oracle fails from every state?)")
            order = np.random.default_rng([self.config.train.seed, self.rounds]).permutation(len(states))
            for k in range(per_round):
                s = states[int(order[k % len(states)])]
                row: dict[str, Any] = {"prompt": s.prompt, "state_id": s.id}
                if s.image is not None:
                    row["images"] = [s.image]
                yield row


def grpo_args(config: TrainConfig, out: Path):
    """The `trl.GRPOConfig` of a run."""
    from trl import GRPOConfig

    from antrap_gym.training.config_errors import trl_config

    g = config.grpo
    w = g.reward_weights
    kw: dict[str, Any] = trainer_kwargs(config, out)
    kw.update(
        max_steps=g.steps,
        per_device_train_batch_size=g.batch_size,
        gradient_accumulation_steps=g.grad_accum,
        num_generations=g.num_generations,
        learning_rate=g.lr,
        beta=g.beta,
        loss_type=g.loss_type,
        max_completion_length=g.max_completion_length,
        temperature=g.temperature,
        top_p=g.top_p,
        shuffle_dataset=False,  # a live stream: order is the gatherer's
        ignore_data_skip=True,  # on resume, gather anew instead of replaying the stream
        remove_unused_columns=False,
        **vllm_kwargs(config),
    )
    if world_size() > 1:  # each process reads its own live stream: its states are in its own rewarder
        kw["accelerator_config"] = {"dispatch_batches": False}
    # after the scored rewards come success and the parse rate, logged with weight 0
    kw["reward_weights"] = [w.format, w.validity, w.progress, 0.0, 0.0] if g.granularity == "step" \
        else [1.0, 0.0, 0.0]
    kw.update(g.extra)
    return trl_config(GRPOConfig, kw, "grpo")


#: live row generators by key: `datasets` pickles a generator to fingerprint it, and
#: ours hold environments, so the dataset gets only this key and a module function
_STREAMS: dict[str, Any] = {}


def _rows(key: str):
    yield from _STREAMS[key]()


def _stream(gen_fn):
    from datasets import IterableDataset

    key = f"stream-{id(gen_fn)}-{len(_STREAMS)}"
    _STREAMS[key] = gen_fn
    return IterableDataset.from_generator(_rows, gen_kwargs={"key": key})


def run_grpo(config: TrainConfig, out: str | Path | None = None, resume: bool | None = None) -> Path:
    """Train with GRPO; returns the final model directory (`<out>/final`)."""
    from rich.console import Console
    from transformers import PrinterCallback
    from trl import GRPOTrainer

    from antrap_gym.training.lora import prepare_model
    from antrap_gym.training.stage import close_stage, open_stage

    console = Console(stderr=True)
    st = open_stage(config, "grpo", out, resume)
    if st.done is not None:
        console.print(f"training already finished in {st.final}")
        return close_stage(st, config)
    model_dir, ckpt = st.model_dir, st.checkpoint
    model, proc, peft_config = prepare_model(config, model_dir)
    cb = MetricsCallback(st.run, "grpo", progress=config.train.progress,
                         extra={"model": str(model_dir), "granularity": config.grpo.granularity,
                                "traps": config.trap_stack()})
    parts = build_parts(config, model, proc)
    trainer = GRPOTrainer(model=model, reward_funcs=parts["reward_funcs"], args=grpo_args(config, st.run),
                          train_dataset=parts["dataset"], processing_class=proc,
                          rollout_func=parts.get("rollout_func"), callbacks=[cb],
                          peft_config=peft_config)
    parts["bind"](trainer, cb)
    if config.train.progress:
        trainer.remove_callback(PrinterCallback)
    if ckpt is not None:
        console.print(f"resuming from {ckpt}")
    try:
        result = trainer.train(resume_from_checkpoint=str(ckpt) if ckpt else None)
    finally:
        cb.close()
        parts["close"]()
    info = {"stage": "grpo", "granularity": config.grpo.granularity,
            "global_step": trainer.state.global_step, "train_loss": result.training_loss,
            "resumed_from": str(ckpt) if ckpt else None, "model_init": str(model_dir),
            "traps": config.trap_stack(), "config": config.source,
            "train_wall_s": st.wall_s(), **parts["stats"](),
            "no_signal_steps": dict(cb.no_signal)}
    return close_stage(st, config, trainer, proc, info)


def build_parts(config: TrainConfig, model, proc) -> dict[str, Any]:
    """Dataset, reward functions (and rollout function) for the configured granularity."""
    from antrap_gym.training.live_policy import BatchedPolicy

    policy_cfg = config.policy_config()
    tok = getattr(proc, "tokenizer", proc)
    g = config.grpo
    vlm = proc is not tok
    live = BatchedPolicy(model, tok, policy_cfg, max_new_tokens=g.max_completion_length,
                         temperature=g.temperature, processor=proc if vlm else None)
    if g.granularity == "episode":
        from antrap_gym.training.rollout import EpisodeRollout

        rollout = EpisodeRollout(config, live)
        return {"dataset": _stream(rollout.specs), "reward_funcs": rollout.reward_funcs(),
                "rollout_func": rollout, "bind": rollout.bind, "close": rollout.close, "stats": rollout.stats}

    from antrap_gym.training.rewards import StepRewarder
    from antrap_gym.training.states import StateGatherer

    rewarder = StepRewarder(policy_cfg, max_steps=config.env.max_steps)
    gatherer = StateGatherer(tasks=config.tasks(), variants=config.variant_seeds(), stack=config.trap_stack(),
                             policy=policy_cfg, obs_mode=config.obs_mode(), max_steps=config.env.max_steps,
                             num_envs=g.num_envs, trapped_weight=g.trapped_weight, rollout=g.rollout,
                             workers=g.rollout_workers,
                             ray_address=g.ray_address)
    stream = LiveStates(config, gatherer, rewarder, policy=live if g.oracle_share < 1 else None)

    def bind(trainer, cb) -> None:
        from antrap_gym.training.distributed import is_main

        stream.trainer = trainer
        stream.log = cb.write if is_main() else None  # one process writes metrics.jsonl

    def close() -> None:
        gatherer.close()
        rewarder.close()

    def stats() -> dict[str, Any]:
        return {"state_rounds": stream.rounds, "replies_executed": rewarder.executed}

    return {"dataset": _stream(stream.rows), "reward_funcs": rewarder.reward_funcs(), "bind": bind,
            "close": close, "stats": stats}


__all__ = ["LiveStates", "build_parts", "grpo_args", "prompts_per_step", "run_grpo"]
