"""Several processes under `accelerate launch`: which one writes, and who goes first.

`accelerate launch` (torchrun underneath) sets RANK and WORLD_SIZE. The trainers
(TRL / transformers) already save checkpoints and log from the main process
only; what our stages do around them (building the tiny policy, collecting SFT
data, the run record, the evaluation after training) must also happen once:
the main process does it first, the others then reuse what it wrote.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


def world_size() -> int:
    """Processes in this run (1 without a launcher)."""
    return int(os.environ.get("WORLD_SIZE", "1") or 1)


def is_main() -> bool:
    """The process that writes run files (rank 0; the only one without a launcher)."""
    return int(os.environ.get("RANK", "0") or 0) == 0


@contextlib.contextmanager
def main_first() -> Iterator[None]:
    """The main process runs the block first; the others wait for it, then run it too
    (finding its results on disk). A no-op in a single process."""
    if world_size() <= 1:
        yield
        return
    from accelerate import PartialState

    with PartialState().main_process_first():
        yield


__all__ = ["is_main", "main_first", "world_size"]
