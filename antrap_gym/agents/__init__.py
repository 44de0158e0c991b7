"""Agents: the oracle (privileged, closed-loop), random, and model-backed ones."""

from antrap_gym.agents.base import Agent
from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.agents.random_agent import RandomAgent
from antrap_gym.agents.replay import ReplayAgent

AGENTS = {"oracle": OracleAgent, "random": RandomAgent, "replay": ReplayAgent}


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name, or `module:Class` for your own."""
    if name in AGENTS:
        return AGENTS[name](**kwargs)
    if ":" in name:
        import importlib

        mod, _, cls = name.partition(":")
        return getattr(importlib.import_module(mod), cls)(**kwargs)
    raise KeyError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))} or module:Class")


__all__ = ["AGENTS", "Agent", "OracleAgent", "RandomAgent", "ReplayAgent", "make_agent"]
