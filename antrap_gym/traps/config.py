"""Building trap stacks from ids, dicts or YAML, and evaluation protocols.

A *stack* is what one environment runs with: a list of trap specs, each a
type plus schedule settings and trap parameters:

    traps: [external_interruption, {type: loop, p: 0.3, interval: 3}]
    defaults: {p: 0.16, window: 0.8}         # applied to every trap

A *protocol* is what an evaluation runs: settings evaluated one at a time
(AnTrap's "one category per run"), each a name and a stack:

    settings: [clean, external_interruption, {name: round, traps: [round]}]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import yaml

from antrap_gym.traps.base import BUDGET_FACTOR
from antrap_gym.traps.schedule import TriggerSchedule
from antrap_gym.traps.taxonomy import TRAP_CLASSES, expand

SCHEDULE_KEYS = {f for f in TriggerSchedule.__dataclass_fields__ if f != "extra"}
CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "traps"


@dataclass(frozen=True)
class TrapSpec:
    type: str
    schedule: dict[str, Any]
    params: dict[str, Any]

    def build(self, env: gym.Env, **kw: Any) -> gym.Env:
        cls = TRAP_CLASSES[self.type]
        return cls(env, self.schedule or None, **kw, **self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.schedule, **self.params}


def load_yaml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.exists() and not p.suffix and (CONFIG_DIR / f"{p}.yaml").exists():
        p = CONFIG_DIR / f"{p}.yaml"
    with p.open() as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{p}: a trap config is a mapping")
    return data


def parse_stack(traps: Any, defaults: dict[str, Any] | None = None) -> list[TrapSpec]:
    """Trap specs from: None, 'type' / 'layer' / 'all' / comma lists, a YAML path,
    a list of names and dicts, or a mapping with `traps:` (and `defaults:`)."""
    if traps is None or traps == [] or traps == "clean" or traps == "none":
        return []
    if isinstance(traps, str) and (traps.endswith((".yaml", ".yml")) or "/" in traps):
        traps = load_yaml(traps)
    if isinstance(traps, dict):
        if "settings" in traps and "traps" not in traps:
            raise ValueError("this config is an evaluation protocol (settings:), not a trap stack")
        merged = {**(traps.get("defaults") or {}), **(defaults or {})}
        return parse_stack(traps.get("traps"), merged)
    if isinstance(traps, str):
        traps = [traps]
    specs: list[TrapSpec] = []
    for item in traps:
        if isinstance(item, str):
            for t in expand(item):
                specs.append(_spec(t, defaults or {}, {}))
        elif isinstance(item, dict):
            item = dict(item)
            name = item.pop("type", None) or item.pop("trap", None)
            if not isinstance(name, str):
                raise ValueError(f"a trap entry needs a 'type': {item}")
            for t in expand(name):
                specs.append(_spec(t, defaults or {}, item))
        else:
            raise TypeError(f"cannot read a trap from {item!r}")
    return specs


def _spec(trap_type: str, defaults: dict[str, Any], item: dict[str, Any]) -> TrapSpec:
    """Defaults apply where they fit the trap; an entry's own keys must all fit."""
    known = set(TRAP_CLASSES[trap_type].defaults)
    unknown = set(item) - SCHEDULE_KEYS - known
    if unknown:
        raise ValueError(f"{trap_type} has no setting {sorted(unknown)}; schedule settings: "
                         f"{sorted(SCHEDULE_KEYS)}; trap settings: {sorted(known)}")
    merged = {**{k: v for k, v in defaults.items() if k in SCHEDULE_KEYS or k in known}, **item}
    schedule = {k: v for k, v in merged.items() if k in SCHEDULE_KEYS}
    params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in merged.items() if k in known}
    return TrapSpec(trap_type, schedule, params)


def wrap(env: gym.Env, traps: Any, *, verify_solvable: bool = False,
         budget_factor: float = BUDGET_FACTOR) -> gym.Env:
    """Wrap `env` with every trap of the stack (first listed = innermost)."""
    for spec in parse_stack(traps):
        env = spec.build(env, verify_solvable=verify_solvable, budget_factor=budget_factor)
    return env


@dataclass(frozen=True)
class Setting:
    name: str
    traps: tuple[TrapSpec, ...]


def parse_protocol(protocol: Any) -> list[Setting]:
    """Evaluation settings from a YAML path or mapping with `settings:`, or from a
    trap selection ('all', a layer, 'a,b'): clean plus each type in turn."""
    if isinstance(protocol, str) and (protocol.endswith((".yaml", ".yml"))
                                      or ((CONFIG_DIR / f"{protocol}.yaml").exists()
                                      and protocol not in TRAP_CLASSES)):
        protocol = load_yaml(protocol)
    if isinstance(protocol, dict) and "settings" in protocol:
        defaults = protocol.get("defaults") or {}
        out = []
        for item in protocol["settings"]:
            if item in ("clean", "none"):
                out.append(Setting("clean", ()))
            elif isinstance(item, str):
                out.append(Setting(item, tuple(parse_stack(item, defaults))))
            else:
                name = item.get("name") or str(item.get("traps"))
                out.append(Setting(name, tuple(parse_stack(item.get("traps"), defaults))))
        return out
    names = expand(protocol) if protocol not in (None, "none", "clean") else []
    return [Setting("clean", ())] + [Setting(t, tuple(parse_stack(t))) for t in names]
