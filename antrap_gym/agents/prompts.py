"""What a model is shown: the system prompt (the `mobile_use` tool, its JSON schema or the
compact style's few lines, or AndroidWorld's JSON actions) and the user turn (the goal,
the earlier steps, the screen as a screenshot and/or its elements), as OpenAI messages or
in Hugging Face's chat-template form."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.agents.coords import (
    RELATIVE_SCALE,
    TOOL_NAME,
    CoordSpace,
)
from antrap_gym.agents.images import decode_data_url, image_to_data_url, resize_screenshot
from antrap_gym.agents.policy_config import DEFAULT_CONFIG, PolicyConfig
from antrap_gym.agents.tool import SYSTEM_BUTTONS, TOOL_ACTION_NAMES, TOOL_ACTIONS, compact_action_list
from antrap_gym.device.elements import (
    UIElement,
    element_line,
    parse_element_lines,
)
from antrap_gym.env.actions import ACTION_SPECS

if TYPE_CHECKING:
    from PIL import Image as PILImage

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
