"""Quickstart: one task on the simulated phone, solved by the oracle, step by step.

    python examples/quickstart.py [TASK_ID]
"""

from __future__ import annotations

import sys

import gymnasium as gym

import antrap_gym  # noqa: F401  (registers antrap/...)
from antrap_gym.agents import OracleAgent


def main(task_id: str = "ContactsAddContact") -> None:
    env = gym.make("antrap/AndroidSim-v0")
    agent = OracleAgent()
    obs, info = env.reset(seed=7, options={"task": task_id})
    agent.reset(env, obs, info)
    print("Goal:", obs["goal"])
    while True:
        action = agent.act(obs, info)
        obs, reward, terminated, truncated, info = env.step(action)
        print(f"step {info['step']:2d}: {action}")
        if terminated or truncated:
            break
    print("success:", info["success"])
    env.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
