"""Agents: the oracle (privileged, closed-loop), random, and model-backed ones."""

import importlib
from collections.abc import Callable

from antrap_gym.agents.base import Agent
from antrap_gym.agents.openai_agent import OpenAIAgent
from antrap_gym.agents.oracle import OracleAgent
from antrap_gym.agents.random_agent import RandomAgent
from antrap_gym.agents.replay import ReplayAgent
from antrap_gym.agents.transformers_agent import TransformersAgent  # imports torch only when built

AGENTS = {"oracle": OracleAgent, "random": RandomAgent, "replay": ReplayAgent,
          "openai": OpenAIAgent, "transformers": TransformersAgent}


def agent_class(name: str) -> Callable[..., Agent]:
    """What builds agent `name`: a registered class, or `Class` of `module` for
    `module:Class` (imported now). KeyError for an unknown name or a module without
    that class; the import's own error for a module that cannot be imported."""
    if name in AGENTS:
        return AGENTS[name]
    if ":" in name:
        mod, _, attr = name.partition(":")
        module = importlib.import_module(mod)
        try:
            return getattr(module, attr)
        except AttributeError:
            raise KeyError(f"module {mod!r} has no {attr!r}") from None
    raise KeyError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))} or module:Class")


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name, or `module:Class` for your own."""
    return agent_class(name)(**kwargs)


__all__ = ["AGENTS", "Agent", "OpenAIAgent", "OracleAgent", "RandomAgent", "ReplayAgent", "TransformersAgent",
           "agent_class", "make_agent"]
