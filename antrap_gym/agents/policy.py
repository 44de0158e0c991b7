"""The policy format: what a GUI-Owl-style model is shown and what it answers.

One module shared by the model agents (`openai`, `transformers`) and the
trainer, so that evaluation prompts and training targets can never drift apart.

* **Coordinates** — `CoordSpace` maps device pixels to the coordinates a model
  speaks and back: absolute pixels on the image resized by Qwen2.5-VL's
  `smart_resize` (multiples of 28) or relative 0–1000 (Qwen3-VL).
  `resize_screenshot` gives the image the model sees.
* **Prompt** — `build_messages` returns OpenAI chat-completions messages: a
  system prompt declaring the `mobile_use` tool (its JSON schema and the screen
  resolution the model sees) and a user turn with the goal, summaries of the
  earlier steps and the current screen (a screenshot part and/or the elements
  as compact text). `build_hf_messages` / `to_hf_messages` give the same
  conversation in Hugging Face chat-template form (PIL images).
* **Completion** — `<thinking>…</thinking><tool_call>{"name": "mobile_use",
  "arguments": {…}}</tool_call><conclusion>…</conclusion>`.
  `format_completion` writes a canonical action that way (SFT targets);
  `parse_completion` reads a reply back into a canonical action.
* **Alternative style** — `prompt="m3a"`: AndroidWorld JSON actions, answered
  as `Reason: … Action: {json}`.
* **Compact style** — `prompt="compact"`: the same `mobile_use` tool calls
  under a few lines of instructions instead of the tool's JSON schema, and a
  user turn of the task, the last steps, the last error and the screen. For
  small models on a CPU: instructions under half the length of GUI-Owl's shortest.
* **Episodes** — `PolicySession` keeps the step summaries of one episode,
  builds each step's prompt from an observation and turns each reply into an
  action for the env (a reply that cannot be parsed becomes an action the env
  rejects, never an exception).

The canonical action is AndroidWorld's JSON action (`antrap_gym.env.actions`),
with coordinates in device pixels.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.agents import parsers
from antrap_gym.agents.coords import (
    COORD_MODES,
    MAX_PIXELS,
    MIN_PIXELS,
    QWEN3_FACTOR,
    QWEN25_FACTOR,
    RELATIVE_SCALE,
    TOOL_NAME,
    CoordSpace,
    ParseError,
    map_to_device,
    smart_resize,
)
from antrap_gym.agents.parsers import Parsed
from antrap_gym.agents.tool import SYSTEM_BUTTONS, TOOL_ACTION_NAMES, TOOL_ACTIONS, compact_action_list
from antrap_gym.device.elements import (
    UIElement,
    element_line,
    parse_element_lines,
    parse_numbered_element_lines,
)
from antrap_gym.env.actions import ACTION_SPECS, Action, ActionError

if TYPE_CHECKING:
    from PIL import Image as PILImage

PROMPT_STYLES = ("guiowl", "m3a", "compact")
OBSERVATIONS = ("screenshot", "text", "both")
#: action sent to the env when a reply cannot be parsed: the env rejects it
#: (`unknown action_type 'unparseable model output'`), the phone is unchanged
UNPARSEABLE = "unparseable model output"
MAX_SUMMARY_CHARS = 160


def _to_model(space: CoordSpace | None, x: float, y: float) -> tuple[int, int]:
    return space.to_model(x, y) if space is not None else (round(x), round(y))


def resize_screenshot(image: np.ndarray | PILImage.Image, space: CoordSpace) -> PILImage.Image:
    """The screenshot as the model sees it: an RGB PIL image of `space.image_size`."""
    from PIL import Image

    img = image if isinstance(image, Image.Image) else Image.fromarray(np.asarray(image, dtype=np.uint8))
    if img.mode != "RGB":
        img = img.convert("RGB")
    if img.size != tuple(space.image_size):
        img = img.resize(tuple(space.image_size), Image.Resampling.BICUBIC)
    return img


def image_to_data_url(image: PILImage.Image, fmt: str = "PNG") -> str:
    """A `data:image/png;base64,...` URL (fast PNG compression: it is sent every step)."""
    buf = io.BytesIO()
    if fmt.upper() == "PNG":
        image.save(buf, format="PNG", compress_level=1)
    else:
        image.save(buf, format=fmt.upper(), quality=90)
    mime = "jpeg" if fmt.upper() in ("JPG", "JPEG") else fmt.lower()
    return f"data:image/{mime};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def decode_data_url(url: str) -> PILImage.Image:
    """The image inside a `data:image/...;base64,` URL."""
    from PIL import Image

    head, sep, data = url.partition(",")
    if not sep or not head.startswith("data:image/") or ";base64" not in head:
        raise ValueError("not a base64 image data URL")
    img = Image.open(io.BytesIO(base64.b64decode(data)))
    img.load()
    return img


# --- configuration -----------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyConfig:
    """How the policy is prompted and how it answers.

    prompt: "guiowl" (`mobile_use` tool calls), "m3a" (AndroidWorld JSON) or
        "compact" (`mobile_use` calls, a short prompt: see the module's docstring).
    coords: "absolute" (resized-image pixels, Qwen2.5-VL) or "relative" (0-1000, Qwen3-VL).
    observation: "screenshot" (VLMs), "text" (elements, text-only models) or "both".
    element_index: the model may target an element by its `[i]` instead of a
        coordinate (AndroidLab's XML mode); None = only when elements are shown.
    factor / min_pixels / max_pixels: the `smart_resize` of the screenshot
        (use `factor=32` for Qwen3-VL).
    max_history: how many earlier step summaries the prompt keeps (the latest).
    max_element_chars: the element list is cut (whole lines) beyond this.
    conclusion: ask for (and write) a `<conclusion>` after the tool call.
    index_targets: SFT targets address the touched element by its `[i]` rather
        than by a coordinate, where the oracle touches an element's centre (needs
        elements in the prompt; a small model learns an index far more easily
        than a coordinate).
    goal_reminder: restate the goal after the screen, just before the
        instructions. The element list puts the goal hundreds of tokens before
        the reply; a small model trained from scratch finds a restatement next to
        the reply far more easily (M3A-style prompts restate the goal as well).
    tool_docs: the `mobile_use` schema carries its prose (GUI-Owl's prompt).
        False keeps its names, types and enums only: ~150 tokens instead of ~850
        — for a small model trained from scratch the prose is a constant prefix
        it never learns from, yet most of each step's compute.
    element_bounds: the element lines end with their bounds. False drops them
        (a third of a text prompt), for models that target elements by `[i]`.
    """

    prompt: str = "guiowl"
    coords: str = "absolute"
    observation: str = "screenshot"
    element_index: bool | None = None
    factor: int = QWEN25_FACTOR
    min_pixels: int = MIN_PIXELS
    max_pixels: int = MAX_PIXELS
    max_history: int = 20
    max_element_chars: int = 16_000
    conclusion: bool = True
    index_targets: bool = False
    goal_reminder: bool = False
    tool_docs: bool = True
    element_bounds: bool = True

    def __post_init__(self) -> None:
        if self.prompt not in PROMPT_STYLES:
            raise ValueError(f"prompt must be one of {PROMPT_STYLES}, got {self.prompt!r}")
        if self.coords not in COORD_MODES:
            raise ValueError(f"coords must be one of {COORD_MODES}, got {self.coords!r}")
        if self.observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, got {self.observation!r}")

    @property
    def shows_image(self) -> bool:
        return self.observation in ("screenshot", "both")

    @property
    def shows_elements(self) -> bool:
        return self.observation in ("text", "both")

    @property
    def uses_index(self) -> bool:
        """Whether element indices are offered (`element_index`, else: when elements are shown)."""
        return self.shows_elements if self.element_index is None else bool(self.element_index)

    def space(self, screen_size: tuple[int, int]) -> CoordSpace:
        """The coordinate space for a device screen `(W, H)`."""
        return CoordSpace.for_screen(screen_size, self.coords, factor=self.factor,
                                     min_pixels=self.min_pixels, max_pixels=self.max_pixels)


DEFAULT_CONFIG = PolicyConfig()


# --- the mobile_use tool ------------------------------------------------------------------------


def tool_schema(space: CoordSpace, config: PolicyConfig = DEFAULT_CONFIG) -> dict[str, Any]:
    """The `mobile_use` function declaration (OpenAI/Qwen tool format)."""
    rw, rh = space.resolution
    desc = [
        "Use a touchscreen to operate an Android phone.",
        "* Each call performs one action on the screen that is currently shown.",
        "* Apps can take a moment to react: use `wait` and look at the screen again.",
        f"* The screen's resolution is {rw}x{rh}.",
    ]
    if space.mode == "relative":
        desc.append(f"* Coordinates are relative: (0, 0) is the top-left corner and "
                    f"({RELATIVE_SCALE}, {RELATIVE_SCALE}) the bottom-right one.")
    desc.append("* Touch elements at their centre, not on their edges.")
    if config.uses_index:
        desc.append("* Instead of `coordinate`, you may target an element of the element list by "
                    "its number `[i]` with `index`.")
    actions = "\n".join(f"* `{a.name}`: {a.doc}" for a in TOOL_ACTIONS)
    point = f"(x, y): pixels from the left and top edges, within {rw}x{rh}."
    props: dict[str, Any] = {
        "action": {"description": "The action to perform:\n" + actions, "type": "string",
                   "enum": list(TOOL_ACTION_NAMES)},
        "coordinate": {"description": point + " For click, double_tap, long_press, swipe; "
                                              "optional for scroll and type.", "type": "array"},
        "coordinate2": {"description": "(x, y): where a swipe ends.", "type": "array"},
    }
    if config.uses_index:
        props["index"] = {"description": "The number [i] of the element to act on (instead of "
                                         "coordinate).", "type": "integer"}
    props.update({
        "direction": {"description": "For scroll, and swipe without coordinate2.", "type": "string",
                      "enum": ["up", "down", "left", "right"]},
        "text": {"description": "For type, key, open and answer.", "type": "string"},
        "clear": {"description": "For type: replace the field's text.", "type": "boolean"},
        "time": {"description": "Seconds, for long_press and wait.", "type": "number"},
        "button": {"description": "For system_button: Back returns to the previous screen, Home "
                                  "to the home screen, Menu opens the recent apps, Enter presses "
                                  "the keyboard's enter key.", "type": "string",
                   "enum": list(SYSTEM_BUTTONS)},
        "status": {"description": "For terminate.", "type": "string", "enum": ["success", "failure"]},
    })
    if not config.tool_docs:
        desc = [f"Use a touchscreen to operate an Android phone ({rw}x{rh})."]
        props = {name: {k: v for k, v in prop.items() if k != "description"}
                 for name, prop in props.items()}
    return {"type": "function", "function": {
        "name": TOOL_NAME, "description": "\n".join(desc),
        "parameters": {"type": "object", "properties": props, "required": ["action"]}}}


def system_prompt(space: CoordSpace, config: PolicyConfig = DEFAULT_CONFIG) -> str:
    """The system message: the `mobile_use` tool in Qwen's tool-calling layout
    (what GUI-Owl is trained on), or the AndroidWorld JSON action list for `m3a`."""
    if config.prompt == "m3a":
        return _m3a_system_prompt(space, config)
    if config.prompt == "compact":
        return _compact_system_prompt(space, config)
    schema = json.dumps(tool_schema(space, config), ensure_ascii=False)
    return (
        "You are a GUI agent operating an Android phone for a user. You see the phone's current "
        "screen and act on it one step at a time until the user's task is done.\n\n"
        "# Tools\n\n"
        "You may call one or more functions to assist with the user query.\n\n"
        "You are provided with function signatures within <tools></tools> XML tags:\n"
        f"<tools>\n{schema}\n</tools>\n\n"
        "For each function call, return a json object with function name and arguments within "
        "<tool_call></tool_call> XML tags:\n"
        "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
    )


def _compact_system_prompt(space: CoordSpace, config: PolicyConfig) -> str:
    """The `mobile_use` call in a few lines: its format and each action's arguments."""
    rw, rh = space.resolution
    where = f"coordinate: [x, y] on the {rw}x{rh} screen"
    if space.mode == "relative":
        where = f"coordinate: [x, y], 0-{RELATIVE_SCALE} on each axis"
    target, field = where, "coordinate"
    if config.uses_index:
        target, field = f"index: an element's [i], or {where}", "index or coordinate"
    return (
        "You operate an Android phone to do the user's task, one action per turn. Answer with "
        "one call:\n<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": ...}}\n"
        "</tool_call>\n"
        + compact_action_list(target, field)
    )


def _m3a_system_prompt(space: CoordSpace, config: PolicyConfig) -> str:
    rw, rh = space.resolution
    target = '"x": <x>, "y": <y>'
    if config.uses_index:
        target = '"index": <i>  (or "x": <x>, "y": <y>)'
    lines = [
        "You are an agent that operates an Android phone to complete a user's goal. At each step "
        "you see the current screen and choose ONE action.",
        f"The screen's resolution is {rw}x{rh}" + (
            f" (relative coordinates: 0-{RELATIVE_SCALE} on each axis)." if space.mode == "relative"
            else " (x from the left, y from the top)."),
        "Available actions (JSON):",
        *(f"- {spec.prompt.format(target=target)}" for spec in ACTION_SPECS),
        "Answer in exactly this format:",
        "Reason: <why this action brings you closer to the goal>",
        "Action: <one JSON action>",
    ]
    return "\n".join(lines)


# --- the user turn ----------------------------------------------------------------------------------


def format_elements(elements: str | Sequence[UIElement], space: CoordSpace | None = None,
                    max_chars: int = DEFAULT_CONFIG.max_element_chars, bounds: bool = True) -> str:
    """The element list as compact text, bounds in the model's coordinates (or none).

    `elements` is the env's `ui_elements` text or a list of `UIElement`. Lines keep
    the env's `[i]` numbering (so `index` targets resolve) and format; whole lines
    beyond `max_chars` are dropped with a note.
    """
    els = parse_element_lines(elements) if isinstance(elements, str) else list(elements)
    out: list[str] = []
    used = 0
    for i, el in enumerate(els):
        if not bounds:
            el = el._replace(bbox_pixels=None)
        elif space is not None and el.bbox_pixels is not None:
            el = el._replace(bbox_pixels=space.box_to_model(el.bbox_pixels))
        line = element_line(i, el)
        if used + len(line) + 1 > max_chars and out:
            out.append(f"... ({len(els) - i} more elements not shown)")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def _history_lines(history: Sequence[str], max_history: int) -> list[str]:
    start = max(0, len(history) - max_history)
    lines = [f"Step {i + 1}: {h}" for i, h in enumerate(history) if i >= start]
    if start:
        lines.insert(0, f"({start} earlier steps omitted)")
    return lines


def user_text(goal: str, *, history: Sequence[str] = (), elements_text: str | None = None,
              last_error: str = "", config: PolicyConfig = DEFAULT_CONFIG,
              space: CoordSpace | None = None) -> str:
    """The text of the user turn: goal, step summaries, last error, elements, instructions."""
    hist = _history_lines(history, config.max_history)
    if config.prompt == "compact":
        return _compact_user_text(goal, hist, elements_text, last_error, config)
    parts: list[str] = []
    if config.prompt == "m3a":
        parts.append(f"Goal: {goal}")
        parts.append("Previous steps:\n" + ("\n".join(hist) if hist else "None yet."))
    else:
        parts.append(f"The user query: {goal}")
        parts.append("Task progress (the operations you have done on the phone so far):\n"
                     + ("\n".join(hist) if hist else "None yet: this is the first step."))
    if last_error:
        parts.append(f"Your last action failed: {last_error}")
    if elements_text is not None:
        fields = "number, class, text, flags"
        if config.element_bounds:
            fields += ", bounds (x0,y0,x1,y1)"
            if space is not None:
                rw, rh = space.resolution
                fields += f" in {rw}x{rh} screen coordinates"
        parts.append(f"The elements on the current screen ({fields}):\n"
                     + (elements_text or "(no elements)"))
    if config.shows_image:
        parts.append("The screenshot shows the current screen.")
    if config.goal_reminder:
        lead = "Remember the goal" if config.prompt == "m3a" else "Remember the user query"
        parts.append(f"{lead}: {goal}")
    if config.prompt == "m3a":
        parts.append("Choose the next action. Answer as:\nReason: ...\nAction: {...}")
    else:
        instr = ("Before acting, reason step by step inside <thinking></thinking> tags. Then call "
                 "the mobile_use tool once, inside <tool_call></tool_call> tags.")
        if config.conclusion:
            instr += (" After the tool call, summarise the action in one sentence inside "
                      "<conclusion></conclusion> tags.")
        parts.append(instr)
    return "\n\n".join(parts)


def _compact_user_text(goal: str, hist: list[str], elements_text: str | None, last_error: str,
                       config: PolicyConfig) -> str:
    """Task, the last steps (`max_history`), the last error and the screen: no instructions
    (the system prompt has them)."""
    lines = [f"Task: {goal}", "Steps so far:" + ("" if hist else " none"), *hist]
    if last_error:
        lines.append(f"Error: {last_error}")
    if elements_text is not None:
        lines.append("Screen:\n" + (elements_text or "(no elements)"))
    if config.shows_image:
        lines.append("The screenshot shows the screen.")
    if config.goal_reminder:
        lines.append(f"Task: {goal}")
    return "\n".join(lines)


def _screen_size_of(screenshot: Any) -> tuple[int, int] | None:
    if screenshot is None:
        return None
    if hasattr(screenshot, "size") and not isinstance(screenshot, np.ndarray):
        return tuple(screenshot.size)  # PIL: (W, H)
    arr = np.asarray(screenshot)
    return int(arr.shape[1]), int(arr.shape[0])


def _turn(goal: str, screen_size: tuple[int, int] | None, screenshot: Any, elements: Any,
          history: Sequence[str], last_error: str, config: PolicyConfig,
          space: CoordSpace | None) -> tuple[str, str, PILImage.Image | None]:
    """(system text, user text, image or None): the conversation before encoding."""
    if space is None:
        size = screen_size or _screen_size_of(screenshot)
        if size is None:
            raise ValueError("give screen_size (W, H), a screenshot or a CoordSpace")
        space = config.space(size)
    image = None
    if config.shows_image and screenshot is not None:
        image = resize_screenshot(screenshot, space)
    # no screenshot to show (a text-only env): fall back on the elements, so the model sees something
    show_elements = config.shows_elements or (config.shows_image and screenshot is None)
    elements_text = None
    if show_elements:
        elements_text = format_elements(elements or "", space, config.max_element_chars,
                                        bounds=config.element_bounds)
    text = user_text(goal, history=history, elements_text=elements_text, last_error=last_error,
                     config=config, space=space)
    return system_prompt(space, config), text, image


def build_messages(goal: str, screen_size: tuple[int, int] | None = None, *, screenshot: Any = None,
                   elements: str | Sequence[UIElement] | None = None, history: Sequence[str] = (),
                   last_error: str = "", config: PolicyConfig = DEFAULT_CONFIG,
                   space: CoordSpace | None = None, image_format: str = "PNG") -> list[dict[str, Any]]:
    """The prompt as OpenAI chat-completions messages.

    The system message is a string; the user message is a string when no image
    is shown, else `[{"type": "text"}, {"type": "image_url", "image_url":
    {"url": "data:image/png;base64,..."}}]` with the screenshot resized to
    `space.image_size`. `history` holds one summary per earlier step.
    """
    sys_text, text, image = _turn(goal, screen_size, screenshot, elements, history, last_error,
                                  config, space)
    user: str | list[dict[str, Any]] = text
    if image is not None:
        user = [{"type": "text", "text": text},
                {"type": "image_url", "image_url": {"url": image_to_data_url(image, image_format)}}]
    return [{"role": "system", "content": sys_text}, {"role": "user", "content": user}]


def build_hf_messages(goal: str, screen_size: tuple[int, int] | None = None, *, screenshot: Any = None,
                      elements: str | Sequence[UIElement] | None = None, history: Sequence[str] = (),
                      last_error: str = "", config: PolicyConfig = DEFAULT_CONFIG,
                      space: CoordSpace | None = None) -> list[dict[str, Any]]:
    """The same conversation in Hugging Face chat-template form.

    With an image, every message's content is a list of parts (`{"type": "text",
    "text"}`, `{"type": "image", "image": PIL.Image}`), as VLM processors expect;
    without one, contents are plain strings, as text-model templates expect.
    """
    sys_text, text, image = _turn(goal, screen_size, screenshot, elements, history, last_error,
                                  config, space)
    if image is None:
        return [{"role": "system", "content": sys_text}, {"role": "user", "content": text}]
    return [{"role": "system", "content": [{"type": "text", "text": sys_text}]},
            {"role": "user", "content": [{"type": "text", "text": text},
                                         {"type": "image", "image": image}]}]


def to_hf_messages(messages: Sequence[dict[str, Any]], text_only: bool = False) -> list[dict[str, Any]]:
    """OpenAI-format messages in Hugging Face chat-template form.

    `image_url` parts become `{"type": "image", "image": PIL.Image}` (data URLs
    are decoded; other URLs are kept as `{"type": "image", "url": ...}`).
    `text_only=True` joins the text parts into a string and drops images (for
    text-model chat templates).
    """
    out: list[dict[str, Any]] = []
    for msg in messages:
        content = msg.get("content")
        if isinstance(content, str) or content is None:
            out.append({"role": msg["role"], "content": content or ""})
            continue
        if text_only:
            text = "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
            out.append({"role": msg["role"], "content": text})
            continue
        parts: list[dict[str, Any]] = []
        for p in content:
            if p.get("type") == "text":
                parts.append({"type": "text", "text": p.get("text", "")})
            elif p.get("type") == "image_url":
                url = (p.get("image_url") or {}).get("url", "")
                if url.startswith("data:"):
                    parts.append({"type": "image", "image": decode_data_url(url)})
                else:
                    parts.append({"type": "image", "url": url})
        out.append({"role": msg["role"], "content": parts})
    return out


# --- completions ------------------------------------------------------------------------------------


def action_to_tool_args(action: dict[str, Any] | Action | str, space: CoordSpace | None = None
                        ) -> dict[str, Any]:
    """A canonical action as `mobile_use` arguments, coordinates in the model's space.

    GUI-Owl's actions cover most of AndroidWorld's; `double_tap`, `scroll`, a
    `swipe` by `direction`, `type` with a target/`clear` and `index` targets are
    this format's extensions for the rest, so every canonical action round-trips.
    """
    a = Action.parse(action)
    t = a.action_type
    target: dict[str, Any] = {}
    if a.index is not None:
        target["index"] = a.index
    elif a.x is not None:
        target["coordinate"] = list(_to_model(space, a.x, a.y))
    args: dict[str, Any]
    if t in ("click", "double_tap"):
        args = {"action": t, **target}
    elif t == "long_press":
        args = {"action": "long_press", **target}
        if a.duration_ms is not None:
            args["time"] = a.duration_ms / 1000
    elif t == "swipe":
        args = {"action": "swipe", **target}
        if a.x2 is not None:
            args["coordinate2"] = list(_to_model(space, a.x2, a.y2))
        else:
            args["direction"] = a.direction
        if a.duration_ms is not None:
            args["time"] = a.duration_ms / 1000
    elif t == "scroll":
        args = {"action": "scroll", "direction": a.direction, **target}
    elif t == "input_text":
        args = {"action": "type", "text": a.text, **target}
        if a.clear_text is not None:
            args["clear"] = a.clear_text
    elif t in ("keyboard_enter", "navigate_home", "navigate_back"):
        button = {"keyboard_enter": "Enter", "navigate_home": "Home", "navigate_back": "Back"}[t]
        args = {"action": "system_button", "button": button}
    elif t == "open_app":
        args = {"action": "open", "text": a.app_name}
    elif t == "wait":
        args = {"action": "wait"}
        if a.seconds is not None:
            args["time"] = a.seconds
    elif t == "answer":
        args = {"action": "answer", "text": a.text}
    else:  # status
        args = {"action": "terminate", "status": "success" if a.goal_status == "complete" else "failure"}
    return args


def action_to_model_json(action: dict[str, Any] | Action | str, space: CoordSpace | None = None
                         ) -> dict[str, Any]:
    """A canonical action with its coordinates in the model's space (the `m3a` answer)."""
    d = Action.parse(action).to_dict()
    if "x" in d:
        d["x"], d["y"] = _to_model(space, d["x"], d["y"])
    if "x2" in d:
        d["x2"], d["y2"] = _to_model(space, d["x2"], d["y2"])
    return d


def _label_at(elements: Sequence[UIElement], x: float, y: float) -> str:
    """The label of the smallest labelled element under a device point."""
    best, area = "", None
    for el in elements:
        b = el.bbox_pixels
        if b is None or not el.label or not b.contains(x, y):
            continue
        if area is None or b.width * b.height < area:
            best, area = el.label, b.width * b.height
    return best


def _short(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def summarize_action(action: dict[str, Any] | Action | str, space: CoordSpace | None = None,
                     elements: str | Sequence[UIElement] | None = None) -> str:
    """A one-line summary of an action for the step history (the `<conclusion>`
    when the model gave none). Coordinates are in the model's space; with
    `elements` (device pixels) the touched element's label is named."""
    a = Action.parse(action)
    els = parse_element_lines(elements) if isinstance(elements, str) else list(elements or ())
    t = a.action_type
    label = ""
    where = ""
    if a.index is not None:
        where = f"element [{a.index}]"
        if 0 <= a.index < len(els):
            label = els[a.index].label
    elif a.x is not None:
        mx, my = _to_model(space, a.x, a.y)
        where = f"({mx}, {my})"
        label = _label_at(els, a.x, a.y)
    on = (f'"{_short(label)}" at {where}' if label else where)
    if t in ("click", "double_tap", "long_press"):
        verb = {"click": "Tap", "double_tap": "Double-tap", "long_press": "Long-press"}[t]
        s = f"{verb} {on}"
    elif t == "input_text":
        s = ("Replace the text with" if a.clear_text else "Type") + f' "{_short(a.text or "")}"'
        if on:
            s += f" into {on}"
    elif t == "scroll":
        s = f"Scroll {a.direction}" + (f" in {on}" if on else "")
    elif t == "swipe":
        if a.x2 is not None:
            s = f"Swipe from {where} to {_to_model(space, a.x2, a.y2)}"
        else:
            s = f"Swipe {a.direction}" + (f" from {on}" if on else "")
    elif t == "keyboard_enter":
        s = "Press Enter"
    elif t == "navigate_home":
        s = "Go to the home screen"
    elif t == "navigate_back":
        s = "Go back"
    elif t == "open_app":
        s = f"Open the {a.app_name} app"
    elif t == "wait":
        s = "Wait" + (f" {a.seconds:g} s" if a.seconds is not None else "")
    elif t == "answer":
        s = f'Answer "{_short(a.text or "", 100)}"'
    else:
        s = ("Finish: the task is done" if a.goal_status == "complete"
             else "Stop: the task is infeasible")
    return _short(s, MAX_SUMMARY_CHARS)


def _clean_tag_text(s: str) -> str:
    for tag in ("thinking", "tool_call", "conclusion", "think"):
        s = s.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    return s.strip()


#: action types whose coordinate target can become an element index
_INDEXABLE = ("click", "double_tap", "long_press", "input_text")


def index_target(action: dict[str, Any] | Action | str, elements: str | Sequence[UIElement]
                 ) -> dict[str, Any]:
    """`action` with its coordinate target replaced by the `[i]` of the element it
    touches: the smallest element under the point whose centre it is (acting by
    index taps the centre, so the effect is the same). Unchanged when no element
    fits (a point off-centre, as on a slider; a swipe; an action with no target)."""
    a = Action.parse(action).to_dict()
    if a["action_type"] not in _INDEXABLE or a.get("x") is None or a.get("index") is not None:
        return a
    x, y = a["x"], a["y"]
    if isinstance(elements, str):
        found = parse_numbered_element_lines(elements)
    else:
        found = list(enumerate(elements))
    best: tuple[int, int] | None = None  # (area, index)
    for i, el in found:
        b = el.bbox_pixels
        if b is None or not b.contains(x, y) or b.center != (x, y):
            continue
        area = b.width * b.height
        if best is None or area < best[0]:
            best = (area, i)
    if best is None:
        return a
    a.pop("x")
    a.pop("y")
    a["index"] = best[1]
    return a


def format_completion(action: dict[str, Any] | Action | str, thought: str = "", *,
                      space: CoordSpace | None = None, config: PolicyConfig = DEFAULT_CONFIG,
                      conclusion: str | None = None,
                      elements: str | Sequence[UIElement] | None = None) -> str:
    """A canonical action (device pixels) as the assistant's reply — an SFT target.

    guiowl (and compact, which leaves out an empty thinking block):
    `<thinking>\\n{thought}\\n</thinking>\\n<tool_call>\\n{json}\\n</tool_call>`
    and, when `config.conclusion`, `\\n<conclusion>\\n{conclusion}\\n</conclusion>`
    (default: `summarize_action`). m3a: `Reason: {thought}\\nAction: {json}`.
    With `config.index_targets` and `elements`, a touch at an element's centre is
    written as that element's `[i]` (`index_target`).
    Raises `ActionError` (a ValueError) for an invalid action.
    """
    if config.index_targets and config.uses_index and elements:
        action = index_target(action, elements)
    if config.prompt == "m3a":
        body = json.dumps(action_to_model_json(action, space), ensure_ascii=False)
        return f"Reason: {' '.join(thought.split())}\nAction: {body}"
    args = action_to_tool_args(action, space)
    call = json.dumps({"name": TOOL_NAME, "arguments": args}, ensure_ascii=False)
    out = f"<thinking>\n{_clean_tag_text(thought)}\n</thinking>\n<tool_call>\n{call}\n</tool_call>"
    if config.prompt == "compact" and not thought.strip():
        out = f"<tool_call>\n{call}\n</tool_call>"  # no empty thinking block to learn
    if config.conclusion:
        if conclusion is None:
            conclusion = summarize_action(action, space, elements)
        out += f"\n<conclusion>\n{_clean_tag_text(conclusion)}\n</conclusion>"
    return out


def parse_completion(text: str, *, space: CoordSpace | None = None,
                     config: PolicyConfig = DEFAULT_CONFIG, lenient: bool = False
                     ) -> tuple[dict[str, Any], str]:
    """A reply in the policy's format back to `(canonical action dict, thought)`.

    Coordinates are mapped from the model's space to device pixels (`space`;
    None = they already are device pixels). `lenient=True` also accepts the
    other supported output styles (`parsers.parse_any`). Raises `ParseError`.
    """
    p = parse_reply(text, space=space, config=config, lenient=lenient)
    return p.action, p.thought


def parse_reply(text: str, *, space: CoordSpace | None = None,
                config: PolicyConfig = DEFAULT_CONFIG, lenient: bool = False) -> Parsed:
    """`parse_completion`'s whole `Parsed`: the action, and the actions the reply implies
    after it (`Parsed.then`, e.g. the `status` after a final answer)."""
    if lenient:
        prefer = "guiowl" if config.prompt == "guiowl" else "androidworld"
        return parsers.parse_any(text, space=space, prefer=prefer)
    if config.prompt == "m3a":
        return parsers.parse_androidworld(text, space=space)
    return parsers.parse_guiowl(text, space=space)


# --- one episode, from the policy's side -----------------------------------------------------------


@dataclass
class Decision:
    """What a reply turned into: the action for the env and what to record."""

    action: dict[str, Any]
    thought: str = ""
    conclusion: str = ""
    raw: str = ""
    error: str | None = None  # the parse error, when the reply could not be used
    style: str = ""  # which output format was recognised


@dataclass
class PolicySession:
    """The policy's view of one episode.

    Keeps a summary per step (the model's `<conclusion>`, else
    `summarize_action`; failures noted), builds each step's prompt from the
    env's observation, and decodes each reply into an env action. A reply that
    cannot be parsed becomes `{"action_type": UNPARSEABLE, "error": ...}`, which
    the env rejects with the phone unchanged; the parse error is shown to the
    model at the next step. A reply that stands for more than one action (UI-TARS's
    `finished(content=...)`, AndroidLab's `finish(message=...)`: `answer`, then the
    finishing `status`; `Parsed.then`) gives the first now and queues the rest
    (`pending`); once the task was answered, a closing message only finishes it.
    """

    goal: str
    screen_size: tuple[int, int]
    config: PolicyConfig = DEFAULT_CONFIG
    lenient: bool = True
    history: list[str] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    answered: bool = False
    space: CoordSpace = field(init=False)
    _elements: str = field(default="", init=False, repr=False)
    _last_parse_failed: bool = field(default=False, init=False, repr=False)
    _error: str = field(default="", init=False, repr=False)

    def __post_init__(self) -> None:
        self.screen_size = (int(self.screen_size[0]), int(self.screen_size[1]))
        self.space = self.config.space(self.screen_size)

    def observe(self, obs: dict[str, Any]) -> None:
        """Take in an observation: notes the env's error about the previous action."""
        err = str(obs.get("last_action_error") or "")
        self._elements = str(obs.get("ui_elements") or "")
        if self._last_parse_failed:
            self._last_parse_failed = False
            return  # already recorded as a parse failure
        self._error = err
        if err and self.history:
            self.history[-1] = f"{self.history[-1]} [failed: {_short(err, 200)}]"

    def _args(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"screenshot": obs.get("screenshot") if self.config.shows_image else None,
                "elements": obs.get("ui_elements") or "", "history": self.history,
                "last_error": self._error, "config": self.config, "space": self.space}

    def messages(self, obs: dict[str, Any]) -> list[dict[str, Any]]:
        """This step's prompt (OpenAI form); call `observe(obs)` first."""
        return build_messages(obs.get("goal") or self.goal, **self._args(obs))

    def hf_messages(self, obs: dict[str, Any], text_only: bool = False) -> list[dict[str, Any]]:
        """This step's prompt (Hugging Face form); `text_only` drops the image."""
        args = self._args(obs)
        if text_only:
            args["screenshot"] = None
        return build_hf_messages(obs.get("goal") or self.goal, **args)

    def take(self, obs: dict[str, Any], observed: bool = False) -> dict[str, Any] | None:
        """A step's start: take in `obs` (unless already `observed`), then the action still
        queued from the previous reply, if any; None means the model must be asked."""
        if not observed:
            self.observe(obs)
        return self.next_pending()

    def next_pending(self) -> dict[str, Any] | None:
        """An action queued by the previous decision (no model call needed)."""
        if not self.pending:
            return None
        act = self.pending.pop(0)
        self.history.append(summarize_action(act, self.space))
        return act

    def decode(self, raw: str) -> Decision:
        """Turn a reply into the env action for this step, and record it."""
        try:
            p = parse_reply(raw, space=self.space, config=self.config, lenient=self.lenient)
        except ParseError as e:
            msg = str(e)
            self.history.append(f"(your output could not be parsed: {_short(msg, 200)})")
            self._last_parse_failed = True
            self._error = f"your output could not be parsed: {msg}"
            return Decision({"action_type": UNPARSEABLE, "error": msg, "raw": raw[:2000]},
                            thought=_clean_tag_text(raw)[:4000], raw=raw, error=msg)
        action, then = dict(p.action), list(p.then)
        if then and action["action_type"] == "answer" and self.answered:
            # a closing message after an explicit answer is a remark: just finish
            action, then = then[0], then[1:]
        self.pending.extend(then)
        if action["action_type"] == "answer":
            self.answered = True
        summary = _short(p.conclusion, MAX_SUMMARY_CHARS) if p.conclusion else \
            summarize_action(action, self.space, self._elements)
        self.history.append(summary)
        return Decision(action, thought=p.thought, conclusion=p.conclusion, raw=raw, style=p.style)


__all__ = [
    "COORD_MODES",
    "DEFAULT_CONFIG",
    "MAX_PIXELS",
    "MIN_PIXELS",
    "OBSERVATIONS",
    "PROMPT_STYLES",
    "QWEN3_FACTOR",
    "QWEN25_FACTOR",
    "TOOL_NAME",
    "UNPARSEABLE",
    "ActionError",
    "CoordSpace",
    "Decision",
    "ParseError",
    "PolicyConfig",
    "PolicySession",
    "action_to_model_json",
    "action_to_tool_args",
    "build_hf_messages",
    "build_messages",
    "decode_data_url",
    "format_completion",
    "format_elements",
    "image_to_data_url",
    "index_target",
    "map_to_device",
    "parse_completion",
    "resize_screenshot",
    "smart_resize",
    "summarize_action",
    "system_prompt",
    "to_hf_messages",
    "tool_schema",
    "user_text",
]
