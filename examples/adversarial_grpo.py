"""Adversarial GRPO against pop-ups, end to end on the simulated phone (CPU, tiny policy).

    python examples/adversarial_grpo.py --out runs/demo            # ~18 min on 2 cores
    python examples/adversarial_grpo.py --out runs/demo --quick    # a few minutes, no claims

1. SFT the tiny policy on the oracle's clean steps of antrap-mini's Wi-Fi task (512 variants),
   collected with DART disturbances (`--noise`, mostly random taps: `--tap-weight`). The oracle
   recovers from each — from a wrong page by Back — so the clean labels teach reading the
   screen rather than the step count, and give the policy a way off a screen it does not
   know. One task, because the tiny policy does not learn to read the goal in this budget
   (docs/training.md, "Demonstration"). The prompt is the compact one (`policy.tool_docs`
   and `policy.element_bounds` off): ~600 tokens instead of ~1,300, 2.6x faster steps;
2. evaluate it clean and under external_interruption on the Wi-Fi task, 20 variants x 3
   runs each (the harness, Wilson 95% CIs);
3. step-level adversarial GRPO under external_interruption on the Wi-Fi task, from (1);
4. evaluate again, and write `results.md` / `results.json` in --out, with the change in
   trapped success and its Newcombe 95% interval.

Every stage resumes: re-running the command after a kill continues where it stopped.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

SFT_TASKS = "[SettingsWifiToggle]"
GRPO_TASKS = "[SettingsWifiToggle]"
EVAL_TASKS = "[SettingsWifiToggle]"


def overrides(**extra) -> list[str]:
    base = {
        "env.suite": "antrap-mini", "env.tasks": GRPO_TASKS, "env.variants": 4,
        "model.device": "cpu", "model.tiny.hidden_size": 256, "model.tiny.intermediate_size": 512,
        "policy.conclusion": "false", "policy.index_targets": "true", "policy.goal_reminder": "true",
        "policy.tool_docs": "false", "policy.element_bounds": "false",
        "eval_after.tasks": EVAL_TASKS, "eval_after.traps": "external_interruption",
        "eval_after.variants": 10, "eval_after.runs": 3, "eval_after.workers": 2,
        "eval_after.max_new_tokens": 96,
    }
    return [f"{k}={v}" for k, v in {**base, **extra}.items()]


def pct_ci(rate: float | None, ci: list[float] | None) -> str:
    if rate is None:
        return "–"
    lo, hi = ci or (rate, rate)
    return f"{100 * rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def fmt(c: dict) -> str:
    return f"{pct_ci(c['rate'], c['ci95'])} (n={c['n']})"


def main(argv: list[str] | None = None) -> int:
    from antrap_gym.training.config import load_config
    from antrap_gym.training.evaluation import evaluate_checkpoint, success_change, summary_cell
    from antrap_gym.training.grpo import run_grpo
    from antrap_gym.training.sft import run_sft

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/demo")
    ap.add_argument("--sft-steps", type=int, default=600)
    ap.add_argument("--grpo-steps", type=int, default=150)
    ap.add_argument("--noise", type=float, default=0.3,
                    help="DART disturbances while collecting the clean SFT data: per-step probability "
                         "that the collector does wait/back/home/a random tap/a missed tap instead of the "
                         "oracle, which then recovers (0 = plain clean runs)")
    ap.add_argument("--tap-weight", type=float, default=6.0,
                    help="how much likelier a disturbance is a random tap than each other kind (wait, "
                         "back, home, missed index): a wrong tap opens a wrong page, and the oracle's "
                         "way back from it is what the policy later tries on a pop-up")
    ap.add_argument("--trapped-weight", type=float, default=2.0,
                    help="how much likelier a trapped state is drawn for a GRPO batch than a clean one")
    ap.add_argument("--beta", type=float, default=0.04, help="GRPO's KL coefficient towards the SFT policy")
    ap.add_argument("--sft-variants", type=int, default=512,
                    help="task variants the SFT data is collected on")
    ap.add_argument("--generations", type=int, default=8, help="GRPO completions per state (G)")
    ap.add_argument("--eval-variants", type=int, default=20,
                    help="task variants each evaluation runs (x3 runs, clean and trapped)")
    ap.add_argument("--seed", type=int, default=0,
                    help="train.seed: the tiny policy's initial weights, data order and sampling")
    ap.add_argument("--quick", action="store_true", help="tiny budgets: checks the pipeline only")
    args = ap.parse_args(argv)
    if args.quick:
        args.sft_steps, args.grpo_steps = 20, 2
    out = Path(args.out)
    t0 = time.monotonic()
    times: dict[str, float] = {}

    sft_keys = {"name": "demo-sft", "env.tasks": SFT_TASKS, "env.variants": args.sft_variants,
                "sft.max_steps": args.sft_steps, "sft.lr": 3e-3,
                "sft.lr_scheduler": "constant", "sft.collect.traps": "[clean]", "sft.collect.thought": "none",
                "sft.collect.noise": args.noise, "eval_after.variants": args.eval_variants,
                "sft.collect.noise_kinds": f"{{tap: {args.tap_weight}, wait: 1, back: 1, home: 1, miss: 1}}",
                "eval_after.enabled": "false", "train.save_steps": 100, "train.progress": "true",
                "train.seed": args.seed}
    sft_cfg = load_config("configs/train/clean.yaml", overrides(**sft_keys))
    sft_final = run_sft(sft_cfg, out / "sft", resume=True)
    times["sft"] = time.monotonic() - t0

    t = time.monotonic()
    before = evaluate_checkpoint(sft_final, sft_cfg, out / "eval-sft", label="sft", progress=True)
    times["eval_before"] = time.monotonic() - t

    grpo_cfg = load_config("configs/train/external_interruption.yaml", overrides(**{
        "name": "demo-grpo", "env.variants": 16, "grpo.init_from": str(sft_final),
        "grpo.steps": args.grpo_steps,
        "grpo.granularity": "step", "grpo.num_generations": args.generations,
        "grpo.batch_size": 2 * args.generations, "grpo.lr": 1.5e-4,
        "grpo.beta": args.beta, "grpo.trapped_weight": args.trapped_weight,
        "grpo.temperature": 1.0, "grpo.max_completion_length": 96, "grpo.states_per_refresh": 16,
        "grpo.refresh_every": 4, "grpo.oracle_share": 0.5, "grpo.num_envs": 4,
        "traps.p": 0.3, "eval_after.enabled": "false", "train.save_steps": 20, "train.progress": "true",
        "train.seed": args.seed}))
    t = time.monotonic()
    grpo_final = run_grpo(grpo_cfg, out / "grpo", resume=True)
    times["grpo"] = time.monotonic() - t

    t = time.monotonic()
    after = evaluate_checkpoint(grpo_final, sft_cfg, out / "eval-grpo", label="sft+grpo", progress=True)
    times["eval_after"] = time.monotonic() - t
    times["total"] = time.monotonic() - t0

    result = {"before": {s: summary_cell(before, s) for s in ("clean", "external_interruption")},
              "after": {s: summary_cell(after, s) for s in ("clean", "external_interruption")},
              "minutes": {k: round(v / 60, 2) for k, v in times.items()},
              "sft_steps": args.sft_steps, "grpo_steps": args.grpo_steps,
              "noise": args.noise, "tap_weight": args.tap_weight, "sft_variants": args.sft_variants,
              "generations": args.generations, "eval_variants": args.eval_variants,
              "trapped_weight": args.trapped_weight, "beta": args.beta, "seed": args.seed}
    result["rise"] = success_change(result["before"]["external_interruption"],
                                    result["after"]["external_interruption"])
    (out / "results.json").write_text(json.dumps(result, indent=1))
    lines = ["| policy | clean | external_interruption | recovered from the pop-up |", "|---|---|---|---|"]
    for name, key in (("SFT (clean oracle data)", "before"), ("SFT + adversarial GRPO", "after")):
        r = result[key]
        trap = r["external_interruption"]
        lines.append(f"| {name} | {fmt(r['clean'])} | {fmt(trap)} | "
                     f"{pct_ci(trap['recovery'], trap['recovery_ci95'])} |")
    r = result["rise"]
    lines.append("")
    lines.append(f"success under the trap: {100 * r['delta']:+.1f} points, Newcombe 95% interval "
                 f"[{100 * r['ci95'][0]:+.1f}, {100 * r['ci95'][1]:+.1f}] -> "
                 + ("a measured rise" if r["measured"] else "not a measured rise (the interval includes 0)"))
    lines.append("")
    lines.append("minutes: " + ", ".join(f"{k} {v}" for k, v in result["minutes"].items()))
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
