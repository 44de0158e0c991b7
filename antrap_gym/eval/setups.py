"""What makes two runs' episodes comparable: the parts of a run's `config.json` that
define its episode set and the conditions they ran under (suite, variants, runs, the
trap settings with their parameters, observation mode, kind of device, grading), and how two
runs differ in them. `antrap report` merges only runs that agree (or says it mixed them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CONFIG_FILE = "config.json"  # written by `antrap eval` into every run
REPORT_FILE = "report.json"  # written by `antrap report`: its "setup" is the sources' common one
NOT_RECORDED = "(not recorded)"


def setup_of_config(config: dict[str, Any]) -> dict[str, Any]:
    """The setup fields of a run's `config.json` (an `EvalConfig` as JSON). The number of
    variants is resolved to the suite's own when the run left it to the suite."""
    variants = config.get("variants")
    if variants is None and config.get("suite"):
        from antrap_gym.tasks import get_suite

        try:
            variants = get_suite(str(config["suite"])).variants
        except KeyError:  # a suite this version does not know: compare what was written
            variants = None
    devices = config.get("devices") or ["sim"]
    return {
        "suite": config.get("suite"),
        "variants": variants,
        "runs": config.get("runs"),
        "settings": config.get("settings"),
        "trap retries": config.get("trap_retries"),
        "observation mode": config.get("obs_mode"),
        "device kind": sorted({str(d).split(":", 1)[0] for d in devices}),
        # runs from before --grading were graded by our checks
        "grading": config.get("grading") or "ours",
    }


def run_setup(run: Path) -> dict[str, Any] | None:
    """The setup of run directory `run`: from its `config.json` (a run of `antrap eval`)
    or its `report.json` (a report whose sources agreed); None when neither records one
    (not an eval run, or a report that mixed setups)."""
    config = run / CONFIG_FILE
    if config.is_file():
        return setup_of_config(json.loads(config.read_text(encoding="utf-8")))
    report = run / REPORT_FILE
    if report.is_file():
        setup = json.loads(report.read_text(encoding="utf-8")).get("setup")
        return setup if isinstance(setup, dict) else None
    return None


def _show(value: Any) -> str:
    if value is None:
        return NOT_RECORDED
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value) or "(none)"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _settings(value: Any) -> dict[str, Any]:
    """Settings by name (a list of {"name", "traps"} as config.json writes them)."""
    if not isinstance(value, list):
        return {}
    return {str(s.get("name")): s.get("traps") for s in value if isinstance(s, dict)}


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(field, value in a, value in b) for every setup field where `a` and `b` differ;
    trap settings are compared by name, then each common one by its traps' parameters."""
    out = []
    for key in dict.fromkeys([*a, *b]):
        va, vb = a.get(key), b.get(key)
        if key == "settings":
            sa, sb = _settings(va), _settings(vb)
            if list(sa) != list(sb):
                out.append(("settings", _show(list(sa)), _show(list(sb))))
            out += [(f"setting {name}", _show(sa[name]), _show(sb[name]))
                    for name in sa if name in sb and sa[name] != sb[name]]
        elif va != vb:
            out.append((key, _show(va), _show(vb)))
    return out


__all__ = ["CONFIG_FILE", "REPORT_FILE", "differences", "run_setup", "setup_of_config"]
