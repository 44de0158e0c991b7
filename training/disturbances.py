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


def check_weights(weights: dict[str, float] | None) -> dict[str, float]:
    """Relative weights of the disturbance kinds (None or {} = all kinds alike); ValueError
    for an unknown kind, a negative weight or no positive weight at all."""
    if not weights:
        return dict.fromkeys(KINDS, 1.0)
    unknown = sorted(set(weights) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown disturbance kinds {unknown}; known: {list(KINDS)}")
    try:
        out = {k: float(weights.get(k, 0.0)) for k in KINDS}
    except (TypeError, ValueError):
        raise ValueError(f"disturbance weights must be numbers, got {weights}") from None
    if any(w < 0 for w in out.values()) or not any(w > 0 for w in out.values()):
        raise ValueError(f"disturbance weights must be >= 0 with one > 0, got {weights}")
    return out


def disturbance(rng: np.random.Generator, ui_elements: str, *, uses_index: bool,
                weights: dict[str, float] | None = None) -> dict[str, Any]:
    """A random disturbing action for the screen whose serialized elements are `ui_elements`.

    `weights` (`check_weights`) makes some kinds likelier: a tap on a random element is the
    disturbance most like a policy's own mistakes (it opens a wrong page, from which the
    oracle walks back), so it teaches recovery best. Kinds that cannot apply on this screen
    (a tap with no elements, a missed index without index targeting) are left out."""
    els = parse_element_lines(ui_elements or "")
    w = check_weights(weights)
    kinds = [k for k in KINDS if w[k] > 0 and (k != "tap" or els) and (k != "miss" or uses_index)]
    if not kinds:
        return {"action_type": "wait"}
    if weights:
        p = np.array([w[k] for k in kinds])
        kind = kinds[int(rng.choice(len(kinds), p=p / p.sum()))]
    else:  # all alike: the draw collections made before weights existed
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
