"""The STAR taxonomy: four layers and ten trap types, as names (the wrappers that
implement them register in `traps/registry.py`)."""

from __future__ import annotations

LAYERS: dict[str, tuple[str, ...]] = {
    "state": ("external_interruption", "visual_obscuration"),
    "thinking": ("temporal_conflict", "visual_hallucination"),
    "action": ("grounding_error", "type_mismatch", "intent_deviation"),
    "round": ("state_deadlock", "context_disruption", "loop"),
}
TRAP_TYPES: tuple[str, ...] = tuple(t for types in LAYERS.values() for t in types)
LAYER_OF: dict[str, str] = {t: layer for layer, types in LAYERS.items() for t in types}

def camel(trap_type: str) -> str:
    """external_interruption -> ExternalInterruption (for environment ids)."""
    return "".join(part.capitalize() for part in trap_type.split("_"))


def expand(names: str | list[str] | tuple[str, ...]) -> list[str]:
    """Trap types named by type, layer, `all`, or comma lists of these."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    out: list[str] = []
    for name in names:
        key = name.strip().lower().replace("-", "_")
        if key == "all":
            picked: tuple[str, ...] = TRAP_TYPES
        elif key in LAYERS:
            picked = LAYERS[key]
        elif key in LAYER_OF:
            picked = (key,)
        else:
            raise KeyError(f"unknown trap or layer {name!r}; types: {', '.join(TRAP_TYPES)}; "
                           f"layers: {', '.join(LAYERS)}")
        out.extend(t for t in picked if t not in out)
    return out
