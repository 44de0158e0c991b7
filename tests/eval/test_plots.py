"""The evaluation's figures, from a real small evaluation: valid PNGs of a sensible size,
that show the data (an agent that fails everything draws no success bars, a drop
shows as bars), with missing settings and NaNs handled, and matplotlib optional."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from antrap_gym.eval import AgentSpec, EvalConfig, evaluate, load_records, summarize
from antrap_gym.eval.metrics import column_order, to_json
from antrap_gym.eval.plots import PALETTE, write_plots
from tests.paths import ROOT

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
                         cwd=ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["plots-need-matplotlib", "ok", "False"]


# ------------------------------------------------------------------------------------------------
# error bars: each interval's own bounds

def newcombe_ref(p1: float, ci1: list[float], p2: float, ci2: list[float]) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p1 - p2 (his method 10), clipped to [-1, 1]."""
    d = p1 - p2
    return (max(-1.0, d - math.sqrt((p1 - ci1[0]) ** 2 + (ci2[1] - p2) ** 2)),
            min(1.0, d + math.sqrt((ci1[1] - p1) ** 2 + (p2 - ci2[0]) ** 2)))


def drawn_bars(fig) -> list[tuple[float, float, float]]:
    """(x, low end, high end) of every error bar drawn in the figure, left to right: the
    vertical segments of its error-bar containers, as matplotlib holds them."""
    from matplotlib.container import ErrorbarContainer

    out = []
    for c in fig.axes[0].containers:
        if isinstance(c, ErrorbarContainer):
            for cols in c.lines[2]:
                for seg in cols.get_segments():
                    (x0, y0), (x1, y1) = seg
                    assert x0 == x1  # vertical
                    out.append((float(x0), min(float(y0), float(y1)), max(float(y0), float(y1))))
    return sorted(out)


def captured_figures(summary: dict[str, Any], out: Path, monkeypatch) -> dict[str, Any]:
    """The figures write_plots draws, as it saves them."""
    from matplotlib.figure import Figure

    figs: dict[str, Any] = {}
    save = Figure.savefig

    def keep(self, path, *args, **kw):
        figs[Path(path).name] = self
        return save(self, path, *args, **kw)

    monkeypatch.setattr(Figure, "savefig", keep)
    write_plots(summary, out)
    return figs


def test_error_bars_are_the_summary_intervals(records: list[dict[str, Any]], tmp_path: Path,
                                              monkeypatch) -> None:
    """Both figures draw each error bar from its interval's own bounds, which are asymmetric
    (Wilson, Newcombe): read back from the figure, every bar spans exactly the summary's
    interval -- the trap rates' `ci95`, the overall drop's `drop_ci95`, and each layer's drop
    interval (Newcombe's, from the clean and layer intervals) -- never ± a half-width."""
    mixed = [dict(r, agent="mixed", success=float(i % 3 != 0))
             for i, r in enumerate(r for r in records if r["agent"] == "oracle")]
    summary = json.loads(to_json(summarize(records + mixed)))  # as summary.json has it
    agents = list(summary["agents"])
    assert agents == ["oracle", "random", "mixed"]
    figs = captured_figures(summary, tmp_path, monkeypatch)
    # drop_by_layer: per group (layers in order, then all traps), per agent
    layers = [lay for lay in ("state", "thinking", "action", "round")
              if any(lay in a["layers"] for a in summary["agents"].values())]
    want = []
    for g in [*layers, "overall"]:
        for name in agents:
            a = summary["agents"][name]
            if g == "overall":
                lo, hi = a["drop_ci95"]
            else:
                lo, hi = newcombe_ref(a["clean"]["success_rate"], a["clean"]["ci95"],
                                      a["layers"][g]["success_rate"], a["layers"][g]["ci95"])
            want.append((100 * lo, 100 * hi))
    got = drawn_bars(figs["drop_by_layer.png"])
    assert len(got) == len(want) == 5 * 3
    for (_, lo, hi), (wlo, whi) in zip(got, want, strict=True):
        assert math.isclose(lo, wlo, abs_tol=1e-9) and math.isclose(hi, whi, abs_tol=1e-9), \
            ((lo, hi), (wlo, whi))
    oracle_all = summary["agents"]["oracle"]["drop_ci95"]
    # the bars are asymmetric where the intervals are (the case a ± half-width got wrong)
    drops = [100 * summary["agents"][n]["drop"] for n in agents]
    assert any(abs((hi - d) - (d - lo)) > 1.0 for (_, lo, hi), d in zip(got[-3:], drops, strict=True))
    assert math.isclose(got[-3][1], 100 * oracle_all[0], abs_tol=1e-9)
    # success_by_trap: per trap type (taxonomy order), per agent
    want = [tuple(100 * v for v in summary["agents"][name]["traps"][t]["ci95"])
            for t in column_order(summary["settings"]) for name in agents]
    got = drawn_bars(figs["success_by_trap.png"])
    assert len(got) == len(want) == 10 * 3
    for (_, lo, hi), (wlo, whi) in zip(got, want, strict=True):
        assert math.isclose(lo, wlo, abs_tol=1e-9) and math.isclose(hi, whi, abs_tol=1e-9), \
            ((lo, hi), (wlo, whi))
