"""The simulated Android phone: toolkit, window manager, storage, shell, apps."""

from antrap_gym.device.sim.device import SimDevice
from antrap_gym.device.sim.phone import Phone

__all__ = ["Phone", "SimDevice"]
