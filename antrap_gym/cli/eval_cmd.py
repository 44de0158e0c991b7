"""`antrap eval` / `antrap report` / `antrap view`: the evaluation from the command line."""

from __future__ import annotations

import argparse
import inspect
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

BUILTIN = ("oracle", "replay", "random")
DEFAULT_AGENTS = ["oracle", "replay", "random"]


def add_eval_parser(sub) -> None:
    e = sub.add_parser(
        "eval", help="evaluate agents clean and under traps (the main job)",
        description="Run agents on a suite, clean and under each requested trap type, and print "
                    "AnTrap's table. With no arguments: oracle, replay and random on the default "
                    "suite, clean and under all ten traps.")
    e.add_argument("--agent", action="append", default=None,
                   help="oracle | replay | random | openai | transformers | module:Class "
                        "(repeat for several; default: oracle, replay, random)")
    e.add_argument("--label", default=None, help="report the agent under this name")
    e.add_argument("--model", default=None, help="model name (openai) or path (transformers)")
    e.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint, e.g. "
                   "http://localhost:8000/v1")
    e.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    e.add_argument("--prompt", default=None, help="prompt style: guiowl | m3a | compact")
    e.add_argument("--coords", default=None, help="model coordinates: absolute | relative")
    e.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE",
                   help="any other option for the agent (repeatable)")
    e.add_argument("--device", action="append", default=None,
                   help="sim | adb:SERIAL | adb:HOST:PORT/SERIAL (repeat, or a comma-separated list: "
                        "one per worker)")
    e.add_argument("--suite", default="antrap", help="task suite (default: antrap)")
    e.add_argument("--traps", default="all",
                   help="all | none | a layer | type[,type...] | a protocol YAML")
    e.add_argument("--runs", type=_at_least(1), default=1, help="runs per variant (Pass@k uses k = runs)")
    e.add_argument("--variants", type=_at_least(1), default=None, help="seeded variants per template")
    e.add_argument("--workers", type=_at_least(1), default=os.cpu_count() or 1,
                   help="worker processes, each with its own phone (1: one worker process, so "
                        "--timeout and crash recovery hold)")
    e.add_argument("--inline", action="store_true",
                   help="debugging: run the episodes in this process (breakpoints work) — no "
                        "isolation and no --timeout: a hanging agent hangs the run")
    e.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where workers run: local processes, or Ray actors")
    e.add_argument("--ray-address", default=None, help="join a running Ray cluster")
    e.add_argument("--out", default=None, help="results directory (default runs/eval-<time>)")
    e.add_argument("--resume", action="store_true",
                   help="continue the run in --out; episodes recorded with an infrastructure error "
                        "(worker died, timed out, API or device unreachable) are run again")
    e.add_argument("--no-retry-errors", dest="retry_errors", action="store_false",
                   help="with --resume: keep episodes recorded with an infrastructure error as "
                        "they are (finished failures)")
    e.add_argument("--screens", choices=("none", "failed", "sample", "all"), default="sample",
                   help="which episodes keep screenshots for the viewer: sample (default) keeps "
                        "failed episodes (see --screens-failed) and a seeded sample of the "
                        "successful ones")
    e.add_argument("--screens-sample", type=_fraction, default=0.1, metavar="FRACTION",
                   help="with --screens sample: the share of task instances whose successful "
                        "episodes keep their screens too (default 0.1)")
    e.add_argument("--screens-failed", type=_at_least(0), default=8, metavar="N",
                   help="failed episodes keep their screens for about N episodes per (agent, "
                        "setting, app), a seeded draw; 0 keeps every failure (default 8)")
    e.add_argument("--obs-mode", choices=("text", "screenshot"), default=None,
                   help="what the env observes (default: what the agents ask for)")
    e.add_argument("--timeout", type=_seconds, default=300.0, help="seconds per episode")
    e.add_argument("--start-timeout", type=_seconds, default=900.0,
                   help="seconds a worker may take to start and build its agents (not counted "
                        "against --timeout)")
    e.add_argument("--grading", choices=("ours", "reference"), default="ours",
                   help="grade by our checks (default) or by the reference's (AndroidWorld's / "
                        "AnTrap's) where a template's differs: see docs/grading.md")
    e.add_argument("--trap-retries", type=_at_least(0), default=2,
                   help="re-run a trapped episode in which no trap fired, with a new trap seed")
    e.set_defaults(fn=run_eval)

    r = sub.add_parser("report", help="merge evaluation runs into one table")
    r.add_argument("dirs", nargs="+", help="run directories of `antrap eval` (or reports)")
    r.add_argument("--out", default=None, help="a new directory for the merged run: episodes, "
                   "summary, plots, viewer with the runs' screenshots (default: a fresh "
                   "runs/report-<time>; the runs merged are never written to)")
    r.add_argument("--allow-mixed", action="store_true",
                   help="merge runs that differ in what defines their episodes (suite, variants, "
                        "runs, trap settings, device kind...; refused otherwise), and runs that "
                        "hold the same episodes (the first run's record of each is kept); the "
                        "summary then says its cells mix setups")
    r.set_defaults(fn=run_report)

    v = sub.add_parser("view", help="(re)build the HTML trajectory viewer of a run")
    v.add_argument("dir", help="a run directory of `antrap eval` or `antrap report`")
    v.set_defaults(fn=run_view)


def _fraction(text: str) -> float:
    """A number in [0, 1] (argparse reports anything else as a usage error, not a traceback)."""
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"a fraction between 0 and 1, got {text!r}")
    return v


def _at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= `least` (anything else is a usage error)."""
    def whole(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            v = least - 1
        if v < least:
            raise argparse.ArgumentTypeError(f"a whole number >= {least}, got {text!r}")
        return v

    return whole


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0 (`inf`: no limit)."""
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not v > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, got {text!r}")
    return v


class UsageError(ValueError):
    """A bad option value found after parsing (an unknown agent, suite, trap...): the
    command says so in one line naming the option and exits 2, before running anything."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


def check_agent(name: str, kwargs: dict[str, Any]) -> None:
    """A UsageError unless agent `name` can be found (a `module:Class` is imported now) and
    takes `kwargs` -- so a typo fails the command, not every episode."""
    from antrap_gym.agents import agent_class

    try:
        cls = agent_class(name)
    except KeyError as e:
        raise UsageError("--agent", str(e.args[0])) from None
    except Exception as e:  # the module is missing or fails to import
        raise UsageError("--agent", f"{name}: cannot import it: {type(e).__name__}: {e}") from None
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # no signature to check against
        return
    try:
        signature.bind(**kwargs)
    except TypeError as e:
        raise UsageError("--agent", f"{name}: {e} (options come from --model, --base-url, "
                         "--api-key-env, --prompt, --coords and --agent-arg KEY=VALUE)") from None


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def agent_kwargs(args: argparse.Namespace, name: str) -> dict[str, Any]:
    if name in BUILTIN:
        return {}
    kw: dict[str, Any] = {}
    if args.model:
        kw["model_path" if name == "transformers" else "model"] = args.model
    for flag, key in (("base_url", "base_url"), ("api_key_env", "api_key_env"),
                      ("prompt", "prompt"), ("coords", "coords")):
        if getattr(args, flag):
            kw[key] = getattr(args, flag)
    for item in args.agent_arg:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError("--agent-arg", f"needs KEY=VALUE, got {item!r}")
        kw[key.replace("-", "_")] = _value(value)
    return kw


def eval_config(args: argparse.Namespace, devices: list[str] | None = None):
    """The `EvalConfig` that `antrap eval` runs for these arguments (`parse_args(["eval"])`
    gives the main job's); `devices` as `device_names` resolved them (default: resolve
    `--device` here). A UsageError naming the option for an unknown device, agent (or
    agent option), suite or trap selection."""
    import yaml

    from antrap_gym.device.adb import device_names
    from antrap_gym.eval import AgentSpec, EvalConfig
    from antrap_gym.tasks import get_suite

    names = args.agent or DEFAULT_AGENTS
    agents = []
    for n in names:
        kwargs = agent_kwargs(args, n)
        check_agent(n, kwargs)
        agents.append(AgentSpec.make(n, label=args.label if len(names) == 1 else None, **kwargs))
    if devices is None:
        try:
            devices = device_names(args.device or ["sim"])
        except ValueError as e:
            raise UsageError("--device", str(e)) from None
    try:
        get_suite(args.suite)
    except KeyError as e:
        raise UsageError("--suite", str(e.args[0])) from None
    try:  # every other field was checked as it was parsed: only the trap selection can fail here
        return EvalConfig(agents=agents, suite=args.suite, traps=args.traps, runs=args.runs,
                          variants=args.variants, obs_mode=args.obs_mode, screens=args.screens,
                          screens_sample=args.screens_sample, screens_failed=args.screens_failed,
                          episode_timeout_s=args.timeout, worker_start_timeout_s=args.start_timeout,
                          trap_retries=args.trap_retries,
                          devices=devices, grading=args.grading)
    except KeyError as e:
        raise UsageError("--traps", str(e.args[0])) from None
    except (ValueError, TypeError, AttributeError, OSError, yaml.YAMLError) as e:
        raise UsageError("--traps", f"{args.traps}: {e}") from None


def run_eval(args: argparse.Namespace) -> int:
    from rich.text import Text

    from antrap_gym.console import make_console
    from antrap_gym.eval import evaluate
    from antrap_gym.eval.rundir import RunDirError
    from antrap_gym.eval.store import BadRecord, fresh_run_dir

    console = make_console()
    if args.inline and args.backend == "ray":
        console.print("[red]--inline runs in this process; it cannot be combined with --backend ray")
        return 2
    try:  # a mistyped device, agent, suite or trap: a usage error, before any episode or folder
        config = eval_config(args)
    except UsageError as e:
        console.print(Text.assemble((f"{e.option}: ", "red"), e.message))
        return 2
    agents = config.agents
    out = Path(args.out) if args.out else fresh_run_dir("eval")
    n = len(config.episodes())
    console.print(f"[bold]antrap eval[/]: {', '.join(a.label for a in agents)} on "
                  f"{config.suite}, settings: {', '.join(s.name for s in config.settings)}, "
                  f"{config.grading} grading — "
                  f"{n} episodes, "
                  f"{'in this process' if args.inline else f'{args.workers} worker(s)'}, "
                  f"results in {out}")
    try:
        summary = evaluate(config, out, workers=args.workers, backend=args.backend,
                           resume=args.resume, ray_address=args.ray_address, console=console,
                           retry_errors=args.retry_errors, inline=args.inline)
    except (RunDirError, BadRecord) as e:  # the folder is another run's, busy, or unusable
        console.print(Text(str(e), style="red"))
        return 2
    console.print(f"\nsummary: {out / 'summary.md'}  ·  plots: {out}/*.png  ·  "
                  f"viewer: {out / 'viewer' / 'index.html'}  ·  {summary.get('wall_s', 0):.0f}s")
    return 0


def run_report(args: argparse.Namespace) -> int:
    from rich.text import Text

    from antrap_gym.console import make_console
    from antrap_gym.eval import report
    from antrap_gym.eval.report import ReportError
    from antrap_gym.eval.store import BadRecord

    console = make_console()
    try:
        summary = report(args.dirs, args.out, console=console, allow_mixed=args.allow_mixed)
    except (ReportError, BadRecord) as e:  # Text: paths and setup values are never read as markup
        console.print(Text(str(e), style="red"))
        return 2
    out = Path(summary["out"])
    console.print(f"\nmerged {len(summary['agents'])} agent(s) into {out}  ·  summary: "
                  f"{out / 'summary.md'}  ·  viewer: {out / 'viewer' / 'index.html'}")
    return 0


def run_view(args: argparse.Namespace) -> int:
    from antrap_gym.eval import load_records
    from antrap_gym.eval.store import BadRecord
    from antrap_gym.eval.viewer import write_viewer

    try:
        records = load_records(args.dir)
    except BadRecord as e:
        print(f"antrap view: {e}", file=sys.stderr)
        return 2
    path = write_viewer(records, Path(args.dir))
    print(path)
    return 0

