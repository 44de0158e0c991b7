"""Writing and printing the summary: `summary.json`, `summary.md`, the terminal table."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from antrap_gym.eval.metrics import column_order, summarize
from antrap_gym.eval.store import load_records
from antrap_gym.traps.taxonomy import LAYERS

SHORT = {
    "external_interruption": "Interrupt", "visual_obscuration": "Obscure",
    "temporal_conflict": "Temporal", "visual_hallucination": "Halluc.",
    "grounding_error": "Ground", "type_mismatch": "TypeMis", "intent_deviation": "Intent",
    "state_deadlock": "Deadlock", "context_disruption": "Context", "loop": "Loop",
}


def pct(x: float) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}"


def pm(rate: float, ci: list[float]) -> str:
    """`74.2 [69.8, 78.1]`: the rate and its 95% interval, in percent."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "–"
    if not ci or any(math.isnan(c) for c in ci):
        return pct(rate)
    return f"{100 * rate:.1f} [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def write_summary(records: list[dict[str, Any]], out: Path) -> dict[str, Any]:
    summary = summarize(records)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, allow_nan=True))
    (out / "summary.md").write_text(markdown(summary))
    return summary


def markdown(summary: dict[str, Any]) -> str:
    cols = column_order(summary["settings"])
    layers = [lay for lay in LAYERS if any(lay in a["layers"] for a in summary["agents"].values())]
    lines = ["# AnTrap evaluation", "",
             "Success rate (%) with 95% intervals; Trap avg is the mean over trap types; "
             "Drop = Clean − Trap avg.", ""]
    head = ["Agent", "Clean", *[SHORT.get(c, c) for c in cols], "Trap avg", "Drop",
            *[lay.capitalize() for lay in layers]]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for agent, a in summary["agents"].items():
        row = [agent, pm(a["clean"]["success_rate"], a["clean"]["ci95"])]
        row += [pm(a["traps"][c]["success_rate"], a["traps"][c]["ci95"]) if c in a["traps"] else "–"
                for c in cols]
        row += [pm(a["trap_average"], a["trap_average_ci95"]), pm(a["drop"], a["drop_ci95"])]
        row += [pm(a["layers"][lay]["success_rate"], a["layers"][lay]["ci95"])
                if lay in a["layers"] else "–" for lay in layers]
        lines.append("| " + " | ".join(row) + " |")
    k = max((a["clean"]["k"] for a in summary["agents"].values()), default=1)
    lines += ["", f"## Pass@{k} (%)", "",
              "| " + " | ".join(["Agent", "Clean", *[SHORT.get(c, c) for c in cols], "Trap avg",
                                 "Drop"]) + " |",
              "|" + "---|" * (len(cols) + 4)]
    for agent, a in summary["agents"].items():
        row = [agent, pm(a["clean"]["pass_at_k"], a["clean"]["pass_at_k_ci95"])]
        row += [pm(a["traps"][c]["pass_at_k"], a["traps"][c]["pass_at_k_ci95"])
                if c in a["traps"] else "–" for c in cols]
        row += [pm(a["trap_average_pass_at_k"], a["trap_average_pass_at_k_ci95"]),
                pct(a["drop_pass_at_k"])]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "## Recovery from traps", "",
              "Recovered: trapped episodes where the agent got back on track after every trap "
              "(%); extra: mean extra steps per recovered trap; trapped: share of episodes "
              "where the trap fired.", "",
              "| Agent | Trap | Trapped | Recovered | Extra steps |", "|---|---|---|---|---|"]
    for agent, a in summary["agents"].items():
        for c in cols:
            t = a["traps"].get(c)
            if t:
                extra = t["mean_extra_steps"]
                lines.append(f"| {agent} | {c} | {pct(t['trapped_fraction'])} | "
                             f"{pm(t['recovery_rate'], t['recovery_ci95'])} | "
                             f"{'–' if math.isnan(extra) else f'{extra:.2f}'} |")
    return "\n".join(lines) + "\n"


def print_table(summary: dict[str, Any], console: Console | None = None) -> None:
    """The table on the terminal: settings down the side, one column per agent
    (narrow enough for an 80-column terminal; summary.md has the paper's layout)."""
    console = console or Console()
    agents = list(summary["agents"])
    cols = column_order(summary["settings"])
    table = Table(title="AnTrap — success rate %, (Pass@k %)", title_justify="left")
    table.add_column("setting")
    for a in agents:
        table.add_column(a, justify="right")

    def cell(block: dict[str, Any] | None, k: int) -> str:
        if not block:
            return "–"
        rate = pct(block["success_rate"])
        return rate if k <= 1 else f"{rate} ({pct(block['pass_at_k'])})"

    table.add_row("Clean", *[cell(summary["agents"][a]["clean"], summary["agents"][a]["clean"]["k"])
                             for a in agents], end_section=True)
    for c in cols:
        table.add_row(c, *[cell(summary["agents"][a]["traps"].get(c),
                                summary["agents"][a]["clean"]["k"]) for a in agents])
    table.add_section()
    table.add_row("[bold]Trap average", *[f"[bold]{pct(summary['agents'][a]['trap_average'])}"
                                          for a in agents])
    table.add_row("[bold]Drop", *[f"[bold]{pct(summary['agents'][a]['drop'])}" for a in agents],
                  end_section=True)
    for lay in LAYERS:
        if any(lay in summary["agents"][a]["layers"] for a in agents):
            table.add_row(f"{lay.capitalize()} layer",
                          *[pct(summary["agents"][a]["layers"].get(lay, {}).get("success_rate"))
                            for a in agents])
    console.print(table)


def report(dirs: list[str | Path], out: str | Path | None = None,
           console: Console | None = None) -> dict[str, Any]:
    """Merge the episodes of several runs (several agents) into one table."""
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    for d in dirs:
        for r in load_records(d):
            if r["id"] not in seen:
                seen.add(r["id"])
                records.append(r)
    target = Path(out) if out else Path(dirs[0])
    summary = write_summary(records, target)
    from antrap_gym.eval.runner import write_artifacts

    write_artifacts(summary, records, target, console or Console())
    print_table(summary, console)
    return summary
