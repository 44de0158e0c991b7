"""The simulated phone's `sh`: runs scripts with Android shell semantics.

Never raises for bad input: syntax errors, unknown commands and failures
come back as a non-zero exit code and a message on stderr, like mksh.
Every simple command that runs is appended to `phone.shell_log`.
"""

from __future__ import annotations

import fnmatch
import posixpath
import shlex
from functools import lru_cache
from typing import TYPE_CHECKING

from antrap_gym.device.protocol import ShellResult
from antrap_gym.device.sim.shell import android_commands, file_commands  # noqa: F401  (they register the commands)
from antrap_gym.device.sim.shell.parser import Command, Pipeline, ShellSyntaxError, expand, parse
from antrap_gym.device.sim.shell.registry import COMMANDS, MAX_DEPTH, READ_ONLY, Output
from antrap_gym.device.sim.storage.files import FsError, normalize

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone

MAX_SCRIPT_CHARS = 1_000_000
#: scripts up to this long keep their parse (`_parsed`)
PARSED_MAX_CHARS = 4096


@lru_cache(maxsize=1024)
def _parsed(script: str) -> list[Pipeline]:
    """`parse`, memoised: checks and recipes send the same few scripts on every step, and
    a parse is only read (its words are expanded afresh each run, so `$?` and `$(...)`
    still see the moment they run). A script that does not parse raises each time."""
    return parse(script)


class Shell:
    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.status = 0
        self.depth = 0
        self.current = ""  # the command now running (for multi-name commands)
        self.env = {
            "EXTERNAL_STORAGE": "/sdcard",
            "HOME": "/",
            "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
            "ANDROID_DATA": "/data",
            "USER": "shell",
        }

    # --- entry point -------------------------------------------------------------
    def run(self, script: str) -> ShellResult:
        if not isinstance(script, str):
            return ShellResult("", "sh: command must be text\n", 2)
        if len(script) > MAX_SCRIPT_CHARS:
            return ShellResult("", "sh: argument list too long\n", 7)
        if "\x00" in script:
            return ShellResult("", "sh: syntax error: NUL byte in command\n", 2)
        out, err, code = self.run_script(script)
        data = bytes(out)
        try:
            text = data.decode("utf-8")
            binary = False
        except UnicodeDecodeError:
            text = data.decode("latin-1")
            binary = True
        return ShellResult(text, err, code, data if binary else None)

    def run_script(self, script: str) -> Output:
        """Run a script in this shell: its output, and its status (also kept in `status`)."""
        try:
            pipelines = _parsed(script) if len(script) <= PARSED_MAX_CHARS else parse(script)
        except ShellSyntaxError as e:
            self.status = 2
            return b"", f"/system/bin/sh: {e}\n", 2
        out = bytearray()
        err: list[str] = []
        prev = ";"
        for pl in pipelines:
            if (prev == "&&" and self.status != 0) or (prev == "||" and self.status == 0):
                prev = pl.connector
                continue
            o, e, code = self._run_pipeline(pl.commands)
            out += o
            if e:
                err.append(e)
            self.status = code
            prev = pl.connector
        return bytes(out), "".join(err), self.status

    def _substitute(self, body: str) -> str:
        if self.depth >= MAX_DEPTH:
            return ""
        self.depth += 1
        saved = self.status
        try:
            out, _err, _code = self.run_script(body)
        finally:
            self.depth -= 1
        self.status = saved
        return out.decode("utf-8", "replace")

    def _run_pipeline(self, commands: list[Command]) -> Output:
        data = b""
        errs: list[str] = []
        code = 0
        for cmd in commands:
            data, e, code = self._run_command(cmd, data)
            if e:
                errs.append(e)
        return data, "".join(errs), code

    def _run_command(self, cmd: Command, stdin: bytes) -> Output:
        variables = dict(self.env)
        variables["?"] = str(self.status)
        variables["$"] = "4242"
        variables["0"] = "/system/bin/sh"
        try:
            argv: list[str] = []
            for raw in cmd.words:
                text, glob = expand(raw, variables, self._substitute)
                argv.extend(self._glob(text) if glob else [text])
            redirs = [(op, expand(t, variables, self._substitute)[0]) for op, t in cmd.redirs]
        except ShellSyntaxError as e:
            return b"", f"/system/bin/sh: {e}\n", 2
        if not argv:
            return self._apply_redirs(redirs, b"", "", 0)
        self.phone.shell_log.append(shlex.join(argv))
        for op, target in redirs:
            if op == "<":
                try:
                    stdin = self.phone.fs.read(target)
                except FsError as e:
                    return b"", f"/system/bin/sh: {e}\n", 1
        name = argv[0]
        fn = COMMANDS.get(posixpath.basename(name) if name.startswith("/system/bin/") else name)
        if fn is None:
            return self._apply_redirs(
                redirs, b"", f"/system/bin/sh: {name}: inaccessible or not found\n", 127)
        self.current = posixpath.basename(name)
        if self.current not in READ_ONLY:
            self.phone.changed()
        try:
            out, err, code = fn(self, argv[1:], stdin)
        except FsError as e:
            out, err, code = b"", f"{name}: {e}\n", 1
        except RecursionError:
            out, err, code = b"", f"{name}: too deep\n", 1
        except Exception as e:  # a bug in a command must not escape as an exception
            out, err, code = b"", f"{name}: internal error: {type(e).__name__}: {e}\n", 1
        return self._apply_redirs(redirs, out, err, code)

    def _apply_redirs(self, redirs: list[tuple[str, str]], out: bytes, err: str,
                      code: int) -> Output:
        fs = self.phone.fs
        for op, target in redirs:
            if op == "<":
                continue
            if op == "2>&1":
                out, err = out + err.encode(), ""
                continue
            if op == ">&2":
                out, err = b"", err + out.decode("utf-8", "replace")
                continue
            if target in ("/dev/null",):
                if op in (">", ">>", "&>"):
                    out = b""
                if op in ("2>", "2>>", "&>"):
                    err = ""
                continue
            if target in ("/dev/stdout", "/dev/tty"):
                continue
            data = (out + err.encode()) if op == "&>" else (err.encode() if op.startswith("2")
                                                               else out)
            try:
                fs.write(target, data, self.phone.now, append=op.endswith(">>"))
                self.phone.changed()
            except FsError as e:
                return b"", err + f"/system/bin/sh: can't create {target}: {_reason(e)}\n", 1
            if op in (">", ">>", "&>"):
                out = b""
            if op in ("2>", "2>>", "&>"):
                err = ""
        return out, err, code

    def _glob(self, pattern: str) -> list[str]:
        fs = self.phone.fs
        path = normalize(pattern)
        parent, base = posixpath.split(path)
        if any(ch in parent for ch in "*?["):
            return [pattern]
        try:
            names = fs.listdir(parent)
        except FsError:
            return [pattern]
        hits = [posixpath.join(parent, n) for n in names
                if fnmatch.fnmatchcase(n, base) and (base.startswith(".") or not n.startswith("."))]
        return hits or [pattern]


def _reason(e: FsError) -> str:
    return str(e).split(": ", 1)[-1]

