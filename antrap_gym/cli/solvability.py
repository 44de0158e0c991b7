"""`antrap solvability`: is every trapped task still solvable? (the oracle on forks)"""

from __future__ import annotations

import argparse
import json

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from antrap_gym.console import add_id_column, make_console
from antrap_gym.eval.audit import audit
from antrap_gym.tasks import get_suite
from antrap_gym.traps import expand


def main(args: argparse.Namespace) -> int:
    suite = get_suite(args.suite)
    variants = args.variants if args.variants is not None else suite.variants
    episodes = [(t, args.seed + v) for t in suite.templates for v in range(variants)]
    traps = expand(args.traps)
    # piped or captured output gets the whole table, not 80 columns of ellipses
    console = make_console(stderr=args.json)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=args.json) as progress:
        bar = progress.add_task("trapped episodes", total=len(traps) * len(episodes))
        results = audit(traps, episodes, trap_settings={"p": args.p} if args.p is not None else None,
                        on_episode=lambda trap, a: progress.update(
                            bar, advance=1, description=f"{trap:22s}"))
    if args.json:
        print(json.dumps({t: a.to_dict() for t, a in results.items()}, indent=1))
        return 0
    table = Table(title=f"solvability after injection — {args.suite}, {len(episodes)} episodes per trap")
    add_id_column(table, "trap", results)
    add_id_column(table, "layer", (a.layer for a in results.values()))
    for col in ("trapped ep.", "events", "solvable", "oracle success", "recovered",
                "mean extra steps"):
        table.add_column(col, justify="right")
    for t, a in results.items():
        d = a.to_dict()
        table.add_row(t, a.layer, f"{a.trapped_episodes}/{a.episodes}", str(a.events),
                      f"{d['solvable_rate']:.1%}", f"{d['oracle_success_rate']:.1%}",
                      f"{a.recovered_events}/{a.events}", f"{d['mean_extra_steps']:.2f}")
    console.print(table)
    return 0
