"""antrap-gym: Android GUI agents under runtime anomalies.

`import antrap_gym` registers the `antrap/...` environments with Gymnasium.
"""

from antrap_gym.registration import register_envs

__version__ = "0.1.0"

register_envs()

__all__ = ["__version__"]
