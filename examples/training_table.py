"""The per-subtype training table: clean and adversarial GRPO for each trap type, from one warm start.

    python examples/training_table.py --out runs/table --seeds 0,1,2 --budget paper-cpu   # many hours
    python examples/training_table.py --out runs/table-smoke --budget smoke               # the pipeline
    python examples/training_table.py --out runs/multi --multi-task --budget smoke        # per template
    python examples/training_table.py --out runs/table --seeds 1 --unsettled 10          # more seeds where
                                                                                          # |change| <= 10
    python examples/training_table.py --out runs/table --merge runs/table-seed2  # a seed run elsewhere
    python examples/training_table.py --out runs/table --seeds 2 --threads 1 --jobs 2  # two units at once
    python examples/training_table.py --out runs/heldout --warm-config smollm2_cpu --seeds 0,1,2 \
        --traps external_interruption,visual_hallucination,type_mismatch,state_deadlock,loop \
        --budget smoke --bank-size 200 --jobs 2 --threads 1          # a real policy, held-out templates
    python examples/training_table.py --out runs/heldout --warm-config smollm2_cpu --gpus 0,1,2,3 \
        --warm-set model.path=/models/Qwen2.5-VL-3B-Instruct ...       # four units at once, a GPU each

For each seed: one SFT warm start (the demo's recipe, examples/adversarial_grpo.py, with a
cosine schedule: clean oracle steps with DART disturbances); from it clean GRPO and
step-level adversarial GRPO under each trap type (configs/train/<type>.yaml); every policy
evaluated by the harness clean and under its own trap (the warm start and clean GRPO under
every trap of the table: the baselines), Wilson 95% intervals. The change in success under
a subtype's trap is taken against the warm start and against clean GRPO (Newcombe 95%
intervals); over several seeds the table shows the median and the spread (min, max).

Resumable: every unit (a warm start, a GRPO run, a policy's evaluation) is recorded in
`results.json` as it finishes (atomic writes) and skipped on a rerun; a killed training run
continues from its last checkpoint, a killed evaluation episode by episode. `table.md` is
rewritten after every unit. `--jobs N` runs up to N units at once on N worker processes
(spawned once each, units one after another in each), a unit once the ones it reads (its warm
start, its GRPO run) have finished.

`--multi-task` trains the warm start and clean GRPO on several templates of one app
(Settings' switches by default) and reports success per template.

`--warm-config NAME` replaces the demo's recipe with a training config (configs/train/NAME.yaml,
or a path): the warm start is that config's SFT (its model, prompt, templates and data), GRPO
for each row trains from it on the config's templates with the budget's GRPO settings, and
every policy is evaluated as the config's `eval_after` says (held-out templates, for
`smollm2_cpu`); `--warm-set KEY=VALUE` changes a key of it for every unit. `--gpus 0,1,...`
runs one unit per GPU at once (each process sees only its GPU, `model.device: cuda`); the
same launcher runs on CPU with `--warm-set model.device=cpu`, which is how it is tested.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adversarial_grpo import overrides, pct_ci  # the demo's base keys and formatting (same folder)

from antrap_gym.cpu_threads import share_of_cores

ROOT = Path(__file__).resolve().parents[1]
SWITCHES = ("SettingsWifiToggle", "SettingsBluetoothToggle", "SettingsAirplaneMode", "SettingsDarkTheme",
            "SettingsLocationToggle", "SettingsBatterySaver", "Settings24HourFormat")


@dataclass(frozen=True)
class Budget:
    """What one unit costs: steps, data and evaluation episodes."""

    sft_steps: int
    sft_variants: int
    grpo_steps: int
    generations: int
    states_per_refresh: int
    grpo_variants: int
    eval_variants: int
    eval_runs: int
    hidden: int = 256
    intermediate: int = 512
    layers: int = 4
    eval_workers: int = 2
    save_steps: int = 20
    max_new_tokens: int = 96  # the reply's token budget, in GRPO and in the evaluations
    #: evaluate in this process, without plots and viewer (no worker start-up: many tiny evaluations)
    eval_inline: bool = False


BUDGETS = {
    # the demonstration's budget (docs/training.md): n = 20 x 3 = 60 per cell
    "paper-cpu": Budget(sft_steps=600, sft_variants=512, grpo_steps=150, generations=8, states_per_refresh=16,
                        grpo_variants=16, eval_variants=20, eval_runs=3),
    # the same model and recipe, a few steps and episodes: checks the pipeline, times the units
    "smoke": Budget(sft_steps=20, sft_variants=16, grpo_steps=2, generations=4, states_per_refresh=4,
                    grpo_variants=2, eval_variants=1, eval_runs=1, eval_workers=1, save_steps=5,
                    max_new_tokens=32),
    # tests only: a 64-wide, 2-layer policy
    "micro": Budget(sft_steps=4, sft_variants=2, grpo_steps=2, generations=2, states_per_refresh=2,
                    grpo_variants=1, eval_variants=1, eval_runs=1, hidden=64, intermediate=128, layers=2,
                    eval_workers=1, save_steps=1, max_new_tokens=8, eval_inline=True),
}

#: --model: a local model directory the warm start begins from (None: build the tiny policy)
MODEL_PATH: str | None = None

#: how often the record saves the time of a unit in progress (a kill loses at most this much)
HEARTBEAT_S = 60.0

#: rough seconds per unit of work on 2 cores (hidden 256: docs/training.md), for the ETA only
COST = {"sft_step": 0.55, "grpo_step": 3.8, "episode": 1.5, "unit": 10.0, "bank_state": 0.1}


# --- the record on disk -------------------------------------------------------------------------------


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and a rename: a kill leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def git_revision(root: Path = ROOT) -> str:
    """The commit `root` is at, `+dirty` when tracked files differ from it, `unknown` outside git."""
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def refuse_unrecorded(revision: str, allow: bool) -> None:
    """A table is a claim about a commit: refuse to start one from a tree that differs from
    every commit (or from no checkout at all) unless `allow` (--allow-dirty, which the
    record then says)."""
    if allow or not (revision.endswith("+dirty") or revision == "unknown"):
        return
    what = "uncommitted changes" if revision.endswith("+dirty") else "no git checkout"
    raise SystemExit(f"the tree has {what} ({revision}): results.json records the commit the table "
                     "was made from, so commit first (or pass --allow-dirty, recorded in the setup)")


class Record:
    """results.json: the setup, and every unit with its attempts, timestamps and result."""

    def __init__(self, out: Path, setup: dict[str, Any]) -> None:
        self.path = out / "results.json"
        if self.path.exists():
            self.data = json.loads(self.path.read_text(encoding="utf-8"))
            check_same_setup(self.data["setup"], setup, f"{self.path} (choose another --out)")
        else:
            self.data = {"setup": dict(setup), "invocations": [], "units": {}}
        self.data["setup"].update({k: setup[k] for k in ("command", "git", "bank") if k in setup})
        add_rows(self.data["setup"], setup)
        self.data["invocations"].append({"command": setup["command"], "git": setup["git"],
                                         "started": now(), "wall_s": 0.0})
        self.t0 = time.monotonic()
        self._lock = threading.RLock()  # the heartbeat saves from its own thread
        self._running: dict[str, float] = {}  # the units in progress, since when

    def done(self, key: str) -> dict[str, Any] | None:
        unit = self.data["units"].get(key)
        return unit if unit and unit.get("done_at") else None

    def start(self, key: str) -> None:
        with self._lock:
            unit = self.data["units"].setdefault(key, {"attempts": 0})
            unit["attempts"] += 1
            unit["started_at"] = now()
            unit.setdefault("attempt_s", []).append(0.0)
            self._running[key] = time.monotonic()
            self.save()

    def beat(self) -> None:
        """Record the time so far (the running attempts' and the invocation's): a killed run
        leaves its time in the record, to within one heartbeat."""
        with self._lock:
            for key, t in self._running.items():
                self.data["units"][key]["attempt_s"][-1] = round(time.monotonic() - t, 2)
            self.save()

    def fail(self, key: str, wall_s: float) -> None:
        """A unit that raised: its attempt's time is kept, it stays unfinished (a rerun retries it)."""
        with self._lock:
            self.data["units"][key]["attempt_s"][-1] = round(wall_s, 2)
            self._running.pop(key, None)
            self.save()

    def finish(self, key: str, wall_s: float, **result: Any) -> None:
        with self._lock:
            unit = self.data["units"][key]
            unit["attempt_s"][-1] = round(wall_s, 2)
            # every attempt's time (a killed one's to within a heartbeat)
            unit.update(result, done_at=now(), wall_s=round(sum(unit["attempt_s"]), 2))
            self._running.pop(key, None)
            self.save()

    def save(self) -> None:
        with self._lock:
            inv = self.data["invocations"][-1]
            inv["wall_s"] = round(time.monotonic() - self.t0, 2)
            self.data["wall_s"] = round(sum(i["wall_s"] for i in self.data["invocations"]), 2)
            write_atomic(self.path, json.dumps(self.data, indent=1, default=str))

    @contextmanager
    def heartbeat(self, every_s: float = HEARTBEAT_S):
        """Call `beat` every `every_s` seconds while the block runs."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(every_s):
                self.beat()

        thread = threading.Thread(target=loop, name="record-heartbeat", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join()


#: what every invocation writing to one --out must share
FIXED_SETUP = ("mode", "budget", "templates", "model", "warm_config", "warm_set")


def check_same_setup(have: dict[str, Any], new: dict[str, Any], what: str) -> None:
    mine, theirs = ({k: d.get(k) for k in FIXED_SETUP} for d in (have, new))
    if mine != theirs:
        raise SystemExit(f"{what} was made with {mine}, not {theirs}")


def add_rows(setup: dict[str, Any], other: dict[str, Any]) -> None:
    """Add `other`'s seeds and types to `setup`'s: an invocation (or a merged record) that adds
    a seed for a few rows keeps every row and seed of the earlier ones in the table."""
    from antrap_gym.traps.taxonomy import TRAP_TYPES

    setup["seeds"] = sorted(set(setup.get("seeds", [])) | set(other.get("seeds", [])))
    types = {*setup.get("traps", []), *other.get("traps", [])}
    setup["traps"] = [t for t in TRAP_TYPES if t in types]  # the taxonomy's order: the rows'


# --- the units ------------------------------------------------------------------------------------------


#: --warm-config: the training config the warm start, GRPO and evaluations are made from (None:
#: the demo's recipe), and --warm-set's KEY=VALUE changes to it
RECIPE: Path | None = None
RECIPE_SET: list[str] = []


def recipe_path(name: str) -> Path:
    """A training config by name (configs/train/NAME.yaml) or path."""
    path = Path(name)
    if path.suffix not in (".yaml", ".yml"):
        path = ROOT / "configs/train" / f"{name}.yaml"
    if not path.is_file():
        raise SystemExit(f"--warm-config: no training config {path}")
    return path.resolve()


def recipe_config(keys: dict[str, Any]):
    """The --warm-config recipe with this unit's keys, then --warm-set's, then --model's path
    (each later one wins)."""
    from antrap_gym.training.config import load_config

    assert RECIPE is not None
    sets = [f"{k}={v}" for k, v in keys.items()] + list(RECIPE_SET)
    if MODEL_PATH:
        sets.append(f"model.path={MODEL_PATH}")
    return load_config(RECIPE, sets)


def recipe_keys(b: Budget, seed: int, threads: int | None) -> dict[str, Any]:
    """What every unit of a --warm-config table sets in the recipe: the seed, the threads,
    checkpoints, no evaluation inside training (the table evaluates), the reply budget."""
    keys: dict[str, Any] = {"train.seed": seed, "train.progress": "false",
                            "train.save_steps": b.save_steps, "eval_after.enabled": "false",
                            "eval_after.max_new_tokens": b.max_new_tokens}
    if threads:
        keys["train.threads"] = threads
    return keys


def base_keys(b: Budget, templates: list[str], seed: int, threads: int | None) -> dict[str, Any]:
    tasks = "[" + ",".join(templates) + "]"
    keys: dict[str, Any] = {"env.tasks": tasks, "eval_after.tasks": tasks, "model.tiny.hidden_size": b.hidden,
            "model.tiny.intermediate_size": b.intermediate, "model.tiny.num_layers": b.layers,
            "eval_after.variants": b.eval_variants, "eval_after.runs": b.eval_runs,
            "eval_after.workers": b.eval_workers, "eval_after.enabled": "false",
            "eval_after.max_new_tokens": b.max_new_tokens,
            "train.save_steps": b.save_steps, "train.progress": "false", "train.seed": seed}
    if threads:
        keys["train.threads"] = threads
    if MODEL_PATH:
        keys["model.path"] = MODEL_PATH
    return keys


def sft_config(b: Budget, templates: list[str], seed: int, threads: int | None):
    """The warm start: the demo's SFT (clean oracle data, DART disturbances mostly random
    taps) with a cosine learning rate; with --warm-config, that config's SFT."""
    from antrap_gym.training.config import load_config

    if RECIPE is not None:
        return recipe_config({**recipe_keys(b, seed, threads), "name": "table-sft"})
    keys = {**base_keys(b, templates, seed, threads), "name": "table-sft", "env.variants": b.sft_variants,
            "sft.max_steps": b.sft_steps, "sft.lr": 3e-3, "sft.lr_scheduler": "cosine",
            "sft.collect.traps": "[clean]", "sft.collect.thought": "none", "sft.collect.noise": 0.3,
            "sft.collect.noise_kinds": "{tap: 6.0, wait: 1, back: 1, home: 1, miss: 1}"}
    return load_config(ROOT / "configs/train/clean.yaml", overrides(**keys))


GRPO_KEYS = {"grpo.granularity": "step", "grpo.lr": 1.5e-4, "grpo.beta": 0.04, "grpo.trapped_weight": 2.0,
             "grpo.temperature": 1.0, "grpo.refresh_every": 4, "grpo.oracle_share": 0.5, "grpo.num_envs": 4}


def grpo_config(b: Budget, templates: list[str], seed: int, threads: int | None, trap: str, init: Path):
    """The demo's step-level GRPO, clean (`trap` = clean) or under one trap type at p = 0.3;
    with --warm-config, on that config's model, prompt and templates."""
    from antrap_gym.training.config import load_config

    grpo = {**GRPO_KEYS, "grpo.init_from": str(init), "grpo.steps": b.grpo_steps,
            "grpo.num_generations": b.generations, "grpo.batch_size": 2 * b.generations,
            "grpo.max_completion_length": b.max_new_tokens, "grpo.states_per_refresh": b.states_per_refresh}
    if RECIPE is not None:
        keys = {**recipe_keys(b, seed, threads), **grpo, "name": f"table-grpo-{trap}", "traps.mode": trap}
        if trap != "clean":
            keys["traps.p"] = 0.3
        return recipe_config(keys)
    keys = {**base_keys(b, templates, seed, threads), "name": f"table-grpo-{trap}",
            "env.variants": b.grpo_variants, **grpo}
    if trap != "clean":
        keys["traps.p"] = 0.3
    return load_config(ROOT / "configs/train" / f"{trap}.yaml", overrides(**keys))


def evaluate_cells(path: Path, cfg, out: Path, settings: list[str], templates: list[str] | None = None,
                   label: str = "policy", inline: bool = False) -> dict[str, Any]:
    """Evaluate a checkpoint clean and under `settings` (on `templates`, default the config's);
    returns {setting: cell}."""
    from dataclasses import replace

    from antrap_gym.training.evaluation import evaluate_checkpoint, summary_cell

    ea = replace(cfg.eval_after, traps=",".join(settings) if settings else "none",
                 tasks=list(templates) if templates else cfg.eval_after.tasks)
    summary = evaluate_checkpoint(path, replace(cfg, eval_after=ea), out, label=label, progress=False,
                                  inline=inline, artifacts=not inline)
    return {s: summary_cell(summary, s) for s in ["clean", *settings]}


@dataclass
class Unit:
    key: str
    cost: float
    run: Any  # () -> dict: the unit's result
    needs: tuple[str, ...] = ()  # the units whose output this one reads (--jobs runs it after them)


def table_units(args, b: Budget, out: Path, have: dict | None = None) -> list[Unit]:
    """The units of the per-subtype table, in order: each seed's warm start, its evaluation,
    clean GRPO and its evaluation, then each trap type's GRPO and evaluation. A baseline
    (warm start, clean GRPO) evaluated before more types were asked for (`have`: the units
    recorded so far) gets one more unit, `…/eval/<policy>+<type>+…`, for the new types."""
    from antrap_gym.training.grpo import run_grpo
    from antrap_gym.training.sft import run_sft

    traps = args.traps
    units: list[Unit] = []
    for seed in args.seeds:
        sd = out / f"seed{seed}"
        sft = sft_config(b, args.templates, seed, args.threads)
        warm = sd / "warm" / "final"
        ep = eval_episodes(sft) if RECIPE is not None else b.eval_variants * b.eval_runs * len(args.templates)
        sft_steps = sft.sft.max_steps if RECIPE is not None else b.sft_steps

        def do_sft(sft=sft, sd=sd) -> dict:
            return {"final": str(run_sft(sft, sd / "warm", resume=True))}

        def do_eval(policy: str, path: Path, settings: list[str], sd=sd, sft=sft) -> dict:
            return {"cells": evaluate_cells(path, sft, sd / f"eval-{policy}", settings, label=policy,
                                            inline=b.eval_inline)}

        def do_grpo(trap: str, sd=sd, seed=seed, warm=warm) -> dict:
            cfg = grpo_config(b, args.templates, seed, args.threads, trap, warm)
            return {"final": str(run_grpo(cfg, sd / f"grpo-{trap}", resume=True))}

        def baseline(policy: str, path: Path, need: str, seed=seed, f=do_eval, ep=ep) -> Unit:
            key = f"seed{seed}/eval/{policy}"
            missing = [t for t in traps if t not in cells_of(have or {}, seed, policy)]
            name, settings = policy, traps
            if (have or {}).get(key, {}).get("done_at") and missing:
                # evaluated before these types were asked for: the new ones only
                name, settings = f"{policy}+" + "+".join(missing), missing
                key = f"seed{seed}/eval/{name}"
            cost = COST["unit"] + ep * (1 + len(settings)) * COST["episode"]
            return Unit(key, cost, lambda: f(name, path, settings), needs=(need,))

        sft_key = f"seed{seed}/sft"
        units.append(Unit(sft_key, COST["unit"] + sft_steps * COST["sft_step"], do_sft))
        units.append(baseline("warm", warm, sft_key))
        for trap in ["clean", *traps]:
            final, grpo_key = sd / f"grpo-{trap}" / "final", f"seed{seed}/grpo/{trap}"
            units.append(Unit(grpo_key, COST["unit"] + b.grpo_steps * COST["grpo_step"],
                              lambda trap=trap, f=do_grpo: f(trap), needs=(sft_key,)))
            if trap == "clean":
                units.append(baseline("clean", final, grpo_key))
                continue
            cost = COST["unit"] + ep * 2 * COST["episode"]
            units.append(Unit(f"seed{seed}/eval/{trap}", cost,
                              lambda trap=trap, final=final, f=do_eval: f(trap, final, [trap]),
                              needs=(grpo_key,)))
        if args.bank_size:
            units += bank_units(args, b, out, seed, sft, traps)
    return units


def eval_episodes(cfg) -> int:
    """Episodes of one evaluation setting under `cfg.eval_after` (for the ETA)."""
    from antrap_gym.tasks import get_suite

    ea = cfg.eval_after
    templates = len(ea.tasks) if ea.tasks else len(get_suite(ea.suite).templates)
    return templates * (ea.variants or 1) * ea.runs


def bank_units(args, b: Budget, out: Path, seed: int, sft, traps: list[str]) -> list[Unit]:
    """--bank-size: every policy of the seed answers the trap-state bank of its own trap (the
    warm start and clean GRPO every trap's): the same states for every policy and seed, on
    `--bank-suite` (held-out templates by default), compared state by state."""
    sd = out / f"seed{seed}"
    trained = {"warm": (sd / "warm" / "final", f"seed{seed}/sft"),
               "clean": (sd / "grpo-clean" / "final", f"seed{seed}/grpo/clean"),
               **{t: (sd / f"grpo-{t}" / "final", f"seed{seed}/grpo/{t}") for t in traps}}
    units = []
    for policy, (path, need) in trained.items():
        for trap in (traps if policy in ("warm", "clean") else [policy]):
            units.append(Unit(f"seed{seed}/bank/{policy}/{trap}",
                              COST["unit"] + args.bank_size * COST["bank_state"],
                              lambda path=path, trap=trap: score_on_bank(args, b, out, sft, path, trap),
                              needs=(need,)))
    return units


def score_on_bank(args, b: Budget, out: Path, sft, path: Path, trap: str) -> dict:
    """A checkpoint's replies on the bank of `trap` (built once under `<out>/banks`)."""
    from antrap_gym.training import state_bank as sb

    policy = sft.policy_config()
    spec = sb.BankSpec(trap, suite=args.bank_suite, size=args.bank_size)
    bank = sb.load_or_build(out / "banks", spec, policy)
    score = sb.score_bank(bank, sb.model_replier(path, policy, max_new_tokens=b.max_new_tokens,
                                                 threads=args.threads), str(path))
    keep = ("key", "task", "handled", "progress", "success", "format", "valid")
    return {"bank": {"spec": asdict(spec), "summary": score.summary(),
                     "rows": [{k: r[k] for k in keep} for r in score.rows]}}


def multi_units(args, b: Budget, out: Path) -> list[Unit]:
    """--multi-task: each seed's warm start and clean GRPO on all templates, each evaluated clean
    on every template separately."""
    from antrap_gym.training.grpo import run_grpo
    from antrap_gym.training.sft import run_sft

    units: list[Unit] = []
    ep = b.eval_variants * b.eval_runs
    for seed in args.seeds:
        sd = out / f"seed{seed}"
        sft = sft_config(b, args.templates, seed, args.threads)
        warm = sd / "warm" / "final"
        trained_by = {"warm": f"seed{seed}/sft", "clean": f"seed{seed}/grpo/clean"}
        units.append(Unit(trained_by["warm"], COST["unit"] + b.sft_steps * COST["sft_step"],
                          lambda sft=sft, sd=sd: {"final": str(run_sft(sft, sd / "warm", resume=True))}))
        grpo = grpo_config(b, args.templates, seed, args.threads, "clean", warm)
        units.append(Unit(trained_by["clean"], COST["unit"] + b.grpo_steps * COST["grpo_step"],
                          lambda g=grpo, sd=sd: {"final": str(run_grpo(g, sd / "grpo-clean", resume=True))},
                          needs=(trained_by["warm"],)))
        for policy, path in (("warm", warm), ("clean", sd / "grpo-clean" / "final")):
            for t in args.templates:
                units.append(Unit(f"seed{seed}/eval/{policy}/{t}", COST["unit"] + ep * COST["episode"],
                                  lambda p=policy, path=path, t=t, sft=sft, sd=sd: {"cells": evaluate_cells(
                                      path, sft, sd / f"eval-{p}-{t}", [], templates=[t], label=p,
                                      inline=b.eval_inline)},
                                  needs=(trained_by[policy],)))
    return units


# --- the table ------------------------------------------------------------------------------------------


def trained_on(setup: dict[str, Any]) -> str:
    """The table's recipe in words: the demo's templates, or the --warm-config and its changes."""
    if not setup.get("warm_config"):
        return f"templates: {', '.join(setup['templates'])}"
    sets = "".join(f" `{s}`" for s in setup.get("warm_set") or [])
    return f"recipe: `{setup['warm_config']}`{sets}"


def _by_template(ci: list | None) -> bool:
    """Whether a cell's interval by template exists (two templates or more were evaluated)."""
    return bool(ci) and all(v is not None and v == v for v in ci)


def fmt_cell(c: dict | None) -> str:
    """A cell's rate with its interval: by template where several templates were evaluated
    (`eval/bootstrap.py`; marked `T`), else Wilson's over episodes."""
    if c is None:
        return "–"
    if _by_template(c.get("ci95_template")):
        return f"{pct_ci(c['rate'], c['ci95_template'])}T (n={c['n']})"
    return f"{pct_ci(c['rate'], c['ci95'])} (n={c['n']})"


def fmt_change(d: dict | None) -> str:
    """A change with its interval: paired by template where there is one (marked `T`), else
    Newcombe's; `*` when the interval lies above zero."""
    if d is None:
        return "–"
    by_template = _by_template(d.get("ci95_template"))
    lo, hi = d["ci95_template"] if by_template else d["ci95"]
    return (f"{100 * d['delta']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" + ("T" if by_template else "")
            + (" *" if is_measured(d) else ""))


def is_measured(d: dict) -> bool:
    """The change's interval lies above zero: the template-paired one where there is one."""
    return d["measured_template"] if _by_template(d.get("ci95_template")) else d["measured"]


def cells_of(units: dict, seed: int, policy: str) -> dict[str, dict]:
    """A policy's cells: its evaluation's, and those of any later one for types added since."""
    key = f"seed{seed}/eval/{policy}"
    cells: dict[str, dict] = {}
    for k, u in units.items():
        if (k == key or (k.startswith(key + "+") and policy in ("warm", "clean"))) and u.get("done_at"):
            for setting, cell in u.get("cells", {}).items():
                cells.setdefault(setting, cell)
    return cells


def seed_rows(units: dict, seed: int, traps: list[str]) -> list[dict[str, Any]]:
    """One seed's rows: warm start, clean GRPO, each trap type's GRPO (clean, own trap, changes)."""
    from antrap_gym.training.evaluation import success_change

    warm, clean = cells_of(units, seed, "warm"), cells_of(units, seed, "clean")
    rows = []
    for policy, cells in (("warm", warm), ("clean", clean)):
        rows.append({"policy": policy, "clean": cells.get("clean"),
                     "traps": {t: cells.get(t) for t in traps}})
    for t in traps:
        own = cells_of(units, seed, t)
        mine = own.get(t)
        rows.append({"policy": t, "clean": own.get("clean"), "own": mine,
                     "vs_warm": success_change(warm[t], mine) if mine and warm.get(t) else None,
                     "vs_clean": success_change(clean[t], mine) if mine and clean.get(t) else None})
    return rows


def unsettled_types(units: dict, seeds: list[int], traps: list[str], points: float) -> list[str]:
    """The types of `traps` whose change under their own trap against the warm start, median
    over the seeds recorded in `units` (all but `seeds`, the ones about to run), lies within
    `points` of zero, or that no seed has yet: the rows a further seed is needed for."""
    recorded = sorted({int(k.split("/")[0][4:]) for k in units if k.startswith("seed")} - set(seeds))
    out = []
    for t in traps:
        deltas = [r["vs_warm"]["delta"] for s in recorded
                  for r in seed_rows(units, s, [t])[2:] if r["vs_warm"]]
        if not deltas or abs(100 * statistics.median(deltas)) <= points:
            out.append(t)
    return out


def spread(values: list[float], signed: bool = False) -> str:
    """Median over seeds and (min, max), in points."""
    if not values:
        return "–"
    f = "+.1f" if signed else ".1f"
    med = 100 * statistics.median(values)
    if len(values) == 1:
        return f"{med:{f}}"
    return f"{med:{f}} ({100 * min(values):{f}} to {100 * max(values):{f}})"


def median_baselines(per_seed: dict[int, list[dict]], seeds: list[int], traps: list[str]) -> list[str]:
    """The baselines under each trap, median over the seeds (min to max), with clean GRPO's change
    against the warm start: how much a warm start's robustness moves from seed to seed, and
    whether clean GRPO alone moves it (the paper: barely)."""
    from antrap_gym.training.evaluation import success_change

    lines = ["Baselines under each trap, median over the seeds that have them (min to max):", "",
             "| trap | seeds | warm start | clean GRPO | clean GRPO vs warm start |", "|---|---|---|---|---|"]
    for t in traps:
        pairs = [(w, c) for s in seeds
                 if (w := per_seed[s][0]["traps"].get(t)) and (c := per_seed[s][1]["traps"].get(t))]
        if not pairs:
            continue
        changes = [success_change(w, c) for w, c in pairs]
        measured = sum(1 for ch in changes if is_measured(ch))
        lines.append(f"| {t} | {len(pairs)} | {spread([w['rate'] for w, _ in pairs])} | "
                     f"{spread([c['rate'] for _, c in pairs])} | "
                     f"{spread([ch['delta'] for ch in changes], True)}; "
                     f"measured in {measured}/{len(pairs)} |")
    lines.append("")
    return lines


def render_table(data: dict[str, Any]) -> str:
    from antrap_gym.traps.taxonomy import LAYER_OF

    setup, units = data["setup"], data["units"]
    seeds, traps = setup["seeds"], setup["traps"]
    per_seed = {s: seed_rows(units, s, traps) for s in seeds}
    done = sum(1 for u in units.values() if u.get("done_at"))
    commands = list(dict.fromkeys(i["command"] for i in data["invocations"]
                                  if "--stop-after" not in i["command"]))
    lines = [f"# Per-subtype training table ({setup['budget']} budget)", "",
             f"command: `{setup['command']}`  ",
             *(f"earlier: `{c}`  " for c in commands if c != setup["command"]),
             f"seeds: {', '.join(map(str, seeds))}; {trained_on(setup)}; git: {setup['git']}  ",
             f"wall time: {data.get('wall_s', 0) / 60:.1f} min over {len(data['invocations'])} "
             "invocation(s); "
             f"units done: {done}", ""]

    def block(title: str, get, rows: list[dict] | None = None) -> None:
        lines.extend([title, "", "| layer | policy | clean success | success under its own trap | "
                      "change vs warm start | change vs clean GRPO |", "|---|---|---|---|---|---|"])
        for i, name in enumerate(["warm start (SFT)", "clean GRPO"] + [f"GRPO on {t}" for t in traps]):
            if rows is not None and i >= 2 and rows[i]["clean"] is None and rows[i]["own"] is None:
                continue  # a type this seed did not train
            layer = "–" if i < 2 else LAYER_OF[traps[i - 2]].capitalize()
            lines.append(f"| {layer} | {name} | " + " | ".join(get(i)) + " |")
        lines.append("")

    def one(s: int):
        rows = per_seed[s]

        def get(i: int) -> list[str]:
            r = rows[i]
            if i < 2:
                return [fmt_cell(r["clean"]), "see the baselines below", "–", "–"]
            return [fmt_cell(r["clean"]), fmt_cell(r["own"]), fmt_change(r["vs_warm"]),
                    fmt_change(r["vs_clean"])]
        return get

    def median(i: int) -> list[str]:
        def vals(pick) -> list[float]:
            out = []
            for s in seeds:
                v = pick(per_seed[s][i])
                if v is not None:
                    out.append(v)
            return out
        clean = spread(vals(lambda r: r["clean"]["rate"] if r["clean"] else None))
        if i < 2:
            return [clean, "see the baselines below", "–", "–"]
        own = spread(vals(lambda r: r["own"]["rate"] if r["own"] else None))
        dw = vals(lambda r: r["vs_warm"]["delta"] if r["vs_warm"] else None)
        dc = vals(lambda r: r["vs_clean"]["delta"] if r["vs_clean"] else None)
        mw = sum(1 for s in seeds if (r := per_seed[s][i])["vs_warm"] and is_measured(r["vs_warm"]))
        mc = sum(1 for s in seeds if (r := per_seed[s][i])["vs_clean"] and is_measured(r["vs_clean"]))
        if not dw:
            return [clean, own, "–", "–"]
        # of the seeds that have the row (a later seed may train only the unsettled ones)
        return [clean, own, f"{spread(dw, True)}; measured in {mw}/{len(dw)}",
                f"{spread(dc, True)}; measured in {mc}/{len(dc)}"]

    if len(seeds) > 1:
        block(f"## Median over {len(seeds)} seeds (min to max), in points", median)
        lines.extend(median_baselines(per_seed, seeds, traps))
    for s in seeds:
        block(f"## Seed {s} (Wilson 95% intervals; changes with Newcombe 95% intervals, * = the whole "
              "interval above 0)", one(s), per_seed[s])
        lines.extend(["Baselines under each trap:", "", "| trap | warm start | clean GRPO |",
                      "|---|---|---|"])
        w, c = per_seed[s][0]["traps"], per_seed[s][1]["traps"]
        lines.extend(f"| {t} | {fmt_cell(w[t])} | {fmt_cell(c[t])} |" for t in traps if w[t] or c[t])
        lines.append("")
    lines.extend(bank_section(units, seeds, traps))
    return "\n".join(lines)


def bank_score(units: dict, seed: int, policy: str, trap: str):
    """A policy's recorded replies on a trap's bank (a `BankScore`), or None."""
    from antrap_gym.training.state_bank import BankScore

    u = units.get(f"seed{seed}/bank/{policy}/{trap}")
    if not u or not u.get("done_at"):
        return None
    return BankScore(policy, list(u["bank"]["rows"]))


def fmt_bank(score) -> str:
    if score is None:
        return "–"
    m = score.summary()
    return pct_ci(m["handled_rate"], m["handled_ci95_template"]) + "T"


def bank_section(units: dict, seeds: list[int], traps: list[str]) -> list[str]:
    """The banks' table: per seed and trap, the share of its bank's states each policy handled,
    and the trap's GRPO against the warm start, paired state by state."""
    from antrap_gym.training.state_bank import compare, describe_change

    specs = [u["bank"]["spec"] for u in units.values() if u.get("done_at") and "bank" in u]
    if not specs:
        return []
    lines = [f"## Trap-state banks: states handled (%) on `{specs[0]['suite']}`", "",
             "Each policy answers the same fixed states of its trap's bank greedily "
             "(training/state_bank.py); a state is handled when the reply gets the oracle closer "
             "to success. Intervals resample templates (T); the change is paired state by state, "
             "* = its interval above 0.", ""]
    for s in seeds:
        lines += [f"### Seed {s}", "", "| trap | states | warm start | clean GRPO | GRPO on the trap | "
                  "GRPO on the trap vs warm start |", "|---|---|---|---|---|---|"]
        for t in traps:
            warm, clean, own = (bank_score(units, s, p, t) for p in ("warm", "clean", t))
            if not (warm or clean or own):
                continue
            change = "–"
            if own and warm:
                try:
                    c = compare(own, warm)
                    change = describe_change(c) + (" *" if c["ci95_template"][0] > 0 else "")
                except ValueError:
                    change = "banks differ"
            n = len((warm or clean or own).rows)
            lines.append(f"| {t} | {n} | {fmt_bank(warm)} | {fmt_bank(clean)} | {fmt_bank(own)} | {change} |")
        lines.append("")
    return lines


def render_multi(data: dict[str, Any]) -> str:
    setup, units = data["setup"], data["units"]
    lines = [f"# Multi-task: success per template ({setup['budget']} budget)", "",
             f"command: `{setup['command']}`  ", f"git: {setup['git']}; wall time: "
             f"{data.get('wall_s', 0) / 60:.1f} min", ""]
    for s in setup["seeds"]:
        lines.extend([f"## Seed {s} (clean success, Wilson 95% intervals)", "",
                      "| template | warm start (SFT) | clean GRPO |", "|---|---|---|"])
        for t in setup["templates"]:
            got = []
            for p in ("warm", "clean"):
                u = units.get(f"seed{s}/eval/{p}/{t}")
                got.append(fmt_cell(u["cells"]["clean"]) if u and u.get("done_at") else "–")
            lines.append(f"| {t} | {got[0]} | {got[1]} |")
        lines.append("")
    return "\n".join(lines)


# --- the command ----------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    from antrap_gym.traps.taxonomy import TRAP_TYPES, expand

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/table")
    ap.add_argument("--seeds", default="0", help="comma-separated train.seed values (e.g. 0,1,2)")
    ap.add_argument("--budget", choices=sorted(BUDGETS), default="paper-cpu",
                    help="paper-cpu: the demo's (n = 60 per cell); smoke: a few steps; micro: tests")
    ap.add_argument("--templates", default=None,
                    help="comma-separated task templates (default SettingsWifiToggle; --multi-task: "
                         "Settings' switch templates)")
    ap.add_argument("--traps", default="all", help="trap types or layers (default all ten)")
    ap.add_argument("--multi-task", action="store_true",
                    help="warm start and clean GRPO on several templates; success per template")
    ap.add_argument("--model", default=None,
                    help="a local model directory to warm-start from (default: build the tiny policy, "
                         "whose phone-wide tokenizer corpus takes ~1 min)")
    ap.add_argument("--unsettled", type=float, default=None, metavar="POINTS",
                    help="train only the types whose change against the warm start (median over the "
                         "seeds already in --out) is within POINTS of zero, or not yet run: more "
                         "seeds for the rows that are not settled")
    ap.add_argument("--threads", type=int, default=None,
                    help="torch CPU threads (train.threads); default with --jobs N: the cores / N, "
                         "so that N units do not fight over the cores")
    ap.add_argument("--jobs", type=int, default=1,
                    help="run up to this many units at once on as many worker processes (one after "
                         "another in each), a unit once the units it reads have finished "
                         "(2 on 2 cores with --threads 1: a seed's GRPO runs in pairs)")
    ap.add_argument("--merge", nargs="+", type=Path, default=None, metavar="DIR",
                    help="fold the results.json of these --out folders (other seeds, run elsewhere or in "
                         "parallel) into --out, rewrite table.md and exit")
    ap.add_argument("--bank-size", type=int, default=0, metavar="N",
                    help="also score every policy on a fixed bank of N trap states of its trap "
                         "(training/state_bank.py; 0: off)")
    ap.add_argument("--bank-suite", default="antrap-test",
                    help="the bank's templates (default: the held-out side)")
    ap.add_argument("--warm-config", default=None, metavar="CONFIG",
                    help="make the warm start, GRPO and evaluations from this training config "
                         "(configs/train/CONFIG.yaml or a path; e.g. smollm2_cpu) instead of the demo's "
                         "recipe on --templates")
    ap.add_argument("--warm-set", action="append", default=[], metavar="KEY=VALUE",
                    help="change a key of --warm-config for every unit (repeatable)")
    ap.add_argument("--gpus", default=None, metavar="IDS",
                    help="comma-separated GPU ids: one unit per GPU at once (--jobs defaults to their "
                         "number), each process seeing only its own; needs --warm-config")
    ap.add_argument("--allow-dirty", action="store_true",
                    help="run from a tree with uncommitted changes (results.json says so)")
    ap.add_argument("--stop-after", type=int, default=None, help=argparse.SUPPRESS)  # units, then exit
    args = ap.parse_args(argv)
    args.gpus = [g.strip() for g in args.gpus.split(",") if g.strip()] if args.gpus else []
    if args.gpus:
        if not args.warm_config:
            ap.error("--gpus needs --warm-config (the demo's recipe is a CPU one)")
        if args.jobs == 1:
            args.jobs = len(args.gpus)
        if args.jobs > len(args.gpus):
            ap.error(f"--jobs {args.jobs} is more than the {len(args.gpus)} GPU(s) of --gpus")
        if not any(s.split("=", 1)[0].strip() == "model.device" for s in args.warm_set):
            args.warm_set.append("model.device=cuda")
    if args.warm_set and not args.warm_config:
        ap.error("--warm-set changes --warm-config's keys: give --warm-config")
    if args.threads is None and args.jobs > 1:
        args.threads = share_of_cores(args.jobs)
    args.seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    default = ",".join(SWITCHES) if args.multi_task else "SettingsWifiToggle"
    args.templates = [t.strip() for t in (args.templates or default).split(",") if t.strip()]
    if args.warm_config:
        if args.multi_task:
            ap.error("--multi-task is the demo's recipe on several templates: not with --warm-config")
        args.templates = []  # the recipe's
    args.traps = [t for t in TRAP_TYPES if t in expand(args.traps)]
    return args


def merge_records(data: dict[str, Any], other: dict[str, Any], name: str = "") -> list[str]:
    """Fold `other` (another --out's results.json) into `data`: the units `data` has not
    finished, the invocations, seeds and types. Returns what was kept from `data` where both
    finished a unit differently. Refuses records of another setup (budget, templates, model)."""
    check_same_setup(other["setup"], data["setup"], name or "the other record")
    kept = []
    for key, unit in other["units"].items():
        have = data["units"].get(key)
        if have is None or (not have.get("done_at") and unit.get("done_at")):
            data["units"][key] = unit
        elif unit.get("done_at") and have != unit:
            kept.append(key)
    seen = {(i["command"], i["started"]) for i in data["invocations"]}
    data["invocations"].extend(i for i in other["invocations"] if (i["command"], i["started"]) not in seen)
    data["invocations"].sort(key=lambda i: i["started"])
    add_rows(data["setup"], other["setup"])
    data["wall_s"] = round(sum(i["wall_s"] for i in data["invocations"]), 2)
    return kept


def merge_main(out: Path, folders: list[Path]) -> int:
    path = out / "results.json"
    if not path.exists():
        raise SystemExit(f"{path} does not exist: run the table there first (or copy one in)")
    data = json.loads(path.read_text(encoding="utf-8"))
    for folder in folders:
        other = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        for key in merge_records(data, other, str(folder)):
            print(f"{key}: finished in both; {out}'s kept")
    write_atomic(path, json.dumps(data, indent=1, default=str))
    text = (render_multi if data["setup"].get("mode") == "multi-task" else render_table)(data)
    write_atomic(out / "table.md", text + "\n")
    print(text)
    return 0


def use_args(args: argparse.Namespace) -> None:
    """Set the module's recipe from the command line (in the parent and in each --jobs worker)."""
    global MODEL_PATH, RECIPE, RECIPE_SET
    MODEL_PATH = str(Path(args.model).resolve()) if args.model else None
    RECIPE = recipe_path(args.warm_config) if args.warm_config else None
    RECIPE_SET = list(args.warm_set)


def pin_gpu(gpu: str | None) -> None:
    """A --jobs worker's start: see GPU `gpu` alone (set before anything in this fresh
    process touches CUDA)."""
    if gpu is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = gpu


def run_unit(args: argparse.Namespace, key: str, have: dict[str, Any]) -> dict:
    """A --jobs worker: build the invocation's units as the parent did and run the one named
    (with --gpus, the result records the GPU this process sees: the one `pin_gpu` gave it)."""
    use_args(args)
    b, out = BUDGETS[args.budget], Path(args.out)
    units = multi_units(args, b, out) if args.multi_task else table_units(args, b, out, have)
    result = next(u for u in units if u.key == key).run()
    gc.collect()  # the unit's model and trainer go before the worker's next unit loads its own
    return {**result, "gpu": os.environ.get("CUDA_VISIBLE_DEVICES")} if args.gpus else result


def run_parallel(args: argparse.Namespace, todo: list[Unit], rec: Record, finished, describe) -> None:
    """Run `todo` on `args.jobs` worker processes, each unit once every unit it `needs` is
    done, in the list's order among those ready. A failed unit stops new starts; the running
    ones finish and are recorded, then the failure is raised.

    Each worker is a process of its own (spawned: nothing of this process's threads or torch
    state is inherited), pinned to one GPU of --gpus for its life, that runs units one after
    another as the run in turn does in one process: torch, transformers and TRL are imported
    once per worker, not once per unit (5-6 s of a CPU's time each)."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from multiprocessing import get_context

    have = dict(rec.data["units"])  # as the parent built its units from
    waiting, running, failure = list(todo), {}, None
    gpus = list(args.gpus) or [None] * args.jobs
    spawn = get_context("spawn")
    workers = [ProcessPoolExecutor(1, mp_context=spawn, initializer=pin_gpu, initargs=(gpu,))
               for gpu in gpus[:args.jobs]]
    idle = list(range(len(workers)))  # each running unit holds one worker
    limit = len(todo) if args.stop_after is None else args.stop_after
    started = 0
    try:
        while running or (waiting and failure is None):
            while failure is None and idle and started < limit:
                ready = next((u for u in waiting if all(rec.done(n) for n in u.needs)), None)
                if ready is None:
                    break
                waiting.remove(ready)
                rec.start(ready.key)
                w = idle.pop(0)
                fut = workers[w].submit(run_unit, args, ready.key, have)
                running[fut] = (ready, time.monotonic(), w)
                started += 1
            if not running:
                break  # nothing startable: --stop-after reached, or a need that never finished
            describe(f"[{len(todo) - len(waiting) - len(running) + 1}/{len(todo)}] "
                     + ", ".join(u.key for u, _, _ in running.values()))
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                u, t, w = running.pop(fut)
                idle.append(w)
                if fut.exception() is not None:
                    rec.fail(u.key, time.monotonic() - t)  # its clock stops while the others finish
                    failure = failure or fut.exception()
                    continue
                finished(u, time.monotonic() - t, fut.result())
    finally:
        for pool in workers:
            pool.shutdown(wait=True, cancel_futures=True)
    if failure is not None:
        raise failure


def main(argv: list[str] | None = None) -> int:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    args = parse(argv)
    use_args(args)
    if args.gpus and args.jobs == 1:  # in turn, in this process: on the first GPU
        os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus[0]
    b = BUDGETS[args.budget]
    out = Path(args.out)
    if args.merge:
        return merge_main(out, args.merge)
    out.mkdir(parents=True, exist_ok=True)
    command = shlex.join([Path(sys.executable).name, *sys.argv]) if argv is None else shlex.join(argv)
    setup = {"mode": "multi-task" if args.multi_task else "table", "budget": args.budget,
             "budget_params": asdict(b), "seeds": args.seeds, "traps": [] if args.multi_task else args.traps,
             "templates": args.templates, "model": MODEL_PATH, "command": command, "git": git_revision(),
             "warm_config": str(RECIPE.relative_to(ROOT)) if RECIPE and RECIPE.is_relative_to(ROOT) else (
                 str(RECIPE) if RECIPE else None),
             "warm_set": list(args.warm_set), "gpus": args.gpus}
    if args.bank_size:
        setup["bank"] = {"size": args.bank_size, "suite": args.bank_suite}
    refuse_unrecorded(setup["git"], args.allow_dirty)
    if args.unsettled is not None and not args.multi_task:
        prior = json.loads((out / "results.json").read_text(encoding="utf-8"))["units"] \
            if (out / "results.json").exists() else {}
        args.traps = unsettled_types(prior, args.seeds, args.traps, args.unsettled)
        setup["traps"] = args.traps
        print(f"unsettled (within {args.unsettled:g} points of zero): {', '.join(args.traps) or 'none'}")
    rec = Record(out, setup)
    units = (multi_units(args, b, out) if args.multi_task
             else table_units(args, b, out, rec.data["units"]))
    render = render_multi if args.multi_task else render_table
    todo = [u for u in units if not rec.done(u.key)]
    cols = (TextColumn("{task.description}"), BarColumn(),
            TextColumn("{task.completed:.0f}/{task.total:.0f} s est."),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with rec.heartbeat(), Progress(*cols) as bar:
        task = bar.add_task("units", total=sum(u.cost for u in todo))

        def finished(u: Unit, wall_s: float, result: dict) -> None:
            rec.finish(u.key, wall_s, **result)
            write_atomic(out / "table.md", render(rec.data) + "\n")
            bar.advance(task, u.cost)

        if args.jobs > 1:
            run_parallel(args, todo, rec, finished, lambda d: bar.update(task, description=d))
        else:
            for i, u in enumerate(todo[:args.stop_after]):
                bar.update(task, description=f"[{i + 1}/{len(todo)}] {u.key}")
                rec.start(u.key)
                t = time.monotonic()
                result = u.run()
                finished(u, time.monotonic() - t, result)
    rec.save()
    text = render(rec.data)
    write_atomic(out / "table.md", text + "\n")
    left = sum(1 for u in units if not rec.done(u.key))
    print(text if not left else f"{left} unit(s) left: rerun the same command to continue")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
