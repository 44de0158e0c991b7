"""Evaluation harness figures (prints them; not a timed test).

    python benchmarks/bench_eval.py                  # the figures below, 3 repeats
    python benchmarks/bench_eval.py --repeats 5 --main-repeats 2 --json

- oracle episodes/s through `antrap_gym.eval.evaluate` with 1 and 2 worker
  processes (the default suite, clean and under all ten traps: 11 x the
  suite's task instances), each repeated for a median and a spread (min..max). The time is
  the whole call: starting the workers, the episodes, writing episodes.jsonl.gz
  and the summary (plots and viewer off: they are timed by the main job);
- the wall time of the main job, `antrap eval` with no arguments (oracle,
  replay and random on the default suite, clean and under all ten traps:
  23,463 episodes today, default workers = CPU count, plots and viewer included), as
  a user runs it: a fresh process, its output in a scratch directory.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def oracle_rate(workers: int, traps: str, suite: str) -> tuple[float, int, float]:
    """(episodes/s, episodes, seconds) of one oracle evaluation."""
    from rich.console import Console

    from antrap_gym.eval import AgentSpec, EvalConfig, evaluate

    cfg = EvalConfig(agents=[AgentSpec.make("oracle")], suite=suite, traps=traps)
    n = len(cfg.episodes())
    with tempfile.TemporaryDirectory() as d:
        quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115 (closed with the console)
        t = time.perf_counter()
        summary = evaluate(cfg, d, workers=workers, progress=False, artifacts=False,
                           console=quiet)
        dt = time.perf_counter() - t
        quiet.file.close()
    a = summary["agents"]["oracle"]
    if a["episodes"] != n or a["errors"]:
        raise RuntimeError(f"the oracle run is not clean: {a['episodes']}/{n} episodes, "
                           f"{a['errors']} errors")
    return n / dt, n, dt


def main_job() -> tuple[float, float, int, int, int]:
    """(seconds, CPU-seconds, episodes, bytes, files) of `antrap eval` with no arguments, in
    a fresh process; CPU-seconds: its own and its workers'; bytes and files: everything it
    wrote (results, plots, screens, viewer)."""
    from antrap_gym.eval import load_records

    with tempfile.TemporaryDirectory() as d:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        res = subprocess.run([sys.executable, "-m", "antrap_gym.cli.main", "eval"], cwd=d,
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        dt = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if res.returncode != 0:
            raise RuntimeError(f"antrap eval failed: {res.stderr[-2000:]}")
        runs = list((Path(d) / "runs").glob("eval-*"))
        n = len(load_records(runs[0])) if runs else 0
        if not runs or not (runs[0] / "viewer" / "index.html").is_file():
            raise RuntimeError("antrap eval wrote no viewer")
        written = [f for f in runs[0].rglob("*") if f.is_file()]
        size = sum(f.stat().st_size for f in written)
    return dt, cpu, n, size, len(written)


def spread(values: list[float]) -> dict[str, Any]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": [round(v, 3) for v in values]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=3,
                   help="repeats of each episodes/s figure (0: skip them)")
    p.add_argument("--main-repeats", type=int, default=1, help="runs of the main job (0: skip)")
    p.add_argument("--suite", default="antrap")
    p.add_argument("--traps", default="all")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or None
    out: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                       "load_avg_before": os.getloadavg()}, "commit": commit}
    for workers in (1, 2) if args.repeats > 0 else ():
        rates, n = [], 0
        for _ in range(args.repeats):
            rate, n, _ = oracle_rate(workers, args.traps, args.suite)
            rates.append(rate)
            if not args.json:
                print(f"oracle, {workers} worker(s): {rate:,.0f} episodes/s ({n} episodes)",
                      flush=True)
        out[f"oracle_episodes_per_s_{workers}_workers"] = {**spread(rates), "episodes": n}
    if args.main_repeats > 0:
        times, cpus, n, size, files = [], [], 0, 0, 0
        for _ in range(args.main_repeats):
            dt, cpu, n, size, files = main_job()
            times.append(dt)
            cpus.append(cpu)
            if not args.json:
                print(f"main job (antrap eval): {dt:.1f} s, {cpu:.0f} CPU-s ({n} episodes), wrote "
                      f"{size / 2**20:.1f} MiB in {files:,} files", flush=True)
        out["main_job_s"] = {**spread(times), "episodes": n, "workers": os.cpu_count()}
        out["main_job_cpu_s"] = spread(cpus)
        out["main_job_output"] = {"mib": size / 2**20, "files": files}
    out["machine"]["load_avg_after"] = os.getloadavg()

    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print()
    print("| figure | median | spread (min – max) | repeats |")
    print("|---|---|---|---|")
    for workers in (1, 2) if args.repeats > 0 else ():
        f = out[f"oracle_episodes_per_s_{workers}_workers"]
        print(f"| oracle episodes/s, {workers} worker(s), {f['episodes']} episodes | "
              f"{f['median']:,.0f} | {f['min']:,.0f} – {f['max']:,.0f} | {len(f['runs'])} |")
    if "main_job_s" in out:
        f = out["main_job_s"]
        print(f"| main job `antrap eval` ({f['episodes']} episodes, {f['workers']} workers), s | "
              f"{f['median']:.1f} | {f['min']:.1f} – {f['max']:.1f} | {len(f['runs'])} |")
        c = out["main_job_cpu_s"]
        print(f"| main job's CPU-seconds (the command and its workers) | {c['median']:.0f} | "
              f"{c['min']:.0f} – {c['max']:.0f} | {len(c['runs'])} |")
        o = out["main_job_output"]
        print(f"| main job's output (MiB, files; the same every run) | {o['mib']:.1f} | "
              f"{o['files']:,} files | {len(f['runs'])} |")
    load = out["machine"]
    print(f"\n{load['cpus']} CPUs, Python {load['python']}; load average before "
          f"{load['load_avg_before'][0]:.2f}, after {load['load_avg_after'][0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
