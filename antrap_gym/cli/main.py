"""The `antrap` command line."""

from __future__ import annotations

import argparse
import json
import sys

from rich.markup import escape
from rich.table import Table

from antrap_gym.console import add_id_column, make_console, run_command


def _tasks(args: argparse.Namespace) -> int:
    from antrap_gym.tasks import TEMPLATES, get_suite

    names = get_suite(args.suite).templates if args.suite else sorted(TEMPLATES)
    rows = []
    for tid in names:
        cls = TEMPLATES[tid]
        t = cls(cls.generate_params(__import__("numpy").random.default_rng(0)))
        rows.append({"id": tid, "source": cls.source, "apps": list(cls.apps),
                     "complexity": cls.complexity, "kind": cls.kind,
                     "max_steps": t.max_steps, "answer_task": cls.answer_task,
                     "needs_scroll": cls.needs_scroll, "example_goal": t.goal})
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    make_console().print(tasks_table(rows, args.suite))
    return 0


def tasks_title(rows: list[dict], suite: str | None = None) -> str:
    """How many templates, and which sets they come from: the reference ones (AndroidWorld's
    and AnTrap's, the default suite `antrap`) and the package's own (`antrap-extra`)."""
    from collections import Counter

    by_source = Counter(r["source"] for r in rows)
    ours = by_source.pop("antrap-gym", 0)
    ref = sum(by_source.values())
    parts = []
    if ref:
        parts.append(f"{ref} reference (" + ", ".join(f"{n} {s}" for s, n in sorted(by_source.items()))
                     + ("; suite antrap, the default" if suite is None else "") + ")")
    if ours:
        parts.append(f"{ours} antrap-gym's own" + (" (suite antrap-extra)" if suite is None else ""))
    where = f" in {suite}" if suite else ""
    if not parts:
        return f"no task templates{where}"
    return f"{len(rows)} task templates{where}: " + " and ".join(parts)


def tasks_table(rows: list[dict], suite: str | None = None) -> Table:
    """The task templates as a table; ids are never cut (see add_id_column)."""
    table = Table(title=tasks_title(rows, suite))
    add_id_column(table, "id", (r["id"] for r in rows))
    for col in ("source", "apps", "complexity", "max steps", "kind", "example goal"):
        table.add_column(col)
    for r in rows:
        kind = r["kind"] + (", scroll" if r["needs_scroll"] else "")
        table.add_row(r["id"], r["source"], ", ".join(a.rsplit(".", 1)[-1] for a in r["apps"]),
                      f"{r['complexity']:g}", str(r["max_steps"]), kind, escape(r["example_goal"]))
    return table


def _traps(args: argparse.Namespace) -> int:
    from antrap_gym.traps import LAYERS, TRAP_CLASSES

    rows = []
    for layer, types in LAYERS.items():
        for t in types:
            cls = TRAP_CLASSES[t]
            sch = cls.default_schedule
            rows.append({"type": t, "layer": layer, "p": sch.p, "window": sch.window,
                         "duration": list(sch.duration), "settings": dict(cls.defaults),
                         "about": " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())})
    if args.json:
        print(json.dumps(rows, indent=1, default=list))
        return 0
    make_console().print(traps_table(rows))
    return 0


def traps_table(rows: list[dict]) -> Table:
    """The STAR taxonomy as a table; layers and trap types are never cut."""
    table = Table(title="STAR traps")
    add_id_column(table, "layer", (r["layer"] for r in rows))
    add_id_column(table, "type", (r["type"] for r in rows))
    table.add_column("what happens")
    table.add_column("duration", no_wrap=True)
    for r in rows:
        table.add_row(r["layer"], r["type"], r["about"], steps_range(*r["duration"]))
    return table


def steps_range(low: int, high: int) -> str:
    """A trap's duration: `1 step`, `3 steps` when fixed, `4–6 steps` when drawn."""
    if low == high:
        return f"{low} step{'s' if low != 1 else ''}"
    return f"{low}–{high} steps"


def _bench(args: argparse.Namespace) -> int:
    from antrap_gym.bench import run_all

    res = run_all(quick=args.quick, suite=args.suite, only=args.only)
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    table = Table(title="simulated phone performance (median of repeats, spread min – max)")
    figures = {k: v for k, v in res.items() if isinstance(v, (int, float))}
    add_id_column(table, "figure", figures)
    table.add_column("median", justify="right", no_wrap=True)
    table.add_column("spread", justify="right", no_wrap=True)
    table.add_column("target")
    for key, value in figures.items():
        sp = res.get(f"{key}_spread")
        spread = "" if not isinstance(sp, dict) else (
            f"{sp['min']:,.3f} – {sp['max']:,.3f}"
            + (f" (quartiles {sp['p25']:,.3f} – {sp['p75']:,.3f})" if "p25" in sp else ""))
        table.add_row(key, f"{value:,.3f}", spread, res["targets"].get(key, ""))
    make_console().print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="antrap", description="AnTrap: Android GUI agents under "
                                "runtime anomalies, on a simulated phone or a real device.")
    sub = p.add_subparsers(dest="cmd", required=True)

    t = sub.add_parser("tasks", help="list task templates")
    t.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    t.add_argument("--suite", default=None,
                   help="only the templates of this suite (default: every template)")
    t.set_defaults(fn=_tasks)

    from antrap_gym.cli.eval_cmd import add_eval_parser

    add_eval_parser(sub)

    from antrap_gym.training.cli import add_training_parsers  # collect, train sft|grpo (torch loads lazily)

    add_training_parsers(sub)

    r = sub.add_parser("run", help="watch an agent do tasks on the simulated phone")
    r.add_argument("--agent", default="oracle", help="oracle | random | module:Class")
    r.add_argument("--suite", default="antrap", help="task suite (default: antrap)")
    r.add_argument("--task", default=None, help="one template id instead of a suite")
    r.add_argument("--variants", type=int, default=None, help="seeded variants per template")
    r.add_argument("--seed", type=int, default=0, help="first variant seed")
    r.add_argument("--out", default=None, help="write episodes.jsonl (and screenshots) here")
    r.add_argument("--screenshots", action="store_true", help="save a PNG per step under --out")
    r.set_defaults(fn=lambda a: __import__("antrap_gym.cli.run", fromlist=["main"]).main(a))

    pl = sub.add_parser("play", help="drive the phone yourself from the terminal")
    pl.add_argument("--task", default=None,
                    help="template id (default: one of the antrap suite, drawn by --seed)")
    pl.add_argument("--seed", type=int, default=0,
                    help="the task variant's seed (and, without --task, the template's: a draw "
                         "whose goal already holds is skipped for the next seed)")
    pl.add_argument("--out", default=None,
                    help="save a PNG per step here (default: a fresh runs/play-<time>)")
    pl.set_defaults(fn=lambda a: __import__("antrap_gym.cli.play", fromlist=["main"]).main(a))

    sv = sub.add_parser("solvability", help="check trapped tasks stay solvable (oracle on forks)")
    sv.add_argument("--suite", default="antrap", help="task suite (default: antrap)")
    sv.add_argument("--traps", default="all", help="all | a layer | type[,type...]")
    sv.add_argument("--variants", type=int, default=None,
                    help="seeded variants per template (default: the suite's)")
    sv.add_argument("--seed", type=int, default=0, help="first variant seed")
    sv.add_argument("--p", type=float, default=None, help="override the per-step probability")
    sv.add_argument("--json", action="store_true",
                    help="print the audit as JSON (progress goes to stderr)")
    sv.set_defaults(fn=lambda a: __import__("antrap_gym.cli.solvability",
                                            fromlist=["main"]).main(a))

    tr = sub.add_parser("traps", help="list the STAR taxonomy and trap settings")
    tr.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    tr.set_defaults(fn=_traps)

    sa = sub.add_parser("sim-adbd", help="serve a simulated phone over the ADB device protocol")
    from antrap_gym.device.adbd.cli import add_arguments as _adbd_args

    _adbd_args(sa)
    sa.set_defaults(fn=lambda a: __import__("antrap_gym.device.adbd.cli", fromlist=["main"]).main(a))

    b = sub.add_parser("bench", help="measure the simulated phone's speed")
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.add_argument("--quick", action="store_true", help="fewer repeats (seconds, not minutes)")
    b.add_argument("--suite", default="antrap",
                   help="the suite whose oracle action stream is replayed (default: antrap)")
    b.add_argument("--only", action="append", choices=("steps", "snapshot", "reset", "memory", "vector",
                                                        "traps"),
                   help="measure only these groups of figures (repeatable; default: all)")
    b.set_defaults(fn=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run one command; a closed stdout (`antrap tasks | head`) ends it quietly (141)."""
    return run_command(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
