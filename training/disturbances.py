"""Disturbances for oracle data collection (DART-style noise injection).

A policy cloned from clean demonstrations only ever sees the states a perfect
run visits, so a small model can solve the training tasks by *position* — the
k-th reply of the episode — without reading the screen. The moment anything
shifts the episode by one step (a pop-up it had to close, a tap that did
nothing) it replays the rest of its memorised sequence out of phase.

Disturbing the *supervisor* during collection (Laskey et al., 2017, "DART")
fixes the state distribution, not the labels: with probability `noise` per step
the collector executes one of these actions instead of the oracle's, records it
in the policy's step history as the agent's own, writes no training row for it,
and lets the closed-loop oracle recover from wherever the phone now is. The
rows that follow teach "read the screen and do the step it needs" — still on a
clean phone, with the oracle's labels only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from antrap_gym.device.elements import parse_element_lines

#: what a disturbance can be: a no-op (shifts the step count), Back, Home,
#: a tap on a random element, and (index policies) a tap on an index that
#: is not on the screen (an error, the phone unchanged)
KINDS = ("wait", "back", "home", "tap", "miss")


def disturbance(rng: np.random.Generator, ui_elements: str, *, uses_index: bool) -> dict[str, Any]:
    """A random disturbing action for the screen whose serialized elements are `ui_elements`."""
    els = parse_element_lines(ui_elements or "")
    kinds = [k for k in KINDS if (k != "tap" or els) and (k != "miss" or uses_index)]
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "wait":
        return {"action_type": "wait"}
    if kind == "back":
        return {"action_type": "navigate_back"}
    if kind == "home":
        return {"action_type": "navigate_home"}
    if kind == "miss":
        return {"action_type": "click", "index": len(els)}
    x, y = els[int(rng.integers(len(els)))].center
    return {"action_type": "click", "x": x, "y": y}
