"""The run's pictures: plots and the trajectory viewer, written after the episodes and
the summary (used by `evaluate` and by `antrap report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console


def write_artifacts(summary: dict[str, Any], records: list[dict[str, Any]], out: Path,
                    console: Console) -> None:
    """Plots and the trajectory viewer. A failure here is reported, never allowed to
    lose a finished run (the episodes and summary are already on disk)."""
    try:
        from antrap_gym.eval.plots import write_plots

        write_plots(summary, out)
    except Exception as e:
        console.print(f"[yellow]plots skipped: {type(e).__name__}: {e}")
    try:
        from antrap_gym.eval.viewer import write_viewer

        write_viewer(records, out)
    except Exception as e:
        console.print(f"[yellow]viewer skipped: {type(e).__name__}: {e}")
