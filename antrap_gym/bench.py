"""Performance figures for the simulated phone (DESIGN.md's budget).

Each figure is measured over repeats and reported as a median with its spread
(min..max of the repeats). The action stream is the oracle's, recorded once
per (task, seed) and replayed, so agent thinking time is not counted.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim.web.page import forget_layouts

TARGETS = {
    "steps_per_s_text": ">= 5000",
    "ms_per_step_screenshot": "<= 5",
    "reset_ms": "<= 2",
    "reset_ms_screenshot": "<= 2",
    "snapshot_restore_ms": "<= 1",
    "rss_mb_per_env": "<= 50",
    "trap_overhead_pct_worst_single": "<= 5",
}


def record_streams(templates: list[str], seeds: int) -> list[tuple[str, int, list[dict]]]:
    """The oracle's actions for each (template, seed): a realistic action stream."""
    env = gym.make("antrap/AndroidSim-Text-v0")
    agent = OracleAgent()
    out = []
    for tid in templates:
        for seed in range(seeds):
            obs, info = env.reset(seed=seed, options={"task": tid})
            agent.reset(env, obs, info)
            actions = []
            while True:
                a = agent.act(obs, info)
                actions.append(a)
                obs, _, term, trunc, info = env.step(a)
                if term or trunc:
                    break
            out.append((tid, seed, actions))
    env.close()
    return out


def _replay(env, streams) -> tuple[int, float, list[float], list[float]]:
    """Replay streams; returns (steps, step seconds, per-step ms, per-reset ms).

    Each observation is held until the next one arrives, as an agent's loop holds it
    (so a frame buffer cannot simply be painted over in place)."""
    steps, total = 0, 0.0
    per_step: list[float] = []
    per_reset: list[float] = []
    for tid, seed, actions in streams:
        t = time.perf_counter()
        held = env.reset(seed=seed, options={"task": tid})
        per_reset.append((time.perf_counter() - t) * 1000)
        for a in actions:
            t = time.perf_counter()
            held = env.step(a)  # noqa: F841  (held until the next step, as a loop holds it)
            dt = time.perf_counter() - t
            total += dt
            per_step.append(dt * 1000)
            steps += 1
    return steps, total, per_step, per_reset


def _spread(values: list[float]) -> dict[str, float]:
    """Median, min and max; with 4 or more values also the quartiles (`p25`, `p75`), the
    spread to quote where single repeats are noisy (paired overheads of a few percent)."""
    out = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    if len(values) >= 4:
        q = statistics.quantiles(values, n=4, method="inclusive")
        out.update(p25=q[0], p75=q[2])
    return out


def bench_steps(streams, repeats: int = 3) -> dict[str, Any]:
    text = gym.make("antrap/AndroidSim-Text-v0").unwrapped
    shot = gym.make("antrap/AndroidSim-v0").unwrapped
    _replay(text, streams[:3])  # warm caches (glyphs, masks)
    _replay(shot, streams)
    sps, ms_shot, ms_step_text = [], [], []
    reset_text, reset_shot = [], []
    for _ in range(repeats):
        gc.collect()
        # Chrome remembers the layout of every page state it showed (`web/page.py`): a repeat
        # would find every page laid out by the one before and measure none of that work, so
        # each timed replay starts without them, as a first run of a stream does
        forget_layouts()
        n, secs, per_step, per_reset = _replay(text, streams)
        sps.append(n / secs)
        ms_step_text.append(statistics.median(per_step))
        reset_text.append(statistics.median(per_reset))
        forget_layouts()
        n2, _, per_step2, per_reset2 = _replay(shot, streams)
        ms_shot.append(statistics.median(per_step2))
        reset_shot.append(statistics.median(per_reset2))
    return {
        "steps_per_s_text": statistics.median(sps),
        "steps_per_s_text_spread": _spread(sps),
        "ms_per_step_text": statistics.median(ms_step_text),
        "ms_per_step_text_spread": _spread(ms_step_text),
        "ms_per_step_screenshot": statistics.median(ms_shot),
        "ms_per_step_screenshot_spread": _spread(ms_shot),
        "reset_ms": statistics.median(reset_text),
        "reset_ms_spread": _spread(reset_text),
        "reset_ms_screenshot": statistics.median(reset_shot),
        "reset_ms_screenshot_spread": _spread(reset_shot),
        "steps_measured": n,
    }


def bench_snapshot(repeats: int = 200) -> dict[str, Any]:
    env = gym.make("antrap/AndroidSim-Text-v0").unwrapped
    env.reset(seed=0, options={"task": "SettingsWifiToggle"})
    dev = env.device
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        snap = dev.snapshot()
        dev.restore(snap)
        times.append((time.perf_counter() - t) * 1000)
    return {"snapshot_restore_ms": statistics.median(times),
            "snapshot_restore_ms_spread": _spread(times)}


#: the apps a phone had before the productivity apps came (the reset comparison's baseline)
FIRST_APPS = ("launcher", "settings", "contacts", "markor")


def bench_reset_by_apps(repeats: int = 5, resets: int = 200) -> dict[str, Any]:
    """A Settings task's reset with few apps installed and with every app: reset must not
    grow with the apps installed.

    Two figures, because a reset's first observation is the home screen, which shows up to
    `HOME_ICONS` apps: the restore + set-up alone (boot snapshot restored, task set up) with
    the first four apps against all of them; and the whole `env.reset` (with its text
    observation) with only the apps the full phone's home screen shows against all of them,
    so both phones show the same screen and differ only in the apps installed."""
    import importlib

    from antrap_gym.device.sim import SimDevice
    from antrap_gym.device.sim.apps import default_apps
    from antrap_gym.device.sim.apps.launcher.screens import home_apps
    from antrap_gym.env.android_env import AndroidEnv
    from antrap_gym.tasks import get_template

    every = default_apps()
    few = [importlib.import_module(f"antrap_gym.device.sim.apps.{n}").APP for n in FIRST_APPS]
    home = [a for a in every if a in home_apps(every) or a.package == few[0].package]
    template = get_template("SettingsWifiToggle")
    rng = np.random.default_rng(0)
    params = [template.generate_params(rng) for _ in range(resets)]
    fns: dict[str, Any] = {}
    envs = []
    for key, apps in (("first_4", few), ("home_screen", home), ("all", every)):
        env = AndroidEnv(task="SettingsWifiToggle", device=SimDevice(apps=apps), obs_mode="text")
        env.reset(seed=0)
        envs.append((key, env))
        dev = SimDevice(apps=apps)
        boot = dev.snapshot()

        def restore_setup(k: int, dev=dev, boot=boot) -> None:
            dev.restore(boot)
            template(params[k]).setup(dev)

        fns[f"restore_setup_ms_{key}_apps"] = restore_setup
        fns[f"reset_ms_{key}_apps"] = lambda k, env=env: env.reset(seed=k)
    # interleaved, each repeat in a rotated order, so a drift of the machine's speed
    # lands on every configuration alike
    runs: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn = fns[name]
            fn(0)
            t = time.perf_counter()
            for k in range(resets):
                fn(k)
            runs[name].append((time.perf_counter() - t) * 1000 / resets)
    out: dict[str, Any] = {}
    for name, times in runs.items():
        out[name] = statistics.median(times)
        out[f"{name}_spread"] = _spread(times)
    for key, env in envs:
        out[f"apps_installed_{key}"] = len(env.device.phone.apps)
        env.close()
    return out


_RSS_PROBE = r"""
import json, sys, gymnasium as gym, antrap_gym
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
def one(seed):
    # the last observation is kept, as an agent's loop keeps it until the next one
    e = gym.make('antrap/AndroidSim-v0')
    held = e.reset(seed=seed)
    held = e.step({'action_type': 'open_app', 'app_name': 'Settings'})
    return e, held
n = int(sys.argv[1])
env0 = one(0)
base = rss()
envs = [one(i) for i in range(n)]
print(json.dumps({'base_mb': base, 'per_env_mb': (rss() - base) / n}))
"""


def bench_memory(n: int = 8, repeats: int = 3) -> dict[str, Any]:
    """Extra resident memory per environment (screenshot mode), each env holding its last
    observation: each repeat is a fresh process that builds one env (the baseline), then
    `n` more; median and spread."""
    per_env, first = [], []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", _RSS_PROBE, str(n)], capture_output=True,
                             text=True, check=True)
        res = json.loads(out.stdout.strip().splitlines()[-1])
        per_env.append(res["per_env_mb"])
        first.append(res["base_mb"])
    return {"rss_mb_per_env": statistics.median(per_env),
            "rss_mb_per_env_spread": _spread(per_env),
            "rss_mb_first_env_process": statistics.median(first),
            "rss_mb_first_env_process_spread": _spread(first),
            "rss_repeats": repeats}


def _vector_rate(venv, flat: list[dict], n: int, k: int, count: int) -> tuple[float, int]:
    """`count` batched steps from position k of the action stream: (env steps/s, next k)."""
    t = time.perf_counter()
    for _ in range(count):
        venv.step([flat[(k + j) % len(flat)] for j in range(n)])
        k += n
    return count * n / (time.perf_counter() - t), k


def bench_vector(streams, workers=(1, 2), steps: int = 300, obs_mode: str = "text",
                 repeats: int = 3, phones: int = 0) -> dict[str, Any]:
    """Vector env throughput with 1 and 2 worker processes (oracle actions).

    phones=0: Gymnasium's AsyncVectorEnv, one env per worker (as many envs as workers).
    phones=N: N phones in every case, spread over the workers (`PhoneGroupVectorEnv`,
    the ids' vector entry point), so the workers' count is all that changes.
    For each worker count: one vector env, a warm-up, then `repeats` timed runs of
    `steps` batched steps; the median env steps/s with its spread, and the 2-over-1
    scaling of the medians."""
    env_id = "antrap/AndroidSim-Text-v0" if obs_mode == "text" else "antrap/AndroidSim-v0"
    flat = [a for _, _, acts in streams for a in acts]
    tag = f"vector_{obs_mode}" + (f"_{phones}_phones" if phones else "")
    res: dict[str, Any] = {}
    medians = {}
    for w in workers:
        n = phones or w
        if phones:
            venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", workers=w)
        else:
            venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="async")
        venv.reset(seed=list(range(n)))
        try:
            # warm-up (workers' caches, first screenshots), then the timed runs
            _, k = _vector_rate(venv, flat, n, 0, max(10, steps // 10))
            rates = []
            for _ in range(repeats):
                rate, k = _vector_rate(venv, flat, n, k, steps)
                rates.append(rate)
        except BaseException:
            # a worker may still be mid-step: a plain close() would wait for it for ever
            venv.close(terminate=True)
            raise
        venv.close()
        key = f"{tag}_steps_per_s_{w}_workers"
        medians[w] = res[key] = statistics.median(rates)
        res[key + "_spread"] = _spread(rates)
    if 1 in medians and len(medians) > 1:
        top = max(medians)
        res[f"{tag}_scaling_{top}_over_1"] = medians[top] / medians[1]
    return res


def _with_parts(est: float, parts: list[float]) -> tuple[float, dict[str, float]]:
    """A figure and its spread: the lowest and highest of it and its parts' figures."""
    return est, {"median": est, "min": min(est, *parts), "max": max(est, *parts)}


def bench_trap_overhead(streams, repeats: int = 21) -> dict[str, Any]:
    """Extra time a trap wrapper adds to a step on which it does not fire.

    Plain and trapped replays of the same action stream alternate `repeats` times. Each
    step's time is the fastest of its repeats (what the code costs, without the machine's
    scheduling noise, which moves single replays of ~80 ms by +-20% on a shared 2-core
    machine), and the overhead is the ratio of the summed step times. Its spread: the same
    figure from each third of the repeats."""
    import numpy as np

    from antrap_gym.registration import make_env
    from antrap_gym.traps import TRAP_TYPES

    never = {"p": 0.0, "at_least_once": False}
    plain = make_env(obs_mode="text")
    _replay(plain, streams[:5])

    def overhead(traps) -> tuple[float, list[float]]:
        env = make_env(obs_mode="text", traps=traps)
        _replay(env, streams[:5])
        base, trapped = [], []
        gc.collect()
        gc.disable()
        try:
            for _ in range(repeats):
                base.append(_replay(plain, streams)[2])
                trapped.append(_replay(env, streams)[2])
        finally:
            gc.enable()
        b, t = np.array(base), np.array(trapped)  # (repeats, steps): the same steps each time

        def pct(rows) -> float:
            return float(100 * (t[rows].min(0).sum() / b[rows].min(0).sum() - 1))

        thirds = np.array_split(np.arange(repeats), 3) if repeats >= 3 else [np.arange(repeats)]
        return pct(np.arange(repeats)), [pct(rows) for rows in thirds]

    n, secs, _, _ = _replay(plain, streams)
    out: dict[str, Any] = {"trap_overhead_base_us_per_step": secs / n * 1e6}
    for t in TRAP_TYPES:
        out[f"trap_overhead_pct_{t}"], out[f"trap_overhead_pct_{t}_spread"] = \
            _with_parts(*overhead([{"type": t, **never}]))
    worst = max(TRAP_TYPES, key=lambda t: out[f"trap_overhead_pct_{t}"])
    out["trap_overhead_pct_worst_single"] = out[f"trap_overhead_pct_{worst}"]
    out["trap_overhead_pct_worst_single_spread"] = out[f"trap_overhead_pct_{worst}_spread"]
    out["trap_overhead_worst_type"] = worst
    out["trap_overhead_pct_all_ten_stacked"], out["trap_overhead_pct_all_ten_stacked_spread"] = \
        _with_parts(*overhead([{"type": t, **never} for t in TRAP_TYPES]))
    return out


#: the groups of figures `run_all` measures (`antrap bench --only`)
PARTS = ("steps", "snapshot", "reset", "memory", "vector", "traps")


def run_all(quick: bool = False, suite: str = "antrap", only: list[str] | None = None) -> dict[str, Any]:
    from antrap_gym.tasks import get_suite

    parts = set(only or PARTS)
    templates = list(get_suite(suite).templates)
    streams = record_streams(templates, 1 if quick else 3)
    out: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                           "suite": suite}
    if "steps" in parts:
        out.update(bench_steps(streams, repeats=1 if quick else 3))
    if "snapshot" in parts:
        out.update(bench_snapshot())
    if "reset" in parts:
        out.update(bench_reset_by_apps(repeats=2 if quick else 5))
    if "memory" in parts:
        out.update(bench_memory(4 if quick else 8, repeats=2 if quick else 5))
    if "vector" in parts:
        for mode in ("text", "screenshot"):
            batches = 100 if quick else 300
            out.update(bench_vector(streams, steps=batches, obs_mode=mode, repeats=2 if quick else 5))
            # 8 phones: a batch is 8 env steps, so a quarter of the batches (twice the steps)
            out.update(bench_vector(streams, steps=batches // 4, obs_mode=mode,
                                    repeats=2 if quick else 5, phones=8))
    if "traps" in parts:
        out.update(bench_trap_overhead(streams, repeats=3 if quick else 21))
    out["targets"] = TARGETS
    return out
