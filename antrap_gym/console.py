"""What the `antrap` commands print through: consoles and tables that never cut an
id, and a quiet exit when the reader of stdout goes away (`antrap tasks | head`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

# Piped or redirected output has no terminal to fit: rich would assume 80 columns (or
# $COLUMNS) and cut cells to "ContactsAd…". Lay tables out this wide instead.
PIPE_WIDTH = 200
# The exit status of a process killed by SIGPIPE (128 + 13), what `cat` reports in a pipe.
EXIT_BROKEN_PIPE = 141


class CliConsole(Console):
    """A rich console whose closed pipe reaches `guard_stdout` as BrokenPipeError (rich's
    default exits with status 1 on its own, unlike plain `print` output)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(32, "stdout closed")

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """As rich's, but a line wider than the terminal is not cropped (an id longer than
        a narrow terminal is written whole and the terminal wraps it)."""
        kwargs.setdefault("crop", False)
        super().print(*objects, **kwargs)


def make_console(stderr: bool = False, **kwargs: Any) -> Console:
    """A console for a command's output: the terminal's width on a terminal, wide
    (PIPE_WIDTH, or $COLUMNS if wider) when piped, so nothing is cut for lack of room."""
    console = CliConsole(stderr=stderr, **kwargs)
    if not console.is_terminal and "width" not in kwargs:
        console.width = max(console.width, PIPE_WIDTH)
    return console


def add_id_column(table: Table, header: str, values: Iterable[str], **kwargs: Any) -> None:
    """A column of ids (task ids, trap types, agent names, settings): never wrapped or
    cut, even on a narrow terminal; the other columns give way first."""
    width = max([len(header), *(len(str(v)) for v in values)])
    table.add_column(header, no_wrap=True, min_width=width, overflow="ignore", **kwargs)


def guard_stdout(run: Callable[[], int]) -> int:
    """`run()`'s exit status, or EXIT_BROKEN_PIPE without a traceback when stdout's reader
    has gone (Python docs, "Note on SIGPIPE"): stdout is pointed at /dev/null so the
    interpreter's last flush at exit stays quiet too."""
    try:
        try:
            return run()
        finally:  # a closed pipe shows on this flush, not in the interpreter's at exit
            sys.stdout.flush()
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is no real file (captured in-process)
            pass
        return EXIT_BROKEN_PIPE


def run_command(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    """Parse `argv` and run the chosen subcommand's `fn` (set with `set_defaults`): its
    exit status; 130 on Ctrl-C; a lookup of an unknown name (a `KeyError`: a suite, a
    template, an agent) one line on stderr and 2; a closed stdout quietly (`guard_stdout`)."""
    def run() -> int:
        args = parser.parse_args(argv)
        try:
            return int(args.fn(args) or 0)
        except KeyboardInterrupt:
            return 130
        except KeyError as e:
            print(f"{parser.prog}: {e.args[0] if e.args else e}", file=sys.stderr)
            return 2

    return guard_stdout(run)
