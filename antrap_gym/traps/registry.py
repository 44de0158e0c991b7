"""The wrapper class of each trap type, filled as the trap modules import."""

from __future__ import annotations

from antrap_gym.traps.base import TrapWrapper
from antrap_gym.traps.taxonomy import LAYER_OF

#: trap type -> wrapper class
TRAP_CLASSES: dict[str, type[TrapWrapper]] = {}


def register_trap(cls: type[TrapWrapper]) -> type[TrapWrapper]:
    """Class decorator: the wrapper that implements `cls.trap_type`, a STAR trap type."""
    if cls.trap_type not in LAYER_OF:
        raise ValueError(f"{cls.trap_type!r} is not a STAR trap type")
    TRAP_CLASSES[cls.trap_type] = cls
    return cls
