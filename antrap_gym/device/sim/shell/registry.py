"""The shell's commands by name, and what a command may use of the shell running it.

A command module registers its functions with `@command("name", ...)`; the interpreter
(`interpreter.py`) looks them up here and imports the command modules, which see the
running shell only as a `ShellSession` -- so they need nothing of the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone

#: a command's (stdout bytes, stderr text, exit status)
Output = tuple[bytes, str, int]


class ShellSession(Protocol):
    """The running shell as a command sees it."""

    #: the phone the shell runs on
    phone: Phone
    #: the last exit status (`$?`)
    status: int
    #: how deeply scripts are nested (`sh -c` in `$(...)`): bounded by MAX_DEPTH
    depth: int
    #: the name the command now running was called by (one function, several names)
    current: str
    #: the environment variables
    env: dict[str, str]

    def run_script(self, script: str) -> Output:
        """Run a script in this shell (`sh -c`), its output and status."""
        ...


CommandFn = Callable[[ShellSession, list[str], bytes], Output]

#: command name -> function, filled by the command modules
COMMANDS: dict[str, CommandFn] = {}
#: how deeply scripts may nest
MAX_DEPTH = 8
#: commands that never change what the phone shows (no view rebuild needed)
READ_ONLY = frozenset({
    "ls", "cat", "echo", "printf", "date", "getprop", "dumpsys", "wm", "id", "whoami", "pwd",
    "grep", "head", "tail", "wc", "sort", "test", "[", "true", "false", "find", "stat", "base64",
    "uname", "which", "basename", "dirname", "sh", "ime",
})


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Decorator: register a command function under these names."""
    def deco(fn: CommandFn) -> CommandFn:
        for n in names:
            COMMANDS[n] = fn
        return fn

    return deco
