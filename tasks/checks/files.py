"""Checks on files under /sdcard, through the shell (`test`, `cat`, `find`, `base64`).

File content is compared exactly by default: carriage returns dropped and the
surrounding whitespace stripped (typing leaves a trailing newline; AndroidWorld's
exact mode does the same), nothing else forgiven. `lines` compares the non-blank
lines, each stripped. A template that wants fuzzy matching says so and with what
threshold (`fuzzy=0.9`); AndroidWorld's default of fuzzy at 0.9 passes an untouched note
for most of AnTrap's wrap/prepend templates.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import shlex
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check, NotPrepared
from antrap_gym.tasks.checks.match import fuzzy_ratio

if TYPE_CHECKING:
    from antrap_gym.device import Device

#: a line starting a file in `read_tree`'s output (base64 never contains it)
_MARK = "@@file "


def q(s: str) -> str:
    return shlex.quote(s)


def read_file(device: Device, path: str) -> str | None:
    """A regular file's text, or None when there is none at `path` (or it is a folder)."""
    res = device.shell(f"cat {q(path)}")
    return res.stdout if res.exit_code == 0 else None


def exists(device: Device, path: str, kind: str = "e") -> bool:
    """`test -e` (anything), `-f` (a regular file) or `-d` (a folder)."""
    return device.shell(f"test -{kind} {q(path)}").exit_code == 0


def read_tree(device: Device, root: str) -> dict[str, bytes | None] | None:
    """Every path under `root` (itself excluded): file -> bytes, folder -> None; None
    when `root` does not exist. Two shell calls whatever the size of the tree."""
    res = device.shell(f"find {q(root)}")
    if res.exit_code != 0:
        return None
    paths = [p for p in res.stdout.splitlines() if p and p != root]
    files = set(device.shell(f"find {q(root)} -type f").stdout.splitlines())
    tree: dict[str, bytes | None] = {p: None for p in paths}
    if not files & set(paths):
        return tree
    cmd = "; ".join(f"echo {q(_MARK + p)}; base64 {q(p)}" for p in paths if p in files)
    current: str | None = None
    chunks: dict[str, list[str]] = {}
    for line in device.shell(cmd).stdout.splitlines():
        if line.startswith(_MARK):
            current = line[len(_MARK):]
            chunks[current] = []
        elif current is not None:
            chunks[current].append(line.strip())
    for p, parts in chunks.items():
        try:
            tree[p] = base64.b64decode("".join(parts))
        except (binascii.Error, ValueError):
            tree[p] = b"\0unreadable"
    return tree


def normalize_text(text: str) -> str:
    return text.replace("\r", "").strip()


def lines_of(text: str) -> list[str]:
    """Non-blank lines, stripped."""
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


@dataclasses.dataclass
class FileExists(Check):
    """A regular file is at `path`."""

    path: str

    def score(self, device: Device, answer: str | None) -> float:
        return float(exists(device, self.path, "f"))


@dataclasses.dataclass
class DirExists(Check):
    """A folder is at `path`."""

    path: str

    def score(self, device: Device, answer: str | None) -> float:
        return float(exists(device, self.path, "d"))


@dataclasses.dataclass
class Absent(Check):
    """Nothing (no file, no folder) is at `path`."""

    path: str

    def score(self, device: Device, answer: str | None) -> float:
        return float(not exists(device, self.path, "e"))


@dataclasses.dataclass
class FileContent(Check):
    """The file at `path` holds `text`: exactly (the default), by its non-blank lines
    (`lines=True`), or with a difflib ratio of at least `fuzzy` (0..1], which a template
    must ask for by name."""

    path: str
    text: str
    lines: bool = False
    fuzzy: float | None = None

    def __post_init__(self) -> None:
        if self.fuzzy is not None and not 0.0 < self.fuzzy <= 1.0:
            raise ValueError(f"FileContent fuzzy threshold {self.fuzzy} is not in (0, 1]")
        if self.fuzzy is not None and self.lines:
            raise ValueError("FileContent: lines and fuzzy do not combine")

    def score(self, device: Device, answer: str | None) -> float:
        got = read_file(device, self.path)
        if got is None:
            return 0.0
        if self.lines:
            return float(lines_of(got) == lines_of(self.text))
        if self.fuzzy is not None:
            return float(fuzzy_ratio(normalize_text(got), normalize_text(self.text)) >= self.fuzzy)
        return float(normalize_text(got) == normalize_text(self.text))


@dataclasses.dataclass
class TreeUnchanged(Check):
    """Every file and folder under `root` as it was after set-up, except the paths the
    task is about (`ignore`): nothing else created, changed or removed."""

    root: str
    ignore: tuple[str, ...] = ()
    before: dict[str, bytes | None] | None = dataclasses.field(default=None, init=False,
                                                               repr=False)

    def prepare(self, device: Device) -> None:
        self.before = self._read(device)

    def _read(self, device: Device) -> dict[str, bytes | None]:
        tree = read_tree(device, self.root) or {}
        return {p: v for p, v in tree.items() if p not in self.ignore}

    def score(self, device: Device, answer: str | None) -> float:
        if self.before is None:
            raise NotPrepared("TreeUnchanged: set up the task first (prepare)")
        return float(self._read(device) == self.before)


def file_times(device: Device, root: str) -> dict[str, str]:
    """The regular files directly in `root`, each with its modification time (`stat -c
    %Y`); empty when there are none (or no `root`). Two shell calls."""
    res = device.shell(f"find {q(root)} -maxdepth 1 -type f")
    paths = [p for p in res.stdout.splitlines() if p] if res.exit_code == 0 else []
    if not paths:
        return {}
    times = device.shell("stat -c %Y " + " ".join(q(p) for p in paths)).stdout.split()
    return dict(zip(paths, times, strict=False))


@dataclasses.dataclass
class FileTimesUnchanged(Check):
    """The regular files directly in `root` have the names and modification times they
    had after set-up, except the paths in `ignore`, and no other file is there: a note
    saved again unchanged fails, a file in a subfolder is not looked at (AndroidWorld's
    MarkorDeleteNewestNote compares its folder listing so)."""

    root: str
    ignore: tuple[str, ...] = ()
    before: dict[str, str] | None = dataclasses.field(default=None, init=False, repr=False)

    def prepare(self, device: Device) -> None:
        self.before = self._read(device)

    def _read(self, device: Device) -> dict[str, str]:
        return {p: t for p, t in file_times(device, self.root).items() if p not in self.ignore}

    def score(self, device: Device, answer: str | None) -> float:
        if self.before is None:
            raise NotPrepared("FileTimesUnchanged: set up the task first (prepare)")
        return float(self._read(device) == self.before)
