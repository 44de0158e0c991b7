"""The policy format: what a GUI-Owl-style model is shown and what it answers.

One interface shared by the model agents (`openai`, `transformers`) and the
trainer, so that evaluation prompts and training targets can never drift apart.
Its parts live in small modules, all importable from here: `policy_config`
(`PolicyConfig`), `coords` (coordinate spaces), `images` (screenshots as the model
sees them), `prompts` (the messages), `completions` (replies written and read);
this module adds `PolicySession`, one episode from the policy's side.

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

from dataclasses import dataclass, field
from typing import Any

from antrap_gym.agents.completions import (
    MAX_SUMMARY_CHARS,
    UNPARSEABLE,
    action_to_model_json,
    action_to_tool_args,
    clean_tag_text,
    format_completion,
    index_target,
    parse_completion,
    parse_reply,
    shorten,
    summarize_action,
)
from antrap_gym.agents.coords import (
    COORD_MODES,
    MAX_PIXELS,
    MIN_PIXELS,
    QWEN3_FACTOR,
    QWEN25_FACTOR,
    TOOL_NAME,
    CoordSpace,
    ParseError,
    map_to_device,
    smart_resize,
)
from antrap_gym.agents.images import decode_data_url, image_to_data_url, resize_screenshot
from antrap_gym.agents.policy_config import DEFAULT_CONFIG, OBSERVATIONS, PROMPT_STYLES, PolicyConfig
from antrap_gym.agents.prompts import (
    build_hf_messages,
    build_messages,
    format_elements,
    system_prompt,
    to_hf_messages,
    tool_schema,
    user_text,
)
from antrap_gym.env.actions import ActionError

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
            self.history[-1] = f"{self.history[-1]} [failed: {shorten(err, 200)}]"

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
            self.history.append(f"(your output could not be parsed: {shorten(msg, 200)})")
            self._last_parse_failed = True
            self._error = f"your output could not be parsed: {msg}"
            return Decision({"action_type": UNPARSEABLE, "error": msg, "raw": raw[:2000]},
                            thought=clean_tag_text(raw)[:4000], raw=raw, error=msg)
        action, then = dict(p.action), list(p.then)
        if then and action["action_type"] == "answer" and self.answered:
            # a closing message after an explicit answer is a remark: just finish
            action, then = then[0], then[1:]
        self.pending.extend(then)
        if action["action_type"] == "answer":
            self.answered = True
        summary = shorten(p.conclusion, MAX_SUMMARY_CHARS) if p.conclusion else \
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
