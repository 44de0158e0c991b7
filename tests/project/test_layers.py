"""The layers of DESIGN.md, checked on the code's own imports (ast, no execution):
data flows down, nothing calls up."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

#: repository folder -> the package name it installs as
INSTALLED_AS = {"antrap_gym": "antrap_gym", "tasks": "antrap_gym.tasks", "training": "antrap_gym.training",
                "configs": "antrap_gym.configs"}
SOURCES = [p for folder in (*INSTALLED_AS, "tests", "examples", "benchmarks", "docs")
           for p in sorted((ROOT / folder).rglob("*.py"))]


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, relative ones resolved."""
    tree = ast.parse(path.read_text(), str(path))
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[0] in INSTALLED_AS:
        parts = INSTALLED_AS[parts[0]].split(".") + parts[1:]
    package = parts[:-1]  # a module's package; an __init__'s is its own folder
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, node.module] if node.module else parent)
            else:
                base = node.module or ""
            # `from pkg import sub` may import the module pkg.sub: both are recorded
            out += [(node.lineno, base)] + [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return out


def test_nothing_imports_the_generic_top_level_names():
    """`tasks`, `training` and `configs` install under antrap_gym: an import of the bare
    name would load a second copy from a source checkout (two template registries), or a
    user's own folder of that name."""
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in SOURCES for line, mod in imports(p)
           if mod.split(".")[0] in ("tasks", "training", "configs")]
    assert not bad, "\n".join(bad)


def test_import_antrap_gym_loads_no_torch():
    code = ("import sys, antrap_gym, antrap_gym.tasks, antrap_gym.traps, antrap_gym.eval;"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"



def test_the_model_format_and_the_eval_report_import_no_circle():
    """`parsers` and the policy format (`policy` and the modules it is made of) share what a
    reply is made of through `agents.coords`; the report and the runner share the plots
    and viewer through `eval.artifacts`."""
    def imported(rel: str) -> set[str]:
        return {mod for _, mod in imports(ROOT / rel)}

    policy_format = {f"antrap_gym.agents.{m}" for m in ("policy", "completions", "prompts", "policy_config",
                                                         "images")}
    assert not policy_format & imported("antrap_gym/agents/parsers.py")
    assert "antrap_gym.agents.parsers" in imported("antrap_gym/agents/completions.py")
    assert "antrap_gym.agents.completions" in imported("antrap_gym/agents/policy.py")
    assert "antrap_gym.eval.runner" not in imported("antrap_gym/eval/report.py")
    assert "antrap_gym.eval.report" in imported("antrap_gym/eval/runner.py")


#: DESIGN.md's layers, bottom first: a module may import its own layer and those below
LAYER_ORDER = ("antrap_gym.console", "antrap_gym.device", "antrap_gym.configs", "antrap_gym.tasks",
               "antrap_gym.env", "antrap_gym.traps", "antrap_gym.registration", "antrap_gym.agents",
               "antrap_gym.rollout", "antrap_gym.eval", "antrap_gym.bench", "antrap_gym.training",
               "antrap_gym.cli")


def _layer(module: str) -> int | None:
    found = None
    for i, name in enumerate(LAYER_ORDER):
        if module == name or module.startswith(name + "."):
            found = i
    return found


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts = INSTALLED_AS[parts[0]].split(".") + parts[1:]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_layer_imports_one_above_it():
    """Data flows down, nothing calls up: traps never import agents (the solver they need
    lives with the tasks), the env never imports traps, ... (lazy imports count too)."""
    up = []
    for p in SOURCES:
        if p.relative_to(ROOT).parts[0] not in INSTALLED_AS:
            continue
        me = _module_name(p)
        mine = _layer(me)
        if mine is None:
            continue
        for line, mod in imports(p):
            theirs = _layer(mod)
            if theirs is not None and theirs > mine:
                up.append(f"{p.relative_to(ROOT)}:{line}: {me} imports {mod}")
    assert not up, "\n".join(up)


def test_traps_reach_the_phone_only_through_the_device_protocol():
    """No trap imports the simulated phone's internals (window manager, painter, views):
    overlays and repainting are capabilities of the Device protocol."""
    inside = [f"{p.relative_to(ROOT)}:{line} imports {mod}"
              for p in sorted((ROOT / "antrap_gym" / "traps").rglob("*.py"))
              for line, mod in imports(p) if mod.startswith("antrap_gym.device.sim")]
    assert not inside, "\n".join(inside)
