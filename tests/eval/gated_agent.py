"""An agent that holds its run open until the test lets it go, so a test can act while a
run is certainly in progress (no sleeps guessing how long a run takes).

Loaded as `tests.eval.gated_agent:GatedAgent` with `--agent-arg started=PATH --agent-arg gate=PATH`:
at its first step it creates `started`, then waits until `gate` exists; from then on it is
the oracle.
"""

from __future__ import annotations

import time
from pathlib import Path

from antrap_gym.agents.oracle import OracleAgent

WAIT_LIMIT_S = 300.0  # a test that never opens the gate does not leave the run hanging forever


class GatedAgent(OracleAgent):
    name = "gated"

    def __init__(self, started: str, gate: str) -> None:
        super().__init__()
        self.started = Path(started)
        self.gate = Path(gate)

    def act(self, obs, info):
        self.started.touch()
        deadline = time.monotonic() + WAIT_LIMIT_S
        while not self.gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return super().act(obs, info)
