"""Set-up recipes: the steps that put the phone in a task's initial state, each able to
undo itself at tear-down (so tear-down restores the phone as it was before set-up).

A recipe is a declared object like a check (its fields take {param} placeholders);
`apply` runs at every set-up and remembers what it overwrote the first time (set-up
twice, tear down once: the phone is as it was before the first), `undo` puts that back.
Everything goes through `device.shell`.
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.base import TaskError

if TYPE_CHECKING:
    from antrap_gym.device import Device

class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


#: a recipe's `saved` before its first apply
UNSET = _Unset()


def sh(device: Device, cmd: str) -> str:
    """Run a set-up command; a failure is a TaskError naming it."""
    res = device.shell(cmd)
    if res.exit_code != 0:
        raise TaskError(f"setup command failed ({res.exit_code}): {cmd!r}: {res.stderr.strip()}")
    return res.stdout


@dataclasses.dataclass
class Recipe:
    """One set-up step. Subclasses implement `save` (read what `run` will overwrite),
    `run` (make the change) and `restore` (put the saved state back)."""

    saved: Any = dataclasses.field(default=UNSET, init=False, repr=False, compare=False)

    def apply(self, device: Device) -> None:
        if self.saved is UNSET:
            self.saved = self.save(device)
        self.run(device)

    def undo(self, device: Device) -> None:
        if self.saved is not UNSET:
            self.restore(device, self.saved)
            self.saved = UNSET

    def save(self, device: Device) -> Any:
        return None

    def run(self, device: Device) -> None:
        raise NotImplementedError

    def restore(self, device: Device, saved: Any) -> None:
        """Nothing to restore by default."""


@dataclasses.dataclass
class Shell(Recipe):
    """Run a shell command; `undo_cmd` (if any) at tear-down."""

    cmd: str = ""
    undo_cmd: str = ""

    def run(self, device: Device) -> None:
        sh(device, self.cmd)

    def restore(self, device: Device, saved: Any) -> None:
        if self.undo_cmd:
            device.shell(self.undo_cmd)


#: characters a POSIX shell still interprets inside double quotes
_DOUBLE_QUOTE_SPECIAL = frozenset('"$`\\!')


def q(s: Any) -> str:
    """Quote a value for the device shell (one word, taken literally). SQL full of string
    literals is wrapped in double quotes when nothing in it is special there, which a
    shell reads in one piece; otherwise single quotes, each `'` spliced in as `'"'"'`."""
    s = str(s)
    if "'" in s and not _DOUBLE_QUOTE_SPECIAL.intersection(s):
        return f'"{s}"'
    return shlex.quote(s)
