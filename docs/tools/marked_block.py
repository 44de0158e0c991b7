"""A generated part of a page, between two marker lines: read it, check it, rewrite it.

The table generators (`actions_table`, `grading_table`, `task_apps_table`) make their
text and hand it here with their page and markers; `--check` compares, else the block
is rewritten in place.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def current(page: str, start: str, end: str) -> str | None:
    """The text between the markers (None: the page has no such block)."""
    m = re.search(re.escape(start) + r"\n(.*?)" + re.escape(end), page, re.S)
    return m.group(1).removesuffix("\n") if m else None


def check_or_write(path: Path, start: str, end: str, want: str, check: bool, tool: str) -> int:
    """0 when the block holds `want` (after rewriting it, unless `check`); 1 when the page
    has no block, or, with `check`, when the block is stale."""
    page = path.read_text()
    have = current(page, start, end)
    if have is None:
        print(f"{path} has no generated block (markers {start!r} ... {end!r})", file=sys.stderr)
        return 1
    if have == want:
        return 0
    if check:
        print(f"{path.name}'s generated block is stale: run python docs/tools/{tool}.py",
              file=sys.stderr)
        return 1
    block = f"{start}\n{want}\n{end}" if want else f"{start}\n{end}"
    path.write_text(re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, page,
                           flags=re.S))
    print(f"rewrote {path.name}")
    return 0
