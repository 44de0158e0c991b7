"""Model families and the coordinates each speaks (no torch, no transformers).

GUI-Owl is built on Qwen2.5-VL (GUI-Owl-1.5 on Qwen3-VL), and the two answer in
different coordinates: Qwen2.5-VL in absolute pixels of the image it is shown
(smart-resized to multiples of patch 14 x merge 2 = 28), Qwen3-VL in relative
0-1000 on each axis (its images resized to multiples of 16 x 2 = 32). A policy
format that gets this wrong taps the wrong place on every step, so the agent
and the trainer take these settings from the model itself: its `config.json`
(`model_type`) and its image processor's `preprocessor_config.json`
(patch and merge sizes, min/max pixels).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antrap_gym.agents.coords import QWEN3_FACTOR, QWEN25_FACTOR


@dataclass(frozen=True)
class Family:
    """A VLM family's coordinate convention and image geometry."""

    name: str
    coords: str  # "absolute" (resized-image pixels) or "relative" (0-1000)
    patch_size: int
    merge_size: int

    @property
    def factor(self) -> int:
        """The side every resized image is a multiple of (`smart_resize`'s factor)."""
        return self.patch_size * self.merge_size


FAMILIES: dict[str, Family] = {
    "qwen2_5_vl": Family("qwen2_5_vl", "absolute", 14, 2),
    "qwen3_vl": Family("qwen3_vl", "relative", 16, 2),
}
assert FAMILIES["qwen2_5_vl"].factor == QWEN25_FACTOR and FAMILIES["qwen3_vl"].factor == QWEN3_FACTOR

#: `model_type` in a checkpoint's config.json -> its family (Qwen2-VL speaks as Qwen2.5-VL)
MODEL_TYPES = {"qwen2_vl": "qwen2_5_vl", "qwen2_5_vl": "qwen2_5_vl", "qwen3_vl": "qwen3_vl",
               "qwen3_vl_moe": "qwen3_vl"}


def family(name: str) -> Family:
    """The family called `name` (a family name or a `model_type`)."""
    key = MODEL_TYPES.get(name, name)
    if key not in FAMILIES:
        raise ValueError(f"unknown model family {name!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[key]


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def detect_family(model_dir: str | Path) -> Family | None:
    """The family of a local checkpoint, from its config.json (None: not a known VLM)."""
    model_type = _read_json(Path(model_dir).expanduser() / "config.json").get("model_type")
    key = MODEL_TYPES.get(str(model_type))
    return FAMILIES[key] if key else None


def processor_geometry(model_dir: str | Path) -> dict[str, int]:
    """`factor`, `min_pixels`, `max_pixels` of a checkpoint's image processor (those it saved).

    Reads `preprocessor_config.json` (or the `image_processor` entry of
    `processor_config.json`): `patch_size * merge_size`, and the pixel bounds as
    `size.shortest_edge/longest_edge` (transformers' layout) or `min_pixels/max_pixels`.
    """
    p = Path(model_dir).expanduser()
    cfg = _read_json(p / "preprocessor_config.json")
    if not cfg:
        cfg = _read_json(p / "processor_config.json").get("image_processor") or {}
    out: dict[str, int] = {}
    if isinstance(cfg.get("patch_size"), int) and isinstance(cfg.get("merge_size"), int):
        out["factor"] = cfg["patch_size"] * cfg["merge_size"]
    size = cfg.get("size") if isinstance(cfg.get("size"), dict) else {}
    lo = cfg.get("min_pixels") or size.get("shortest_edge") or size.get("min_pixels")
    hi = cfg.get("max_pixels") or size.get("longest_edge") or size.get("max_pixels")
    if isinstance(lo, int) and isinstance(hi, int) and 0 < lo <= hi:
        out.update(min_pixels=lo, max_pixels=hi)
    return out


def policy_geometry(fam: Family | str | None, model_dir: str | Path | None = None) -> dict[str, Any]:
    """The `PolicyConfig` fields a family fixes (`coords`, `factor`) and, given a
    checkpoint, the image bounds its processor uses (so the image the prompt
    declares is the very image the processor passes on). {} for no family."""
    if fam is None and model_dir is not None:
        fam = detect_family(model_dir)
    if fam is None:
        return {}
    f = family(fam) if isinstance(fam, str) else fam
    out: dict[str, Any] = {"coords": f.coords, "factor": f.factor}
    if model_dir is not None:
        out.update(processor_geometry(model_dir))
    return out


__all__ = ["FAMILIES", "MODEL_TYPES", "Family", "detect_family", "family", "policy_geometry",
           "processor_geometry"]
