"""README shows what the code does: its sample table is what the main job prints today,
and its Python example prints what its comments say."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _tool():
    spec = importlib.util.spec_from_file_location("readme_table", ROOT / "docs/tools/readme_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ANTRAP_README_MAIN_JOB") != "1",
                    reason="the main job takes 8-13 minutes on 2 cores since the default suite "
                           "holds 152 templates: run with ANTRAP_README_MAIN_JOB=1")
def test_readmes_sample_table_is_what_a_fresh_main_job_prints(tmp_path):
    """The main job (`antrap eval`, README's command) repeats exactly: its table must be
    README's, or README is stale (regenerate: python docs/tools/readme_table.py)."""
    tool = _tool()
    summary = tool.run_main_job(tmp_path / "run")
    fresh = tool.render(summary)
    assert tool.readme_table(README) == fresh, f"README's table is stale; a fresh run prints:\n{fresh}"


def test_the_table_tool_notices_a_changed_figure(tmp_path):
    tool = _tool()
    table = tool.readme_table(README)
    changed = re.sub(r"\d+\.\d", lambda m: "99.9" if m.group(0) != "99.9" else "0.0", table, count=1)
    assert changed != table
    copy = tmp_path / "README.md"
    copy.write_text(README.replace(table, changed))
    assert tool.readme_table(copy.read_text()) == changed
    assert tool.write_readme(table, copy) and tool.readme_table(copy.read_text()) == table


def test_the_python_example_prints_what_its_comments_say():
    """README's "Use it from Python" block, run as written: the comment on each print
    line is the start of what it prints (up to " ..." or a parenthesis)."""
    block = re.search(r"## Use it from Python\n\n```python\n(.*?)\n```", README, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    printed = out.stdout.splitlines()
    expected = [ln.split("#", 1)[1] for ln in block.splitlines() if ln.startswith("print(") and "#" in ln]
    assert len(expected) == 2, "README's example lost its comments"
    for comment in expected:
        want = re.split(r" \.\.\.| \(", comment.strip())[0].strip()
        want = want[1:-1] if want.startswith('"') and want.endswith('"') else want
        assert any(line.startswith(want) for line in printed), (want, printed[:3])
