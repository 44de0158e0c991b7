"""Partial repaints: every frame the phone hands out equals a from-scratch paint.

The painter repaints only the regions whose views changed since the frame buffer's
last frame (`render.damage`), and copies a recurring frame (the home screen) instead of
drawing it. These tests hold it to the whole-frame paint, pixel for
pixel, on every step of every template's oracle run, with and without traps, with
observations held (as an agent's loop holds them) and dropped (so buffers are reused
in place), and check that a held observation is never painted over.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim.render import painter
from antrap_gym.env import AndroidEnv
from antrap_gym.registration import make_env
from antrap_gym.tasks import get_suite

TEMPLATES = list(get_suite("antrap").templates)


def _whole(env) -> np.ndarray:
    return painter.paint(env.unwrapped.device.phone)


def _mismatch(a: np.ndarray, b: np.ndarray) -> str:
    ys, xs = np.nonzero((a != b).any(-1))
    return f"{len(ys)} pixels differ in x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()}"


def _run(env, template: str, seed: int, hold: bool, max_steps: int = 60):
    """Yield each observation of the oracle's run (None where it was dropped)."""
    agent = OracleAgent()
    obs, info = env.reset(seed=seed, options={"task": template})
    agent.reset(env, obs, info)
    yield obs
    for _ in range(max_steps):
        action = agent.act(obs, info)
        obs, _, term, trunc, info = env.step(action)
        yield obs if hold else None
        if term or trunc:
            return


def test_every_frame_of_every_template_equals_a_whole_paint():
    env = AndroidEnv()  # screenshot observations
    before = dict(painter.paint_counts)
    frames = 0
    for template in TEMPLATES:
        for i, obs in enumerate(_run(env, template, seed=0, hold=True)):
            whole = _whole(env)
            assert np.array_equal(obs["screenshot"], whole), (
                f"{template} step {i}: {_mismatch(obs['screenshot'], whole)}")
            frames += 1
    counts = {k: painter.paint_counts[k] - before.get(k, 0) for k in painter.paint_counts}
    # the partial path must have been taken, often, or this test proves nothing
    assert counts.get("partial", 0) >= frames // 20, counts
    assert counts.get("whole", 0) > 0, counts
    # every reset lands on the home screen: after the first few it is copied, not drawn
    assert counts.get("recalled", 0) >= len(TEMPLATES) // 2, counts


def test_frames_reused_in_place_still_equal_whole_paints():
    """Observations dropped at once: the same buffer is repainted over and over."""
    env = AndroidEnv()
    for template in TEMPLATES[::7]:
        for i, _ in enumerate(_run(env, template, seed=1, hold=False)):
            shot = env.unwrapped.device.screenshot()
            whole = _whole(env)
            assert np.array_equal(shot, whole), f"{template} step {i}: {_mismatch(shot, whole)}"
            del shot


@pytest.mark.parametrize("traps", [["external_interruption"], ["all"]])
def test_trapped_frames_equal_whole_paints(traps):
    """Pop-ups, scrims, toasts and the traps' own windows on the phone."""
    env = make_env(traps=[{"type": t, "p": 0.5} for t in traps] if traps != ["all"] else traps)
    phone = env.unwrapped.device.phone
    for template in TEMPLATES[::5]:
        for i, _ in enumerate(_run(env, template, seed=2, hold=True)):
            shot = phone.screenshot()
            whole = painter.paint(phone)
            assert np.array_equal(shot, whole), f"{template} step {i}: {_mismatch(shot, whole)}"
            del shot


def test_a_held_observation_is_never_painted_over():
    env = AndroidEnv()
    kept, copies = [], []
    for template in ("MarkorCreateNote", "SimpleCalendarAddOneEvent", "ExpenseAddSingle"):
        for obs in _run(env, template, seed=0, hold=True):
            kept.append(obs["screenshot"])
            copies.append(np.array(obs["screenshot"]))
    assert len(kept) > 20
    for i, (shot, copy) in enumerate(zip(kept, copies, strict=True)):
        assert np.array_equal(shot, copy), f"observation {i} changed after it was handed out"
    # and no two observations share memory
    for a, b in itertools.pairwise(kept):
        assert not np.shares_memory(a, b)
