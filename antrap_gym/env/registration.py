"""Environment ids under the `antrap/` namespace."""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

ENTRY = "antrap_gym.env.android_env:AndroidEnv"


def register_envs() -> None:
    specs = {
        "antrap/AndroidSim-v0": {},
        "antrap/AndroidSim-Text-v0": {"obs_mode": "text"},
        "antrap/AndroidSim-Mini-v0": {"suite": "antrap-mini"},
    }
    for env_id, kwargs in specs.items():
        if env_id not in registry:
            register(id=env_id, entry_point=ENTRY, kwargs=kwargs, disable_env_checker=True)
