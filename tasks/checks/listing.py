"""A folder's files before and after, from the shell (`find`, `stat`), as AndroidWorld
counts new photos, videos and recordings: by name, or by name, size and time."""

from __future__ import annotations

import dataclasses
import shlex
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check, NotPrepared

if TYPE_CHECKING:
    from antrap_gym.device import Device

#: (name, size in bytes, modification time in s)
Entry = tuple[str, int, int]


def list_files(device: Device, folder: str) -> list[Entry]:
    """The regular files directly in `folder` (none when it is missing), with their size
    and modification time; two shell calls."""
    found = device.shell(f"find {shlex.quote(folder)} -maxdepth 1 -type f")
    paths = [p for p in found.stdout.splitlines() if p.strip()] if found.exit_code == 0 else []
    if not paths:
        return []
    out = device.shell("stat -c '%s %Y %n' " + " ".join(shlex.quote(p) for p in paths)).stdout
    entries = []
    for line in out.splitlines():
        size, mtime, path = [*line.split(" ", 2), "", ""][:3]
        if size.isdigit() and mtime.lstrip("-").isdigit() and path:
            entries.append((path.rsplit("/", 1)[-1], int(size), int(mtime)))
    return sorted(entries)


@dataclasses.dataclass
class NewFiles(Check):
    """Exactly `count` files in `folder` are new since set-up: by name (AndroidWorld's
    camera tasks: `ls` before vs after), or with `changed`, also a file whose size or time
    changed (its Audio Recorder task, where a record may reuse a name); with `nonempty`,
    only files of some bytes count."""

    folder: str
    count: int = 1
    changed: bool = False
    nonempty: bool = False
    before: list[Entry] | None = dataclasses.field(default=None, init=False, repr=False)

    def prepare(self, device: Device) -> None:
        self.before = list_files(device, self.folder)

    def new(self, device: Device) -> list[str]:
        if self.before is None:
            raise NotPrepared("NewFiles: set up the task first (prepare)")
        now = [e for e in list_files(device, self.folder) if e[1] > 0 or not self.nonempty]
        if self.changed:
            old = set(self.before)
            return [e[0] for e in now if e not in old]
        names = {e[0] for e in self.before}
        return [e[0] for e in now if e[0] not in names]

    def score(self, device: Device, answer: str | None) -> float:
        return float(len(self.new(device)) == self.count)


@dataclasses.dataclass
class FileCount(Check):
    """At least `at_least` (and, when given, at most `at_most`) files are directly in
    `folder` (a step's `done`: a folder set-up emptied has a capture in it, or no more
    than one)."""

    folder: str
    at_least: int = 1
    at_most: int | None = None

    def score(self, device: Device, answer: str | None) -> float:
        n = len(list_files(device, self.folder))
        return float(n >= self.at_least and (self.at_most is None or n <= self.at_most))
