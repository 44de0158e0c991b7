"""Chrome: a browser whose tabs run pages with the simulated phone's web engine."""

from antrap_gym.device.sim.apps.chrome.app import Chrome

APP = Chrome

__all__ = ["APP", "Chrome"]
