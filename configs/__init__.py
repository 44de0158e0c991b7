"""The preset configs that ship with the package (`antrap_gym.configs`): `traps/*.yaml`
(trap protocols: `antrap eval --traps antrap`) and `train/*.yaml` (training runs:
`antrap train grpo --config external_interruption`) and `accelerate/*.yaml` (launcher
configs: `accelerate launch --config_file ...`), found through importlib.resources
wherever the package is installed — a source checkout or a wheel."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def config_dir(kind: str) -> Path:
    """The folder of one kind of preset: `traps`, `train` or `accelerate`."""
    if kind not in ("traps", "train", "accelerate"):
        raise ValueError(f"no preset configs of kind {kind!r}: traps, train or accelerate")
    return Path(str(files(__name__) / kind))
