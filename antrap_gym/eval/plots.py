"""The evaluation's two figures, as PNGs next to `summary.json`:

- `success_by_trap.png`: each agent's success rate under every trap type (STAR
  taxonomy order, grouped by layer) with 95% intervals, and its clean success
  rate as a dashed reference over each of its bars;
- `drop_by_layer.png`: each agent's drop (clean − layer success, in points)
  per STAR layer and over all traps (the trap average).

Every error bar is its interval's own bounds (`yerr` of shape (2, N)): these
intervals (Wilson for a rate, Newcombe for a drop) are asymmetric, and drawing
them as ± a half-width would misplace both ends. The overall drop's interval is
the summary's `drop_ci95`; a layer's drop interval is Newcombe's, from the
summary's clean and layer intervals, computed the same way.

Matplotlib is imported here only (through `Figure`, not pyplot: no global
backend, no display, safe in threads), so `antrap_gym` imports without it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from antrap_gym.eval.metrics import column_order, newcombe
from antrap_gym.traps.taxonomy import LAYER_OF, LAYERS

#: colour-blind-safe palette (Okabe–Ito), cycled over agents
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
LAYER_TINT = {"state": "#eef3fb", "thinking": "#fbf3e9", "action": "#edf7f1", "round": "#f7eef5"}
DPI = 150
TITLE_SUCCESS = "Success rate under each trap"
TITLE_DROP = "Drop in success per STAR layer"


def _num(x: Any) -> float:
    """A float, NaN for None / missing / non-numbers."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return math.nan
    return v


def _err(rate: float, ci: Any) -> tuple[float, float]:
    """Asymmetric error-bar lengths from a [lo, hi] interval (0 where unknown)."""
    if math.isnan(rate) or not isinstance(ci, (list, tuple)) or len(ci) != 2:
        return 0.0, 0.0
    lo, hi = _num(ci[0]), _num(ci[1])
    if math.isnan(lo) or math.isnan(hi):
        return 0.0, 0.0
    return max(0.0, rate - lo), max(0.0, hi - rate)


def _label(setting: str) -> str:
    """external_interruption -> 'External\\ninterruption'."""
    words = setting.replace("_", " ").split()
    if not words:
        return setting
    words[0] = words[0].capitalize()
    return "\n".join(words) if len(words) == 2 else " ".join(words)


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def write_plots(summary: dict[str, Any], out: str | Path) -> list[Path]:
    """Write both figures into `out`; returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return [success_by_trap(summary, out / "success_by_trap.png"),
            drop_by_layer(summary, out / "drop_by_layer.png")]


def _empty(fig: Figure, ax, message: str, title: str) -> None:
    fig.suptitle(title, fontsize=13, fontweight="bold", x=0.02, ha="left")
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=12, color="#555",
            transform=ax.transAxes)


def _layer_bands(ax, cols: list[str]) -> None:
    """Tinted backgrounds and titles for runs of columns of the same STAR layer."""
    i = 0
    while i < len(cols):
        layer = LAYER_OF.get(cols[i])
        j = i
        while j + 1 < len(cols) and LAYER_OF.get(cols[j + 1]) == layer:
            j += 1
        if layer is not None:
            ax.axvspan(i - 0.5, j + 0.5, color=LAYER_TINT.get(layer, "#f3f3f3"), zorder=0, lw=0)
            ax.text((i + j) / 2, 1.0, f"{layer.capitalize()} layer", ha="center", va="bottom",
                    fontsize=9, color="#444", fontweight="bold",
                    transform=ax.get_xaxis_transform())
        i = j + 1


def success_by_trap(summary: dict[str, Any], path: Path) -> Path:
    """Grouped bars: success per trap type and agent, clean success as a dashed tick."""
    success_figure(summary).savefig(path)
    return path


def success_figure(summary: dict[str, Any]) -> Figure:
    """The figure of `success_by_trap` (each agent's error bars: the container labelled
    `_interval:<agent>`)."""
    agents: dict[str, Any] = summary.get("agents") or {}
    settings = list(summary.get("settings") or [])
    for a in agents.values():
        settings += [s for s in (a.get("traps") or {}) if s not in settings]
    cols = column_order(settings)
    names = list(agents)
    n = max(1, len(names))
    width = min(0.8 / n, 0.4)
    fig = Figure(figsize=(min(24.0, max(8.0, 2.5 + len(cols) * max(0.95, 0.3 + 0.25 * n))), 5.2), dpi=DPI)
    ax = fig.add_subplot()
    if not cols or not names:
        _empty(fig, ax, "no trap settings in this evaluation" if names else "no episodes",
               TITLE_SUCCESS)
        return fig
    _layer_bands(ax, cols)
    for k, name in enumerate(names):
        a = agents[name]
        clean = _num((a.get("clean") or {}).get("success_rate"))
        colour = _colour(k)
        xs, ys, lo, hi, missing = [], [], [], [], []
        for i, c in enumerate(cols):
            x = i + (k - (n - 1) / 2) * width
            block = (a.get("traps") or {}).get(c)
            rate = _num(block.get("success_rate")) if block else math.nan
            if math.isnan(rate):
                missing.append(x)
                continue
            e = _err(rate, block.get("ci95"))
            xs.append(x)
            ys.append(100 * rate)
            lo.append(100 * e[0])
            hi.append(100 * e[1])
        # a zero rate keeps a thin stub, so a present-but-failed setting differs from a missing one
        ax.bar(xs, [max(y, 0.8) for y in ys], width * 0.92, color=colour, zorder=2, label=name)
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="#333", elinewidth=0.9, capsize=2,
                    zorder=3, label=f"_interval:{name}")
        if not math.isnan(clean):
            ax.hlines([100 * clean] * len(xs + missing), [x - width * 0.55 for x in xs + missing],
                      [x + width * 0.55 for x in xs + missing], colors="#111",
                      linestyles=(0, (1.5, 0.8)), linewidth=2.0, zorder=4)
        for x in missing:
            ax.text(x, 1.5, "n/a", ha="center", va="bottom", fontsize=6, color="#777", rotation=90,
                    zorder=3)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([_label(c) for c in cols], fontsize=8)
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(0, 108)
    ax.set_yticks(range(0, 101, 20))
    ax.set_ylabel("success rate (%)")
    ax.grid(axis="y", color="#ccc", lw=0.6, zorder=1)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    handles = [Patch(color=_colour(k), label=name) for k, name in enumerate(names)]
    handles.append(Line2D([], [], color="#111", ls=(0, (1.5, 0.8)), lw=2.0,
                          label="clean success (reference)"))
    handles.append(Line2D([], [], color="#333", marker="|", ls="none", markersize=8,
                          label="95% interval"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)
    fig.suptitle(TITLE_SUCCESS, fontsize=13, fontweight="bold", x=0.02, ha="left")
    ax.set_title("bars: success with the trap · dashed: the agent's clean success", fontsize=8,
                 color="#555", loc="left", pad=16)
    fig.tight_layout()
    return fig


def _interval(ci: Any) -> tuple[float, float]:
    """(lo, hi) of a stored interval; NaNs where it is missing or not two numbers."""
    if not isinstance(ci, (list, tuple)) or len(ci) != 2:
        return math.nan, math.nan
    return _num(ci[0]), _num(ci[1])


def _layer_drop(clean: dict[str, Any], block: dict[str, Any] | None) -> tuple[float, float, float]:
    """Drop in points (clean − layer) and its 95% interval (Newcombe's, from the two
    Wilson intervals, as the summary's overall drop): (drop, lo, hi)."""
    if not block:
        return math.nan, math.nan, math.nan
    pc, pl = _num(clean.get("success_rate")), _num(block.get("success_rate"))
    if math.isnan(pc) or math.isnan(pl) or not _num(clean.get("n")) or not _num(block.get("n")):
        return math.nan, math.nan, math.nan
    (cl, ch), (ll, lh) = _interval(clean.get("ci95")), _interval(block.get("ci95"))
    if any(math.isnan(v) for v in (cl, ch, ll, lh)):
        return 100 * (pc - pl), math.nan, math.nan
    lo, hi = newcombe(pc, [cl, ch], pl, [ll, lh])
    return 100 * (pc - pl), 100 * lo, 100 * hi


def drop_intervals(summary: dict[str, Any]) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Per agent and group (each layer present, then `overall`): (drop, lo, hi) in points,
    NaN where unknown -- what `drop_by_layer` draws."""
    agents: dict[str, Any] = summary.get("agents") or {}
    layers = [lay for lay in LAYERS if any(lay in (a.get("layers") or {}) for a in agents.values())]
    out: dict[str, dict[str, tuple[float, float, float]]] = {}
    for name, a in agents.items():
        groups: dict[str, tuple[float, float, float]] = {}
        for g in layers:
            groups[g] = _layer_drop(a.get("clean") or {}, (a.get("layers") or {}).get(g))
        lo, hi = _interval(a.get("drop_ci95"))
        groups["overall"] = (100 * _num(a.get("drop")), 100 * lo, 100 * hi)
        out[name] = groups
    return out


def drop_by_layer(summary: dict[str, Any], path: Path) -> Path:
    """Grouped bars: drop (clean − success) per STAR layer and overall, per agent."""
    drop_figure(summary).savefig(path)
    return path


def drop_figure(summary: dict[str, Any]) -> Figure:
    """The figure of `drop_by_layer` (each agent's error bars: the container labelled
    `_interval:<agent>`)."""
    drops = drop_intervals(summary)
    names = list(drops)
    groups = list(next(iter(drops.values()))) if drops else []
    if groups == ["overall"]:  # no trap settings at all
        groups = []
    n = max(1, len(names))
    width = min(0.8 / n, 0.3)
    fig = Figure(figsize=(max(7.0, 2.0 + len(groups) * (0.6 + 0.3 * n)), 4.8), dpi=DPI)
    ax = fig.add_subplot()
    if not groups or not names:
        _empty(fig, ax, "no trap settings in this evaluation" if names else "no episodes",
               TITLE_DROP)
        return fig
    for i, g in enumerate(groups):
        ax.axvspan(i - 0.5, i + 0.5, color=LAYER_TINT.get(g, "#f3f3f3"), zorder=0, lw=0)
    top, bottom = 5.0, -5.0
    for k, name in enumerate(names):
        xs, ys, below, above = [], [], [], []
        for i, g in enumerate(groups):
            x = i + (k - (n - 1) / 2) * width
            drop, lo, hi = drops[name][g]
            if math.isnan(drop):
                ax.text(x, 0.5, "n/a", ha="center", va="bottom", fontsize=6, color="#777",
                        rotation=90)
                continue
            ax.bar(x, drop, width * 0.92, color=_colour(k), zorder=2,
                   hatch="//" if g == "overall" else None, edgecolor="white", lw=0.3)
            known = not (math.isnan(lo) or math.isnan(hi))
            if known:
                xs.append(x)
                ys.append(drop)
                below.append(max(0.0, drop - lo))
                above.append(max(0.0, hi - drop))
                top, bottom = max(top, hi), min(bottom, lo)
            top, bottom = max(top, drop), min(bottom, drop)
            tip = (max(drop, hi) if drop >= 0 else min(drop, lo)) if known else drop
            label = f"{drop:.0f}"
            ax.text(x, tip + (1.0 if drop >= 0 else -1.0), "0" if label == "-0" else label, ha="center",
                    va="bottom" if drop >= 0 else "top", fontsize=7, color="#222", zorder=4)
        if xs:
            ax.errorbar(xs, ys, yerr=[below, above], fmt="none", ecolor="#333", elinewidth=0.9,
                        capsize=2, zorder=3, label=f"_interval:{name}")
    ax.axhline(0, color="#222", lw=0.9, zorder=2)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["All traps\n(trap average)" if g == "overall" else f"{g.capitalize()}"
                        for g in groups], fontsize=10)
    ax.set_xlim(-0.5, len(groups) - 0.5)
    pad = 0.08 * (top - bottom)
    ax.set_ylim(bottom - pad, top + pad + 4)
    ax.set_ylabel("drop in success (points)\nclean − with traps")
    ax.grid(axis="y", color="#ccc", lw=0.6, zorder=1)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    handles = [Patch(color=_colour(k), label=name) for k, name in enumerate(names)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)
    fig.suptitle(TITLE_DROP, fontsize=13, fontweight="bold", x=0.02, ha="left")
    ax.set_title("higher = hurt more by the layer's traps · error bars: 95% interval", fontsize=8,
                 color="#555", loc="left")
    fig.tight_layout()
    return fig
