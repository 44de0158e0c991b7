"""SFT warm-start on the oracle's steps, with TRL's `SFTTrainer` as it is.

`run_sft(config, out, resume)`:

1. the model: `model.path`, or the tiny policy built in `<out>/tiny-init`;
2. the data: `sft.data` (JSONL files or `antrap collect` directories), or the
   oracle collected now into `<out>/data` (`sft.collect`, `env`, `traps`);
3. rows become TRL's conversational prompt-completion form (prompt = system +
   user, completion = the assistant turn; images as an `images` column), so
   the loss is on the completion only; text rows longer than `sft.max_length`
   are dropped rather than cut (a cut target would teach a reply with no end);
4. `SFTTrainer` trains, checkpointing every `train.save_steps` into
   `<out>/checkpoint-N`; `resume` continues from the newest complete one;
5. the model is saved to `<out>/final` and, with `eval_after.enabled`,
   evaluated by the harness into `<out>/eval`.

Everything is logged to `<out>/metrics.jsonl`; `<out>/result.json` sums it up.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from antrap_gym.training.callbacks import (
    DONE_FILE,
    FINAL_DIR,
    MetricsCallback,
    RunExists,
)
from antrap_gym.training.config import TrainConfig, trainer_kwargs


def resolve_data(config: TrainConfig, out: Path, console=None) -> list[Path]:
    """The SFT JSONL files: `sft.data`, or the oracle collected into `<out>/data` (reused if there)."""
    from antrap_gym.training.data import DATA_FILE, INFO_FILE, collect_from_config, data_files

    if config.sft.data:
        return data_files(config.sft.data)
    data_dir = out / "data"
    if (data_dir / INFO_FILE).exists() and (data_dir / DATA_FILE).exists():
        return [data_dir / DATA_FILE]
    return [collect_from_config(config, data_dir, console=console)]


def _to_prompt_completion(row: dict[str, Any]) -> dict[str, Any]:
    msgs = row["messages"]
    if not msgs or msgs[-1]["role"] != "assistant":
        raise ValueError("an SFT row's last message must be the assistant's reply")
    out: dict[str, Any] = {"prompt": msgs[:-1], "completion": msgs[-1:]}
    if row.get("images"):
        out["images"] = row["images"]
    return out


def _text_len(tokenizer, messages: list[dict[str, Any]]) -> int:
    text = tokenizer.apply_chat_template(messages, tokenize=False)
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def build_dataset(paths: list[Path], processing_class, max_length: int | None):
    """`(datasets.Dataset in prompt-completion form, stats)` from SFT JSONL files."""
    import datasets

    from antrap_gym.training.data import read_rows

    rows = read_rows(paths)
    if not rows:
        raise ValueError(f"no rows in {', '.join(map(str, paths))}")
    vlm = any(r.get("images") for r in rows)
    if vlm and not all(r.get("images") for r in rows):
        raise ValueError("a dataset mixes rows with and without images")
    tok = getattr(processing_class, "tokenizer", processing_class)
    items, dropped, lengths = [], 0, []
    for r in rows:
        item = _to_prompt_completion(r)
        if not vlm and max_length is not None:
            n = _text_len(tok, r["messages"])
            if n > max_length:
                dropped += 1
                continue
            lengths.append(n)
        items.append(item)
    if not items:
        raise ValueError(f"every row is longer than sft.max_length={max_length} tokens: raise it")
    ds = datasets.Dataset.from_list(items)
    if vlm:
        image = datasets.Image()
        feature = datasets.List(image) if hasattr(datasets, "List") else datasets.Sequence(image)
        ds = ds.cast_column("images", feature)
    stats = {"rows": len(rows), "used": len(items), "dropped_too_long": dropped, "vlm": vlm}
    if lengths:
        stats.update(max_tokens=max(lengths), mean_tokens=round(sum(lengths) / len(lengths), 1))
    return ds, stats


def sft_args(config: TrainConfig, out: Path, vlm: bool):
    """The `trl.SFTConfig` of a run."""
    from trl import SFTConfig

    from antrap_gym.training.config_errors import trl_config

    s = config.sft
    kw: dict[str, Any] = trainer_kwargs(config, out)
    kw.update(
        num_train_epochs=s.epochs,
        max_steps=s.max_steps if s.max_steps is not None else -1,
        per_device_train_batch_size=s.batch_size,
        gradient_accumulation_steps=s.grad_accum,
        learning_rate=s.lr,
        lr_scheduler_type=s.lr_scheduler,
        warmup_steps=s.warmup,
        weight_decay=s.weight_decay,
        max_length=None if vlm else s.max_length,
        completion_only_loss=s.completion_only_loss,
        packing=s.packing,
    )
    kw.update(s.extra)
    return trl_config(SFTConfig, kw, "sft")


def run_sft(config: TrainConfig, out: str | Path | None = None, resume: bool | None = None) -> Path:
    """Train with SFT; returns the final model directory (`<out>/final`)."""
    from rich.console import Console
    from transformers import PrinterCallback
    from trl import SFTTrainer

    from antrap_gym.training.lora import prepare_model
    from antrap_gym.training.stage import close_stage, open_stage

    console = Console(stderr=True)
    st = open_stage(config, "sft", out, resume, prepare=lambda run: resolve_data(config, run, console))
    if st.done is not None:
        console.print(f"training already finished in {st.final}")
        return close_stage(st, config)
    model_dir, paths, ckpt = st.model_dir, st.prepared, st.checkpoint
    model, proc, peft_config = prepare_model(config, model_dir)
    tok = getattr(proc, "tokenizer", proc)
    dataset, stats = build_dataset(paths, proc, config.sft.max_length)
    args = sft_args(config, st.run, stats["vlm"])
    if ckpt is not None:
        console.print(f"resuming from {ckpt}")
    extra = {"dataset": stats, "model": str(model_dir), "data": [str(p) for p in paths]}
    cb = MetricsCallback(st.run, "sft", progress=config.train.progress, extra=extra)
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset,
                         processing_class=proc if stats["vlm"] else tok, callbacks=[cb],
                         peft_config=peft_config)
    if config.train.progress:  # the bar shows the loss; no printed log dicts under it
        trainer.remove_callback(PrinterCallback)
    try:
        result = trainer.train(resume_from_checkpoint=str(ckpt) if ckpt else None)
    finally:
        cb.close()
    info = {"stage": "sft", "global_step": trainer.state.global_step,
            "train_loss": result.training_loss, "resumed_from": str(ckpt) if ckpt else None,
            "model_init": str(model_dir), "data": [str(p) for p in paths], "dataset": stats,
            "config": config.source, "train_wall_s": st.wall_s(),
            "lora": dataclasses.asdict(config.model.lora) if config.model.lora else None,
            "no_signal_steps": dict(cb.no_signal)}
    return close_stage(st, config, trainer, proc, info)


__all__ = ["DONE_FILE", "FINAL_DIR", "RunExists", "build_dataset", "resolve_data", "run_sft", "sft_args"]
