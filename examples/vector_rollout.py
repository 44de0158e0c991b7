"""Many phones at once: an async vector env driven by random agents.

    python examples/vector_rollout.py
"""

from __future__ import annotations

import time

import gymnasium as gym

import antrap_gym  # noqa: F401
from antrap_gym.agents import RandomAgent


def main(num_envs: int = 4, steps: int = 200) -> None:
    venv = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=num_envs,
                        vectorization_mode="async")
    agents = [RandomAgent() for _ in range(num_envs)]
    obs, infos = venv.reset(seed=0)
    for i, a in enumerate(agents):
        a.reset(venv, {}, {}, seed=i)
    t = time.perf_counter()
    finished = 0
    for _ in range(steps):
        per_env = [{k: obs[k][i] for k in obs} for i in range(num_envs)]
        actions = [a.act(o, {}) for a, o in zip(agents, per_env)]
        obs, rewards, terms, truncs, infos = venv.step(actions)
        finished += int(sum(terms) + sum(truncs))
    dt = time.perf_counter() - t
    print(f"{steps * num_envs} steps in {dt:.2f}s ({steps * num_envs / dt:,.0f} steps/s), "
          f"{finished} episodes finished")
    venv.close()


if __name__ == "__main__":
    main()
