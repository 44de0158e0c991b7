"""Agents: the oracle (privileged, closed-loop), random, and model-backed ones."""

from antrap_gym.agents.base import Agent
from antrap_gym.agents.openai_agent import OpenAIAgent
from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.agents.random_agent import RandomAgent
from antrap_gym.agents.replay import ReplayAgent
from antrap_gym.agents.transformers_agent import TransformersAgent  # imports torch only when built

AGENTS = {"oracle": OracleAgent, "random": RandomAgent, "replay": ReplayAgent,
          "openai": OpenAIAgent, "transformers": TransformersAgent}


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name, or `module:Class` for your own."""
    if name in AGENTS:
        return AGENTS[name](**kwargs)
    if ":" in name:
        import importlib

        mod, _, cls = name.partition(":")
        return getattr(importlib.import_module(mod), cls)(**kwargs)
    raise KeyError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))} or module:Class")


__all__ = ["AGENTS", "Agent", "OpenAIAgent", "OracleAgent", "RandomAgent", "ReplayAgent", "TransformersAgent",
           "make_agent"]
