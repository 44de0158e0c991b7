"""The simulated phone in layers: nothing below the phone imports it, and what runs on
the phone (apps, toolkit, IME, intents, system UI, window manager, input, painter) uses only what
`context.PhoneContext` offers (the painter: `PaintedPhone`; the window manager: `WindowHost`;
input dispatch: `InputHost`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import antrap_gym.device.sim as sim_pkg
from antrap_gym.device.sim.context import PhoneContext, Screen
from antrap_gym.device.sim.input_dispatch import InputHost
from antrap_gym.device.sim.phone import Phone
from antrap_gym.device.sim.render.painter import PaintedPhone
from antrap_gym.device.sim.wm import WindowHost

SIM = Path(sim_pkg.__file__).parent
PACKAGE = "antrap_gym.device.sim"
#: the modules that may know the concrete phone: the phone itself, what drives it, and
#: the package's face
ABOVE_PHONE = {"phone", "device", "uixml", "shell", ""}


def _top(module: str) -> str:
    """The first name under the package (`apps`, `phone`, ...; "" for the package)."""
    return module.removeprefix(PACKAGE).lstrip(".").split(".")[0]


def _module(path: Path) -> str:
    rel = path.relative_to(SIM).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join((PACKAGE, *parts)) if parts else PACKAGE


def _modules() -> dict[str, Path]:
    return {_module(p): p for p in SIM.rglob("*.py")}


def _imports(path: Path, mods: dict[str, Path]) -> set[str]:
    """Every module of the package `path` imports, at the top, inside a function or
    for type checking alike."""
    me = _module(path)
    pkg = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                name = f"{base}.{alias.name}"
                hit = name if name in mods else base if base in mods else None
                if hit and hit != me:
                    out.add(hit)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods and a.name != me}
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_simulated_phone_has_no_import_circle():
    mods = _modules()
    graph = {m: _imports(p, mods) for m, p in mods.items()}
    assert _cycles(graph) == []


def test_only_the_phone_and_what_drives_it_import_the_phone():
    mods = _modules()
    phone = f"{PACKAGE}.phone"
    importers = {_top(m) for m, p in mods.items() if phone in _imports(p, mods)}
    assert importers <= ABOVE_PHONE, importers - ABOVE_PHONE


def _members(proto: type) -> set[str]:
    names: set[str] = set()
    for cls in proto.__mro__:
        if cls is object or cls.__name__ in ("Protocol", "Generic"):
            continue
        names |= set(getattr(cls, "__annotations__", {}))
        names |= {k for k in vars(cls) if not k.startswith("_")}
    return names


#: the phone as the layers below it are typed: what apps and the toolkit get, and the
#: painter's, the window manager's and input dispatch's extensions of it
CONTEXTS: dict[str, type] = {"PhoneContext": PhoneContext, "PaintedPhone": PaintedPhone,
                             "WindowHost": WindowHost, "InputHost": InputHost}


def _uses(path: Path) -> list[tuple[str, str, int]]:
    """(context, member, line) of every attribute read off a parameter typed as one of
    the phone's contexts, or off a `.phone` attribute (the toolkit's `ui.phone`, a
    screen's `self.phone`: typed `PhoneContext`)."""
    out = []
    tree = ast.parse(path.read_text())
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
        typed = {a.arg: ast.unparse(a.annotation).strip("'\"") for a in args
                 if a.annotation is not None}
        names = {n: t for n, t in typed.items() if t in CONTEXTS}
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in names:
                out.append((names[node.value.id], node.attr, node.lineno))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "phone":
            out.append(("PhoneContext", node.attr, node.lineno))
    return out


BELOW = sorted(p for m, p in _modules().items() if _top(m) not in ABOVE_PHONE)


@pytest.mark.parametrize("path", BELOW, ids=lambda p: str(p.relative_to(SIM)))
def test_what_runs_on_the_phone_uses_only_its_context(path: Path):
    bad = sorted((ctx, m, line) for ctx, m, line in _uses(path)
                 if m not in _members(CONTEXTS[ctx]))
    assert bad == [], f"{path.name} uses members the phone's context does not offer: {bad}"


def test_the_contexts_are_read_where_the_phone_is_passed():
    """The check above can fail: it finds the members the apps and the window manager read."""
    apps = [p for p in BELOW if p.parent.name == "contacts"]
    assert {m for p in apps for _, m, _ in _uses(p)} >= {"start_activity", "finish_activity"}
    wm = SIM / "wm.py"
    assert ("WindowHost", "advance") in {(c, m) for c, m, _ in _uses(wm)}
    assert all(PhoneContext in c.__mro__ for c in CONTEXTS.values())


def test_the_phone_offers_all_its_context_and_activities_are_screens():
    from antrap_gym.device.sim.apps.base import Activity

    phone = Phone()
    assert all(hasattr(phone, m) for c in CONTEXTS.values() for m in _members(c))
    act = phone.wm.top_activity()
    assert isinstance(act, Activity)
    assert all(hasattr(act, m) for m in _members(Screen))
