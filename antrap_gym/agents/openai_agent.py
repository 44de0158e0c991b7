"""An agent behind any OpenAI-compatible chat-completions endpoint (vLLM, hosted APIs).

Standard library only (urllib): the screenshot goes as a base64 PNG resized
for the model, with the goal and the step history, in the policy format of
`antrap_gym.agents.policy`. Transient failures (429, 5xx, connection errors,
timeouts) are retried with exponential backoff, honouring `Retry-After`; when
the retries run out `ModelAPIError` is raised (the harness records it as the
episode's error). A reply that cannot be parsed is not an exception: it becomes
an action the env rejects, so `last_action_error` shows it and the episode goes on.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import os
import time
import urllib.error
import urllib.request
from typing import Any

from antrap_gym.agents.model_agent import ModelAgent, policy_config
from antrap_gym.agents.policy import QWEN25_FACTOR, PolicySession

RETRY_STATUS = (408, 409, 425, 429, 500, 502, 503, 504)


class ModelAPIError(RuntimeError):
    """The endpoint failed for good: a non-retryable status, or retries exhausted."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 0,
                 body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.body = body


def _retry_after(value: str | None) -> float | None:
    """`Retry-After` in seconds (a number or an HTTP date), or None."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _content_text(content: Any) -> str:
    """A message's content as text (string, or a list of text parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def reply_text(response: dict[str, Any]) -> str:
    """The assistant's reply in a chat-completions response, as the policy text.

    Adds what servers split off: `reasoning_content` (reasoning parsers) as
    `<thinking>`, and native `tool_calls` (tool-call parsers) as `<tool_call>` blocks.
    """
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("the response has no choices")
    msg = choices[0].get("message") or {}
    text = _content_text(msg.get("content"))
    reasoning = msg.get("reasoning_content") or msg.get("reasoning")
    if isinstance(reasoning, str) and reasoning.strip() and "<think" not in text:
        text = f"<thinking>\n{reasoning.strip()}\n</thinking>\n{text}"
    for call in msg.get("tool_calls") or []:
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict):
            continue
        args = fn.get("arguments")
        if isinstance(args, str):
            with contextlib.suppress(json.JSONDecodeError):  # else the parser reports it
                args = json.loads(args)
        text += "\n<tool_call>\n" + json.dumps({"name": fn.get("name"), "arguments": args},
                                               ensure_ascii=False) + "\n</tool_call>"
    return text


class OpenAIAgent(ModelAgent):
    """A GUI-Owl-style (or M3A-style) policy served over chat completions.

    model: the served model's name. base_url: the API root (`.../v1`).
    api_key: sent as a Bearer token; default: the environment variable
        `api_key_env` (none → no Authorization header, as for a local vLLM).
    prompt / coords / observation / element_index / factor / min_pixels /
        max_pixels / max_history: the policy format (`PolicyConfig`).
    lenient: also accept replies in the other supported output styles.
    temperature, top_p, max_tokens, seed, stop, extra_body: request fields.
    timeout_s: per request; max_retries: retries after the first attempt;
    backoff_s: the first retry delay, doubled each time up to max_backoff_s
        (a longer Retry-After is honoured up to max_retry_after_s).

    After each step: `last_raw` (the reply text), `last_thought` (its reasoning),
    `last_decision` (action, conclusion, parse error), `last_response` (JSON).
    """

    name = "openai"

    def __init__(self, model: str, base_url: str = "http://localhost:8000/v1", api_key: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", prompt: str = "guiowl", coords: str = "absolute",
                 observation: str = "screenshot", element_index: bool | None = None,
                 temperature: float = 0.0, top_p: float | None = None, max_tokens: int = 1024,
                 seed: int | None = None, stop: list[str] | None = None,
                 extra_body: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
                 timeout_s: float = 120.0, max_retries: int = 5, backoff_s: float = 1.0,
                 max_backoff_s: float = 30.0, max_retry_after_s: float = 120.0,
                 factor: int = QWEN25_FACTOR, min_pixels: int | None = None, max_pixels: int | None = None,
                 max_history: int = 20, lenient: bool = True, conclusion: bool = True,
                 goal_reminder: bool = False, tool_docs: bool = True,
                 element_bounds: bool = True) -> None:
        self.config = policy_config(
            prompt=prompt, coords=coords, observation=observation, element_index=element_index,
            factor=factor, min_pixels=min_pixels, max_pixels=max_pixels, max_history=max_history,
            conclusion=conclusion, goal_reminder=goal_reminder, tool_docs=tool_docs,
            element_bounds=element_bounds)
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key if api_key is not None else os.environ.get(api_key_env)
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens
        self.seed = seed
        self.stop = stop
        self.extra_body = dict(extra_body or {})
        self.headers = dict(headers or {})
        self.timeout_s = timeout_s
        self.max_retries = max(0, int(max_retries))
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.max_retry_after_s = max_retry_after_s
        self.lenient = lenient
        self.last_response: dict[str, Any] | None = None
        self.requests = 0  # HTTP attempts, all episodes
        self.retries = 0
        self._begin()

    def reply(self, session: PolicySession, obs: dict[str, Any]) -> str:
        response = self.complete(session.messages(obs))
        self.last_response = response
        try:
            return reply_text(response)
        except ValueError as e:
            self.last_response = {"error": str(e), "response": response}
            return ""

    # --- HTTP ------------------------------------------------------------------------------
    def payload(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The request body for these messages."""
        body: dict[str, Any] = {"model": self.model, "messages": messages,
                                "temperature": self.temperature, "max_tokens": self.max_tokens}
        if self.top_p is not None:
            body["top_p"] = self.top_p
        if self.seed is not None:
            body["seed"] = self.seed
        if self.stop:
            body["stop"] = list(self.stop)
        body.update(self.extra_body)
        return body

    def complete(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """POST a chat completion, retrying transient failures; the response JSON."""
        data = json.dumps(self.payload(messages), ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json", **self.headers}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        last = ""
        status: int | None = None
        attempts = self.max_retries + 1
        for attempt in range(attempts):
            self.requests += 1
            delay: float | None = None
            try:
                req = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                    raw = resp.read()
                try:
                    out = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError):
                    out = None
                if isinstance(out, dict) and "choices" in out:
                    return out
                status, last = None, f"the server sent no chat completion: {raw[:200]!r}"
            except urllib.error.HTTPError as e:
                status = e.code
                try:
                    body = e.read().decode("utf-8", "replace")[:2000]
                except OSError:
                    body = ""
                last = f"HTTP {e.code}: {body[:300]}"
                if e.code not in RETRY_STATUS:
                    raise ModelAPIError(f"{self.url} answered {last}", e.code, attempt + 1, body) from None
                delay = _retry_after(e.headers.get("Retry-After") if e.headers else None)
            except (OSError, http.client.HTTPException) as e:  # refused, reset, timed out
                status = None
                reason = getattr(e, "reason", e)
                last = f"{type(e).__name__}: {reason}"
            if attempt + 1 >= attempts:
                break
            self.retries += 1
            backoff = min(self.max_backoff_s, self.backoff_s * (2 ** attempt))
            if delay is not None:
                backoff = max(backoff, min(delay, self.max_retry_after_s))
            time.sleep(backoff)
        raise ModelAPIError(f"{self.url} failed after {attempts} attempts; last error: {last}",
                            status, attempts, last)


__all__ = ["ModelAPIError", "OpenAIAgent", "reply_text"]
