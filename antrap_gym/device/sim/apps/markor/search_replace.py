"""The editor's Search / Replace, as Markor's SearchAndReplaceTextDialog works.

A "Search for" and a "Replace with" field, "Regex" and "Multiline" (only with Regex)
check boxes, a "Matches: N" line, and "Replace (1)" / "Replace all". Without Regex
the search text is literal and case-sensitive; the replacement's escapes (\\n, \\t)
are expanded first, then `$1`-style group references and `\\$` are read as Java's
Matcher does. "Replace (1)" replaces the first match after the cursor, else the
first one. Python's `re` stands in for Java's regex (the common syntax agrees).
"""

from __future__ import annotations

import re

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


class PatternError(ValueError):
    """The search or replace text is not a valid pattern."""


def unescape(s: str) -> str:
    """Markor's unescapeString: \\n, \\t, \\r and \\\\ (the rest left as typed)."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] in _ESCAPES:
            out.append(_ESCAPES[s[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def pattern(search: str, regex: bool, multiline: bool) -> re.Pattern[str]:
    if not regex:
        return re.compile(re.escape(search))
    try:
        return re.compile(search, re.MULTILINE if multiline else 0)
    except re.error as e:
        raise PatternError(str(e)) from None


def _expand(m: re.Match[str], repl: str) -> str:
    """A Java replacement string for one match: `$n` is group n, `\\x` is x."""
    out, i = [], 0
    while i < len(repl):
        c = repl[i]
        if c == "\\":
            if i + 1 >= len(repl):
                raise PatternError("character to be escaped is missing")
            out.append(repl[i + 1])
            i += 2
        elif c == "$":
            j = i + 1
            while j < len(repl) and repl[j].isdigit():
                j += 1
            if j == i + 1:
                raise PatternError("illegal group reference")
            n = int(repl[i + 1:j])
            if n > (m.re.groups or 0):
                raise PatternError(f"no group {n}")
            out.append(m.group(n) or "")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def count(text: str, search: str, replace: str, regex: bool, multiline: bool) -> int:
    """How many matches (raises PatternError when a pattern is bad, as the dialog's
    trial replacement does)."""
    if not search:
        return 0
    p = pattern(search, regex, multiline)
    n = sum(1 for _ in p.finditer(text))
    if n:
        replaced(text, search, replace, regex, multiline, all_=False, cursor=-1)
    return n


def replaced(text: str, search: str, replace: str, regex: bool, multiline: bool,
             all_: bool, cursor: int) -> str:
    """The text after Replace all / Replace (1) with the cursor at `cursor` (-1: none)."""
    p = pattern(search, regex, multiline)
    repl = unescape(replace)

    def sub(m: re.Match[str]) -> str:
        return _expand(m, repl)

    if all_:
        return p.sub(sub, text)
    if 0 < cursor < len(text) and p.search(text, cursor):
        return text[:cursor] + p.sub(sub, text[cursor:], count=1)
    return p.sub(sub, text, count=1)
