"""Building trap stacks from ids, dicts or YAML, and evaluation protocols.

A *stack* is what one environment runs with: a list of trap specs, each a
type plus schedule settings and trap parameters:

    traps: [external_interruption, {type: loop, p: 0.3, interval: 3}]
    defaults: {p: 0.16, window: 0.8, budget_factor: 1.15}   # applied to every trap

Besides its schedule settings (`TriggerSchedule`'s fields) and its own
parameters, every trap takes `budget_factor` (the reference's x1.15).

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

from antrap_gym.configs import config_dir
from antrap_gym.traps.base import BUDGET_FACTOR, check_budget_factor
from antrap_gym.traps.registry import TRAP_CLASSES
from antrap_gym.traps.schedule import TriggerSchedule
from antrap_gym.traps.taxonomy import LAYER_OF, LAYERS, expand

SCHEDULE_KEYS = {f for f in TriggerSchedule.__dataclass_fields__ if f != "extra"}
#: settings every trap takes besides its schedule and its own parameters
COMMON_KEYS = {"budget_factor"}
CONFIG_DIR = config_dir("traps")


@dataclass(frozen=True)
class TrapSpec:
    type: str
    schedule: dict[str, Any]
    params: dict[str, Any]
    budget_factor: float | None = None  # None: the stack's (x1.15 unless told)

    def build(self, env: gym.Env, *, budget_factor: float | None = None, **kw: Any) -> gym.Env:
        """The wrapper; `budget_factor`, when given, overrides the spec's own."""
        cls = TRAP_CLASSES[self.type]
        factor = budget_factor if budget_factor is not None else (
            self.budget_factor if self.budget_factor is not None else BUDGET_FACTOR)
        return cls(env, self.schedule or None, budget_factor=factor, **kw, **self.params)

    def to_dict(self) -> dict[str, Any]:
        d = {"type": self.type, **self.schedule, **self.params}
        if self.budget_factor is not None:
            d["budget_factor"] = self.budget_factor
        return d


def config_path(name: str) -> Path | None:
    """A YAML file, or a bare config name under configs/traps/ (e.g. `layer_state`)."""
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or "/" in name:
        return p
    if (CONFIG_DIR / f"{name}.yaml").exists():
        return CONFIG_DIR / f"{name}.yaml"
    return None


def _is_selection(name: str) -> bool:
    """Whether a string names traps (a type, a layer, `all`, or a comma list of these)."""
    keys = [n.strip().lower().replace("-", "_") for n in name.split(",") if n.strip()]
    return bool(keys) and all(k == "all" or k in LAYERS or k in LAYER_OF for k in keys)


def load_yaml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.exists() and not p.suffix and (CONFIG_DIR / f"{p}.yaml").exists():
        p = CONFIG_DIR / f"{p}.yaml"
    if not p.exists():
        raise FileNotFoundError(f"no trap config {str(path)!r} (bare names are looked up "
                                f"in {CONFIG_DIR})")
    with p.open() as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{p}: a trap config is a mapping")
    return data


def parse_stack(traps: Any, defaults: dict[str, Any] | None = None) -> list[TrapSpec]:
    """Trap specs from: None, 'type' / 'layer' / 'all' / comma lists, a YAML path
    or a bare config name (`layer_state` = configs/traps/layer_state.yaml), a list
    of names and dicts, or a mapping with `traps:` (and `defaults:`).

    A trap's own settings win over defaults; the `defaults` argument wins over a
    config's `defaults:` (callers use it for overrides)."""
    if traps is None or traps == [] or traps == "clean" or traps == "none":
        return []
    if isinstance(traps, str) and not _is_selection(traps):
        path = config_path(traps)
        if path is None:
            expand(traps)  # raises: names neither traps nor a config
        traps = load_yaml(path)
    if isinstance(traps, dict):
        if "settings" in traps and "traps" not in traps:
            raise ValueError("this config is an evaluation protocol (settings:), not a trap stack")
        unknown = set(traps) - {"name", "description", "defaults", "traps"}
        if unknown:
            raise ValueError(f"a trap stack config has no key {sorted(unknown)}: it takes "
                             "traps, defaults, name, description")
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
    unknown = set(item) - SCHEDULE_KEYS - COMMON_KEYS - known
    if unknown:
        raise ValueError(f"{trap_type} has no setting {sorted(unknown)}; schedule settings: "
                         f"{sorted(SCHEDULE_KEYS)}; common: {sorted(COMMON_KEYS)}; "
                         f"trap settings: {sorted(known)}")
    fits = SCHEDULE_KEYS | COMMON_KEYS | known
    merged = {**{k: v for k, v in defaults.items() if k in fits}, **item}
    schedule = {k: (tuple(v) if isinstance(v, list) else v) for k, v in merged.items()
                if k in SCHEDULE_KEYS}
    TriggerSchedule(**schedule)  # a bad setting is an error here, not at build time
    params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in merged.items() if k in known}
    factor = merged.get("budget_factor")
    return TrapSpec(trap_type, schedule, params,
                    None if factor is None else check_budget_factor(factor))


def wrap(env: gym.Env, traps: Any, *, verify_solvable: bool = False,
         budget_factor: float | None = None, recovery: str = "oracle") -> gym.Env:
    """Wrap `env` with every trap of the stack (first listed = innermost).

    `budget_factor`, when given, is every trap's; otherwise each trap's own
    setting (from its config), else x1.15. `recovery` is how each trap judges the
    agent back on track (`TrapWrapper`): 'off' where no one reads the events'
    recovery (collecting training data), which spares an oracle search per event."""
    for spec in parse_stack(traps):
        env = spec.build(env, verify_solvable=verify_solvable, budget_factor=budget_factor,
                         recovery=recovery)
    return env


@dataclass(frozen=True)
class Setting:
    name: str
    traps: tuple[TrapSpec, ...]


def parse_protocol(protocol: Any) -> list[Setting]:
    """Evaluation settings from a YAML path, a bare config name or a mapping with
    `settings:`; from a trap *stack* config (clean, then that stack as one
    setting); or from a trap selection ('all', a layer, 'a,b'): clean plus each
    type in turn."""
    name = None
    if isinstance(protocol, str) and protocol.strip().lower() in ("none", "clean"):
        return [Setting("clean", ())]
    if isinstance(protocol, str) and not _is_selection(protocol):
        path = config_path(protocol)
        if path is None:
            expand(protocol)  # raises: names neither traps nor a config
        name = path.stem
        protocol = load_yaml(path)
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
    if isinstance(protocol, dict):
        stack = tuple(parse_stack(protocol))
        return [Setting("clean", ()), Setting(str(protocol.get("name") or name or "stack"), stack)]
    names = expand(protocol) if protocol not in (None, "none", "clean") else []
    return [Setting("clean", ())] + [Setting(t, tuple(parse_stack(t))) for t in names]
