"""One episode of an agent in an environment, recorded."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym

from antrap_gym.agents.base import Agent
from antrap_gym.env.info import plain


@dataclass
class StepRecord:
    step: int
    action: dict[str, Any] | str | None  # what was executed (or what the agent sent, if invalid)
    error: str
    thought: str = ""
    raw: str = ""  # the model's raw output, for model-backed agents
    intended: dict[str, Any] | str | None = None  # what the agent sent, when a trap changed it


@dataclass
class EpisodeResult:
    task: str
    params: dict[str, Any]
    goal: str
    seed: int | None
    success: float
    steps: int
    budget: int
    terminated: bool
    truncated: bool
    answer: str | None
    wall_s: float
    error: str | None = None
    trajectory: list[StepRecord] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_episode(
    env: gym.Env,
    agent: Agent,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    agent_seed: int | None = None,
    on_step=None,
    on_reset=None,
) -> EpisodeResult:
    """Reset, let the agent act until the episode ends, and record what happened.

    `on_reset(obs, info)` and `on_step(obs, info)` see every observation."""
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed, options=options)
    if on_reset is not None:
        on_reset(obs, info)
    agent.reset(env, obs, info, seed=agent_seed if agent_seed is not None else seed)
    traj: list[StepRecord] = []
    reward, terminated, truncated = 0.0, False, False
    err: str | None = None
    while not (terminated or truncated):
        try:
            action = agent.act(obs, info)
        except Exception as e:  # an agent crash ends its episode, not the run
            err = f"agent error: {type(e).__name__}: {e}"
            break
        obs, reward, terminated, truncated, info = env.step(action)
        executed = plain(info.get("action")) or action
        sent = action if isinstance(action, dict | str) else str(action)
        traj.append(StepRecord(info.get("step", len(traj) + 1), executed,
                               obs.get("last_action_error", ""), getattr(agent, "last_thought", ""),
                               str(getattr(agent, "last_raw", "") or ""),
                               sent if _differs(sent, executed) else None))
        if on_step is not None:
            on_step(obs, info)
    err = err or info.get("error")
    return EpisodeResult(
        task=info.get("task") or "",
        params=plain(info.get("params", {})),
        goal=info.get("goal") or "",
        seed=seed,
        success=float(info.get("success", reward)) if (terminated or truncated) else 0.0,
        steps=info.get("step", len(traj)),
        budget=info.get("budget", 0),
        terminated=terminated,
        truncated=truncated,
        answer=info.get("answer"),
        wall_s=time.perf_counter() - t0,
        error=err,
        trajectory=traj,
        info={k: v for k, v in info.items() if k in ("traps",)},
    )


def _differs(sent: Any, executed: Any) -> bool:
    """Whether what reached the phone differs from what the agent sent."""
    if isinstance(sent, str):
        try:
            import json

            sent = json.loads(sent)
        except ValueError:
            return True
    if not isinstance(sent, dict) or not isinstance(executed, dict):
        return sent != executed
    from antrap_gym.env.actions import Action, ActionError

    try:
        return Action.parse(sent).to_dict() != executed
    except ActionError:
        return True
