"""How often a policy's replies failed to parse, per evaluation setting (docs/training.md).

    python docs/tools/reply_failures.py runs/table/seed0/eval-warm* runs/table/seed0/eval-clean*

Reads each evaluation folder's episodes (`episodes.jsonl.gz`) and prints, per setting: episodes, the
replies that did not parse into an action (of all steps), and the failed episodes that had
at least one. It is how the per-subtype table's note on clean GRPO was worked out: under a
trap the screens leave the warm start's training distribution, and a reply that does not
parse is a lost step.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from antrap_gym.agents.policy import UNPARSEABLE
from antrap_gym.eval import load_records


def count(folder: Path) -> dict[str, dict[str, int]]:
    """{setting: {episodes, steps, unparseable, failed_with_unparseable}}."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(
        ("episodes", "steps", "unparseable", "failed_with_unparseable"), 0))
    for ep in load_records(folder):
        steps = ep.get("trajectory") or []
        bad = sum(1 for s in steps if (s.get("action") or {}).get("action_type") == UNPARSEABLE)
        row = out[ep["setting"]]
        row["episodes"] += 1
        row["steps"] += len(steps)
        row["unparseable"] += bad
        row["failed_with_unparseable"] += int(bad > 0 and not ep.get("success"))
    return dict(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path, help="evaluation folders (with episodes.jsonl.gz)")
    args = ap.parse_args(argv)
    print("| evaluation | setting | episodes | unparseable replies / steps | failed episodes with one |")
    print("|---|---|---|---|---|")
    for folder in args.folders:
        for setting, r in count(folder).items():
            print(f"| {folder.name} | {setting} | {r['episodes']} | {r['unparseable']} / {r['steps']} | "
                  f"{r['failed_with_unparseable']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
