"""Parsers from real model outputs to the canonical (AndroidWorld) action.

Supported output styles:

* **GUI-Owl / Mobile-Agent-v3** — `<thinking>…</thinking><tool_call>{"name":
  "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}</tool_call>`
  (also `<think>`, a bare tool-call JSON, MAI-UI-style `drag`/`double_click`).
* **UI-TARS** — `Thought: …\\nAction: click(start_box='(x,y)')`, with
  `<|box_start|>(x,y)<|box_end|>`, `<point>x y</point>`, 4-number boxes; type,
  scroll, drag, long_press, press_home/press_back, hotkey, open_app, wait,
  finished, call_user.
* **AndroidWorld JSON** (M3A/T3A) — `Reason: …\\nAction: {"action_type": …}`,
  possibly inside a ```json fence.
* **AndroidLab** — `do(action="Tap", element=[x1,y1,x2,y2])` or `element=3`
  (an index), Type, Swipe (direction, dist), Long Press, Press Home/Back/Enter,
  Wait, Launch, and `finish(message=...)`.

Every parser takes the model's `space` (`policy.CoordSpace`: absolute
resized-image pixels or relative 0–1000; None = device pixels) and returns a
`Parsed` whose action is valid and in device pixels, or raises `ParseError`
with a message meant for the model — never another exception.
`parse_any` detects the style.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from antrap_gym.agents.coords import TOOL_NAME, CoordSpace, ParseError, map_to_device
from antrap_gym.agents.tool import TOOL_ACTION_NAMES, TOOL_ALIASES
from antrap_gym.env.actions import Action, ActionError

MAX_OUTPUT_CHARS = 100_000
_NUM = r"-?\d+(?:\.\d+)?"
_NUM_RE = re.compile(_NUM)


class Parsed(NamedTuple):
    """A parsed reply: the canonical action (device pixels), what surrounded it, and the
    actions the reply implies after it (`then`: a finishing call that carries a message,
    such as AndroidLab's `finish(message=...)`, is an `answer` now and the `status` that
    ends the task next)."""

    action: dict[str, Any]
    thought: str = ""
    conclusion: str = ""
    style: str = ""
    then: tuple[dict[str, Any], ...] = ()

    @property
    def actions(self) -> tuple[dict[str, Any], ...]:
        """Every action the reply stands for, in the order the env takes them."""
        return (self.action, *self.then)


# --- shared helpers ------------------------------------------------------------------------


def _check_text(text: Any) -> str:
    if not isinstance(text, str):
        raise ParseError(f"the model output must be text, got {type(text).__name__}")
    if len(text) > MAX_OUTPUT_CHARS:
        raise ParseError(f"the model output is too long ({len(text)} characters)")
    if not text.strip():
        raise ParseError("the model output is empty")
    return text


def _reply(action: dict[str, Any], thought: str, conclusion: str, style: str) -> Parsed:
    """The `Parsed` of a validated action: a completing `status` that carries text is the
    answer it gives (`answer`) and then the `status` (AndroidWorld's two actions)."""
    if action["action_type"] == "status" and action.get("text"):
        if action["goal_status"] == "complete":
            finish = {k: v for k, v in action.items() if k != "text"}
            return Parsed({"action_type": "answer", "text": action["text"]}, thought, conclusion,
                          style, (finish,))
        action = {k: v for k, v in action.items() if k != "text"}  # giving up: nothing to answer
    return Parsed(action, thought, conclusion, style)


def _finish(d: dict[str, Any]) -> dict[str, Any]:
    """Validate a canonical action dict; ActionError becomes ParseError."""
    try:
        return Action.from_dict(d).to_dict()
    except ActionError as e:
        raise ParseError(str(e)) from None
    except (TypeError, ValueError) as e:  # odd field types the dataclass rejects
        raise ParseError(f"invalid action: {e}") from None


def _number(v: Any, what: str) -> float:
    if isinstance(v, bool):
        raise ParseError(f"{what} must be a number, got {v!r}")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            pass
    raise ParseError(f"{what} must be a number, got {str(v)[:40]!r}")


def _numbers_in(v: Any, what: str) -> list[float]:
    """The numbers of a coordinate value: [x, y], [x0, y0, x1, y1], "(x,y)", "<point>x y</point>"."""
    if isinstance(v, (list, tuple)):
        flat: list[Any] = []
        for item in v:  # [[x, y]] and [(x0, y0), (x1, y1)] happen
            flat.extend(item if isinstance(item, (list, tuple)) else [item])
        return [_number(item, what) for item in flat]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        raise ParseError(f"{what} must be a point [x, y], got a single number {v!r}")
    if isinstance(v, str):
        nums = [float(n) for n in _NUM_RE.findall(v)]
        if nums:
            return nums
    raise ParseError(f"{what} must be a point [x, y], got {str(v)[:40]!r}")


def _point(v: Any, space: CoordSpace | None, what: str = "coordinate") -> tuple[int, int]:
    """A point (or a box's centre) in the model's space, mapped to device pixels."""
    nums = _numbers_in(v, what)
    if len(nums) == 2:
        x, y = nums
    elif len(nums) == 4:
        x, y = (nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2
    else:
        raise ParseError(f"{what} must be [x, y] (or a box [x0, y0, x1, y1]), got {len(nums)} numbers")
    return map_to_device(space, x, y)


def _index(v: Any, what: str = "index") -> int:
    if isinstance(v, bool):
        raise ParseError(f"{what} must be an element number, got {v!r}")
    if isinstance(v, int):
        i = v
    elif isinstance(v, float) and v.is_integer():
        i = int(v)
    elif isinstance(v, str) and v.strip().isdigit():
        i = int(v.strip())
    else:
        raise ParseError(f"{what} must be an element number, got {str(v)[:40]!r}")
    if i < 0:
        raise ParseError(f"{what} must be >= 0, got {i}")
    return i


def _text(v: Any, what: str = "text") -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    raise ParseError(f"{what} must be a string, got {type(v).__name__}")


def _loads_object(s: str) -> dict[str, Any]:
    """The first JSON object in `s` (a Python dict literal as a fallback)."""
    start = s.find("{")
    if start < 0:
        raise ParseError("no JSON object found")
    try:
        obj, _ = json.JSONDecoder().raw_decode(s, start)
    except json.JSONDecodeError as e:
        end = s.rfind("}")
        obj = None
        if end > start:
            try:  # single-quoted keys and True/False: a Python literal
                obj = ast.literal_eval(s[start:end + 1])
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                obj = None
        if obj is None:
            raise ParseError(f"the JSON is invalid or incomplete ({e.msg} at character "
                             f"{e.pos - start})") from None
    except RecursionError:
        raise ParseError("the JSON is nested too deeply") from None
    if not isinstance(obj, dict):
        raise ParseError(f"expected a JSON object, got {type(obj).__name__}")
    return obj


def _strip_fences(s: str) -> str:
    return re.sub(r"```[a-zA-Z]*", "", s)


def _between(text: str, tags: tuple[str, ...]) -> str | None:
    for tag in tags:
        m = re.search(rf"<{tag}>(.*?)(?:</{tag}>|$)", text, re.S)
        if m:
            return m.group(1).strip()
    return None


def _direction(v: Any) -> str:
    d = _text(v, "direction").strip().lower()
    if d not in ("up", "down", "left", "right"):
        raise ParseError(f"direction must be up, down, left or right, got {d[:20]!r}")
    return d


_KEYS = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter",
         "return": "keyboard_enter", "keycode_back": "navigate_back", "keycode_home": "navigate_home",
         "keycode_enter": "keyboard_enter", "4": "navigate_back", "3": "navigate_home",
         "66": "keyboard_enter"}


def _key_action(v: Any) -> dict[str, Any]:
    key = _text(v, "key").strip().lower()
    if key in _KEYS:
        return {"action_type": _KEYS[key]}
    if key in ("menu", "app_switch", "recent", "recents", "keycode_app_switch", "keycode_menu"):
        raise ParseError(f"the {key!r} key is not available on this phone; use open to switch apps")
    raise ParseError(f"unsupported key {key[:30]!r}; supported keys: back, home, enter")


# --- GUI-Owl (mobile_use) --------------------------------------------------------------------------


def _target(args: dict[str, Any], space: CoordSpace | None, required: str | None) -> dict[str, Any]:
    """x/y or index from `coordinate` (or its synonyms) or `index`/`element`."""
    for key in ("index", "element"):
        v = args.get(key)
        if v is None or isinstance(v, (list, tuple)) or (isinstance(v, str) and not v.strip().isdigit()):
            continue  # absent, or a point/box (read below)
        return {"index": _index(v, key)}
    for key in ("coordinate", "start_coordinate", "point", "position", "start_box"):
        if args.get(key) is not None:
            x, y = _point(args[key], space, key)
            return {"x": x, "y": y}
    if isinstance(args.get("element"), (list, tuple)):
        x, y = _point(args["element"], space, "element")
        return {"x": x, "y": y}
    if required:
        raise ParseError(f"{required} needs 'coordinate' [x, y]")
    return {}


def tool_args_to_action(args: dict[str, Any], space: CoordSpace | None = None) -> dict[str, Any]:
    """`mobile_use` arguments (model space) to a canonical action (device pixels)."""
    if not isinstance(args, dict):
        raise ParseError(f"the tool arguments must be a JSON object, got {type(args).__name__}")
    raw = args.get("action", args.get("action_type"))
    if not isinstance(raw, str) or not raw.strip():
        raise ParseError("the tool arguments need 'action' (one of " + ", ".join(TOOL_ACTION_NAMES) + ")")
    name = raw.strip().lower()
    name = TOOL_ALIASES.get(name, name)
    if name.startswith("system_button:"):
        args = {**args, "button": name.partition(":")[2]}
        name = "system_button"
    out: dict[str, Any]
    if name in ("click", "double_tap"):
        out = {"action_type": name, **_target(args, space, name)}
    elif name == "long_press":
        out = {"action_type": "long_press", **_target(args, space, name)}
        if args.get("time") is not None:
            secs = _number(args["time"], "time")
            out["duration_ms"] = int(min(60_000, max(0, round(secs * 1000))))
    elif name == "swipe":
        end = next((args[k] for k in ("coordinate2", "end_coordinate", "end_point", "end_box")
                    if args.get(k) is not None), None)
        if end is not None:
            start = _target(args, space, "swipe")
            if "index" in start:
                raise ParseError("a swipe to coordinate2 needs a start 'coordinate', not an index")
            x2, y2 = _point(end, space, "coordinate2")
            out = {"action_type": "swipe", **start, "x2": x2, "y2": y2}
        elif args.get("direction") is not None:
            out = {"action_type": "swipe", "direction": _direction(args["direction"]),
                   **_target(args, space, None)}
        else:
            raise ParseError("swipe needs 'coordinate' and 'coordinate2', or a 'direction'")
        if args.get("time") is not None:
            secs = _number(args["time"], "time")
            out["duration_ms"] = int(min(60_000, max(0, round(secs * 1000))))
    elif name == "scroll":
        if args.get("direction") is None:
            raise ParseError("scroll needs 'direction' (up, down, left or right)")
        out = {"action_type": "scroll", "direction": _direction(args["direction"]),
               **_target(args, space, None)}
    elif name == "type":
        if args.get("text") is None:
            raise ParseError("type needs 'text'")
        out = {"action_type": "input_text", "text": _text(args["text"]), **_target(args, space, None)}
        if args.get("clear") is not None:
            if not isinstance(args["clear"], bool):
                raise ParseError("'clear' must be true or false")
            out["clear_text"] = args["clear"]
    elif name == "key":
        key = next((args[k] for k in ("text", "key", "keycode", "button") if args.get(k) is not None), None)
        if key is None:
            raise ParseError("key needs 'text' (back, home or enter)")
        out = _key_action(key)
    elif name == "system_button":
        if args.get("button") is None:
            raise ParseError("system_button needs 'button' (Back, Home or Enter)")
        button = _text(args["button"], "button").strip().lower()
        if button == "menu":
            raise ParseError("system_button Menu (recent apps) is not available on this phone; "
                             "use open to switch apps")
        if button not in ("back", "home", "enter"):
            raise ParseError(f"unknown system button {button[:20]!r}; use Back, Home or Enter")
        out = _key_action(button)
    elif name == "open":
        app = next((args[k] for k in ("text", "app_name", "app") if args.get(k) is not None), None)
        if app is None or not _text(app, "text").strip():
            raise ParseError("open needs 'text' (the app's name)")
        out = {"action_type": "open_app", "app_name": _text(app).strip()}
    elif name == "answer":
        if args.get("text") is None:
            raise ParseError("answer needs 'text'")
        out = {"action_type": "answer", "text": _text(args["text"])}
    elif name == "wait":
        out = {"action_type": "wait"}
        if args.get("time") is not None:
            out["seconds"] = min(60.0, max(0.0, _number(args["time"], "time")))
    elif name == "terminate":
        status = str(args.get("status", "success")).strip().lower()
        if status in ("success", "successful", "complete", "completed", "done", "true"):
            out = {"action_type": "status", "goal_status": "complete"}
            if args.get("text") is not None:  # a closing answer rides along, as finish(message=)
                out["text"] = _text(args["text"])
        elif status in ("failure", "fail", "failed", "infeasible", "impossible", "false"):
            out = {"action_type": "status", "goal_status": "infeasible"}
        else:
            raise ParseError(f"terminate needs 'status' success or failure, got {status[:20]!r}")
    else:
        raise ParseError(f"unknown mobile_use action {raw.strip()[:30]!r}; expected one of "
                         + ", ".join(TOOL_ACTION_NAMES))
    return _finish(out)


def parse_guiowl(text: str, space: CoordSpace | None = None) -> Parsed:
    """A GUI-Owl reply: `<thinking>`/`<think>`, one `<tool_call>` with the
    `mobile_use` call (or a bare call JSON), an optional `<conclusion>`."""
    text = _check_text(text)
    m = re.search(r"<tool_call>(.*?)(?:</tool_call>|$)", text, re.S)
    body = m.group(1) if m else text
    body = _strip_fences(body)
    if "{" not in body:
        if m:
            raise ParseError("the <tool_call> holds no JSON object")
        raise ParseError("no <tool_call> found: call the mobile_use tool inside "
                         "<tool_call></tool_call> tags")
    obj = _loads_object(body)
    if "name" in obj or "arguments" in obj:
        name = obj.get("name")
        if name not in (TOOL_NAME, None):
            raise ParseError(f"unknown tool {str(name)[:30]!r}; call {TOOL_NAME}")
        args = obj.get("arguments")
        if isinstance(args, str):  # OpenAI-style arguments: a JSON string
            args = _loads_object(args)
        if args is None:
            raise ParseError("the tool call has no 'arguments'")
    elif "action" in obj:
        args = obj  # the arguments on their own
    else:
        raise ParseError('the tool call needs "name" and "arguments"')
    action = tool_args_to_action(args, space)
    thought = _between(text, ("thinking", "think"))
    if thought is None:
        thought = text[: m.start()].strip() if m else ""
    conclusion = _between(text, ("conclusion",)) or ""
    return _reply(action, thought, conclusion, "guiowl")


# --- function-call styles (UI-TARS, AndroidLab) ---------------------------------------------------


def _call(s: str) -> tuple[str, list[Any], dict[str, Any]]:
    """Parse `name(arg, key=value, ...)` with Python literal syntax (no evaluation).

    Falls back on a lenient reading of `key='...'` pairs when the string has an
    unescaped quote or a raw newline (common in model output).
    """
    s = s.strip()
    m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(", s)
    if not m:
        raise ParseError(f"expected a call like name(...), got {s[:60]!r}")
    end = s.rfind(")")
    if end < m.end() - 1:
        raise ParseError(f"the call {m.group(1)}(...) is not closed")
    expr = s[: end + 1]
    try:
        node = ast.parse(expr, mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            raise ValueError
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        return node.func.id, args, kwargs
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        pass
    return m.group(1), [], _lenient_kwargs(s[m.end(): end])


def _lenient_kwargs(inner: str) -> dict[str, Any]:
    """`key='value'`, `key="value"`, `key=[1, 2]`, `key=3` pairs, quotes taken greedily
    up to the next `, key=` or the end (so `content='It's'` still reads)."""
    out: dict[str, Any] = {}
    keys = list(re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)\s*=\s*", inner))
    for i, k in enumerate(keys):
        stop = keys[i + 1].start() if i + 1 < len(keys) else len(inner)
        val = inner[k.end(): stop].strip()
        if val[:1] in ("'", '"'):
            if len(val) < 2 or val[-1] != val[0]:
                raise ParseError(f"the value of {k.group(1)} is an unterminated string")
            v = val[1:-1]
            out[k.group(1)] = v.replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')
        else:
            try:
                out[k.group(1)] = ast.literal_eval(val)
            except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
                out[k.group(1)] = val
    return out


_UITARS_CALL = re.compile(
    r"\b(click|left_single|left_double|double_click|double_tap|long_press|type|scroll|drag|swipe|"
    r"press_home|press_back|hotkey|press|open_app|wait|finished|call_user|tap)\s*\(")


def _uitars_point(kwargs: dict[str, Any], keys: tuple[str, ...], space: CoordSpace | None
                  ) -> tuple[int, int] | None:
    for k in keys:
        if kwargs.get(k) not in (None, ""):
            return _point(kwargs[k], space, k)
    return None


def parse_uitars(text: str, space: CoordSpace | None = None) -> Parsed:
    """A UI-TARS reply: `Thought: ...` then `Action: name(key='value', ...)`.

    Points come as `(x,y)`, `<|box_start|>(x,y)<|box_end|>`, `<point>x y</point>`
    or a box (its centre); absolute on the resized image (UI-TARS-1.5) or
    relative 0-1000 (UI-TARS), as `space` says.
    """
    text = _check_text(text)
    m = re.search(r"Action\s*:\s*", text)
    body = text[m.end():] if m else text
    c = _UITARS_CALL.search(body)
    if c is None:
        raise ParseError("no UI-TARS action found (expected e.g. Action: click(start_box='(x,y)'))")
    call = body[c.start():]
    # one action per step: stop at the next action call on a new line
    nxt = re.search(r"\n\s*\n|\n(?=\s*\w+\()", call)
    if nxt:
        call = call[: nxt.start()]
    name, pos, kw = _call(call)
    thought_m = re.search(r"Thought\s*:\s*(.*?)(?=\n\s*Action\s*:|$)", text, re.S)
    thought = thought_m.group(1).strip() if thought_m else (text[: m.start()].strip() if m else "")
    start_keys = ("start_box", "point", "start_point", "box", "coordinate")
    out: dict[str, Any]
    if name in ("click", "left_single", "tap", "left_double", "double_click", "double_tap",
                "long_press"):
        p = _uitars_point(kw, start_keys, space) or (_point(pos[0], space, "point") if pos else None)
        if p is None:
            raise ParseError(f"{name} needs a point, e.g. start_box='(x,y)'")
        kind = {"left_double": "double_tap", "double_click": "double_tap", "double_tap": "double_tap",
                "long_press": "long_press"}.get(name, "click")
        out = {"action_type": kind, "x": p[0], "y": p[1]}
    elif name == "type":
        content = kw.get("content", kw.get("text", pos[0] if pos else None))
        if content is None:
            raise ParseError("type needs content='...'")
        # kept whole: a trailing newline is UI-TARS's way to submit, the Enter that
        # input_text presses after typing (the env does not press a second one)
        out = {"action_type": "input_text", "text": _text(content, "content")}
    elif name == "scroll":
        if kw.get("direction") is None:
            raise ParseError("scroll needs direction='up|down|left|right'")
        out = {"action_type": "scroll", "direction": _direction(kw["direction"])}
        p = _uitars_point(kw, start_keys, space)
        if p is not None:
            out.update(x=p[0], y=p[1])
    elif name in ("drag", "swipe"):
        p = _uitars_point(kw, start_keys, space)
        q = _uitars_point(kw, ("end_box", "end_point"), space)
        if q is not None:
            if p is None:
                raise ParseError(f"{name} needs start_box as well as end_box")
            out = {"action_type": "swipe", "x": p[0], "y": p[1], "x2": q[0], "y2": q[1]}
        elif kw.get("direction") is not None:
            out = {"action_type": "swipe", "direction": _direction(kw["direction"])}
            if p is not None:
                out.update(x=p[0], y=p[1])
        else:
            raise ParseError(f"{name} needs start_box and end_box")
    elif name == "press_home":
        out = {"action_type": "navigate_home"}
    elif name == "press_back":
        out = {"action_type": "navigate_back"}
    elif name in ("hotkey", "press"):
        key = kw.get("key", pos[0] if pos else None)
        if key is None:
            raise ParseError(f"{name} needs key='...'")
        out = _key_action(key)
    elif name == "open_app":
        app = kw.get("app_name", pos[0] if pos else None)
        if app is None or not _text(app, "app_name").strip():
            raise ParseError("open_app needs app_name='...'")
        out = {"action_type": "open_app", "app_name": _text(app).strip()}
    elif name == "wait":
        out = {"action_type": "wait"}
    elif name == "finished":
        content = kw.get("content", pos[0] if pos else "")
        out = {"action_type": "status", "goal_status": "complete"}
        if content:
            out["text"] = _text(content, "content")
    else:  # call_user: the agent cannot go on by itself
        out = {"action_type": "status", "goal_status": "infeasible"}
    return _reply(_finish(out), thought, "", "uitars")


_ANDROIDLAB_CALL = re.compile(r"\b(do\s*\(\s*(?:action\s*=|['\"])|finish\s*\()")
_LAB_DIST = {"short": 0.2, "medium": 0.4, "long": 0.6}


def parse_androidlab(text: str, space: CoordSpace | None = None) -> Parsed:
    """An AndroidLab reply: `do(action="Tap", element=[x1,y1,x2,y2])` (or
    `element=3`, an element number), Type, Swipe, Long Press, Press Home/Back/Enter,
    Wait, Launch, or `finish(message="...")`."""
    text = _check_text(text)
    c = _ANDROIDLAB_CALL.search(text)
    if c is None:
        raise ParseError('no AndroidLab action found (expected e.g. do(action="Tap", element=[...]))')
    call = text[c.start():]
    cut = re.search(r"\)\s*(?:\n|```|$)", call)
    if cut:
        call = call[: cut.start() + 1]
    name, pos, kw = _call(call)
    thought = _strip_fences(text[: c.start()]).strip()
    if name == "finish":
        msg = kw.get("message", pos[0] if pos else "")
        out: dict[str, Any] = {"action_type": "status", "goal_status": "complete"}
        if msg:
            out["text"] = _text(msg, "message")
        return _reply(_finish(out), thought, "", "androidlab")
    if name != "do":
        raise ParseError(f"unknown AndroidLab call {name!r}; use do(...) or finish(...)")
    action = kw.get("action", pos[0] if pos else None)
    if not isinstance(action, str):
        raise ParseError('do(...) needs action="..." (Tap, Type, Swipe, Long Press, Press Home, '
                         "Press Back, Press Enter, Wait, Launch)")
    act = " ".join(action.replace("_", " ").split()).lower()
    elem = kw.get("element")

    def target(required: bool) -> dict[str, Any]:
        if elem is None:
            if required:
                raise ParseError(f'{action} needs element=[x1,y1,x2,y2] or element=<number>')
            return {}
        if isinstance(elem, (list, tuple)) or (isinstance(elem, str) and not elem.strip().isdigit()):
            x, y = _point(elem, space, "element")
            return {"x": x, "y": y}
        return {"index": _index(elem, "element")}

    if act in ("tap", "click"):
        out = {"action_type": "click", **target(True)}
    elif act in ("long press", "longpress"):
        out = {"action_type": "long_press", **target(True)}
    elif act == "double tap":
        out = {"action_type": "double_tap", **target(True)}
    elif act == "type":
        txt = kw.get("text", kw.get("argument"))
        if txt is None:
            raise ParseError('Type needs text="..."')
        out = {"action_type": "input_text", "text": _text(txt), **target(False)}
    elif act == "swipe":
        d = kw.get("direction", kw.get("argument"))
        if d is None:
            raise ParseError('Swipe needs direction="up|down|left|right"')
        direction = _direction(d)
        start = target(False)
        out = {"action_type": "swipe", "direction": direction, **start}
        dist = kw.get("dist")
        if dist is not None and space is not None and "index" not in start:
            frac = _LAB_DIST.get(str(dist).strip().lower())
            if frac is None:
                raise ParseError(f"dist must be short, medium or long, got {str(dist)[:20]!r}")
            w, h = space.device_size
            x, y = start.get("x", w // 2), start.get("y", h // 2)
            dx, dy = {"up": (0, -frac * h), "down": (0, frac * h), "left": (-frac * w, 0),
                      "right": (frac * w, 0)}[direction]
            out = {"action_type": "swipe", "x": x, "y": y,
                   "x2": int(min(w - 1, max(0, x + dx))), "y2": int(min(h - 1, max(0, y + dy)))}
    elif act in ("press home", "home"):
        out = {"action_type": "navigate_home"}
    elif act in ("press back", "back"):
        out = {"action_type": "navigate_back"}
    elif act in ("press enter", "enter"):
        out = {"action_type": "keyboard_enter"}
    elif act == "wait":
        out = {"action_type": "wait"}
    elif act in ("launch", "open app", "open"):
        app = kw.get("app", kw.get("app_name", kw.get("argument")))
        if app is None or not _text(app, "app").strip():
            raise ParseError('Launch needs app="..."')
        out = {"action_type": "open_app", "app_name": _text(app).strip()}
    else:
        raise ParseError(f"unknown AndroidLab action {action[:30]!r}; expected Tap, Type, Swipe, "
                         "Long Press, Press Home, Press Back, Press Enter, Wait or Launch")
    return _reply(_finish(out), thought, "", "androidlab")


# --- AndroidWorld JSON (M3A / T3A) -------------------------------------------------------------------

_STATUS_ALIASES = {"task_complete": "complete", "success": "complete", "done": "complete",
                   "completed": "complete", "task_infeasible": "infeasible", "failure": "infeasible",
                   "fail": "infeasible", "impossible": "infeasible"}


def parse_androidworld(text: str, space: CoordSpace | None = None) -> Parsed:
    """An AndroidWorld-style reply: `Reason: ...` then `Action: {"action_type": ...}`
    (fenced or not). x/y (and x2/y2) are in the model's space."""
    text = _check_text(text)
    m = re.search(r"Action\s*:\s*", text)
    body = _strip_fences(text[m.end():] if m else text)
    if "{" not in body:
        raise ParseError('no action JSON found (expected Action: {"action_type": ...})')
    obj = _loads_object(body)
    if "action_type" not in obj and "action" not in obj:
        raise ParseError("the action JSON needs 'action_type'")
    d = dict(obj)
    if isinstance(d.get("goal_status"), str):
        gs = d["goal_status"].strip().lower()
        d["goal_status"] = _STATUS_ALIASES.get(gs, gs)
    if d.get("x") is not None or d.get("y") is not None:
        if d.get("x") is None or d.get("y") is None:
            raise ParseError("give both 'x' and 'y'")
        d["x"], d["y"] = map_to_device(space, _number(d["x"], "x"), _number(d["y"], "y"))
    elif d.get("coordinate") is not None:
        d["x"], d["y"] = _point(d.pop("coordinate"), space)
    if d.get("x2") is not None or d.get("y2") is not None:
        if d.get("x2") is None or d.get("y2") is None:
            raise ParseError("give both 'x2' and 'y2'")
        d["x2"], d["y2"] = map_to_device(space, _number(d["x2"], "x2"), _number(d["y2"], "y2"))
    if d.get("index") is not None:
        d["index"] = _index(d["index"])
    r = re.search(r"Reason\s*:\s*(.*?)(?=\n?\s*Action\s*:|$)", text, re.S)
    thought = r.group(1).strip() if r else (text[: m.start()].strip() if m else "")
    return _reply(_finish(d), thought, "", "androidworld")


# --- any style ---------------------------------------------------------------------------------------

PARSERS: dict[str, Callable[[str, CoordSpace | None], Parsed]] = {
    "guiowl": parse_guiowl,
    "androidworld": parse_androidworld,
    "androidlab": parse_androidlab,
    "uitars": parse_uitars,
}
_DETECT = {
    "guiowl": re.compile(r"<tool_call>|\"name\"\s*:\s*\"mobile_use\"|\"arguments\"\s*:|"
                         r"^\s*\{\s*\"action\"\s*:"),
    "androidworld": re.compile(r"[\"']action_type[\"']\s*:"),
    "androidlab": _ANDROIDLAB_CALL,
    "uitars": _UITARS_CALL,
}


def detect_styles(text: str) -> list[str]:
    """The output styles whose markers appear in `text`, most specific first."""
    return [name for name, rx in _DETECT.items() if rx.search(text)]


def parse_any(text: str, space: CoordSpace | None = None, prefer: str | None = None) -> Parsed:
    """Parse whichever supported style the output is in.

    Styles whose markers appear are tried in order (`prefer` first, then
    GUI-Owl, AndroidWorld JSON, AndroidLab, UI-TARS); the first success wins.
    If all fail, the first failure's error is raised.
    """
    text = _check_text(text)
    if prefer is not None and prefer not in PARSERS:
        raise ValueError(f"prefer must be one of {', '.join(PARSERS)}")
    styles = detect_styles(text)
    if prefer in styles:
        styles.remove(prefer)
        styles.insert(0, prefer)
    if not styles:
        raise ParseError("no action found in the output: expected a mobile_use <tool_call>, "
                         'Action: {"action_type": ...}, a UI-TARS call such as click(...) or an '
                         "AndroidLab do(...)")
    first: ParseError | None = None
    for name in styles:
        try:
            return PARSERS[name](text, space)
        except ParseError as e:
            first = first or e
    assert first is not None
    raise first


__all__ = [
    "PARSERS",
    "ParseError",
    "Parsed",
    "detect_styles",
    "parse_androidlab",
    "parse_androidworld",
    "parse_any",
    "parse_guiowl",
    "parse_uitars",
    "tool_args_to_action",
]
