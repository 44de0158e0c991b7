"""Training telemetry: a metrics file that survives a kill, a progress bar, resume helpers.

`MetricsCallback` writes `DIR/metrics.jsonl`, one JSON line per logging step,
flushed as it is written: step, epoch, wall time, loss, learning rate, grad
norm, tokens/s and everything else the trainer logs (for GRPO: reward per
component mean/std, KL, completion lengths, ...), plus `event` lines at train
begin (with the step it resumed from) and end. When a run resumes, lines from
steps after the checkpoint (redone by the resumed run) are dropped first, so
the file reads as one run. It also draws a rich progress bar with an ETA.

A step that cannot have taught the policy anything is said so, not left to be found
later: every group's rewards tied (TRL's `frac_reward_zero_std` = 1: GRPO's advantages,
and so its policy gradient, are all zero), no reply parsed (`parse_rate` 0), or a zero
gradient norm. The step's line lists them under `no_signal`, the first of each kind is
warned about, and the run's end (the `train_end` line, `MetricsCallback.no_signal`, and
the stage's result.json) counts the steps of each kind.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import shutil
import time
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

METRICS_FILE = "metrics.jsonl"
FINAL_DIR = "final"
DONE_FILE = "antrap_train.json"  # in <run>/final once a stage has finished training
CHECKPOINT_PREFIX = "checkpoint-"
STATE_FILE = "trainer_state.json"

#: TRL / transformers log keys renamed to the file's short names
RENAME = {"learning_rate": "lr", "grad_norm": "grad_norm"}
#: TRL's names for figures logged under a plainer name too
ALIASES = {"rewards/parse_reward/mean": "parse_rate", "rewards/success_reward/mean": "success_rate"}
#: a logged step that taught nothing: (kind, the row's figure, the value that says so, why)
NO_SIGNAL = (
    ("no_reward_variance", "frac_reward_zero_std", 1.0,
     "every group's rewards tied: GRPO's advantages, and its policy gradient, are zero"),
    ("no_reply_parsed", "parse_rate", 0.0, "no reply parsed: every sample was an unreadable action"),
    ("zero_gradient", "grad_norm", 0.0, "the gradient norm is zero: the weights did not move"),
)

log = logging.getLogger(__name__)


def no_signal(row: dict[str, Any]) -> list[str]:
    """The kinds of `NO_SIGNAL` a logged row shows (a figure it does not log says nothing)."""
    out = []
    for kind, key, value, _ in NO_SIGNAL:
        v = row.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) \
                and float(v) == value:
            out.append(kind)
    return out


def _jsonable(v: Any) -> Any:
    if hasattr(v, "item"):
        try:
            v = v.item()
        except (ValueError, RuntimeError):
            return str(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return str(v)


class MetricsCallback(TrainerCallback):
    """Append one JSON line per log to `out/metrics.jsonl`; draw a progress bar.

    stage: written on every line (sft, grpo). progress: show the rich bar.
    extra: static fields added to the begin event (e.g. dataset size).
    `write(row)` adds a line of your own (e.g. GRPO state-gathering stats).
    """

    def __init__(self, out: str | Path, stage: str = "train", progress: bool = True,
                 extra: dict[str, Any] | None = None) -> None:
        self.out = Path(out)
        self.path = self.out / METRICS_FILE
        self.stage = stage
        self.show = progress
        self.extra = dict(extra or {})
        self._f = None
        self._t0 = 0.0
        self._last_t = 0.0
        self._last_tokens: float | None = None
        self._last_step = 0
        self._bar = None
        self._task = None
        #: steps logged without a training signal, by kind (`NO_SIGNAL`)
        self.no_signal: dict[str, int] = {}

    # --- the file ---------------------------------------------------------------------------
    def _open(self, resumed_step: int) -> None:
        if self._f is not None:
            self._f.close()
        self.out.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and resumed_step >= 0:
            kept = []
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut by a kill
                if row.get("stage", self.stage) == self.stage and int(row.get("step") or 0) > resumed_step:
                    continue  # redone after the checkpoint
                kept.append(line)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text("".join(k + "\n" for k in kept), encoding="utf-8")
            tmp.replace(self.path)
        self._f = self.path.open("a", encoding="utf-8")

    def write(self, row: dict[str, Any]) -> None:
        if self._f is None:
            self._open(-1)
        self._f.write(json.dumps(_jsonable(row), ensure_ascii=False) + "\n")
        self._f.flush()

    # --- trainer events -----------------------------------------------------------------------
    def on_train_begin(self, args, state, control, **kwargs):
        if not state.is_world_process_zero:
            return
        step = int(state.global_step)
        self._open(step)
        self._t0 = self._last_t = time.monotonic()
        self._last_step = step
        self._last_tokens = float(state.num_input_tokens_seen or 0) or None
        self.write({"event": "train_begin", "stage": self.stage, "step": step, "resumed": step > 0,
                    "max_steps": state.max_steps, "time": time.time(), **self.extra})
        if self.show:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(TextColumn(f"[bold]{self.stage}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TextColumn("eta"),
                                 TimeRemainingColumn())
            self._bar.start()
            self._task = self._bar.add_task(self.stage, total=state.max_steps or None, completed=step,
                                            info="")

    def on_step_end(self, args, state, control, **kwargs):
        if self._bar is not None:
            self._bar.update(self._task, completed=state.global_step)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not state.is_world_process_zero or not logs:
            return
        now = time.monotonic()
        row: dict[str, Any] = {"stage": self.stage, "step": int(state.global_step),
                               "epoch": round(float(state.epoch or 0.0), 4),
                               "wall_s": round(now - self._t0, 3)}
        for k, v in logs.items():
            row[RENAME.get(k, k)] = v
            if k in ALIASES:
                row[ALIASES[k]] = v
        tokens = logs.get("num_tokens", state.num_input_tokens_seen or None)
        dt = now - self._last_t
        if tokens is not None and self._last_tokens is not None and dt > 0 and tokens >= self._last_tokens:
            row["tokens_per_s"] = round((float(tokens) - self._last_tokens) / dt, 1)
        if dt > 0 and state.global_step > self._last_step:
            row["s_per_step"] = round(dt / (state.global_step - self._last_step), 4)
        if tokens is not None:
            self._last_tokens = float(tokens)
        self._last_t, self._last_step = now, int(state.global_step)
        kinds = no_signal(row)
        if kinds:
            row["no_signal"] = kinds
            for kind in kinds:
                if kind not in self.no_signal:
                    why = next(w for k, _, _, w in NO_SIGNAL if k == kind)
                    log.warning("%s step %d: %s (counted in metrics.jsonl's no_signal)",
                                self.stage, state.global_step, why)
                self.no_signal[kind] = self.no_signal.get(kind, 0) + 1
        self.write(row)
        if self._bar is not None:
            shown = {k: row[k] for k in ("loss", "reward", "lr") if isinstance(row.get(k), (int, float))}
            self._bar.update(self._task, completed=state.global_step,
                             info=" ".join(f"{k} {v:.4g}" for k, v in shown.items()))

    def on_save(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            self.write({"event": "checkpoint", "stage": self.stage, "step": int(state.global_step),
                        "time": time.time()})

    def on_train_end(self, args, state, control, **kwargs):
        if not state.is_world_process_zero:
            return
        self.write({"event": "train_end", "stage": self.stage, "step": int(state.global_step),
                    "wall_s": round(time.monotonic() - self._t0, 3), "time": time.time(),
                    "no_signal_steps": dict(self.no_signal)})
        self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        if self._f is not None:
            self._f.close()
            self._f = None


def read_metrics(out: str | Path) -> list[dict[str, Any]]:
    """The rows of `out/metrics.jsonl` (a line cut by a kill is skipped)."""
    path = Path(out) / METRICS_FILE if Path(out).is_dir() else Path(out)
    rows = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):  # a line cut by a kill
                rows.append(json.loads(line))
    return rows


def _complete(ckpt: Path) -> bool:
    """A checkpoint is complete once its trainer state (written last) parses."""
    try:
        json.loads((ckpt / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return True


def checkpoints(out: str | Path) -> list[Path]:
    """`checkpoint-N` directories under `out`, oldest first (complete or not)."""
    out = Path(out)
    if not out.is_dir():
        return []
    found = [p for p in out.iterdir() if p.is_dir() and p.name.startswith(CHECKPOINT_PREFIX)
             and p.name[len(CHECKPOINT_PREFIX):].isdigit()]
    return sorted(found, key=lambda p: int(p.name[len(CHECKPOINT_PREFIX):]))


def last_checkpoint(out: str | Path) -> Path | None:
    """The newest complete checkpoint under `out` (None if there is none), for resume.
    A checkpoint a kill cut short (no trainer state) is passed over."""
    for ckpt in reversed(checkpoints(out)):
        if _complete(ckpt):
            return ckpt
    return None


def drop_incomplete_checkpoints(out: str | Path) -> list[Path]:
    """Delete checkpoints newer than the last complete one (cut short by a kill)."""
    last = last_checkpoint(out)
    n = int(last.name[len(CHECKPOINT_PREFIX):]) if last else -1
    dropped = []
    for ckpt in checkpoints(out):
        if int(ckpt.name[len(CHECKPOINT_PREFIX):]) > n:
            shutil.rmtree(ckpt, ignore_errors=True)
            dropped.append(ckpt)
    return dropped


class RunExists(RuntimeError):
    """The output directory already holds a run and resume was not asked for."""


def start_run(run: str | Path, resume: bool) -> Path | None:
    """Prepare a stage's run directory; returns the checkpoint to resume from (or None).

    Without `resume`, a directory that already holds checkpoints or a finished
    model is refused (`RunExists`); with it, checkpoints a kill cut short are
    removed and the newest complete one is returned (None: start from scratch).
    """
    run = Path(run)
    if not resume:
        if checkpoints(run) or (run / FINAL_DIR / DONE_FILE).exists():
            raise RunExists(f"{run} already holds a training run: pass --resume to continue it, "
                            "or choose another --out")
        run.mkdir(parents=True, exist_ok=True)
        return None
    run.mkdir(parents=True, exist_ok=True)
    drop_incomplete_checkpoints(run)
    return last_checkpoint(run)


def finished(run: str | Path) -> dict[str, Any] | None:
    """The record a finished stage left in `<run>/final` (None if it has not finished)."""
    path = Path(run) / FINAL_DIR / DONE_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


__all__ = ["DONE_FILE", "FINAL_DIR", "METRICS_FILE", "MetricsCallback", "RunExists", "checkpoints",
           "drop_incomplete_checkpoints", "finished", "last_checkpoint", "read_metrics", "start_run"]
