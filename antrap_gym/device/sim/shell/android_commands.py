"""Android's own shell tools: input, am, monkey, pm, settings, content, sqlite3,
uiautomator, screencap, wm, dumpsys, getprop, date, cmd, svc, ime, sleep."""

from __future__ import annotations

import base64
import binascii
import io
import sqlite3
import struct
import time

import numpy as np
from PIL import Image

from antrap_gym.device.sim.intents import Intent, deliver, handlers, view
from antrap_gym.device.sim.keycodes import keycode_of
from antrap_gym.device.sim.shell.registry import Output, ShellSession, command
from antrap_gym.device.sim.storage import radios
from antrap_gym.device.sim.storage.clipboard import CLIPPER_GET, CLIPPER_SET, clipper
from antrap_gym.device.sim.storage.confine import memory_db
from antrap_gym.device.sim.storage.content import ContentError, format_rows, parse_bind
from antrap_gym.device.sim.storage.files import normalize
from antrap_gym.device.sim.storage.props import DEFAULT_PROPS
from antrap_gym.device.sim.storage.settings import NAMESPACES, STREAMS
from antrap_gym.device.sim.storage.sqlite import SqlError
from antrap_gym.device.sim.uixml import dump_xml
from antrap_gym.device.sim.wm import LAUNCHER

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
GBOARD = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"

#: the defaults `getprop` reports (a phone's `prop_overrides` win)
PROPS = DEFAULT_PROPS

#: the action that names no activity: `am start -a android.intent.action.MAIN -p PKG`
ACTION_MAIN = "android.intent.action.MAIN"

IME_ACTION_INPUT = {"ADB_INPUT_TEXT", "ADB_INPUT_B64"}
#: system broadcasts only the system may send (`am broadcast` from the shell is refused)
PROTECTED_BROADCASTS = {"android.intent.action.AIRPLANE_MODE", "android.intent.action.BOOT_COMPLETED",
                        "android.intent.action.SCREEN_ON", "android.intent.action.SCREEN_OFF"}


def _usage(name: str, msg: str) -> Output:
    return b"", f"{msg}\n", 1


def _nums(args: list[str], n_min: int, n_max: int, what: str) -> list[float] | str:
    if not (n_min <= len(args) <= n_max):
        return f"Error: Invalid arguments for command: {what}"
    try:
        vals = [float(a) for a in args]
    except ValueError:
        return f"Error: Invalid arguments for command: {what}"
    if any(v != v or abs(v) > 1e7 for v in vals):  # NaN or absurd
        return f"Error: Invalid arguments for command: {what}"
    return vals


@command("input")
def input_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    phone = sh.phone
    sources = {"keyboard", "mouse", "touchscreen", "touchpad", "stylus", "trackball", "dpad",
               "gamepad", "joystick", "touchnavigation", "rotaryencoder"}
    if args and args[0] in sources:
        args = args[1:]
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args:
        return _usage("input", "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]")
    cmd, rest = args[0], args[1:]
    if cmd == "tap":
        v = _nums(rest, 2, 2, "tap")
        if isinstance(v, str):
            return b"", v + "\n", 1
        phone.tap(v[0], v[1])
    elif cmd in ("swipe", "draganddrop"):
        v = _nums(rest, 4, 5, cmd)
        if isinstance(v, str):
            return b"", v + "\n", 1
        dur = int(v[4]) if len(v) == 5 else 300
        phone.swipe(v[0], v[1], v[2], v[3], max(0, dur))
    elif cmd == "text":
        if not rest:
            return b"", "Error: Invalid arguments for command: text\n", 1
        text = " ".join(rest).replace("%s", " ")
        bad = [ch for ch in text if ord(ch) > 126 or (ord(ch) < 32 and ch not in "\n\t")]
        if bad:
            return (b"", "Exception occurred while executing 'text':\njava.lang.IllegalArgument"
                    f"Exception: no key mapping for character {bad[0]!r} in the virtual keyboard\n", 1)
        phone.input_text(text)
    elif cmd == "keyevent":
        keys = [a for a in rest if a not in ("--longpress", "--doubletap")]
        if not keys:
            return b"", "Error: Invalid arguments for command: keyevent\n", 1
        codes = [keycode_of(k) for k in keys]
        if any(c is None for c in codes):
            bad = keys[codes.index(None)]
            return b"", f"Error: Unknown keycode: {bad}\n", 1
        for c in codes:
            phone.key(c)  # type: ignore[arg-type]
            if "--doubletap" in rest:
                phone.key(c)  # type: ignore[arg-type]
    elif cmd == "keycombination":
        keys = rest[2:] if rest[:1] == ["-t"] else rest
        codes = [keycode_of(k) for k in keys]
        if len(codes) < 2 or any(c is None for c in codes):
            return b"", "Error: Invalid arguments for command: keycombination\n", 1
        phone.key_combination(codes)  # type: ignore[arg-type]
    elif cmd == "press":
        phone.key(23)
    elif cmd == "roll":
        v = _nums(rest, 2, 2, "roll")
        if isinstance(v, str):
            return b"", v + "\n", 1
    else:
        return b"", f"Error: Unknown command: {cmd}\n", 1
    return b"", "", 0


def _parse_intent(rest: list[str]) -> tuple[dict[str, str], dict[str, str], list[str]] | str:
    opts: dict[str, str] = {}
    extras: dict[str, str] = {}
    flags: list[str] = []
    i = 0
    takes = {"-n", "-a", "-d", "-t", "-c", "-f", "--user", "-p"}
    while i < len(rest):
        a = rest[i]
        if a in takes:
            if i + 1 >= len(rest):
                return f"Error: No argument given for {a}"
            opts[a] = rest[i + 1]
            i += 2
        elif a in ("-e", "--es", "--ei", "--ez", "--el", "--ef", "--eu", "--esa"):
            if i + 2 >= len(rest):
                return f"Error: No argument given for {a}"
            extras[rest[i + 1]] = rest[i + 2]
            i += 3
        elif a.startswith("-"):
            flags.append(a)
            i += 1
        else:
            if "-n" not in opts and "/" in a:
                opts["-n"] = a
            i += 1
    return opts, extras, flags


@command("am")
def am(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    phone = sh.phone
    if not args:
        return _usage("am", "Activity manager (activity) commands:\n  start, force-stop, broadcast")
    sub, rest = args[0], args[1:]
    if sub in ("start", "start-activity"):
        parsed = _parse_intent(rest)
        if isinstance(parsed, str):
            return b"", parsed + "\n", 1
        opts, _extras, flags = parsed
        comp = opts.get("-n")
        data = Intent(opts.get("-a", ""), opts.get("-d", ""), opts.get("-t", "")) \
            if "-d" in opts or "-t" in opts else None
        if comp:
            pkg, _, act = comp.partition("/")
            if not act:
                return b"", f"Error: Bad component name: {comp}\n", 1
            if "-S" in flags:
                phone.force_stop(pkg)
            if data is None:
                err = phone.launch(pkg, act)
                shown = f"cmp={comp}"
            else:  # the activity is handed the data
                err = deliver(phone, pkg, data, act)
                shown = f"{data.describe()} cmp={comp}"
        elif data is not None and handlers(phone, data, opts.get("-p")):
            # resolved by the apps' intent filters (`App.intent_filters`)
            view(phone, data, package=opts.get("-p"))
            return f"Starting: Intent {{ {data.describe()} }}\n".encode(), "", 0
        elif opts.get("-a") == ACTION_MAIN or _intent_target(phone, opts.get("-a")):
            if opts["-a"] == ACTION_MAIN:
                pkg, act = opts.get("-p"), None
                if pkg is None:
                    return b"", "Error: Activity not started, unable to resolve Intent\n", 1
            else:
                pkg, act = _intent_target(phone, opts["-a"])  # type: ignore[misc]
            err = phone.launch(pkg, act)
            shown = f"act={opts['-a']}"
        elif opts.get("-p"):
            err = phone.launch(opts["-p"])
            shown = f"pkg={opts['-p']}"
        else:
            return b"", "Error: Activity not started, unable to resolve Intent\n", 1
        if err:
            return (f"Starting: Intent {{ {shown} }}\n").encode(), \
                f"Error type 3\nError: Activity class does not exist: {err}\n", 1
        return f"Starting: Intent {{ {shown} }}\n".encode(), "", 0
    if sub == "force-stop":
        if not rest:
            return b"", "Error: no package specified\n", 1
        phone.force_stop(rest[-1])
        return b"", "", 0
    if sub == "kill":
        return b"", "", 0
    if sub == "broadcast":
        return _broadcast(phone, rest)
    if sub == "stack" or sub == "task":
        return b"", "", 0
    return b"", f"Error: Unknown command: {sub}\n", 1


def _intent_target(phone, action: str | None) -> tuple[str, str | None] | None:
    """(package, activity) of the first installed app whose `intents` has `action`."""
    for pkg, app in phone.apps.items():
        if action in app.intents:
            return pkg, app.intents[action]
    return None


def _broadcast(phone, rest: list[str]) -> Output:
    """`am broadcast`, printed as Android 13 prints it. The ADBKeyboard IME (when it is
    the current input method) commits ADB_INPUT_TEXT / ADB_INPUT_B64 text into the
    focused field. Its receiver never sets a result code, so the ordered broadcast
    reports the initial one, `result=0` -- the same as when nobody received it."""
    parsed = _parse_intent(rest)
    if isinstance(parsed, str):
        return b"", parsed + "\n", 1
    opts, extras, _flags = parsed
    action = opts.get("-a", "")
    fields = [f"act={action}"] if action else []
    if opts.get("-n"):
        fields.append(f"cmp={opts['-n']}")
    fields.append("flg=0x400000")  # am adds FLAG_RECEIVER_FOREGROUND
    if extras:
        fields.append("(has extras)")
    shown = f"Broadcasting: Intent {{ {' '.join(fields)} }}\n"
    if action in PROTECTED_BROADCASTS:
        # since Android 7 the shell (uid 2000) may not send these: `settings put` alone
        # changes the setting, nothing reacts to the broadcast
        return shown.encode(), (f"Security exception: Permission Denial: not allowed to send "
                                f"broadcast {action} from pid=4127, uid=2000\n"), 255
    if action in (CLIPPER_GET, CLIPPER_SET):
        # Clipper's receiver answers with a result code and the text as the result data
        code, data = clipper(phone.clipboard, action, extras)
        if action == CLIPPER_SET:
            phone.changed()
        return (shown + f'Broadcast completed: result={code}, data="{data}"\n').encode(), "", 0
    if action in IME_ACTION_INPUT and phone.settings.get("secure", "default_input_method") == ADB_KEYBOARD:
        msg = extras.get("msg")
        if msg is not None and action == "ADB_INPUT_B64":
            # Android's Base64.decode(DEFAULT) stops at the first bad character with an
            # IllegalArgumentException: the receiver dies, nothing is typed; am still reports
            # the broadcast as completed
            try:
                msg = base64.b64decode(msg, validate=True).decode("utf-8")
            except (binascii.Error, ValueError):
                msg = None
        if msg is not None:
            phone.input_text(msg)
    return (shown + "Broadcast completed: result=0\n").encode(), "", 0


@command("monkey")
def monkey(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    pkg = None
    i = 0
    count = None
    while i < len(args):
        if args[i] == "-p" and i + 1 < len(args):
            pkg = args[i + 1]
            i += 2
        elif args[i] in ("-c", "--throttle", "-s", "--pct-syskeys") and i + 1 < len(args):
            i += 2
        elif args[i].startswith("-"):
            i += 1
        else:
            count = args[i]
            i += 1
    if count is None or not count.isdigit():
        return b"", "** Error: Count not specified\n", 1
    if pkg is None or pkg not in sh.phone.apps or not sh.phone.apps[pkg].launchable:
        return b"", "** No activities found to run, monkey aborted.\n", 1
    sh.phone.launch(pkg)
    return (b"  bash arg: -p\n  bash arg: " + pkg.encode() + b"\n"
            b"Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, "
            b"12ms not connected)\n"), "", 0


@command("pm")
def pm(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    phone = sh.phone
    if not args:
        return _usage("pm", "usage: pm list packages | pm path PKG | pm clear PKG")
    sub, rest = args[0], args[1:]
    pkgs = sorted(phone.apps)
    if sub == "list" and rest[:1] == ["packages"]:
        needle = next((r for r in rest[1:] if not r.startswith("-")), "")
        lines = [f"package:{p}" for p in pkgs if needle in p]
        return ("\n".join(lines) + "\n").encode(), "", 0
    if sub == "path" and rest:
        if rest[0] not in phone.apps:
            return b"", "", 1
        return f"package:/data/app/{rest[0]}-1/base.apk\n".encode(), "", 0
    if sub == "clear" and rest:
        pkg = rest[-1]
        app = phone.apps.get(pkg)
        if app is None:
            return b"Failed\n", "", 1
        phone.force_stop(pkg)
        clear = getattr(app, "clear_data", None)
        if clear is not None:
            clear(phone)
        phone.state.permissions.reset(pkg)
        return b"Success\n", "", 0
    if sub in ("grant", "revoke"):
        return _grant(phone, sub, rest)
    return b"", f"Unknown command: {sub}\n", 1


def _grant(phone, sub: str, rest: list[str]) -> Output:
    """`pm grant|revoke PKG PERMISSION`: a runtime permission the app declares."""
    args: list[str] = []
    skip = False
    for a in rest:  # `--user N` names the only user there is
        if skip or a == "--user":
            skip = not skip
            continue
        args.append(a)
    if len(args) < 2:
        return b"", "Error: no permission specified\n", 255
    pkg, perm = args[0], args[1]
    app = phone.apps.get(pkg)
    if app is None:
        return b"", f"Exception occurred while executing '{sub}':\njava.lang.IllegalArgumentException: " \
                    f"Unknown package: {pkg}\n", 255
    if perm not in getattr(app, "permissions", ()):
        return b"", (f"Exception occurred while executing '{sub}':\njava.lang.SecurityException: "
                     f"Package {pkg} has not requested permission {perm}\n"), 255
    store = phone.state.permissions
    store.grant(pkg, perm) if sub == "grant" else store.revoke(pkg, perm)
    phone.changed()
    return b"", "", 0


@command("settings")
def settings(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    store = sh.phone.settings
    usage = ("usage:  settings [--user <USER_ID> | current] get namespace key\n"
             "        settings [--user <USER_ID> | current] put namespace key value\n"
             "        settings [--user <USER_ID> | current] delete namespace key\n"
             "        settings [--user <USER_ID> | current] list namespace\n")
    if len(args) >= 2 and args[0] == "--user":
        args = args[2:]
    if len(args) < 2:
        return b"", usage, 1
    verb, ns, rest = args[0], args[1], args[2:]
    if ns not in NAMESPACES:
        return b"", f"Invalid namespace '{ns}'\n" + usage, 1
    if verb == "get" and len(rest) == 1:
        v = store.get(ns, rest[0])
        return (("null" if v is None else v) + "\n").encode(), "", 0
    if verb == "put" and len(rest) >= 2:
        value = rest[1]
        if len(rest) > 2 and rest[2] not in ("default",):
            value = " ".join(rest[1:])
        store.put(ns, rest[0], value)
        return b"", "", 0
    if verb == "delete" and len(rest) == 1:
        n = 1 if store.delete(ns, rest[0]) else 0
        return f"Deleted {n} rows\n".encode(), "", 0
    if verb == "list" and not rest:
        return ("".join(f"{k}={v}\n" for k, v in store.items(ns))).encode(), "", 0
    return b"", usage, 1


def _content_uri(phone, uri: str):
    if not uri.startswith("content://"):
        raise ContentError(f"Invalid URI: {uri}")
    rest = uri[len("content://") :]
    authority, _, path = rest.partition("/")
    if authority == "settings":
        return _SettingsTable(phone.settings), path
    provider = phone.providers.get(authority)
    if provider is None:
        raise ContentError(f"Could not find provider: {authority}")
    return provider, path


class _SettingsTable:
    """`content://settings/<ns>` rows as Android exposes them (_id, name, value)."""

    def __init__(self, store) -> None:
        self.store = store

    def _rows(self, ns: str):
        if ns not in NAMESPACES:
            raise ContentError(f"Unknown URI content://settings/{ns}")
        return [(i + 1, k, v) for i, (k, v) in enumerate(self.store.items(ns))]

    def query(self, path, projection=None, where=None, sort=None, args=None):
        db = memory_db()  # `--where`, `--sort` and `--projection` are the client's SQL
        db.execute("CREATE TABLE t (_id INTEGER, name TEXT, value TEXT)")
        db.executemany("INSERT INTO t VALUES (?,?,?)", self._rows(path.strip("/")))
        cols = ", ".join(projection) if projection else "*"
        sql = f"SELECT {cols} FROM t" + (f" WHERE ({where})" if where else "")
        sql += f" ORDER BY {sort}" if sort else ""
        try:
            cur = db.execute(sql)
            return [d[0] for d in cur.description], cur.fetchall()
        except sqlite3.Error as e:
            raise ContentError(str(e)) from None

    def insert(self, path, values):
        ns = path.strip("/")
        self._rows(ns)
        if "name" not in values:
            raise ContentError("name is required")
        self.store.put(ns, str(values["name"]), "" if values.get("value") is None
                       else str(values["value"]))
        return 0

    def update(self, path, values, where=None):
        raise ContentError("Update of settings through content is not supported; use insert")

    def delete(self, path, where=None):
        ns = path.strip("/")
        _cols, rows = self.query(path, ["name"], where)
        for (name,) in rows:
            self.store.delete(ns, name)
        return len(rows)


@command("content")
def content(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", "usage: content [subcommand] [options]\n", 1
    verb, rest = args[0], args[1:]
    opts: dict[str, str] = {}
    binds: list[str] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in ("--uri", "--where", "--projection", "--sort", "--user", "--arg") \
                and i + 1 < len(rest):
            opts[a] = rest[i + 1]
            i += 2
        elif a == "--bind" and i + 1 < len(rest):
            binds.append(rest[i + 1])
            i += 2
        else:
            return b"", f"Error: Unsupported argument: {a}\n", 1
    if "--uri" not in opts:
        return b"", "Error: Content provider URI not specified\n", 1
    try:
        provider, path = _content_uri(sh.phone, opts["--uri"])
        values = dict(parse_bind(b) for b in binds)
        if verb == "query":
            proj = opts["--projection"].split(":") if "--projection" in opts else None
            cols, rows = provider.query(path, proj, opts.get("--where"), opts.get("--sort"))
            return format_rows(cols, rows).encode(), "", 0
        if verb == "insert":
            if not values:
                raise ContentError("Bindings not specified")
            provider.insert(path, values)
            return b"", "", 0
        if verb == "update":
            provider.update(path, values, opts.get("--where"))
            return b"", "", 0
        if verb == "delete":
            provider.delete(path, opts.get("--where"))
            return b"", "", 0
    except ContentError as e:
        return b"", f"Error while accessing provider: {e}\n", 1
    return b"", f"Unsupported operation: {verb}\n", 1


@command("sqlite3")
def sqlite3_(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", "Usage: sqlite3 DATABASE SQL\n", 1
    db_path, sql = args[0], " ".join(args[1:]) or stdin.decode("utf-8", "replace")
    database = sh.phone.databases.get(normalize(db_path))
    if database is None:
        return b"", f"Error: unable to open database \"{db_path}\": unable to open database file\n", 1
    try:
        rows = database.sql(sql)
    except SqlError as e:
        return b"", f"Error: {e}\n", 1
    out = "".join("|".join("" if v is None else str(v) for v in r) + "\n" for r in rows)
    return out.encode(), "", 0


@command("uiautomator")
def uiautomator(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args or args[0] != "dump":
        return b"", "Usage: uiautomator dump [--compressed] [file]\n", 1
    target = next((a for a in args[1:] if not a.startswith("--")), "/sdcard/window_dump.xml")
    xml = dump_xml(sh.phone)
    if target in ("/dev/tty", "/dev/stdout"):
        return (xml + f"\nUI hierchary dumped to: {target}\n").encode(), "", 0
    sh.phone.fs.write(target, xml.encode("utf-8"), sh.phone.now)
    return f"UI hierchary dumped to: {target}\n".encode(), "", 0


def encode_png(frame) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(frame).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def encode_raw(frame) -> bytes:
    """`screencap` raw format (Android 12+): width, height, format, dataspace, RGBA pixels."""
    h, w = frame.shape[:2]
    rgba = np.empty((h, w, 4), np.uint8)
    rgba[..., :3] = frame
    rgba[..., 3] = 255
    return struct.pack("<IIII", w, h, 1, 0) + rgba.tobytes()


@command("screencap")
def screencap(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    usage = "usage: screencap [-hp] [-d display-id] [FILENAME]\n"
    png = False
    files: list[str] = []
    rest = list(args)
    while rest:
        a = rest.pop(0)
        if a == "-p":
            png = True
        elif a == "-d" and rest:
            rest.pop(0)
        elif a.startswith("-"):
            return b"", usage, 1
        else:
            files.append(a)
    frame = sh.phone.screenshot()
    if files:
        data = encode_png(frame) if (png or files[0].endswith(".png")) else encode_raw(frame)
        sh.phone.fs.write(files[0], data, sh.phone.now)
        return b"", "", 0
    return (encode_png(frame) if png else encode_raw(frame)), "", 0


@command("wm")
def wm(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    p = sh.phone
    if args[:1] == ["size"]:
        if len(args) > 1:
            return b"", "Error: the simulated phone's resolution is fixed at creation\n", 1
        return f"Physical size: {p.width}x{p.height}\n".encode(), "", 0
    if args[:1] == ["density"]:
        if len(args) > 1:
            return b"", "Error: the simulated phone's density is fixed\n", 1
        return f"Physical density: {round(160 * p.density)}\n".encode(), "", 0
    return b"", "usage: wm [size|density]\n", 1


def _window_dump(sh: ShellSession) -> str:
    p = sh.phone
    pkg, cls = p.focused_component()
    act = p.wm.top_activity()
    focus = f"{pkg}/{cls}" if cls else pkg
    app = act.component if act is not None else f"{LAUNCHER}/{LAUNCHER}.NexusLauncherActivity"
    pkg2, _, cls2 = app.partition("/")
    short = cls2[len(pkg2):] if cls2.startswith(pkg2 + ".") else cls2
    return (
        "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
        f"  mCurrentFocus=Window{{8f2c1a7 u0 {focus}}}\n"
        f"  mFocusedApp=ActivityRecord{{3e91d04 u0 {pkg2}/{short} t{_task_id(p, pkg2)}}}\n"
        f"  mInputMethodWindow={'Window{5a1b2c3 u0 InputMethod}' if p.ime_shown else 'null'}\n"
        f"  DisplayFrames w={p.width} h={p.height} r=0\n"
    )


def _task_id(p, pkg: str) -> int:
    return 1 if pkg == LAUNCHER else 10 + sorted(p.apps).index(pkg) if pkg in p.apps else 99


@command("dumpsys")
def dumpsys(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    if not args:
        return b"", "dumpsys: listing all services is not supported\n", 1
    svc = args[0]
    if svc == "window":
        return _window_dump(sh).encode(), "", 0
    if svc == "activity":
        p = sh.phone
        act = p.wm.top_activity()
        comp = act.component if act is not None else LAUNCHER
        lines = [f"  mResumedActivity: ActivityRecord{{3e91d04 u0 {comp}}}",
                 f"  ResumedActivity: ActivityRecord{{3e91d04 u0 {comp}}}"]
        for pkg, stack in p.wm.tasks.items():
            lines.append(f"  * Task{{t{_task_id(p, pkg)} type=standard A={pkg} size={len(stack)}}}")
        return ("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
                + "\n".join(lines) + "\n").encode(), "", 0
    if svc == "display":
        p = sh.phone
        return (f"DISPLAY MANAGER (dumpsys display)\n  mDefaultDisplayId=0\n"
                f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:0\", {p.width} x "
                f"{p.height}, modeId 1, density {round(160 * p.density)}, rotation 0}}\n"
                f"  mDisplayWidth={p.width}\n  mDisplayHeight={p.height}\n"
                f"  mCurrentOrientation=0\n  orientation=0\n").encode(), "", 0
    if svc == "nfc":
        # NfcService.dump: the adapter state, as `mState=on|off`
        on = sh.phone.state.nfc_on
        return (f"mState={'on' if on else 'off'}\nmAlwaysOnState=off\nmScreenState=ON_UNLOCKED\n"
                f"mIsSecureNfcEnabled=false\n").encode(), "", 0
    if svc == "package" and len(args) > 1:
        app = sh.phone.apps.get(args[1])
        if app is None:
            return b"", "", 0
        return (f"Packages:\n  Package [{app.package}]:\n    versionName={app.version}\n"
                + sh.phone.state.permissions.dump(app.package, tuple(getattr(app, "permissions", ())))
                ).encode(), "", 0
    if svc == "battery":
        return b"Current Battery Service state:\n  AC powered: false\n  level: 87\n  scale: 100\n", \
            "", 0
    return f"Can't find service: {svc}\n".encode(), "", 0


@command("getprop")
def getprop(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    # per-phone values (sim-adbd's --serial sets ro.serialno) over the defaults
    props = {**PROPS, **getattr(sh.phone, "prop_overrides", {})}
    if args:
        return (props.get(args[0], args[1] if len(args) > 1 else "") + "\n").encode(), "", 0
    return "".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())).encode(), "", 0


@command("setprop")
def setprop(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    return b"", "Failed to set property: permission denied\n", 1


@command("date")
def date(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    t = time.gmtime(sh.phone.now)
    fmt = next((a[1:] for a in args if a.startswith("+")), None)
    if any(a.startswith("-") and a not in ("-u",) for a in args):
        return b"", "date: setting the time is not permitted\n", 1
    if fmt is None:
        return time.strftime("%a %b %d %H:%M:%S UTC %Y\n", t).encode(), "", 0
    fmt = fmt.replace("%s", str(sh.phone.now))
    try:
        return (time.strftime(fmt, t) + "\n").encode(), "", 0
    except ValueError:
        return b"", "date: bad format\n", 1


@command("sleep")
def sleep(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    try:
        secs = float(args[0]) if args else -1
    except ValueError:
        secs = -1
    if not (0 <= secs <= 86400):
        return b"", "sleep: bad duration\n", 1
    sh.phone.advance(int(secs * 1000))
    return b"", "", 0


SVC_USAGE = ("Available commands:\n    wifi [enable|disable]\n    data [enable|disable]\n"
             "    bluetooth [enable|disable]\n    nfc [enable|disable]\n")


@command("svc")
def svc(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    """`svc wifi|bluetooth|data enable|disable`: radios, persisted as a phone persists them."""
    st = sh.phone.settings
    if len(args) == 2 and args[1] in ("enable", "disable"):
        on = args[1] == "enable"
        if args[0] == "wifi":
            radios.set_wifi(st, on)
            return b"", "", 0
        if args[0] == "bluetooth":
            radios.set_bluetooth(st, on)
            return b"", "", 0
        if args[0] == "data":
            st.put("global", "mobile_data", "1" if on else "0")
            return b"", "", 0
        if args[0] == "nfc":
            sh.phone.state.nfc_on = on
            sh.phone.changed()
            return b"", "", 0
    if len(args) == 1 and args[0] in ("wifi", "bluetooth", "data", "nfc"):
        return (f"Control the {args[0]} manager\n\nusage: svc {args[0]} [enable|disable]\n"
                ).encode(), "", 0
    return SVC_USAGE.encode(), "", (0 if not args or args[0] == "help" else 1)


def _cmd_uimode(st, args: list[str]) -> Output:
    modes = {"yes": "2", "no": "1", "auto": "0"}
    if args[:1] != ["night"] or len(args) > 2:
        return b"", "Error: unknown command; try: night [yes|no|auto]\n", 255
    if len(args) == 1:
        cur = st.get("secure", "ui_night_mode")
        name = next((k for k, v in modes.items() if v == cur), "no")
        return f"Night mode: {name}\n".encode(), "", 0
    if args[1] not in modes:
        return b"", "Error: mode must be 'yes', 'no', or 'auto'\n", 255
    st.put("secure", "ui_night_mode", modes[args[1]])
    return f"Night mode: {args[1]}\n".encode(), "", 0


def _cmd_connectivity(st, args: list[str]) -> Output:
    if args[:1] != ["airplane-mode"] or len(args) > 2:
        return b"", "Unknown command; try: airplane-mode [enable|disable]\n", 255
    if len(args) == 1:
        return ("enabled\n" if radios.airplane_on(st) else "disabled\n").encode(), "", 0
    if args[1] not in ("enable", "disable"):
        return b"", f"Unsupported argument: {args[1]}\n", 255
    radios.set_airplane(st, args[1] == "enable")
    return b"", "", 0


def _cmd_wifi(st, args: list[str]) -> Output:
    if args[:1] == ["set-wifi-enabled"] and len(args) == 2 and args[1] in ("enabled", "disabled"):
        radios.set_wifi(st, args[1] == "enabled")
        return b"", "", 0
    if args == ["status"]:
        return (f"Wifi is {'enabled' if radios.wifi_on(st) else 'disabled'}\n").encode(), "", 0
    return b"", "Usage: cmd wifi set-wifi-enabled enabled|disabled | status\n", 255


def _cmd_bluetooth(st, args: list[str]) -> Output:
    if len(args) == 1 and args[0] in ("enable", "disable"):
        radios.set_bluetooth(st, args[0] == "enable")
        return b"", "", 0
    return b"", "Usage: cmd bluetooth_manager enable|disable\n", 255


def _cmd_location(st, args: list[str]) -> Output:
    if args[:1] == ["set-location-enabled"] and len(args) == 2 and args[1] in ("true", "false"):
        st.put("secure", "location_mode", "3" if args[1] == "true" else "0")
        return b"", "", 0
    if args == ["is-location-enabled"]:
        on = st.get("secure", "location_mode") not in (None, "0")
        return ("true\n" if on else "false\n").encode(), "", 0
    return b"", "Usage: cmd location set-location-enabled true|false | is-location-enabled\n", 255


def _cmd_power(st, args: list[str]) -> Output:
    if args[:1] == ["set-mode"] and len(args) == 2 and args[1] in ("0", "1"):
        st.put("global", "low_power", args[1])
        return b"", "", 0
    return b"", "Usage: cmd power set-mode 0|1\n", 255


def _cmd_media_session(st, args: list[str]) -> Output:
    """`cmd media_session volume [--show] --stream N (--get | --set V | --adj raise|lower|same)`."""
    usage = ("usage: cmd media_session volume [options]\n  --stream STREAM\n  --set INDEX\n"
             "  --adj DIRECTION (raise|lower|same)\n  --get\n  --show\n")
    if args[:1] != ["volume"]:
        return b"", usage, 255
    stream, value, adj, get = 3, None, None, False
    rest = args[1:]
    try:
        while rest:
            a = rest.pop(0)
            if a == "--stream":
                stream = int(rest.pop(0))
            elif a == "--set":
                value = int(rest.pop(0))
            elif a == "--adj":
                adj = rest.pop(0)
            elif a == "--get":
                get = True
            elif a != "--show":
                return b"", f"Error: unknown option {a}\n" + usage, 255
    except (IndexError, ValueError):
        return b"", usage, 255
    if stream not in STREAMS or adj not in (None, "raise", "lower", "same"):
        return b"", f"Error: unsupported stream or direction\n{usage}", 255
    _name, key, lo, hi = STREAMS[stream]
    cur = st.get_int("system", key, lo)
    out = ""
    if get:
        out = f"volume is {cur} in range [{lo}..{hi}]\n"
    elif value is not None:
        if not lo <= value <= hi:
            return b"", f"Error: volume {value} out of range [{lo}..{hi}]\n", 255
        st.put("system", key, str(value))
        out = f"will set volume to index={value}\n"
    elif adj is not None:
        cur = min(hi, max(lo, cur + {"raise": 1, "lower": -1, "same": 0}[adj]))
        st.put("system", key, str(cur))
        out = "will adjust volume\n"
    return out.encode(), "", 0


CMD_SERVICES = {
    "uimode": _cmd_uimode, "connectivity": _cmd_connectivity, "wifi": _cmd_wifi,
    "bluetooth_manager": _cmd_bluetooth, "location": _cmd_location, "power": _cmd_power,
    "media_session": _cmd_media_session,
}


@command("cmd")
def cmd(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    """`cmd SERVICE ...` for the services that change what Settings shows, each writing
    the settings key the real service persists."""
    if not args:
        return b"", "cmd: No service specified; use -l to list all services\n", 255
    if args[0] == "-l":
        return ("Currently running services:\n" + "".join(f"  {s}\n" for s in sorted(CMD_SERVICES))
                ).encode(), "", 0
    fn = CMD_SERVICES.get(args[0])
    if fn is None:
        return b"", f"Can't find service: {args[0]}\n", 20
    return fn(sh.phone.settings, args[1:])


@command("ime")
def ime(sh: ShellSession, args: list[str], stdin: bytes) -> Output:
    """`ime list [-a] -s`, `ime enable|disable|set ID`; enabled IMEs live in the secure
    setting `enabled_input_methods` as on a real phone (unset: every installed one)."""
    st = sh.phone.settings
    installed = list(sh.phone.input_methods)
    raw = st.get("secure", "enabled_input_methods")
    enabled = [i for i in raw.split(":") if i in installed] if raw else installed
    if args[:1] == ["list"]:
        shown = installed if "-a" in args else enabled
        return "".join(f"{i}\n" for i in shown).encode(), "", 0
    if args[:1] in (["set"], ["enable"], ["disable"]) and len(args) == 2:
        if args[1] not in installed:
            return b"", f"Unknown input method {args[1]} cannot be selected for user #0\n", 1
        if args[0] == "set":
            if args[1] not in enabled:
                return b"", f"Input method {args[1]} is not enabled for user #0\n", 1
            st.put("secure", "default_input_method", args[1])
            return f"Input method {args[1]} selected for user #0\n".encode(), "", 0
        keep = [i for i in enabled if i != args[1]] + ([args[1]] if args[0] == "enable" else [])
        st.put("secure", "enabled_input_methods", ":".join(keep))
        state = "now enabled" if args[0] == "enable" else "now disabled"
        return f"Input method {args[1]}: {state} for user #0\n".encode(), "", 0
    return b"", "usage: ime list [-a] [-s] | ime enable|disable|set ID\n", 1
