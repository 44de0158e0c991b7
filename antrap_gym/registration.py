"""Environment ids under the `antrap/` namespace."""

from __future__ import annotations

from typing import Any

from gymnasium.envs.registration import register, registry

FACTORY = "antrap_gym.registration:make_env"
VECTOR_FACTORY = "antrap_gym.registration:make_phone_vec"


def make_env(traps: Any = None, verify_solvable: bool = False, budget_factor: float | None = None,
             recovery: str = "oracle", **env_kwargs: Any):
    """An AndroidEnv, wrapped in the trap stack `traps` (ids, layers, dicts or YAML).

    `budget_factor` (when given) is every trap's; otherwise each trap's own setting
    from its config, else x1.15. `recovery`: how the traps judge recovery ('oracle',
    'screen' or 'off'; see `antrap_gym.traps.base.TrapWrapper`)."""
    from antrap_gym.env.android_env import AndroidEnv

    env = AndroidEnv(**env_kwargs)
    if traps:
        from antrap_gym.traps import wrap

        env = wrap(env, traps, verify_solvable=verify_solvable, budget_factor=budget_factor,
                   recovery=recovery)
    return env


def make_phone_vec(num_envs: int = 1, *, workers: int | None = None, copy: bool = True,
                   timeout_s: float | None = None, max_episode_steps: int | None = None,
                   **env_kwargs: Any):
    """`num_envs` environments (`make_env(**env_kwargs)`) in `workers` processes, many phones
    to a process (`antrap_gym.env.vector.PhoneGroupVectorEnv`): the vector entry point of
    the simulated ids, `gym.make_vec(id, n, vectorization_mode="vector_entry_point",
    workers=2)`. `max_episode_steps` is refused: a task's budget is the episode's limit."""
    import functools

    from antrap_gym.env.vector import DEFAULT_TIMEOUT_S, PhoneGroupVectorEnv

    if max_episode_steps is not None:
        raise ValueError("max_episode_steps does not apply: each task's step budget ends its episodes")
    return PhoneGroupVectorEnv([functools.partial(make_env, **env_kwargs)] * num_envs, workers,
                               copy=copy, timeout_s=timeout_s or DEFAULT_TIMEOUT_S)


def register_envs() -> None:
    from antrap_gym.traps.taxonomy import LAYERS, TRAP_TYPES, camel

    specs: dict[str, dict[str, Any]] = {
        "antrap/AndroidSim-v0": {},
        "antrap/AndroidSim-Text-v0": {"obs_mode": "text"},
        "antrap/AndroidSim-Mini-v0": {"suite": "antrap-mini"},
    }
    for t in TRAP_TYPES:
        specs[f"antrap/AndroidSim-{camel(t)}-v0"] = {"traps": [t]}
        specs[f"antrap/AndroidSim-Text-{camel(t)}-v0"] = {"traps": [t], "obs_mode": "text"}
    for layer in LAYERS:
        specs[f"antrap/AndroidSim-{layer.capitalize()}Layer-v0"] = {"traps": [layer]}
    specs["antrap/AndroidSim-AllTraps-v0"] = {"traps": ["all"]}
    for env_id, kwargs in specs.items():
        if env_id not in registry:
            register(id=env_id, entry_point=FACTORY, kwargs=kwargs, disable_env_checker=True,
                     vector_entry_point=VECTOR_FACTORY)
    # a real phone or emulator over ADB: `device="adb:SERIAL"` picks one (default: the only
    # one attached); the portable tasks, any traps; not deterministic (real time, real apps)
    adb_specs: dict[str, dict[str, Any]] = {
        "antrap/AndroidAdb-v0": {"device": "adb:"},
        "antrap/AndroidAdb-Text-v0": {"device": "adb:", "obs_mode": "text"},
    }
    for env_id, kwargs in adb_specs.items():
        if env_id not in registry:
            register(id=env_id, entry_point=FACTORY, kwargs=kwargs, disable_env_checker=True,
                     nondeterministic=True)
