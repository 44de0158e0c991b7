"""Training-side figures (prints them; not a timed test).

    python benchmarks/bench_training.py

- capture + restore of a trapped environment stack;
- scoring one reply at a training state (restore, execute, oracle distance);
- rollout steps/s with one batched `generate` for N environments vs one at a time
  (the tiny policy, random weights, replies capped at --tokens new tokens), with the
  environments in this process and in async vector env worker processes;
- state gathering for step-level GRPO, states/s, in-process vs worker processes;
- GRPO step time at step and episode granularity (the tiny policy, CPU).

Results go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def bench_state(n: int = 200) -> dict[str, float]:
    from antrap_gym.agents.oracle import OracleAgent
    from antrap_gym.agents.policy import PolicyConfig, format_completion
    from antrap_gym.env.state import capture, restore
    from antrap_gym.registration import make_env
    from antrap_gym.training.rewards import StepRewarder
    from antrap_gym.training.states import StateGatherer

    env = make_env(traps=[{"type": "external_interruption", "steps": [2], "p": 0.0}], obs_mode="text",
                   task="ContactsAddContact")
    obs, info = env.reset(seed=1)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    for _ in range(3):
        obs, *_ = env.step(agent.act(obs, info))
    t = time.perf_counter()
    for _ in range(n):
        restore(env, capture(env))
    cap = (time.perf_counter() - t) / n * 1000

    policy = PolicyConfig(observation="text")
    g = StateGatherer(tasks=["ContactsAddContact", "SettingsWifiToggle"], variants=[3], stack=[
        {"type": "external_interruption", "p": 0.3}], policy=policy, num_envs=1)
    states = []
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(4):
        states += g.oracle_states(rng)
    gather = (time.perf_counter() - t) / len(states) * 1000
    g.close()
    r = StepRewarder(policy)
    r.add(states)
    replies = [{"action_type": "navigate_back"}, {"action_type": "navigate_home"},
               {"action_type": "scroll", "direction": "down"}, {"action_type": "wait"}]
    times = []
    for s in states:
        for a in replies:
            text = format_completion(a, "", space=s.space, config=policy)
            t = time.perf_counter()
            r.outcome(s.id, text)
            times.append((time.perf_counter() - t) * 1000)
    r.close()
    return {"capture_restore_ms": cap, "gather_ms_per_state": gather,
            "score_reply_ms_median": statistics.median(times), "score_reply_ms_p90":
            sorted(times)[int(0.9 * len(times))], "states": len(states)}


def bench_rollout(model_dir: Path, envs: tuple[int, ...] = (1, 4, 8), steps: int = 48, tokens: int = 48,
                  backends: tuple[str, ...] = ("sync", "async")) -> dict[str, dict[int, float]]:
    """Policy-driven rollout steps/s: N environments in a `RolloutPool`, the policy's
    replies generated in ONE batched `generate` per turn, or one environment at a
    time (N calls); environments in this process or in async vector env workers."""
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.config import load_config
    from antrap_gym.training.live_policy import BatchedPolicy
    from antrap_gym.training.tiny import load_policy
    from antrap_gym.training.workers import RolloutPool

    cfg = load_config(None, ["model.device=cpu"])
    model, tok = load_policy(cfg.model, model_dir)
    policy = BatchedPolicy(model, tok, PolicyConfig(observation="text"), max_new_tokens=tokens)
    policy.eos = []  # always generate `tokens` tokens: equal work per reply at every batch size
    tasks = ["SettingsWifiToggle", "ContactsAddContact", "MarkorCreateNote", "SettingsBrightness"]
    out: dict[str, dict[int, float]] = {}
    for backend in backends:
        for mode in ("batched", "one_at_a_time"):
            rates = {}
            for n in envs:
                if mode == "one_at_a_time" and n == 1:
                    continue
                with RolloutPool({"obs_mode": "text"}, n, backend=backend) as pool:
                    def reset(slots, k):
                        got = pool.reset({s: (k + s, {"task": tasks[(k + s) % len(tasks)]}) for s in slots})
                        return {s: (t, policy.session(t.obs["goal"], t.screen_size)) for s, t in got.items()}
                    live = reset(range(n), 0)
                    done = 0
                    t0 = time.perf_counter()
                    while done < steps:
                        slots = sorted(live)
                        sess = [live[s][1] for s in slots]
                        obs = [live[s][0].obs for s in slots]
                        if mode == "batched":
                            acts = policy.act_batch(sess, obs, seed=done)
                        else:
                            acts = [policy.act_batch([x], [o], seed=done)[0] for x, o in zip(sess, obs)]
                        stepped = pool.step({s: a for s, (a, _) in zip(slots, acts)})
                        ended = [s for s, t in stepped.items() if t.done]
                        for s, t in stepped.items():
                            live[s] = (t, live[s][1])
                        live.update(reset(ended, 100 + done))
                        done += n
                    rates[n] = done / (time.perf_counter() - t0)
            out[f"{backend}/{mode}"] = rates
    return out


def bench_gather(num_envs: int = 2, rounds: int = 3) -> dict[str, float]:
    """Step-level state gathering (oracle episodes under pop-ups, capture + the oracle's
    distance at every step): states/s with the environments in-process vs in workers."""
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.states import StateGatherer

    out = {}
    for backend in ("sync", "async"):
        g = StateGatherer(tasks=["ContactsAddContact", "MarkorCreateNote", "SettingsWifiToggle"],
                          variants=[3, 4], stack=[{"type": "external_interruption", "p": 0.3}],
                          policy=PolicyConfig(observation="text"), num_envs=num_envs, rollout=backend)
        try:
            g.oracle_states(np.random.default_rng(99))  # warm-up (worker start, imports)
            n = 0
            t0 = time.perf_counter()
            for k in range(rounds):
                n += len(g.oracle_states(np.random.default_rng(k)))
            out[backend] = n / (time.perf_counter() - t0)
        finally:
            g.close()
    return out


def bench_grpo(model_dir: Path, work: Path) -> dict[str, float]:
    from antrap_gym.training.callbacks import read_metrics
    from antrap_gym.training.config import load_config
    from antrap_gym.training.grpo import run_grpo

    out = {}
    for gran, extra in (("step", {}), ("episode", {"grpo.max_turns": 3})):
        sets = {"model.device": "cpu", "grpo.init_from": str(model_dir), "grpo.granularity": gran,
                "grpo.steps": 6, "grpo.num_generations": 4, "grpo.batch_size": 4,
                "grpo.max_completion_length": 64, "grpo.states_per_refresh": 8, "grpo.refresh_every": 3,
                "env.tasks": "[SettingsWifiToggle,SettingsBrightness]", "train.progress": "false",
                "train.save_steps": 100, "eval_after.enabled": "false", **extra}
        cfg = load_config("configs/train/smoke_cpu.yaml", [f"{k}={v}" for k, v in sets.items()])
        t = time.perf_counter()
        run_grpo(cfg, work / gran, resume=False)
        wall = time.perf_counter() - t
        steps = [r["step_time"] for r in read_metrics(work / gran) if "step_time" in r]
        out[gran] = {"step_time_s_median": statistics.median(steps), "wall_s_per_step": wall / 6}
    return out


def _flatten(d: dict, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}."))
        elif isinstance(v, (int, float)):
            out[f"{prefix}{k}"] = float(v)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=48, help="new tokens per reply in the rollout figures")
    ap.add_argument("--repeats", type=int, default=3, help="repeats of every figure (median, min – max)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    from antrap_gym.training.tiny import build_tiny_policy

    runs: list[dict[str, float]] = []
    for r in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            model_dir = build_tiny_policy(work / "tiny")
            res = {"state": bench_state(),
                   "rollout_steps_per_s": bench_rollout(model_dir, tokens=args.tokens),
                   "gather_states_per_s": bench_gather(), "grpo": bench_grpo(model_dir, work)}
        runs.append(_flatten(res))
        if not args.json:
            print(f"repeat {r + 1}/{args.repeats} done", flush=True)
    figures = {k: {"median": statistics.median(v), "min": min(v), "max": max(v), "runs": v}
               for k in runs[0] for v in [[run[k] for run in runs if k in run]]}
    if args.json:
        import json

        print(json.dumps({"repeats": args.repeats, "tokens": args.tokens, "figures": figures}, indent=1))
        return 0
    print(f"\n| figure ({args.tokens} new tokens per reply) | median | spread (min – max) |")
    print("|---|---|---|")
    for k, f in figures.items():
        print(f"| {k} | {f['median']:.2f} | {f['min']:.2f} – {f['max']:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
