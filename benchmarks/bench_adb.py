"""The ADB backend's cost per step (prints figures; not a timed test).

    python benchmarks/bench_adb.py            # needs the `adb` binary
    python benchmarks/bench_adb.py --json

A private adb server and the simulated phone behind sim-adbd stand in for a
device, so the figures are the ADB path's own cost (adb server hops, shell
sessions, uiautomator dumps, screencap transfers) with a phone that answers
instantly; a real emulator adds its own rendering and dump time on top.
The same oracle action stream is replayed over ADB and on the in-process
simulated phone. Results go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from antrap_gym.bench import record_streams
from antrap_gym.device.adb import AdbDevice
from antrap_gym.device.adbd import serve_in_thread
from antrap_gym.device.sim import SimDevice
from antrap_gym.env.android_env import AndroidEnv

TEMPLATES = ["SettingsWifiToggle", "SettingsBrightness", "ContactsAddContact", "MarkorCreateNote"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def replay(env: AndroidEnv, streams) -> dict[str, float]:
    dev = env.device
    per_step: list[float] = []
    trips: list[int] = []
    for tid, seed, actions in streams:
        env.reset(seed=seed, options={"task": tid})
        for a in actions:
            before = getattr(dev, "round_trips", 0)
            t = time.perf_counter()
            env.step(a)
            per_step.append((time.perf_counter() - t) * 1000)
            trips.append(getattr(dev, "round_trips", 0) - before)
    return {"steps": len(per_step), "ms_per_step_median": statistics.median(per_step),
            "ms_per_step_p90": sorted(per_step)[int(0.9 * len(per_step))],
            "round_trips_per_step_mean": statistics.fmean(trips),
            "round_trips_per_step_max": max(trips)}


def primitives(dev: AdbDevice, n: int = 20) -> dict[str, float]:
    out = {}
    for name, fn in [("shell echo", lambda: dev.shell("echo ok")),
                     ("uiautomator dump + parse", dev.ui_elements),
                     ("screencap (raw RGBA)", dev.screenshot)]:
        fn()
        times = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1000)
        out[name] = statistics.median(times)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    adb = shutil.which("adb")
    if adb is None:
        print("needs the `adb` binary (apt-get install adb)", file=sys.stderr)
        return 2
    streams = record_streams(TEMPLATES, args.seeds)
    port = free_port()
    home = tempfile.mkdtemp(prefix="adb-home-")
    env_vars = {**os.environ, "HOME": home, "ADB_MDNS": "0"}
    subprocess.run([adb, "-P", str(port), "start-server"], env=env_vars, check=True,
                   capture_output=True)
    handle = serve_in_thread(port=0, serial="BENCH01")
    results: dict[str, dict] = {}
    try:
        dev = AdbDevice(serial=handle.address, port=port)
        results["primitives_ms"] = primitives(dev)
        for mode in ("text", "screenshot"):
            results[f"adb_{mode}"] = replay(AndroidEnv(device=dev, obs_mode=mode), streams)
            results[f"sim_{mode}"] = replay(AndroidEnv(device=SimDevice(), obs_mode=mode), streams)
    finally:
        handle.close()
        subprocess.run([adb, "-P", str(port), "kill-server"], env=env_vars, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print("ADB primitives (median ms):")
    for k, v in results["primitives_ms"].items():
        print(f"  {k:28s} {v:8.1f}")
    print(f"\n{'backend / observation':28s} {'steps':>6s} {'ms/step':>9s} {'p90':>8s} "
          f"{'trips/step':>11s} {'max':>5s}")
    for key in ("sim_text", "adb_text", "sim_screenshot", "adb_screenshot"):
        r = results[key]
        print(f"  {key:26s} {r['steps']:6d} {r['ms_per_step_median']:9.2f} {r['ms_per_step_p90']:8.2f} "
              f"{r['round_trips_per_step_mean']:11.2f} {r['round_trips_per_step_max']:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
