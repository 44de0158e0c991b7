"""The ten STAR traps as composable Gymnasium wrappers.

    env = antrap_gym.traps.wrap(AndroidEnv(), ["external_interruption", "loop"])
    env = gym.make("antrap/AndroidSim-v0", traps=["grounding_error"])
    env = gym.make("antrap/AndroidSim-ExternalInterruption-v0")
"""

from antrap_gym.traps import action, interruption, obscuration, round, thinking  # noqa: F401
from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.config import Setting, TrapSpec, parse_protocol, parse_stack, wrap
from antrap_gym.traps.registry import TRAP_CLASSES
from antrap_gym.traps.schedule import Firing, TriggerSchedule
from antrap_gym.traps.taxonomy import LAYER_OF, LAYERS, TRAP_TYPES, camel, expand

__all__ = [
    "LAYERS",
    "LAYER_OF",
    "TRAP_CLASSES",
    "TRAP_TYPES",
    "Firing",
    "Setting",
    "TrapSpec",
    "TrapWrapper",
    "TriggerSchedule",
    "camel",
    "expand",
    "parse_protocol",
    "parse_stack",
    "wrap",
]
