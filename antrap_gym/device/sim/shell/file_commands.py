"""toybox-style file and text commands: ls, cat, rm, mkdir, echo, grep, ..."""

from __future__ import annotations

import base64
import binascii
import calendar
import fnmatch
import posixpath
import re
import time

from antrap_gym.device.sim.shell.registry import MAX_DEPTH, Output, ShellSession, command
from antrap_gym.device.sim.storage.files import FsError, normalize


def _split_flags(args: list[str], known: str) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    rest: list[str] = []
    end = False
    for a in args:
        if not end and a == "--":
            end = True
        elif not end and a.startswith("-") and len(a) > 1 and all(ch in known for ch in a[1:]):
            flags.update(a[1:])
        else:
            rest.append(a)
    return flags, rest


def _bad_flags(name: str, args: list[str], known: str) -> str | None:
    for a in args:
        if a == "--":
            return None
        if a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            bad = [ch for ch in a[1:] if ch not in known]
            if bad:
                return f"{name}: Unknown option '{bad[0]}' (see \"{name} --help\")\n"
    return None


def _fmt_time(secs: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(secs))


@command("ls")
def ls(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    err = _bad_flags("ls", args, "1aAlRdFhst")
    if err:
        return b"", err, 1
    flags, paths = _split_flags(args, "1aAlRdFhst")
    fs = sh.phone.fs
    paths = paths or ["."]
    out: list[str] = []
    errs: list[str] = []
    code = 0

    def entry(path: str, name: str) -> str:
        if "l" not in flags:
            return name
        if fs.isdir(path):
            return f"drwxrwx--x 2 root sdcard_rw 3452 {_fmt_time(fs.mtime(path))} {name}"
        size = len(fs.read(path))
        return f"-rw-rw---- 1 root sdcard_rw {size:>4} {_fmt_time(fs.mtime(path))} {name}"

    multi = len(paths) > 1
    for i, p in enumerate(paths):
        full = normalize(p, "/")
        if not fs.exists(full):
            errs.append(f"ls: {p}: No such file or directory\n")
            code = 1
            continue
        if fs.isfile(full) or "d" in flags:
            out.append(entry(full, p))
            continue
        if "R" in flags:
            out.extend(_ls_recursive(fs, full, p))
            continue
        if multi:
            out.append(("\n" if i else "") + f"{p}:")
        names = fs.listdir(full)
        if "t" in flags:  # newest first, as toybox sorts by modification time
            names = sorted(names, key=lambda n, d=full: -fs.mtime(posixpath.join(d, n)))
        if "a" in flags:
            names = [".", "..", *names]
        elif "A" not in flags:
            names = [n for n in names if not n.startswith(".")]
        if "l" in flags:
            out.append(f"total {len(names) * 8}")
        for n in names:
            child = full if n in (".", "..") else posixpath.join(full, n)
            out.append(entry(child, n))
    text = "\n".join(out) + ("\n" if out else "")
    return text.encode(), "".join(errs), code


def _ls_recursive(fs, full: str, shown: str) -> list[str]:
    """`ls -R`: each directory's entries under a `path:` header, depth first."""
    lines = [f"{shown}:"]
    names = [n for n in fs.listdir(full) if not n.startswith(".")]
    lines.extend(names)
    for n in names:
        child = posixpath.join(full, n)
        if fs.isdir(child):
            lines.append("")
            lines.extend(_ls_recursive(fs, child, posixpath.join(shown, n)))
    return lines


@command("cat")
def cat(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return stdin, "", 0
    out = bytearray()
    errs = []
    code = 0
    for p in args:
        if p == "-":
            out += stdin
            continue
        try:
            out += sh.phone.fs.read(p)
        except FsError as e:
            errs.append(f"cat: {e}\n")
            code = 1
    return bytes(out), "".join(errs), code


@command("rm")
def rm(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    err = _bad_flags("rm", args, "rfRiv")
    if err:
        return b"", err, 1
    flags, paths = _split_flags(args, "rfRiv")
    if not paths:
        return b"", "rm: Needs 1 argument (see \"rm --help\")\n", 1
    errs, code = [], 0
    for p in paths:
        try:
            if sh.phone.fs.isdir(p) and not flags & {"r", "R"}:
                raise FsError(f"{p}: Is a directory")
            sh.phone.fs.remove(p, recursive=bool(flags & {"r", "R"}))
        except FsError as e:
            if "f" in flags and "No such file" in str(e):
                continue
            errs.append(f"rm: {e}\n")
            code = 1
    return b"", "".join(errs), code


@command("rmdir")
def rmdir(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", "rmdir: Needs 1 argument\n", 1
    errs, code = [], 0
    for p in args:
        try:
            sh.phone.fs.rmdir(p)
        except FsError as e:
            errs.append(f"rmdir: {e}\n")
            code = 1
    return b"", "".join(errs), code


@command("mkdir")
def mkdir(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    err = _bad_flags("mkdir", args, "pv")
    if err:
        return b"", err, 1
    flags, paths = _split_flags(args, "pv")
    if not paths:
        return b"", "mkdir: Needs 1 argument (see \"mkdir --help\")\n", 1
    errs, code = [], 0
    for p in paths:
        try:
            sh.phone.fs.mkdir(p, sh.phone.now, parents="p" in flags)
        except FsError as e:
            errs.append(f"mkdir: {e}\n")
            code = 1
    return b"", "".join(errs), code


def _touch_time(opt: str, value: str) -> int | None:
    """toybox touch's -d (`@SECONDS`, `YYYY-MM-DD[ T]hh:mm[:ss]`, UTC like the device
    clock) and -t (`[[CC]YY]MMDDhhmm[.ss]`) as seconds since the epoch; None if bad."""
    if opt == "-d":
        if value.startswith("@") and value[1:].isdigit():
            return int(value[1:])
        m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d))?)?(?:\.\d+)?Z?",
                         value.strip())
        if not m:
            return None
        parts = [int(g) if g else 0 for g in m.groups()]
    else:
        m = re.fullmatch(r"((?:\d\d)?\d\d)?(\d\d)(\d\d)(\d\d)(\d\d)(?:\.(\d\d))?", value)
        if not m:
            return None
        year = m.group(1) or "2023"
        year = ("20" + year) if len(year) == 2 else year
        parts = [int(year), *(int(g) for g in m.groups()[1:5]), int(m.group(6) or 0)]
    try:
        return calendar.timegm(time.struct_time((*parts, 0, 0, 0)))
    except (OverflowError, ValueError):
        return None


@command("touch")
def touch(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    when, create, paths = sh.phone.now, True, []
    it = iter(args)
    for a in it:
        if a in ("-d", "-t"):
            value = next(it, None)
            when = _touch_time(a, value) if value is not None else None
            if when is None:
                return b"", f"touch: bad date '{value}'\n", 1
        elif a == "-c":
            create = False
        elif a in ("-a", "-m", "-am", "-ma"):
            continue
        else:
            paths.append(a)
    if not paths:
        return b"", "touch: Needs 1 argument\n", 1
    errs, code = [], 0
    for p in paths:
        if not create and not sh.phone.fs.exists(p):
            continue
        try:
            sh.phone.fs.touch(p, when)
        except FsError as e:
            errs.append(f"touch: {e}\n")
            code = 1
    return b"", "".join(errs), code


def _unescape(s: str) -> str:
    try:
        return s.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return s


@command("echo")
def echo(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    newline, escapes = True, False
    while args and args[0] in ("-n", "-e", "-ne", "-en", "-E"):
        a = args.pop(0)
        newline = newline and "n" not in a
        escapes = escapes or "e" in a
    text = " ".join(args)
    if escapes:
        text = _unescape(text)
    return (text + ("\n" if newline else "")).encode("utf-8", "surrogatepass"), "", 0


@command("printf")
def printf(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", "printf: Needs 1 argument\n", 1
    fmt, values = _unescape(args[0]), args[1:]
    out = []
    i = 0
    for m in re.finditer(r"%(%|s|d|i)|[^%]+|%", fmt):
        tok = m.group(0)
        if tok == "%%":
            out.append("%")
        elif tok in ("%s", "%d", "%i"):
            v = values[i] if i < len(values) else ""
            i += 1
            if tok != "%s":
                try:
                    v = str(int(v or 0))
                except ValueError:
                    return b"", f"printf: invalid number '{v}'\n", 1
            out.append(v)
        else:
            out.append(tok)
    return "".join(out).encode(), "", 0


def _transfer(sh: ShellSession, args: list[str], name: str, flags: str, how) -> Output:
    """`mv` / `cp`: every source path to the last one (`how(fs, src, dst, now)`), toybox's
    messages for each that fails."""
    _flags, paths = _split_flags(args, flags)
    if len(paths) < 2:
        return b"", f"{name}: Needs 2 arguments\n", 1
    *srcs, dst = paths
    errs, code = [], 0
    for src in srcs:
        try:
            how(sh.phone.fs, src, dst, sh.phone.now)
        except FsError as e:
            errs.append(f"{name}: {e}\n")
            code = 1
    return b"", "".join(errs), code


@command("mv")
def mv(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return _transfer(sh, args, "mv", "fnv", lambda fs, src, dst, now: fs.move(src, dst, now))


@command("cp")
def cp(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return _transfer(sh, args, "cp", "frRpv", lambda fs, src, dst, now: fs.copy(src, dst, now))


@command("find")
def find(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    fs = sh.phone.fs
    roots: list[str] = []
    name = None
    kind = None
    maxdepth = 10**6
    mindepth = 0
    delete = False
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-name", "-iname", "-type", "-maxdepth", "-mindepth") and i + 1 < len(args):
            if a in ("-name", "-iname"):
                name = (args[i + 1], a == "-iname")
            elif a == "-type":
                kind = args[i + 1]
            else:
                try:
                    depth_arg = int(args[i + 1])
                except ValueError:
                    return b"", f"find: bad {a} '{args[i + 1]}'\n", 1
                if a == "-maxdepth":
                    maxdepth = depth_arg
                else:
                    mindepth = depth_arg
            i += 2
        elif a == "-delete":  # toybox: remove what matches (a folder only when empty)
            delete = True
            i += 1
        elif a.startswith("-"):
            return b"", f"find: Unknown option '{a}'\n", 1
        else:
            roots.append(a)
            i += 1
    out, errs, code = [], [], 0
    for root in roots or ["."]:
        base = normalize(root, "/")
        if not fs.exists(base):
            errs.append(f"find: {root}: No such file or directory\n")
            code = 1
            continue
        todo = [(base, root, 0)]
        while todo:
            full, shown, depth = todo.pop(0)
            is_dir = fs.isdir(full)
            ok = kind is None or (kind == "d") == is_dir
            if name is not None:
                pat, ci = name
                leaf = posixpath.basename(shown.rstrip("/")) or shown
                ok = ok and (fnmatch.fnmatch(leaf.lower(), pat.lower()) if ci
                             else fnmatch.fnmatchcase(leaf, pat))
            if ok and depth >= mindepth:
                out.append(full if delete else shown)
            if is_dir and depth < maxdepth:
                for n in fs.listdir(full):
                    todo.append((posixpath.join(full, n), posixpath.join(shown, n), depth + 1))
    if delete:  # deepest first, printing nothing, as -delete does
        for path in reversed(out):
            try:
                fs.rmdir(path) if fs.isdir(path) else fs.remove(path)
            except FsError as e:
                errs.append(f"find: {e}\n")
                code = 1
        out = []
    return ("\n".join(out) + ("\n" if out else "")).encode(), "".join(errs), code


@command("stat")
def stat(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    fmt = "  File: %n\n  Size: %s\n Type: %F\nModify: %y\n"
    paths = []
    i = 0
    while i < len(args):
        if args[i] == "-c" and i + 1 < len(args):
            fmt = args[i + 1] + "\n"
            i += 2
        else:
            paths.append(args[i])
            i += 1
    fs = sh.phone.fs
    out, errs, code = [], [], 0
    for p in paths:
        if not fs.exists(p):
            errs.append(f"stat: '{p}': No such file or directory\n")
            code = 1
            continue
        is_dir = fs.isdir(p)
        size = 3452 if is_dir else len(fs.read(p))
        mt = fs.mtime(p)
        rep = {"%n": p, "%s": str(size), "%F": "directory" if is_dir else "regular file",
               "%Y": str(mt), "%y": time.strftime("%Y-%m-%d %H:%M:%S.000000000 +0000",
                                                  time.gmtime(mt))}
        out.append(re.sub(r"%[nsFYy]", lambda m, rep=rep: rep[m.group(0)], fmt))
    return "".join(out).encode(), "".join(errs), code


def _input_lines(sh: ShellSession, files: list[str], stdin: bytes) -> tuple[list[str], str]:
    if not files:
        return stdin.decode("utf-8", "replace").splitlines(), ""
    lines: list[str] = []
    errs = ""
    for f in files:
        try:
            lines += sh.phone.fs.read_text(f).splitlines()
        except FsError as e:
            errs += f"{e}\n"
    return lines, errs


@command("grep")
def grep(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    flags, rest = _split_flags(args, "ivcqEFnwo")
    if not rest:
        return b"", "grep: Needs 1 argument\n", 2
    pattern, files = rest[0], rest[1:]
    lines, errs = _input_lines(sh, files, stdin)
    try:
        rx = re.compile(re.escape(pattern) if "F" in flags else _bre(pattern, "E" in flags),
                        re.IGNORECASE if "i" in flags else 0)
    except re.error as e:
        return b"", f"grep: bad regex '{pattern}': {e}\n", 2
    hits = [ln for ln in lines if bool(rx.search(ln)) != ("v" in flags)]
    if "q" in flags:
        return b"", "", 0 if hits else 1
    if "c" in flags:
        return f"{len(hits)}\n".encode(), errs, 0 if hits else 1
    return ("\n".join(hits) + ("\n" if hits else "")).encode(), errs, 0 if hits else 1


def _bre(p: str, extended: bool) -> str:
    if extended:
        return p
    # basic regex: \| \( \) \{ \} are operators, bare ( ) { } | + ? are literals
    out, i = [], 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            nxt = p[i + 1]
            out.append(nxt if nxt in "|(){}+?" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "|(){}+?" else c)
        i += 1
    return "".join(out)


def _head_tail_args(name: str, args: list[str]) -> tuple[str, int, bool, list[str], bool]:
    """(unit "n"|"c", count, from_start (tail +N), files, headers) or ValueError(message)."""
    unit, count, from_start, files = "n", 10, False, []
    headers: bool | None = None
    i, end = 0, False
    while i < len(args):
        a = args[i]
        i += 1
        if end or a == "-" or not a.startswith(("-", "+")) or (a.startswith("+") and name == "head"):
            files.append(a)
            continue
        if a == "--":
            end = True
            continue
        if a in ("-q", "--quiet", "--silent"):
            headers = False
            continue
        if a in ("-v", "--verbose"):
            headers = True
            continue
        if a.startswith("--lines=") or a.startswith("--bytes="):
            unit, value = ("n" if a[2] == "l" else "c"), a.split("=", 1)[1]
        elif a[:2] in ("-n", "-c"):
            unit, value = a[1], a[2:]
            if not value:
                if i >= len(args):
                    raise ValueError(f"{name}: option requires an argument -- '{unit}'")
                value = args[i]
                i += 1
        elif a[1:].isdigit():  # -N, and tail's +N
            value = a if a.startswith("+") else a[1:]
        else:
            raise ValueError(f"{name}: Unknown option '{a.lstrip('-')[:1]}' (see \"{name} --help\")")
        from_start = name == "tail" and value.startswith("+")
        digits = value.lstrip("+-") if name == "tail" else value.lstrip("-")
        if not digits.isdigit():
            raise ValueError(f"{name}: not integer: {value}")
        count = int(digits)
    return unit, count, from_start, files, bool(headers) if headers is not None else len(files) > 1


def _head_tail_cut(data: bytes, name: str, unit: str, n: int, from_start: bool) -> bytes:
    if unit == "c":
        if name == "head":
            return data[:n]
        return data[max(0, n - 1):] if from_start else (data[-n:] if n else b"")
    lines = data.splitlines(keepends=True)  # a last line without "\n" stays without one
    if name == "head":
        return b"".join(lines[:n])
    return b"".join(lines[max(0, n - 1):] if from_start else (lines[-n:] if n else []))


@command("head", "tail")
def head_tail(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    """`head|tail [-n N | -c N | -N] [-q|-v] [FILE...]`, byte-exact; `tail -n +N` / `-c +N`
    start at line / byte N."""
    name = sh.current if sh.current in ("head", "tail") else "head"
    try:
        unit, n, from_start, files, headers = _head_tail_args(name, args)
    except ValueError as e:
        return b"", f"{e}\n", 1
    out = bytearray()
    errs = ""
    code = 0
    for k, f in enumerate(files or ["-"]):
        if f == "-":
            data = stdin
        else:
            try:
                data = sh.phone.fs.read(f)
            except FsError as e:
                errs += f"{name}: {e}\n"
                code = 1
                continue
        if headers:
            out += f"{chr(10) if k else ''}==> {'standard input' if f == '-' else f} <==\n".encode()
        out += _head_tail_cut(data, name, unit, n, from_start)
    return bytes(out), errs, code


@command("wc")
def wc(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    flags, files = _split_flags(args, "lcwm")
    data = stdin if not files else b"".join(sh.phone.fs.read(f) for f in files)
    text = data.decode("utf-8", "replace")
    counts = {"l": text.count("\n"), "w": len(text.split()), "c": len(data), "m": len(text)}
    keys = [k for k in "lwcm" if k in flags] or ["l", "w", "c"]
    return (" ".join(str(counts[k]) for k in keys) + "\n").encode(), "", 0


@command("sort")
def sort(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    flags, files = _split_flags(args, "rnu")
    lines, errs = _input_lines(sh, files, stdin)

    def key(s: str):
        if "n" in flags:
            m = re.match(r"\s*(-?\d+(\.\d+)?)", s)
            return (float(m.group(1)) if m else 0.0, s)
        return (0.0, s)

    lines = sorted(set(lines) if "u" in flags else lines, key=key, reverse="r" in flags)
    return ("\n".join(lines) + ("\n" if lines else "")).encode(), errs, 0


@command("base64")
def b64(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    flags, files = _split_flags(args, "dw")
    data = stdin if not files else sh.phone.fs.read(files[0])
    if "d" in flags:
        try:
            return base64.b64decode(data.strip(), validate=False), "", 0
        except (binascii.Error, ValueError):
            return b"", "base64: invalid input\n", 1
    return base64.b64encode(data) + b"\n", "", 0


@command("test", "[")
def test(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if sh.current == "[":
        if not args or args[-1] != "]":
            return b"", "[: missing ]\n", 2
        args = args[:-1]
    fs = sh.phone.fs
    neg = False
    if args and args[0] == "!":
        neg, args = True, args[1:]
    if len(args) == 2 and args[0] in ("-e", "-f", "-d", "-s", "-z", "-n"):
        op, v = args
        res = {"-e": lambda: fs.exists(v), "-f": lambda: fs.isfile(v),
               "-d": lambda: fs.isdir(v), "-s": lambda: fs.isfile(v) and bool(fs.read(v)),
               "-z": lambda: v == "", "-n": lambda: v != ""}[op]()
    elif len(args) == 3 and args[1] in ("=", "!=", "-eq", "-ne", "-lt", "-gt", "-le", "-ge"):
        a, op, b = args
        if op in ("=", "!="):
            res = (a == b) == (op == "=")
        else:
            try:
                x, y = int(a), int(b)
            except ValueError:
                return b"", "test: bad number\n", 2
            res = {"-eq": x == y, "-ne": x != y, "-lt": x < y, "-gt": x > y, "-le": x <= y,
                   "-ge": x >= y}[op]
    elif len(args) == 1:
        res = args[0] != ""
    elif not args:
        res = False
    else:
        return b"", "test: syntax error\n", 2
    return b"", "", 0 if res != neg else 1


@command("true")
def true_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return b"", "", 0


@command("false")
def false_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return b"", "", 1


@command("exit")
def exit_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    try:
        return b"", "", int(args[0]) & 0xFF if args else sh.status
    except ValueError:
        return b"", f"exit: {args[0]}: bad number\n", 2


@command("sh")
def sh_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if len(args) >= 2 and args[0] == "-c":
        if sh.depth >= MAX_DEPTH:
            return b"", "sh: too deep\n", 2
        sh.depth += 1
        try:
            return sh.run_script(args[1])
        finally:
            sh.depth -= 1
    if not args and stdin:
        return sh.run_script(stdin.decode("utf-8", "replace"))
    return b"", "sh: interactive shells are not supported\n", 2


@command("pwd")
def pwd(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return b"/\n", "", 0


@command("id")
def id_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return (b"uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),"
            b"1011(adb),1015(sdcard_rw),1028(sdcard_r),3003(inet) context=u:r:shell:s0\n"), "", 0


@command("whoami")
def whoami(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return b"shell\n", "", 0


@command("uname")
def uname(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if "-a" in args:
        return b"Linux localhost 5.10.157-android13-4 #1 SMP PREEMPT aarch64 Toybox\n", "", 0
    return b"Linux\n", "", 0


@command("basename", "dirname")
def base_dir(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", f"{sh.current}: Needs 1 argument\n", 1
    p = args[0].rstrip("/") or "/"
    res = posixpath.basename(p) if sh.current == "basename" else (posixpath.dirname(p) or ".")
    return (res + "\n").encode(), "", 0
