"""Lexing and word expansion for the simulated phone's `sh`.

Two phases, as in a real shell: the script is split into commands with their
raw words (quotes kept), and each word is expanded only when its command runs,
so `$?` sees the previous command's status and `$(...)` runs in order.
Command substitution is executed for real: a caller that fails to quote user
text gets exactly what it would get from Android's mksh.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field


class ShellSyntaxError(Exception):
    pass


OPERATORS = ("&&", "||", ";;", ";", "|", "&", "\n")
REDIRS = ("2>&1", "1>&2", ">&2", "&>", "2>>", ">>", "2>", ">", "<")


@dataclass
class Command:
    words: list[str] = field(default_factory=list)  # raw words, quotes kept
    redirs: list[tuple[str, str]] = field(default_factory=list)  # (op, raw target)


@dataclass
class Pipeline:
    commands: list[Command]
    connector: str = ";"  # how this pipeline joins the *next*: ; && || &


_PLAIN = re.compile(r"[^\s;&|<>\\'\"`$]+")
_SPECIAL = re.compile(r"[\\'\"`$*?\[]")


def _scan_quoted(s: str, i: int) -> int:
    """Index just past the word starting at i (quotes, escapes, $(...) and `...` kept whole)."""
    n = len(s)
    while i < n:
        m = _PLAIN.match(s, i)
        if m is not None:
            i = m.end()
            if i >= n:
                break
        c = s[i]
        if c in " \t\n;&|<>":
            return i
        if c in "\\'\"":
            i = _past_quoting(s, i)
            continue
        if c == "`":
            j = i + 1
            while j < n and s[j] != "`":
                j += 2 if s[j] == "\\" else 1
            if j >= n:
                raise ShellSyntaxError("unterminated `")
            i = j + 1
            continue
        if c == "$" and i + 1 < n and s[i + 1] == "(":
            i = _end_paren(s, i + 2)
            continue
        i += 1
    return i


#: what ends a run of plain characters inside double quotes / in an unquoted word
_DQ_SPECIAL = re.compile(r'[\\"$`]')
_WORD_PLAIN = re.compile(r"[^\\'\"$`*?\[]+")


def _end_double(s: str, i: int) -> int:
    n = len(s)
    while i < n:
        m = _DQ_SPECIAL.search(s, i)
        if m is None:
            break
        i = m.start()
        c = s[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif c == "$" and i + 1 < n and s[i + 1] == "(":
            i = _end_paren(s, i + 2)
        elif c == "`":
            j = i + 1
            while j < n and s[j] != "`":
                j += 2 if s[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    raise ShellSyntaxError("unterminated quoted string")


def _past_quoting(s: str, i: int) -> int:
    """Index past the escape (a backslash and its character) or the quoted string that
    starts at s[i]."""
    c = s[i]
    if c == "\\":
        return i + 2
    if c == "'":
        j = s.find("'", i + 1)
        if j < 0:
            raise ShellSyntaxError("unterminated quoted string")
        return j + 1
    return _end_double(s, i + 1)


def _end_paren(s: str, i: int) -> int:
    """Index past the `)` closing a `$(` whose body starts at i."""
    depth = 1
    n = len(s)
    while i < n:
        c = s[i]
        if c in "\\'\"":
            i = _past_quoting(s, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ShellSyntaxError("unterminated $(")


def parse(script: str) -> list[Pipeline]:
    """Split a script into pipelines of commands with raw words and redirections."""
    pipelines: list[Pipeline] = []
    cmds: list[Command] = []
    cur = Command()
    pending: str | None = None  # a redirection waiting for its target word
    dangling: str | None = None  # an operator that still needs a command after it
    i, n = 0, len(script)
    while i < n:
        c = script[i]
        if c in " \t":
            i += 1
            continue
        if c == "#" and (i == 0 or script[i - 1] in " \t\n;"):
            j = script.find("\n", i)
            i = n if j < 0 else j
            continue
        op = next((o for o in OPERATORS if script.startswith(o, i)), None)
        if op is not None:
            if pending is not None:
                raise ShellSyntaxError(f"syntax error: redirection {pending} needs a target")
            if cur.words or cur.redirs:
                cmds.append(cur)
                cur = Command()
            elif op != "\n" and (not cmds or dangling == "|"):
                raise ShellSyntaxError(f"syntax error: unexpected '{op}'")
            if op == ";;":
                raise ShellSyntaxError("syntax error: unexpected ';;'")
            if op == "|":
                dangling = "|"
            elif cmds:
                pipelines.append(Pipeline(cmds, ";" if op == "\n" else op))
                cmds = []
                dangling = op if op in ("&&", "||") else None
            i += len(op)
            continue
        red = next((r for r in REDIRS if script.startswith(r, i)), None)
        if red is not None and (red[0] not in "12" or i == 0 or script[i - 1] in " \t"):
            if pending is not None:
                raise ShellSyntaxError(f"syntax error: redirection {pending} needs a target")
            if red in ("2>&1", "1>&2", ">&2"):
                cur.redirs.append((">&2" if red != "2>&1" else red, ""))
            else:
                pending = red
            i += len(red)
            continue
        j = _scan_quoted(script, i)
        if j == i:
            raise ShellSyntaxError(f"syntax error: unexpected '{c}'")
        word = script[i:j]
        if pending is not None:
            cur.redirs.append((pending, word))
            pending = None
        else:
            cur.words.append(word)
        dangling = None
        i = j
    if pending is not None:
        raise ShellSyntaxError(f"syntax error: redirection {pending} needs a target")
    if cur.words or cur.redirs:
        cmds.append(cur)
        dangling = None
    if dangling is not None:
        raise ShellSyntaxError("syntax error: unexpected end of file")
    if cmds:
        pipelines.append(Pipeline(cmds, ";"))
    return pipelines


Substitute = Callable[[str], str]


def expand(word: str, variables: dict[str, str], substitute: Substitute) -> tuple[str, bool]:
    """Expand one raw word. Returns (text, has_unquoted_glob)."""
    if _SPECIAL.search(word) is None:
        return word, False
    out: list[str] = []
    glob = False
    i, n = 0, len(word)
    while i < n:
        m = _WORD_PLAIN.match(word, i)
        if m is not None:
            out.append(m.group(0))
            i = m.end()
            continue
        c = word[i]
        if c == "\\":
            if i + 1 < n:
                if word[i + 1] != "\n":
                    out.append(word[i + 1])
                i += 2
            else:
                i += 1
            continue
        if c == "'":
            j = word.index("'", i + 1)
            out.append(word[i + 1 : j])
            i = j + 1
            continue
        if c == '"':
            j = _end_double(word, i + 1)
            out.append(_expand_double(word[i + 1 : j - 1], variables, substitute))
            i = j
            continue
        if c == "$" or c == "`":
            text, i = _dollar(word, i, variables, substitute)
            out.append(text)
            continue
        if c in "*?[":
            glob = True
        out.append(c)
        i += 1
    return "".join(out), glob


def _expand_double(body: str, variables: dict[str, str], substitute: Substitute) -> str:
    if _DQ_SPECIAL.search(body) is None:
        return body
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n and body[i + 1] in '$`"\\\n':
            if body[i + 1] != "\n":
                out.append(body[i + 1])
            i += 2
            continue
        if c == "$" or c == "`":
            text, i = _dollar(body, i, variables, substitute)
            out.append(text)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _dollar(s: str, i: int, variables: dict[str, str], substitute: Substitute) -> tuple[str, int]:
    """Expand `$...` or a backquoted command starting at s[i]."""
    n = len(s)
    if s[i] == "`":
        j = i + 1
        body = []
        while j < n and s[j] != "`":
            if s[j] == "\\" and j + 1 < n and s[j + 1] in "`\\$":
                body.append(s[j + 1])
                j += 2
                continue
            body.append(s[j])
            j += 1
        return substitute("".join(body)).rstrip("\n"), j + 1
    if i + 1 >= n:
        return "$", i + 1
    nxt = s[i + 1]
    if nxt == "(":
        j = _end_paren(s, i + 2)
        return substitute(s[i + 2 : j - 1]).rstrip("\n"), j
    if nxt == "{":
        j = s.find("}", i + 2)
        if j < 0:
            raise ShellSyntaxError("bad substitution")
        return variables.get(s[i + 2 : j], ""), j + 1
    if nxt in "?$#!0":
        return variables.get(nxt, ""), i + 2
    j = i + 1
    while j < n and (s[j].isalnum() or s[j] == "_"):
        j += 1
    if j == i + 1:
        return "$", i + 1
    return variables.get(s[i + 1 : j], ""), j
