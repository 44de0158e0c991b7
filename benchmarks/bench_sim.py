"""Simulated-phone performance figures (prints them; not a timed test).

    python benchmarks/bench_sim.py          # full run (10-30 minutes on 2 cores)
    python benchmarks/bench_sim.py --quick  # one repeat
    python benchmarks/bench_sim.py --json

The same figures come from `antrap bench`. Results go in docs/benchmarks.md.
"""

from __future__ import annotations

import sys

from antrap_gym.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
