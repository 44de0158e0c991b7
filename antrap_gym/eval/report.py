"""Writing and printing the summary: `summary.json`, `summary.md`, the terminal table."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from antrap_gym.eval.metrics import column_order, summarize, to_json
from antrap_gym.eval.setups import CONFIG_FILE, REPORT_FILE, differences, run_setup
from antrap_gym.eval.store import (
    EPISODES_FILE,
    PLAIN_EPISODES_FILE,
    episodes_file,
    fresh_run_dir,
    load_records,
    write_records,
)
from antrap_gym.eval.worker import safe_name
from antrap_gym.traps.taxonomy import LAYERS

SHORT = {
    "external_interruption": "Interrupt", "visual_obscuration": "Obscure",
    "temporal_conflict": "Temporal", "visual_hallucination": "Halluc.",
    "grounding_error": "Ground", "type_mismatch": "TypeMis", "intent_deviation": "Intent",
    "state_deadlock": "Deadlock", "context_disruption": "Context", "loop": "Loop",
}


def _missing(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and not math.isfinite(x))


def pct(x: float | None) -> str:
    return "–" if _missing(x) else f"{100 * x:.1f}"


def pm(rate: float | None, ci: list[float | None]) -> str:
    """`74.2 [69.8, 78.1]`: the rate and its 95% interval, in percent."""
    if _missing(rate):
        return "–"
    if not ci or any(_missing(c) for c in ci):
        return pct(rate)
    return f"{100 * rate:.1f} [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def write_summary(records: list[dict[str, Any]], out: Path,
                  mixed_setups: list[str] | None = None) -> dict[str, Any]:
    """`summary.json` and `summary.md` of `records` in `out`; `mixed_setups` (from a
    merge of runs that differ) says how the cells mix them, in both files."""
    summary = summarize(records)
    summary["grading"] = grading_of(records)
    if mixed_setups:
        summary["mixed_setups"] = list(mixed_setups)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(to_json(summary))
    (out / "summary.md").write_text(markdown(summary))
    return summary


def grading_of(records: list[dict[str, Any]]) -> str:
    """How the episodes were graded: "ours", "reference", or "mixed" when they differ.
    An episode that could not run records none; runs from before `--grading` were
    graded by our checks."""
    found = {r["grading"] for r in records if r.get("grading")} or {"ours"}
    return found.pop() if len(found) == 1 else "mixed"


#: what summary.md says of each grading
GRADED_BY = {
    "ours": "Graded by our checks (`--grading ours`).",
    "reference": "Graded by the reference's checks where a template's differ from ours "
                 "(`--grading reference`, see docs/grading.md).",
    "mixed": "**Mixed grading:** some episodes were graded by our checks, some by the "
             "reference's (`--grading`).",
}


def markdown(summary: dict[str, Any]) -> str:
    cols = column_order(summary["settings"])
    layers = [lay for lay in LAYERS if any(lay in a["layers"] for a in summary["agents"].values())]
    lines = ["# AnTrap evaluation", "", GRADED_BY[summary.get("grading", "ours")], "",
             *mixed_setups_note(summary),
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
    lines += [f"\n**Warning:** {w}" for w in infrastructure_warnings(summary)]
    lines += ["", *template_interval_table(summary)]
    k = max((a["clean"]["k"] for a in summary["agents"].values()), default=1)
    lines += ["", *pass_at_k_table(summary, cols, k)]
    lines += ["", "## Back to the pre-trap state", "",
              "| Agent | Trap | Trapped | Back to pre-trap | Extra steps |", "|---|---|---|---|---|"]
    for agent, a in summary["agents"].items():
        for c in cols:
            t = a["traps"].get(c)
            if t:
                extra = t["mean_extra_steps"]
                lines.append(f"| {agent} | {c} | {pct(t['trapped_fraction'])} | "
                             f"{pm(t['recovery_rate'], t['recovery_ci95'])} | "
                             f"{'–' if math.isnan(extra) else f'{extra:.2f}'} |")
    lines += ["", BACK_TO_PRE_TRAP]
    return "\n".join(lines) + "\n"


#: what summary.md's recovery column measures (`recovery_rate`; docs/traps.md has the rule)
BACK_TO_PRE_TRAP = (
    "Back to pre-trap (%): of the trapped episodes, those where after every trap the task was "
    "no further from done than just before it (the oracle needs no more steps from there) — "
    "not success: an agent that makes no progress is back as soon as the trap's effect is gone. "
    "Trapped: share of episodes where the trap fired; extra steps: mean steps a trap cost "
    "until the agent was back.")


def template_interval_table(summary: dict[str, Any]) -> list[str]:
    """summary.md's intervals by template: the clean rate, the trap average and the drop with
    the templates resampled (`eval/bootstrap.py`), beside how many templates they rest on."""
    lines = ["## Intervals by template (%)", "",
             "The table above treats every episode as independent. A template's variants succeed "
             "and fail together, so for a claim about the agent rather than about these episodes, "
             "quote these: 95% intervals of a bootstrap that resamples whole templates.", "",
             "| Agent | Templates | Clean | Trap avg | Drop |", "|---|---|---|---|---|"]
    for agent, a in summary["agents"].items():
        clean = a["clean"]
        n = len(clean.get("templates") or {}) or max(
            (len(t.get("templates") or {}) for t in a["traps"].values()), default=0)
        lines.append(f"| {agent} | {n} | {pm(clean['success_rate'], clean.get('ci95_template', []))} | "
                     f"{pm(a['trap_average'], a.get('trap_average_ci95_template', []))} | "
                     f"{pm(a['drop'], a.get('drop_ci95_template', []))} |")
    return lines


def mixed_setups_note(summary: dict[str, Any]) -> list[str]:
    """summary.md's lines saying that the cells pool runs of different setups (a merge with
    --allow-mixed), and how they differ; none when the runs agreed."""
    mixed = summary.get("mixed_setups") or []
    if not mixed:
        return []
    return ["**Mixed setups:** these cells pool runs that differ in what defines their episodes "
            "(merged with `--allow-mixed`), so a cell's episodes are not one setup's:", "",
            *[f"- {line}" for line in mixed], ""]


def pass_at_k_table(summary: dict[str, Any], cols: list[str], k: int) -> list[str]:
    """summary.md's Pass@k section: the table when some setting had several runs, else one
    line (with one run per variant, Pass@1 is the success rate above)."""
    if k <= 1:
        return ["Pass@k needs `--runs` > 1: each variant ran once, so Pass@1 is the success "
                "rate above."]
    lines = [f"## Pass@{k} (%)", "",
             "| " + " | ".join(["Agent", "Clean", *[SHORT.get(c, c) for c in cols], "Trap avg",
                                "Drop"]) + " |",
             "|" + "---|" * (len(cols) + 4)]
    for agent, a in summary["agents"].items():
        row = [agent, pm(a["clean"]["pass_at_k"], a["clean"]["pass_at_k_ci95"])]
        row += [pm(a["traps"][c]["pass_at_k"], a["traps"][c]["pass_at_k_ci95"])
                if c in a["traps"] else "–" for c in cols]
        row += [pm(a["trap_average_pass_at_k"], a["trap_average_pass_at_k_ci95"]),
                pm(a["drop_pass_at_k"], a.get("drop_pass_at_k_ci95", []))]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def infrastructure_warnings(summary: dict[str, Any]) -> list[str]:
    """One line per agent whose episodes include unjudged ones (a worker died or timed
    out, the device or the API failed): they count as failures in the rates above, so
    the table must say so."""
    out = []
    for agent, a in summary["agents"].items():
        n = a.get("infrastructure_errors", 0)
        if n:
            out.append(f"{n} of {a['episodes']} {agent} episodes ended in an "
                       "infrastructure error (not judged; counted as failures above) — "
                       "`antrap eval --resume` with the same arguments retries them.")
        own = a.get("errors", 0) - n
        if own > 0:
            out.append(f"{own} of {a['episodes']} {agent} episodes ended in an error of the "
                       "agent's own (it raised; counted as failures above) — the viewer and "
                       "episodes.jsonl.gz (`error`, `traceback`) say where.")
    return out


def table_title(summary: dict[str, Any]) -> str:
    """What the terminal table's cells are: success rates in percent, with Pass@k after
    them only when some setting had several runs (k > 1), how many episodes a setting's
    cell counts (a range when they differ, e.g. a partial run), and the grading when it is
    not our checks'."""
    blocks = [b for a in summary["agents"].values()
              for b in [a["clean"], *a["traps"].values()] if b and b.get("n")]
    k = max((a["clean"]["k"] for a in summary["agents"].values()), default=1)
    title = "AnTrap — success rate %" + (f" (Pass@{k} % in parentheses)" if k > 1 else "")
    sizes = sorted({b["n"] for b in blocks})
    if sizes:
        n = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}–{sizes[-1]}"
        title += f", {n} episode{'s' if sizes[-1] != 1 else ''} per cell"
    grading = summary.get("grading", "ours")
    if grading != "ours":  # our checks are the default; the title says when it is not them
        title += ", graded by the reference's checks" if grading == "reference" else \
            ", mixed grading"
    return title


def print_table(summary: dict[str, Any], console: Console | None = None) -> None:
    """The table on the terminal: settings down the side, one column per agent
    (narrow enough for an 80-column terminal; summary.md has the paper's layout)."""
    console = console or Console()
    agents = list(summary["agents"])
    cols = column_order(summary["settings"])
    layers = [lay for lay in LAYERS if any(lay in summary["agents"][a]["layers"] for a in agents)]

    def line(text: str) -> Text | str:  # one line when the console has room (not the table's width)
        return Text(text, no_wrap=True, overflow="ignore") if len(text) <= console.width else text

    table = Table(title=line(table_title(summary)), title_justify="left",
                  caption=line("layer rows pool their trap types' episodes") if layers else None,
                  caption_justify="left")
    # settings and agent names are ids: never wrapped or cut, on any terminal
    labels = ["Clean", *cols, "Trap average", *[f"{lay.capitalize()} layer" for lay in layers]]
    table.add_column("setting", no_wrap=True, min_width=max(len(x) for x in labels))
    for a in agents:
        table.add_column(Text(a), justify="right", no_wrap=True, min_width=len(a))

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
    for lay in layers:
        table.add_row(f"{lay.capitalize()} layer",
                      *[pct(summary["agents"][a]["layers"].get(lay, {}).get("success_rate"))
                        for a in agents])
    console.print(table)
    for w in infrastructure_warnings(summary):  # Text: an agent's label is never read as markup
        console.print(Text.assemble(("Warning: ", "bold red"), w))
    for line in summary.get("mixed_setups") or []:
        console.print(Text.assemble(("Mixed setups: ", "bold red"), line))


class ReportError(ValueError):
    """`antrap report` cannot merge into the requested place (or from the given runs)."""




def default_report_dir(root: str | Path = "runs") -> Path:
    """A fresh `runs/report-<time>` directory name (never an existing one)."""
    return fresh_run_dir("report", root)


def _check_target(target: Path, sources: list[Path]) -> None:
    here = target.resolve()
    for d in sources:
        if here == d.resolve():
            raise ReportError(f"--out {target} is one of the runs being merged; the merge is "
                              "written to a directory of its own")
    if target.exists():
        if not target.is_dir():
            raise ReportError(f"--out {target} exists and is not a directory")
        if any(target.iterdir()) and not (target / REPORT_FILE).is_file():
            raise ReportError(f"--out {target} is not empty and holds no earlier report "
                              f"({REPORT_FILE}); choose a new directory")


def _copy_screens(r: dict[str, Any], src: Path, target: Path,
                  copied: set[str] | None = None) -> tuple[dict[str, Any], int]:
    """The record with its thumbnails copied from run `src` into `target` (same relative
    paths, so the merged viewer finds them); returns it and the number of missing files.

    Both layouts copy as they are: content-addressed frames (`screens/<hash>.webp`,
    shared by many episodes and runs: copied once, `copied` holds those already done)
    and older runs' per-episode folders (`screens/<episode>/000.jpg`)."""
    screens = r.get("screens")
    if not isinstance(screens, dict) or not screens.get("files"):
        return r, 0
    copied = set() if copied is None else copied
    files, missing = [], 0
    for f in screens["files"]:
        rel = Path(str(f))
        origin = rel if rel.is_absolute() else src / rel
        if rel.is_absolute() or ".." in rel.parts:  # keep the merged run self-contained
            rel = Path("screens") / safe_name(str(r["id"])) / rel.name
        key = rel.as_posix()
        if key in copied:  # a repeated frame: one file serves every reference
            files.append(key)
            continue
        if not origin.is_file():
            missing += 1
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(origin, dest)
        copied.add(key)
        files.append(key)
    return {**r, "screens": {**screens, "files": files}}, missing


def _setup_problems(sources: list[Path]) -> tuple[dict[str, Any] | None, list[str]]:
    """The setup the runs share, and one line per way they do not: a field that differs
    from the first run's (`suite: a in runs/x vs b in runs/y`), or a run whose setup is
    not recorded. Runs of different setups pool different episodes in one cell."""
    setups = [run_setup(d) for d in sources]
    problems = [f"{d}: no {CONFIG_FILE} (not a run of `antrap eval`, or a report that mixed "
                "setups), so its setup cannot be checked" for d, s in zip(sources, setups, strict=True)
                if s is None]
    known = [(d, s) for d, s in zip(sources, setups, strict=True) if s is not None]
    if known:
        first, base = known[0]
        for d, s in known[1:]:
            problems += [f"{field}: {va} in {first} vs {vb} in {d}"
                         for field, va, vb in differences(base, s)]
    return (known[0][1] if known and not problems else None), problems


def _duplicates(loaded: list[tuple[Path, list[dict[str, Any]]]]) -> list[str]:
    """One line per agent label whose episodes (same id: label, task, variant, setting,
    run) are in more than one run: merging them keeps one record of each, never both."""
    where: dict[str, Path] = {}
    clashes: dict[str, list[tuple[str, Path, Path]]] = {}
    for d, records in loaded:
        for r in records:
            first = where.setdefault(r["id"], d)
            if first is not d:
                clashes.setdefault(str(r["agent"]), []).append((r["id"], first, d))
    return [f"{len(c)} episode(s) of agent {label!r} are in more than one run "
            f"(e.g. {c[0][0]} in {c[0][1]} and in {c[0][2]})" for label, c in clashes.items()]


def report(dirs: list[str | Path], out: str | Path | None = None,
           console: Console | None = None, allow_mixed: bool = False) -> dict[str, Any]:
    """Merge the episodes of several runs (several agents) into one table.

    The runs must share their setup (`eval.setups`: suite, variants, runs, trap
    settings, ...) and no episode may be in two of them (the same agent label, task,
    variant, setting and run): otherwise a cell would pool different episodes, or one
    run's record would silently replace another's. Either raises ReportError naming
    what differs, unless `allow_mixed`: then the runs are merged (an episode found in
    several runs is taken from the first) and the summary says its cells mix setups.

    The merge is a run directory of its own, `out` (default: a fresh
    `runs/report-<time>`): the merged `episodes.jsonl.gz`, `summary.json`, `summary.md`,
    plots, and the viewer, with every run's screenshots copied in so its images load;
    `report.json` names the sources and their common setup. The runs merged are never
    written to; `out` must be new, empty, or an earlier report. Returns the summary
    (with `out`).
    """
    console = console or Console()
    sources = [Path(d) for d in dirs]
    if not sources:
        raise ReportError("no runs to merge")
    for d in sources:
        if not episodes_file(d).is_file():
            raise ReportError(f"{d} has no {EPISODES_FILE}")
    setup, mixed = _setup_problems(sources)
    if mixed and not allow_mixed:
        raise ReportError("the runs differ in what defines their episodes, so a cell would pool "
                          "different episodes:\n  " + "\n  ".join(mixed) + "\nmerge them anyway "
                          "with --allow-mixed (the summary then says its cells mix setups)")
    loaded = [(d, load_records(d)) for d in sources]
    duplicates_found = _duplicates(loaded)
    if duplicates_found and not allow_mixed:
        raise ReportError("the same episodes are in more than one run, so merging would keep "
                          "one record of each and drop the other:\n  "
                          + "\n  ".join(duplicates_found) + "\nrelabel one run (`antrap eval "
                          "--label`), or pass --allow-mixed to keep the first run's record of each")
    mixed += [f"{line}: the first run's record of each was kept" for line in duplicates_found]
    target = Path(out) if out else default_report_dir()
    _check_target(target, sources)
    if (target / REPORT_FILE).is_file():  # an earlier report here: start it afresh
        for sub in ("screens", "viewer"):
            shutil.rmtree(target / sub, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    duplicates = missing = 0
    per_source = []
    copied: set[str] = set()  # screen files already in `target`
    for d, run_records in loaded:
        n = 0
        for r in run_records:
            if r["id"] in seen:
                duplicates += 1
                continue
            seen.add(r["id"])
            r, lost = _copy_screens(r, d, target, copied)
            missing += lost
            records.append(r)
            n += 1
        per_source.append({"dir": str(d), "episodes": n})
    write_records(target / EPISODES_FILE, records)
    (target / PLAIN_EPISODES_FILE).unlink(missing_ok=True)  # an earlier report's, older layout
    (target / REPORT_FILE).write_text(json.dumps(
        {"sources": per_source, "episodes": len(records), "duplicates_skipped": duplicates,
         "missing_screens": missing, "setup": setup, "mixed_setups": mixed}, indent=1))
    if missing:
        console.print(f"[yellow]{missing} screenshot(s) referenced by the runs were missing")
    summary = write_summary(records, target, mixed_setups=mixed)
    from antrap_gym.eval.artifacts import write_artifacts

    write_artifacts(summary, records, target, console)
    print_table(summary, console)
    summary["out"] = str(target)
    return summary
