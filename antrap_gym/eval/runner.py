"""`evaluate`: run an evaluation end to end, resumably, with a progress bar."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console

from antrap_gym.eval.artifacts import write_artifacts
from antrap_gym.eval.errors import is_infrastructure_error
from antrap_gym.eval.pool import make_pool
from antrap_gym.eval.progress import EvalProgress
from antrap_gym.eval.report import print_table, write_summary
from antrap_gym.eval.rundir import RunDirError, check_same_run, lock_run_dir
from antrap_gym.eval.spec import EvalConfig
from antrap_gym.eval.store import EpisodeStore, episodes_file


class ResultsExist(RunDirError):
    """The output directory already holds episodes and --resume was not given."""


def evaluate(config: EvalConfig, out: str | Path, *, workers: int = 1, backend: str = "local",
             resume: bool = False, ray_address: str | None = None, console: Console | None = None,
             progress: bool = True, artifacts: bool = True, retry_errors: bool = True,
             inline: bool = False) -> dict[str, Any]:
    """Run every episode of `config` not yet in `out/episodes.jsonl.gz`, then write the
    summary (JSON, Markdown), plots and the trajectory viewer. Returns the summary.

    workers: worker processes (or Ray actors); 1 is one worker process, so the
        episode timeout and crash recovery hold. inline: run in this process instead
        (debugging only: no isolation, no timeout).
    resume: continue the run in `out`. With retry_errors (the default), episodes whose
        record has an infrastructure error (worker died, timed out, API or device
        unreachable; see `antrap_gym.eval.errors`) are run again instead of counted
        as finished failures; their old records move to `out/retried.jsonl`. A resume
        with another setup or other agents than `out/config.json` records is refused
        (`RunMismatch`).

    `out` is locked for the run (`rundir.lock_run_dir`): a second run on it, in any
    process, is refused (`RunDirBusy`) before it runs or writes anything. These and
    `ResultsExist` are `RunDirError`s; a line of the episodes file that is not an
    episode record is a `store.BadRecord` naming it.
    """
    out = Path(out)
    with lock_run_dir(out):
        if resume:
            check_same_run(config, out)
        return _evaluate(config, out, workers=workers, backend=backend, resume=resume,
                         ray_address=ray_address, console=console or Console(),
                         progress=progress, artifacts=artifacts, retry_errors=retry_errors,
                         inline=inline)


def _evaluate(config: EvalConfig, out: Path, *, workers: int, backend: str, resume: bool,
              ray_address: str | None, console: Console, progress: bool, artifacts: bool,
              retry_errors: bool, inline: bool) -> dict[str, Any]:
    """`evaluate` in a results folder this process holds."""
    store = EpisodeStore(episodes_file(out))
    if store.records and not resume:
        store.close()
        raise ResultsExist(f"{out} already has {len(store.records)} episodes: pass --resume to "
                           "continue that run, or choose another --out")
    (out / "config.json").write_text(config.to_json())
    specs = config.episodes()
    # counted here, where the suite is known: it travels to the workers with the config (a
    # suite registered in this process only, as training's evaluations make, is unknown there)
    config.count_screen_cells(specs)
    retried = 0
    if resume and retry_errors:
        wanted = {s.key for s in specs}
        again = {r["id"] for r in store.records if r["id"] in wanted and is_infrastructure_error(r)}
        retried = len(store.drop(again))
        if retried:
            console.print(f"retrying {retried} episode(s) whose record has an infrastructure error "
                          f"(old records kept in {out / 'retried.jsonl'})")
    done = store.done
    todo = [s for s in specs if s.key not in done]
    t0 = time.monotonic()
    bar = EvalProgress(specs, store.records, console, disable=not progress)
    pool = make_pool(backend, config, out, workers, ray_address=ray_address, inline=inline)
    try:
        with bar:
            def on_result(record: dict[str, Any]) -> None:
                store.append(record)
                bar.advance(record)

            pool.run(todo, on_result)
    finally:
        pool.close()
        store.close()
    summary = write_summary(store.records, out)
    summary["wall_s"] = round(time.monotonic() - t0, 2)
    summary["retried"] = retried
    if artifacts:
        write_artifacts(summary, store.records, out, console)
    print_table(summary, console)
    return summary
