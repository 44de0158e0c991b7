"""The OpenAI-compatible agent against a real HTTP server on loopback.

The server speaks chat completions. Its "model" is a scripted GUI-Owl: it
checks each request (goal, a decodable PNG screenshot of the right size and
aspect ratio), looks at the phone to decide, and answers with realistic
`<thinking>/<tool_call>/<conclusion>` text in the model's coordinate space.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import gymnasium as gym
import pytest

from antrap_gym.agents import OpenAIAgent, make_agent
from antrap_gym.agents.openai_agent import ModelAPIError, reply_text
from antrap_gym.agents.policy import UNPARSEABLE, decode_data_url, smart_resize
from antrap_gym.device.elements import parse_element_lines
from antrap_gym.rollout import run_episode

SCREEN = (1080, 2400)


class ChatServer:
    """A chat-completions endpoint on 127.0.0.1 (an OS-chosen port).

    `brain(request) -> str` writes the assistant's reply; `faults` is a queue of
    `(status, headers, body)` answered before the brain is asked again.
    """

    def __init__(self, brain) -> None:
        self.brain = brain
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.times: list[float] = []
        self.faults: list[tuple[int, dict[str, str], bytes]] = []
        self.errors: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(n)
                server.times.append(time.monotonic())
                server.headers.append(dict(self.headers))
                if self.path != "/v1/chat/completions":
                    return self._send(404, {}, b'{"error": "not found"}')
                req = json.loads(body)
                server.requests.append(req)
                if server.faults:
                    return self._send(*server.faults.pop(0))
                try:
                    text = server.brain(req)
                except AssertionError as e:  # a bad request: fail the test, not the server
                    server.errors.append(str(e))
                    return self._send(400, {}, json.dumps({"error": str(e)}).encode())
                reply = {"id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion",
                         "model": req.get("model"),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": text}}],
                         "usage": {"prompt_tokens": 1000, "completion_tokens": 60, "total_tokens": 1060}}
                return self._send(200, {}, json.dumps(reply).encode())

            def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


def _user_parts(req: dict[str, Any]) -> tuple[str, list[str]]:
    """(text, image URLs) of the request's last user message."""
    user = [m for m in req["messages"] if m["role"] == "user"][-1]
    if isinstance(user["content"], str):
        return user["content"], []
    text = "".join(p["text"] for p in user["content"] if p["type"] == "text")
    urls = [p["image_url"]["url"] for p in user["content"] if p["type"] == "image_url"]
    return text, urls


def guiowl_reply(thinking: str, args: dict[str, Any], conclusion: str) -> str:
    call = json.dumps({"name": "mobile_use", "arguments": args})
    return (f"<thinking>\n{thinking}\n</thinking>\n<tool_call>\n{call}\n</tool_call>\n"
            f"<conclusion>\n{conclusion}\n</conclusion>")


class WifiBrain:
    """A scripted GUI-Owl for `SettingsWifiToggle`.

    It sees the screen either through the live env (screenshot mode: the
    elements stand for what a VLM would read off the picture) or through the
    element list in the prompt (text mode), and answers in the model's
    coordinate space: absolute on the 1092x2408 image, or relative 0-1000.
    """

    def __init__(self, env, coords: str = "absolute", from_prompt: bool = False) -> None:
        self.env = env
        self.coords = coords
        self.from_prompt = from_prompt
        self.resolution = (1092, 2408) if coords == "absolute" else (1000, 1000)
        self.seen_goals: list[str] = []

    def to_model(self, x: float, y: float) -> list[int]:
        rw, rh = self.resolution
        return [round(x * rw / SCREEN[0]), round(y * rh / SCREEN[1])]

    def check(self, req: dict[str, Any]) -> str:
        assert req["model"] == "gui-owl-7b"
        assert req["temperature"] == 0.0 and req["max_tokens"] == 512
        sys_msg = req["messages"][0]
        assert sys_msg["role"] == "system" and '"name": "mobile_use"' in sys_msg["content"]
        rw, rh = self.resolution
        assert f"The screen's resolution is {rw}x{rh}." in sys_msg["content"]
        text, urls = _user_parts(req)
        goal = self.env.unwrapped.task.goal
        assert f"The user query: {goal}" in text
        if not self.from_prompt:
            assert len(urls) == 1, "one screenshot per request"
            img = decode_data_url(urls[0])
            assert img.format == "PNG"
            h, w = smart_resize(SCREEN[1], SCREEN[0])
            assert img.size == (w, h) == (1092, 2408)
            assert abs(img.size[0] / img.size[1] - SCREEN[0] / SCREEN[1]) < 0.01
        self.seen_goals.append(goal)
        return text

    def elements(self, text: str):
        """(label, centre in model coordinates, checked) of the visible elements."""
        if self.from_prompt:
            block = text.split("screen coordinates):\n", 1)[1].split("\n\n", 1)[0]
            els = parse_element_lines(block)
            return [(e.label, list(e.center), e.is_checked, e.class_name) for e in els if e.bbox_pixels]
        return [(e.label, self.to_model(*e.center), e.is_checked, (e.class_name or "").rsplit(".", 1)[-1])
                for e in self.env.unwrapped.elements if e.bbox_pixels]

    def __call__(self, req: dict[str, Any]) -> str:
        text = self.check(req)
        want_on = self.env.unwrapped.task.goal.endswith("on.")
        els = self.elements(text)
        labels = {label: centre for label, centre, _, _ in els if label}
        switch = next(((c, checked) for _, c, checked, cls in els if cls == "Switch"), None)
        if switch is not None and "Wi-Fi" in labels:
            centre, checked = switch
            if checked == want_on:
                return guiowl_reply("The Wi-Fi switch now shows the requested state, so the task is done.",
                                    {"action": "terminate", "status": "success"},
                                    "Wi-Fi is in the requested state; the task is complete.")
            return guiowl_reply("This is the Internet page. The Wi-Fi switch is at the top right; "
                                "tapping it flips Wi-Fi.", {"action": "click", "coordinate": centre},
                                "Tapped the Wi-Fi switch.")
        if "Internet" in labels:
            return guiowl_reply("The Network & internet page lists Internet, which holds the Wi-Fi switch.",
                                {"action": "click", "coordinate": labels["Internet"]},
                                "Opened the Internet settings.")
        if "Network & internet" in labels:
            return guiowl_reply("Settings is open. Wi-Fi lives under Network & internet.",
                                {"action": "click", "coordinate": labels["Network & internet"]},
                                'Tapped "Network & internet".')
        return guiowl_reply("I am on the home screen. I need the Settings app.",
                            {"action": "open", "text": "Settings"}, "Opened the Settings app.")


@pytest.fixture
def wifi_env():
    env = gym.make("antrap/AndroidSim-v0", task="SettingsWifiToggle")
    yield env
    env.close()


@pytest.fixture
def server_for():
    servers: list[ChatServer] = []

    def make(brain) -> ChatServer:
        s = ChatServer(brain)
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.close()


def _agent(server: ChatServer, **kw) -> OpenAIAgent:
    opts = {"model": "gui-owl-7b", "base_url": server.base_url, "max_tokens": 512, "backoff_s": 0.01,
            "timeout_s": 10}
    opts.update(kw)
    return make_agent("openai", **opts)


@pytest.mark.parametrize("coords", ["absolute", "relative"])
def test_solves_wifi_task_end_to_end(wifi_env, server_for, coords):
    brain = WifiBrain(wifi_env, coords)
    server = server_for(brain)
    agent = _agent(server, coords=coords, api_key="sk-test")
    assert isinstance(agent, OpenAIAgent)
    for seed in (0, 2):  # an "off" and an "on" variant
        res = run_episode(wifi_env, agent, seed=seed)
        assert not server.errors, server.errors
        assert res.error is None and res.terminated and res.success == 1.0, res
        assert res.steps == 5
        assert all(not s.error for s in res.trajectory)
        assert res.trajectory[1].thought.startswith("Settings is open.")
    assert brain.seen_goals and len(set(brain.seen_goals)) == 2
    assert server.headers[0]["Authorization"] == "Bearer sk-test"
    # the history grows step by step, from the conclusions
    text, _ = _user_parts(server.requests[-1])
    assert "Step 1: Opened the Settings app." in text
    assert 'Step 2: Tapped "Network & internet".' in text
    assert "Step 4: Tapped the Wi-Fi switch." in text
    assert agent.last_raw.startswith("<thinking>\nThe Wi-Fi switch now shows")
    assert agent.last_thought.startswith("The Wi-Fi switch now shows")


def test_text_observation_reads_elements_from_prompt(wifi_env, server_for):
    """A text-only model: elements in the prompt, bounds in the model's space."""
    server = server_for(WifiBrain(wifi_env, "absolute", from_prompt=True))
    agent = _agent(server, observation="text")
    res = run_episode(wifi_env, agent, seed=3)
    assert not server.errors, server.errors
    assert res.success == 1.0 and res.steps == 5
    text, urls = _user_parts(server.requests[1])
    assert not urls and isinstance(server.requests[1]["messages"][1]["content"], str)
    assert '"Network & internet"' in text


def test_retries_on_429_and_500(wifi_env, server_for):
    server = server_for(WifiBrain(wifi_env))
    server.faults = [(429, {"Retry-After": "1"}, b'{"error": "rate limited"}'),
                     (500, {}, b'{"error": "internal"}')]
    agent = _agent(server)
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    action = agent.act(obs, info)
    assert action == {"action_type": "open_app", "app_name": "Settings"}
    assert len(server.requests) == 3 and agent.retries == 2
    assert server.times[1] - server.times[0] >= 0.95  # Retry-After honoured
    assert server.times[2] - server.times[1] < 0.9  # then the (short) backoff
    assert server.requests[0] == server.requests[2]  # the same request is resent


def test_malformed_reply_becomes_action_error_and_episode_goes_on(wifi_env, server_for):
    brain = WifiBrain(wifi_env)
    bad = ('<thinking>\nOpen Settings.\n</thinking>\n<tool_call>\n{"name": "mobile_use", '
           '"arguments": {"action": "click", "coordinate": [682,')
    replies = iter([bad])

    def flaky(req):
        return next(replies, None) or brain(req)

    server = server_for(flaky)
    agent = _agent(server)
    res = run_episode(wifi_env, agent, seed=0)
    assert res.success == 1.0 and res.steps == 6
    first = res.trajectory[0]
    assert "could not read an action from the model's output" in first.error
    assert first.action["action_type"] == UNPARSEABLE
    assert "invalid or incomplete" in first.action["error"] and first.action["raw"] == bad
    assert first.thought.startswith("Open Settings.")
    # the model is told at the next step
    text, _ = _user_parts(server.requests[1])
    assert "Step 1: (your output could not be parsed: the JSON is invalid or incomplete" in text
    assert "Your last action failed: your output could not be parsed" in text
    # and the raw reply is kept
    assert agent.last_raw.startswith("<thinking>")


def test_raw_reply_and_reasoning_are_kept(wifi_env, server_for):
    server = server_for(WifiBrain(wifi_env))
    agent = _agent(server)
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    agent.act(obs, info)
    assert agent.last_raw.startswith("<thinking>\nI am on the home screen.")
    assert agent.last_raw.endswith("</conclusion>")
    assert agent.last_thought == "I am on the home screen. I need the Settings app."
    assert agent.last_decision.conclusion == "Opened the Settings app."
    assert agent.last_response["usage"]["total_tokens"] == 1060


def test_gives_up_after_max_retries(wifi_env, server_for):
    server = server_for(WifiBrain(wifi_env))
    server.faults = [(503, {}, b"overloaded")] * 10
    agent = _agent(server, max_retries=2)
    res = run_episode(wifi_env, agent, seed=0)
    assert len(server.requests) == 3
    assert res.error and "ModelAPIError" in res.error and "after 3 attempts" in res.error
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    with pytest.raises(ModelAPIError) as e:
        agent.act(obs, info)
    assert e.value.status == 503 and e.value.attempts == 3


def test_non_retryable_status_fails_at_once(wifi_env, server_for):
    server = server_for(WifiBrain(wifi_env))
    server.faults = [(401, {}, b'{"error": "bad key"}')]
    agent = _agent(server)
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    with pytest.raises(ModelAPIError, match="401"):
        agent.act(obs, info)
    assert len(server.requests) == 1


def test_connection_refused_is_retried_then_typed(wifi_env):
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    agent = make_agent("openai", model="m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=2,
                       backoff_s=0.01, timeout_s=2)
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    with pytest.raises(ModelAPIError, match="after 3 attempts") as e:
        agent.act(obs, info)
    assert e.value.status is None and agent.requests == 3


def test_timeouts_are_retried(wifi_env, server_for):
    brain = WifiBrain(wifi_env)
    calls = []

    def slow_once(req):
        calls.append(1)
        if len(calls) == 1:
            time.sleep(1.5)
        return brain(req)

    server = server_for(slow_once)
    agent = _agent(server, timeout_s=0.5)
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    assert agent.act(obs, info) == {"action_type": "open_app", "app_name": "Settings"}
    assert agent.retries >= 1


def test_reply_text_handles_split_reasoning_and_native_tool_calls():
    resp = {"choices": [{"message": {
        "role": "assistant", "content": None, "reasoning_content": "Tap the icon.",
        "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "mobile_use", "arguments": '{"action": "click", "coordinate": [10, 20]}'}}]}}]}
    text = reply_text(resp)
    assert text.startswith("<thinking>\nTap the icon.\n</thinking>")
    assert ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
            '"coordinate": [10, 20]}}') in text
    with pytest.raises(ValueError):
        reply_text({"choices": []})


def test_api_key_from_environment(monkeypatch, server_for, wifi_env):
    monkeypatch.setenv("MY_KEY", "sk-env")
    server = server_for(WifiBrain(wifi_env))
    agent = _agent(server, api_key_env="MY_KEY")
    obs, info = wifi_env.reset(seed=0)
    agent.reset(wifi_env, obs, info)
    agent.act(obs, info)
    assert server.headers[0]["Authorization"] == "Bearer sk-env"
    monkeypatch.delenv("MY_KEY")
    assert _agent(server, api_key_env="MY_KEY").api_key is None


# ------------------------------------------------------------------------------------------------
# the M3A (AndroidWorld JSON) prompt, end to end

def m3a_reply(reason: str, action: dict[str, Any]) -> str:
    return f"Reason: {reason}\nAction: {json.dumps(action)}"


class M3ABrain(WifiBrain):
    """The same scripted model, prompted in the M3A style: it checks the AndroidWorld action
    list and goal layout, and answers `Reason: ...` / `Action: {json}` — coordinates in the
    model's space (screenshot mode) or an element `index` (text mode, from the prompt)."""

    def check(self, req: dict[str, Any]) -> str:
        assert req["model"] == "gui-owl-7b"
        sys_msg = req["messages"][0]
        assert sys_msg["role"] == "system"
        system = sys_msg["content"]
        assert "mobile_use" not in system and "<tool_call>" not in system
        assert "Available actions (JSON):" in system and '"action_type": "open_app"' in system
        assert "Reason: <why" in system and "Action: <one JSON action>" in system
        rw, rh = self.resolution
        assert f"The screen's resolution is {rw}x{rh}" in system
        text, urls = _user_parts(req)
        goal = self.env.unwrapped.task.goal
        assert f"Goal: {goal}" in text and "Previous steps:" in text
        assert "Answer as:\nReason: ...\nAction: {...}" in text
        if self.from_prompt:
            assert not urls
        else:
            assert len(urls) == 1
            assert decode_data_url(urls[0]).size == (1092, 2408)
        self.seen_goals.append(goal)
        return text

    def __call__(self, req: dict[str, Any]) -> str:
        import re

        text = self.check(req)
        want_on = self.env.unwrapped.task.goal.endswith("on.")
        if self.from_prompt:  # targets by element index, read off the prompt's element lines
            block = text.split("screen coordinates):\n", 1)[1].split("\n\n", 1)[0]
            lines = block.splitlines()
            idx = {}
            switch = None
            for line in lines:
                m = re.match(r"\[(\d+)\] (\S+)(?: \"([^\"]*)\")?", line)
                if not m:
                    continue
                i, cls, label = int(m.group(1)), m.group(2), m.group(3)
                if label:
                    idx.setdefault(label, i)
                if cls.endswith("Switch"):
                    switch = (i, "checked" in line.split("{", 1)[-1])

            def target(label):
                return {"index": idx[label]}
        else:
            els = self.elements(text)
            labels = {label: centre for label, centre, _, _ in els if label}
            idx = labels
            sw = next(((c, checked) for _, c, checked, cls in els if cls == "Switch"), None)
            switch = sw

            def target(label):
                x, y = labels[label]
                return {"x": x, "y": y}

        if switch is not None and "Wi-Fi" in idx:
            where, checked = switch
            if checked == want_on:
                return m3a_reply("Wi-Fi is in the requested state.",
                                 {"action_type": "status", "goal_status": "complete"})
            tap = {"index": where} if self.from_prompt else {"x": where[0], "y": where[1]}
            return m3a_reply("Tap the Wi-Fi switch.", {"action_type": "click", **tap})
        for label in ("Internet", "Network & internet"):
            if label in idx:
                return m3a_reply(f"Open {label}.", {"action_type": "click", **target(label)})
        return m3a_reply("I need the Settings app.", {"action_type": "open_app",
                                                      "app_name": "Settings"})


@pytest.mark.parametrize("mode", ["screenshot", "text"])
def test_m3a_prompt_solves_wifi_task_end_to_end(wifi_env, server_for, mode):
    text = mode == "text"
    brain = M3ABrain(wifi_env, "absolute", from_prompt=text)
    server = server_for(brain)
    agent = _agent(server, prompt="m3a", observation=mode, lenient=False)
    for seed in (0, 2):  # an "off" and an "on" variant
        res = run_episode(wifi_env, agent, seed=seed)
        assert not server.errors, server.errors
        assert res.error is None and res.terminated and res.success == 1.0, res
        assert res.steps == 5 and all(not s.error for s in res.trajectory)
        assert res.trajectory[0].raw.startswith("Reason: I need the Settings app.")
        assert res.trajectory[0].thought == "I need the Settings app."
        assert res.trajectory[0].action == {"action_type": "open_app", "app_name": "Settings"}
        taps = [s.action for s in res.trajectory[1:4]]
        assert all(t["action_type"] == "click" for t in taps)
        if text:  # element indices (the default when elements are shown)
            assert all(set(t) == {"action_type", "index"} for t in taps), taps
        else:  # model coordinates mapped back to device pixels
            assert all(set(t) == {"action_type", "x", "y"} for t in taps), taps
        assert res.trajectory[-1].action == {"action_type": "status", "goal_status": "complete"}
    assert len(set(brain.seen_goals)) == 2
    # the history of earlier steps is in the prompt, in the M3A layout
    last, _ = _user_parts(server.requests[-1])
    assert "Previous steps:\nStep 1: " in last and "Step 4: " in last
    assert "Settings" in last.split("Previous steps:\n", 1)[1].split("\n", 1)[0]
