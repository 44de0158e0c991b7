"""The evaluation's figures, from a real small evaluation: valid PNGs of a sensible size,
that show the data (an agent that fails everything draws no success bars, a drop
shows as bars), with missing settings and NaNs handled, and matplotlib optional."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from antrap_gym.eval import AgentSpec, EvalConfig, evaluate, load_records, summarize
from antrap_gym.eval.metrics import to_json
from antrap_gym.eval.plots import PALETTE, write_plots

NAMES = ("success_by_trap.png", "drop_by_layer.png")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("eval")
    cfg = EvalConfig(agents=[AgentSpec.make("oracle"), AgentSpec.make("random")], suite="antrap-mini",
                     traps="all", screens="none")
    evaluate(cfg, out, workers=1, progress=False)
    return out


@pytest.fixture(scope="module")
def records(run_dir: Path) -> list[dict[str, Any]]:
    return load_records(run_dir)


def pixels(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        assert im.format == "PNG"
        return np.asarray(im.convert("RGB"), dtype=int)


def colour_count(img: np.ndarray, hex_colour: str, tol: int = 12) -> int:
    """Pixels within `tol` of a colour (the bars of one agent)."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return int((np.abs(img - rgb).max(axis=2) <= tol).sum())


def plots_of(records: list[dict[str, Any]], out: Path) -> dict[str, np.ndarray]:
    paths = write_plots(summarize(records), out)
    assert [p.name for p in paths] == list(NAMES)
    return {p.name: pixels(p) for p in paths}


def test_evaluate_writes_valid_pngs(run_dir: Path) -> None:
    for name in NAMES:
        path = run_dir / name
        assert path.is_file(), f"evaluate() did not write {name}"
        with Image.open(path) as im:
            im.verify()
        img = pixels(path)
        h, w, _ = img.shape
        assert 800 <= w <= 4000 and 500 <= h <= 3000, (name, w, h)
        assert img.std() > 20, f"{name} is nearly blank"
        assert w > h  # landscape figures


def test_plots_show_the_data(records: list[dict[str, Any]], tmp_path: Path) -> None:
    """The oracle (always succeeds) draws tall bars; an agent that fails everything draws
    none: the same figure differs, and the first agent's colour covers far more of it."""
    oracle = plots_of([r for r in records if r["agent"] == "oracle"], tmp_path / "oracle")
    random = plots_of([r for r in records if r["agent"] == "random"], tmp_path / "random")
    assert all(r["success"] == 0 for r in records if r["agent"] == "random")
    a, b = oracle["success_by_trap.png"], random["success_by_trap.png"]
    assert a.shape == b.shape and (a != b).any(axis=2).mean() > 0.05
    bars_oracle, bars_random = colour_count(a, PALETTE[0]), colour_count(b, PALETTE[0])
    assert bars_oracle > 20_000 and bars_oracle > 10 * bars_random, (bars_oracle, bars_random)


def test_drop_plot_shows_a_drop(records: list[dict[str, Any]], tmp_path: Path) -> None:
    """The oracle has no drop (no bars); the same episodes with the Round layer's trapped
    ones failed have a 100-point drop there, drawn as a bar."""
    oracle = [r for r in records if r["agent"] == "oracle"]
    hurt = [dict(r, success=0.0) if r["setting"] in ("state_deadlock", "context_disruption", "loop") else r
            for r in oracle]
    s = summarize(hurt)
    assert s["agents"]["oracle"]["layers"]["round"]["success_rate"] == 0.0
    flat = plots_of(oracle, tmp_path / "flat")["drop_by_layer.png"]
    dropped = plots_of(hurt, tmp_path / "dropped")["drop_by_layer.png"]
    bars_dropped, bars_flat = colour_count(dropped, PALETTE[0]), colour_count(flat, PALETTE[0])
    assert bars_dropped > 5_000 and bars_dropped > 5 * bars_flat, (bars_dropped, bars_flat)


def test_missing_settings_and_nans(records: list[dict[str, Any]], run_dir: Path, tmp_path: Path) -> None:
    """One agent without some traps (NaN rates, absent layers), another with only clean
    episodes, and the summary read back from JSON (nulls for the missing figures, as
    summary.json has them): still two valid figures."""
    some = [r for r in records if not (r["agent"] == "random" and r["setting"] in
                                       ("loop", "external_interruption", "temporal_conflict",
                                        "visual_hallucination"))]
    some += [dict(r, agent="clean-only") for r in records
             if r["agent"] == "oracle" and r["setting"] == "clean"]
    s = summarize(some)
    assert "thinking" not in s["agents"]["random"]["layers"]
    assert not s["agents"]["clean-only"]["traps"]
    strict = json.loads(to_json(s))
    assert strict["agents"]["clean-only"]["trap_average"] is None
    for name, summary in (("gaps", s), ("gaps-json", strict)):
        for p in write_plots(summary, tmp_path / name):
            img = pixels(p)
            assert img.shape[1] >= 800 and img.std() > 20
    stored = json.loads((run_dir / "summary.json").read_text())
    for p in write_plots(stored, tmp_path / "stored"):
        assert pixels(p).std() > 20


def test_no_traps_or_no_agents(records: list[dict[str, Any]], tmp_path: Path) -> None:
    """A clean-only run and an empty one still give (placeholder) figures."""
    for name, recs in (("clean", [r for r in records if r["setting"] == "clean"]), ("empty", [])):
        for p in write_plots(summarize(recs), tmp_path / name):
            img = pixels(p)
            assert img.shape[0] > 300 and img.std() > 1


def test_antrap_gym_imports_without_matplotlib(tmp_path: Path) -> None:
    """The package and the harness import without matplotlib; only the plots module needs it."""
    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "import antrap_gym, antrap_gym.eval, antrap_gym.eval.runner, antrap_gym.eval.viewer\n"
        "try:\n"
        "    import antrap_gym.eval.plots\n"
        "except ImportError:\n"
        "    print('plots-need-matplotlib')\n"
        "print('ok', 'matplotlib' in sys.modules and sys.modules['matplotlib'] is not None)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["plots-need-matplotlib", "ok", "False"]
