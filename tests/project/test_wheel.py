"""The built wheel works on its own: installed into a fresh venv, run from a project
that has `tasks/` and `training/` folders of its own (common in ML repositories), the
CLI finds its templates, its trap and training presets (package data, not the source
tree) and its trainer — and the user's folders stay theirs."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.slow


def _run(cmd: list[str], cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel built from this checkout and its train extra."""
    tmp = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(ROOT)], tmp)
    (wheel,) = (tmp / "dist").glob("antrap_gym-*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=True)
    # --no-compile: byte-compiling torch's thousands of modules is a minute of CPU taken from
    # the suite running beside this test; Python compiles what it imports when it imports it
    pip = [str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile"]
    _run([*pip, os.environ.get("TORCH_SPEC", "torch==2.13.0")], tmp)  # the CPU build, first
    _run([*pip, f"{wheel}[train]"], tmp)
    return env_dir


@pytest.fixture()
def user_project(tmp_path) -> Path:
    """A project with its own `tasks` and `training` packages, which say when imported."""
    for name in ("tasks", "training"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"WHOSE = 'the user project {name}'\n")
    return tmp_path


def test_the_wheel_carries_the_namespaced_packages_and_the_presets(installed):
    py = str(installed / "bin" / "python")
    res = _run([py, "-c", "import antrap_gym, antrap_gym.tasks, antrap_gym.training, sys;"
                "import antrap_gym.configs as c;"
                "print(antrap_gym.__file__); print(len(antrap_gym.tasks.TEMPLATES));"
                "print(sorted(p.name for p in c.config_dir('traps').iterdir())[:1]);"
                "print(sorted(p.name for p in c.config_dir('train').iterdir())[-1]);"
                "print('torch' in sys.modules);"
                "from antrap_gym.tasks.browser_pages import PAGES, page_html;"
                "print(sum('Success!' in page_html(p, 7) for p in PAGES))"], installed)
    where, n, traps, train, torch_loaded, pages = res.stdout.split("\n")[:6]
    assert where.startswith(str(installed)) and "site-packages" in where  # the wheel, not the checkout
    assert int(n) >= 35 and traps == "['antrap.yaml']" and train == "visual_obscuration.yaml"
    assert torch_loaded == "False"  # import antrap_gym loads no torch
    assert pages == "43"  # the browser task pages (package data) are in the wheel
    top = _run([py, "-c", "import importlib.util as u; print([m for m in ('tasks', 'training', 'configs') "
                "if u.find_spec(m)])"], installed)
    assert top.stdout.strip() == "[]"  # no generic top-level names installed


def test_eval_and_training_run_from_a_project_with_its_own_tasks_and_training(installed, user_project):
    bin_ = installed / "bin"
    out = _run([str(bin_ / "antrap"), "eval", "--suite", "antrap-mini", "--traps", "antrap",
                "--agent", "oracle", "--out", "runs/eval"], user_project)
    assert "AnTrap" in out.stdout and (user_project / "runs/eval/summary.json").is_file()
    # the viewer's style and scripts are package data, inlined into its page
    page = (user_project / "runs/eval/viewer/index.html").read_text(encoding="utf-8")
    assert "var antrapEpisode" in page and ".episode" in page
    _run([str(bin_ / "antrap"), "train", "sft", "--config", "smoke_cpu", "--out", "runs/sft",
          "--set", "sft.max_steps=2", "--set", "eval_after.enabled=false"], user_project)
    assert (user_project / "runs/sft/final/model.safetensors").is_file()
    # and the project's own packages are still its own
    mine = _run([str(bin_ / "python"), "-c",
                 "import tasks, training; print(tasks.WHOSE, '|', training.WHOSE)"], user_project)
    assert mine.stdout.strip() == "the user project tasks | the user project training"
