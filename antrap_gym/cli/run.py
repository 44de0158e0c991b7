"""`antrap run`: an agent works through a suite on the simulated phone, live."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import gymnasium as gym
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import antrap_gym  # noqa: F401
from antrap_gym.agents import make_agent
from antrap_gym.console import add_id_column, make_console
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import get_suite


def main(args: argparse.Namespace) -> int:
    suite = get_suite(args.suite)
    variants = args.variants if args.variants is not None else suite.variants
    templates = [args.task] if args.task else list(suite.templates)
    episodes = [(t, args.seed + v) for t in templates for v in range(variants)]
    env = gym.make("antrap/AndroidSim-v0" if args.screenshots else "antrap/AndroidSim-Text-v0",
                   suite=args.suite)
    agent = make_agent(args.agent)
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    console = make_console()
    table = Table(title=f"{agent.name} on {args.suite}", expand=False)
    add_id_column(table, "task", templates)
    for col in ("seed", "goal", "steps", "result"):
        table.add_column(col)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("success {task.fields[rate]}"), TimeRemainingColumn())
    bar = progress.add_task("episodes", total=len(episodes), rate="-")
    solved = 0
    log = (out / "episodes.jsonl").open("a") if out else None
    with Live(_group(table, progress), console=console, refresh_per_second=8):
        for i, (tid, seed) in enumerate(episodes):
            shots = out / f"{tid}_{seed}" if (out and args.screenshots) else None
            res = run_episode(env, agent, seed=seed, options={"task": tid},
                              on_step=_saver(shots, env) if shots else None)
            solved += res.success >= 1.0
            mark = "[green]✓ solved" if res.success >= 1.0 else "[red]✗ failed"
            table.add_row(tid, str(seed), res.goal[:60], f"{res.steps}/{res.budget}", mark)
            progress.update(bar, advance=1, rate=f"{solved / (i + 1):.0%}")
            if log:
                log.write(json.dumps({"agent": agent.name, **res.to_dict()}, default=str) + "\n")
                log.flush()
    if log:
        log.close()
    console.print(f"[bold]{agent.name}: {solved}/{len(episodes)} episodes solved "
                  f"({solved / max(1, len(episodes)):.1%})")
    env.close()
    return 0


def _group(*items):
    from rich.console import Group

    return Group(*items)


def _saver(folder: Path, env):
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)

    def save(obs, info) -> None:
        if "screenshot" in obs:
            Image.fromarray(obs["screenshot"]).save(folder / f"step_{info['step']:03d}.png")

    return save
