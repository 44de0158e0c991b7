"""Where the tests find things, wherever their module sits under tests/: `ROOT`, the
repository's top folder, and `DATA`, the recorded (golden) files in tests/data."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
