"""A results folder of `antrap eval`: one run at a time, and `--resume` only of the same run.

One run at a time: `lock_run_dir` takes an OS lock (`fcntl.flock`) on `<out>/.antrap.lock`
for the whole run, in the process that writes `episodes.jsonl` (the parent: local worker
processes and Ray actors only send records back, and never inherit the lock's descriptor —
it is not inheritable, and workers are spawned). The OS drops the lock when that process
ends, however it ends (SIGKILL included), so a killed run never leaves a stale lock. The
file names its holder (`pid host`) for the message a second run gets; it is never deleted
(deleting a lock file lets two runs lock two different files).

The same run: `check_same_run` compares the folder's `config.json` with the run about to
resume it, field by field (`setups`: what defines the episodes and their conditions, plus
the agents), and refuses a resume that would mix two runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from antrap_gym.eval.setups import CONFIG_FILE, differences, setup_of_config
from antrap_gym.eval.spec import EvalConfig

LOCK_FILE = ".antrap.lock"


class RunDirError(RuntimeError):
    """The results folder cannot take this run (a usage error: nothing was run)."""


class RunDirBusy(RunDirError):
    """Another run holds the results folder."""


class RunMismatch(RunDirError):
    """`--resume` of a folder that holds another run."""


@contextlib.contextmanager
def lock_run_dir(out: str | Path) -> Iterator[Path]:
    """Create the results folder `out` if needed and hold its lock while the block runs.

    RunDirBusy (naming the holder's pid) when another process holds it; RunDirError when
    the folder cannot be created or written."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = os.open(out / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise RunDirError(f"--out {out}: cannot use it as the results folder: "
                          f"{e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirBusy(f"--out {out} is in use by another run ({_holder(fd)}): wait for it "
                             "to end, or choose another --out") from None
        except OSError as e:
            raise RunDirError(f"--out {out}: cannot lock it: {e.strerror or e}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)
        try:
            yield out
        finally:
            os.ftruncate(fd, 0)  # no holder to name any more
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    """Who holds the lock, as the holder wrote it."""
    pid, _, host = os.pread(fd, 256, 0).decode(errors="replace").strip().partition(" ")
    if not pid:
        return "its process id not yet written"
    return f"pid {pid}" + (f" on {host}" if host and host != socket.gethostname() else "")


def check_same_run(config: EvalConfig, out: Path) -> None:
    """Refuse (RunMismatch, saying what differs) to resume the run in `out` with a `config`
    that defines other episodes or conditions than the `config.json` written there."""
    path = out / CONFIG_FILE
    if not path.is_file():
        return  # nothing recorded to compare (a folder from before config.json, or empty)
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(old, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as e:
        raise RunDirError(f"--resume: cannot read {path}: {e}") from None
    new = json.loads(config.to_json())
    diffs = differences(setup_of_config(old), setup_of_config(new))
    if _agents(old) != _agents(new):
        diffs.insert(0, ("agents", ", ".join(_agents(old)), ", ".join(_agents(new))))
    if diffs:
        said = "; ".join(f"{field}: {was} there, {now} now" for field, was, now in diffs)
        raise RunMismatch(f"--resume: {out} holds another run ({said}); resume it with the "
                          "options it was run with, or choose another --out")


def _agents(config: dict[str, Any]) -> list[str]:
    """The agents of a config.json as `label` (`label = name` where they differ)."""
    out = []
    for a in config.get("agents") or []:
        label, name = str(a.get("label")), str(a.get("name"))
        out.append(label if label == name else f"{label} = {name}")
    return out


__all__ = ["LOCK_FILE", "RunDirBusy", "RunDirError", "RunMismatch", "check_same_run",
           "lock_run_dir"]
