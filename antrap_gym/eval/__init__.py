"""The evaluation harness: agents x suite x {clean, each trap} x runs, resumable,
in parallel (processes or Ray), summarised as AnTrap's table with plots and a
trajectory viewer."""

from antrap_gym.eval.metrics import summarize
from antrap_gym.eval.report import report
from antrap_gym.eval.runner import ResultsExist, evaluate
from antrap_gym.eval.spec import AgentSpec, EpisodeSpec, EvalConfig
from antrap_gym.eval.store import load_records

__all__ = ["AgentSpec", "EpisodeSpec", "EvalConfig", "ResultsExist", "evaluate", "load_records",
           "report", "summarize"]
