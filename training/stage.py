"""What every training stage (SFT, GRPO) does around its trainer: open the run directory
(resume or refuse to overwrite, the config written once, the seed set, the starting
model found), and close it (the final model saved by the main process, the
after-training evaluation and `result.json`). Under `accelerate launch` one process
prepares the run while the others wait, then reuse it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antrap_gym.training.callbacks import FINAL_DIR, finished, start_run
from antrap_gym.training.config import TrainConfig, configure_torch, quiet_libraries


@dataclass
class OpenStage:
    run: Path
    #: the checkpoint to resume from (None: a fresh start)
    checkpoint: Path | None
    #: the finished run's info when `--resume` found it done (nothing to train)
    done: dict[str, Any] | None
    #: the model the stage starts from (None when done)
    model_dir: Path | None
    #: what `prepare` returned (None when done or not given)
    prepared: Any
    t0: float

    @property
    def final(self) -> Path:
        return self.run / FINAL_DIR

    def wall_s(self) -> float:
        return round(time.monotonic() - self.t0, 2)


def open_stage(config: TrainConfig, stage: str, out: str | Path | None, resume: bool | None,
               prepare: Callable[[Path], Any] | None = None) -> OpenStage:
    """Start (or resume) the run of `stage`; `prepare(run)` runs once, on the preparing
    process, after the model is found (SFT resolves its data there)."""
    from transformers import set_seed

    from antrap_gym.training.distributed import is_main, main_first
    from antrap_gym.training.tiny import policy_path

    quiet_libraries()
    configure_torch(config)
    run = config.run_dir(stage, out)
    resume = config.train.resume if resume is None else resume
    model_dir = prepared = None
    with main_first():
        ckpt = start_run(run, resume)
        if is_main():
            (run / "train_config.yaml").write_text(config.to_yaml())
        t0 = time.monotonic()
        done = finished(run) if resume else None
        if done is None:
            set_seed(config.train.seed)
            model_dir = policy_path(config, run, stage)
            if prepare is not None:
                prepared = prepare(run)
    return OpenStage(run, ckpt, done, model_dir, prepared, t0)


def close_stage(st: OpenStage, config: TrainConfig, trainer=None, processing_class=None,
                info: dict[str, Any] | None = None) -> Path:
    """Save what `trainer` trained (with `info`, its record) and finish the run: the
    weights by all processes together, the rest by the main one. Without a trainer
    (the run was already done) only the main process finishes it again."""
    from antrap_gym.training.distributed import is_main
    from antrap_gym.training.evaluation import finish_run, save_final

    if trainer is not None:
        if not is_main():
            trainer.save_model(str(st.final))
            return st.final
        save_final(trainer, processing_class, st.run, config, info or {})
    if is_main():
        finish_run(st.run, config, info if trainer is not None else st.done)
    return st.final
