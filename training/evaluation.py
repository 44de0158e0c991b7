"""Evaluating a trained checkpoint with the benchmark's own harness.

The checkpoint runs as the `transformers` agent in the very policy format it
was trained on (`policy` section), on `eval_after`'s suite and trap protocol,
and the harness writes its usual run directory (episodes, summary, plots,
viewer). Used at the end of SFT and GRPO runs, and on its own.
"""

from __future__ import annotations

import dataclasses
import os
import zlib
from pathlib import Path
from typing import Any

from antrap_gym.training.config import TrainConfig

#: policy fields that only shape SFT targets, never what a model is shown or how it answers
TRAINING_ONLY_POLICY_FIELDS = frozenset({"index_targets"})


def agent_kwargs(path: str | Path, config: TrainConfig) -> dict[str, Any]:
    """The `transformers` agent's options for a checkpoint trained with `config`."""
    from antrap_gym.training.config import resolve_device

    kw: dict[str, Any] = {"model_path": str(Path(path).resolve()),
                          "max_new_tokens": config.eval_after.max_new_tokens,
                          "device": resolve_device(config.model), "dtype": config.model.dtype,
                          "trust_remote_code": config.model.trust_remote_code, "seed": config.train.seed}
    # every field of the policy format that shapes the prompt or the reply goes to the agent
    # (a field it does not take fails loudly there, never silently drifts)
    pol = dataclasses.asdict(config.policy_config())
    kw.update({k: v for k, v in pol.items() if k not in TRAINING_ONLY_POLICY_FIELDS})
    if kw["device"] == "cpu":
        kw["dtype"] = "float32"
        # one process per eval worker: share the cores instead of oversubscribing them
        kw["threads"] = max(1, (os.cpu_count() or 1) // max(1, config.eval_after.workers))
    return kw


def eval_suite(config: TrainConfig) -> str:
    """The suite to evaluate: `eval_after.suite`, or a throwaway one of `eval_after.tasks`."""
    from antrap_gym.tasks import TEMPLATES, get_suite
    from antrap_gym.tasks.registry import Suite, register_suite

    ea = config.eval_after
    if not ea.tasks:
        get_suite(ea.suite)  # a clear error for an unknown suite
        return ea.suite
    unknown = [t for t in ea.tasks if t not in TEMPLATES]
    if unknown:
        raise KeyError(f"eval_after.tasks: unknown task templates {unknown}; see `antrap tasks`")
    name = f"train-eval-{zlib.crc32(','.join(ea.tasks).encode()):08x}"
    register_suite(Suite(name, tuple(ea.tasks), variants=ea.variants or 1,
                         description="the tasks of a training config's eval_after"))
    return name


def evaluate_checkpoint(path: str | Path, config: TrainConfig, out: str | Path | None = None, *,
                        label: str | None = None, resume: bool = True, progress: bool | None = None,
                        inline: bool = False, artifacts: bool = True) -> dict[str, Any]:
    """Evaluate the checkpoint at `path`; returns the harness's summary.

    out: the evaluation run directory (default `eval_after.out`, else
    `<path>/../eval`). An interrupted evaluation continues where it stopped.
    inline / artifacts: the harness's (episodes in this process, no worker to start; plots
    and viewer written or not), for many small evaluations.
    """
    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    path = Path(path)
    ea = config.eval_after
    out = Path(out or ea.out or path.parent / "eval")
    default = f"{config.name or 'policy'}:{path.parent.name if path.name == 'final' else path.name}"
    spec = AgentSpec.make("transformers", label=label or default, **agent_kwargs(path, config))
    cfg = EvalConfig(agents=[spec], suite=eval_suite(config), traps=ea.traps, runs=ea.runs,
                     variants=ea.variants, screens="failed")
    show = config.train.progress if progress is None else progress
    summary = evaluate(cfg, out, workers=ea.workers, resume=resume, progress=show, inline=inline,
                       artifacts=artifacts)
    summary["out"] = str(out)
    return summary


def summary_cell(summary: dict[str, Any], setting: str) -> dict[str, Any]:
    """One setting's figures from a one-agent harness summary: success rate, its Wilson
    95% interval, n, the interval by template and the per-template counts it rests on,
    and the recovery rate (trapped settings) with its interval."""
    agent = next(iter(summary["agents"].values()))
    row = agent["clean"] if setting == "clean" else agent["traps"][setting]
    return {"rate": row["success_rate"], "ci95": row["ci95"], "n": row["n"],
            "ci95_template": row.get("ci95_template"), "templates": row.get("templates"),
            "recovery": row.get("recovery_rate"), "recovery_ci95": row.get("recovery_ci95")}


def success_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """after - before success (two `summary_cell`s), with Newcombe's 95% interval for a
    difference of two proportions; `measured` when the whole interval lies above zero.

    When both cells carry per-template counts (the same templates, e.g. two policies on one
    held-out suite), `ci95_template` is the paired interval with templates resampled
    (`eval/bootstrap.py`) and `measured_template` says whether it lies above zero: the one
    to quote for a claim about the policies rather than about these episodes."""
    from antrap_gym.eval.bootstrap import paired_difference_interval
    from antrap_gym.eval.metrics import newcombe

    lo, hi = newcombe(after["rate"], after["ci95"], before["rate"], before["ci95"])
    out = {"delta": after["rate"] - before["rate"], "ci95": [lo, hi], "measured": lo > 0}
    if after.get("templates") and before.get("templates"):
        tlo, thi = paired_difference_interval(after["templates"], before["templates"])
        out.update(ci95_template=[tlo, thi], measured_template=tlo > 0)
    return out


def save_final(trainer, processing_class, run: str | Path, config: TrainConfig, info: dict[str, Any]) -> Path:
    """Save the trained model, its tokenizer/processor and what produced it to `<run>/final`.

    `info` (stage, global step, ...) goes to `final/antrap_train.json`, written last:
    its presence marks the stage as finished (`callbacks.finished`)."""
    import dataclasses
    import json

    from antrap_gym.training.callbacks import DONE_FILE, FINAL_DIR

    final = Path(run) / FINAL_DIR
    final.mkdir(parents=True, exist_ok=True)
    trainer.save_model(str(final))
    processing_class.save_pretrained(str(final))
    policy = dataclasses.asdict(config.policy_config())
    (final / "antrap_policy.json").write_text(json.dumps(policy, indent=1))
    (final / DONE_FILE).write_text(json.dumps(info, indent=1, default=str))
    return final


def finish_run(run: str | Path, config: TrainConfig, info: dict[str, Any]) -> dict[str, Any]:
    """The end of a stage: evaluate `<run>/final` (`eval_after`) and write `<run>/result.json`.

    Returns the result (`info`, the final path and the evaluation's summary).
    An evaluation killed half-way continues on the next call (the harness resumes)."""
    import json

    from antrap_gym.training.callbacks import FINAL_DIR

    run = Path(run)
    final = run / FINAL_DIR
    result: dict[str, Any] = {**info, "final": str(final)}
    if config.eval_after.enabled:
        summary = evaluate_checkpoint(final, config, config.eval_after.out or run / "eval")
        result["eval"] = {"out": summary.get("out"), "agents": summary.get("agents")}
    (run / "result.json").write_text(json.dumps(result, indent=1, default=str))
    return result


__all__ = ["agent_kwargs", "eval_suite", "evaluate_checkpoint", "finish_run", "save_final", "success_change",
           "summary_cell"]
