"""The policy format (prompt, completion, coordinates) and the output parsers."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from antrap_gym.agents import parsers
from antrap_gym.agents.parsers import ParseError, parse_any
from antrap_gym.agents.policy import (
    MAX_PIXELS,
    MIN_PIXELS,
    UNPARSEABLE,
    CoordSpace,
    PolicyConfig,
    PolicySession,
    build_hf_messages,
    build_messages,
    decode_data_url,
    format_completion,
    format_elements,
    index_target,
    parse_completion,
    smart_resize,
    summarize_action,
    system_prompt,
    to_hf_messages,
    tool_schema,
)
from antrap_gym.device.elements import parse_element_lines
from antrap_gym.env.actions import ACTION_TYPES, Action

SCREEN = (1080, 2400)
ABS = CoordSpace.for_screen(SCREEN, "absolute")  # 1092x2408
REL = CoordSpace.for_screen(SCREEN, "relative")
DEV = CoordSpace.identity(SCREEN)


# --- smart_resize and coordinate spaces ---------------------------------------------------------


def test_smart_resize_known_values():
    assert smart_resize(2400, 1080) == (2408, 1092)  # Pixel 6 portrait
    assert smart_resize(1080, 1920) == (1092, 1932)
    assert smart_resize(2400, 1080, factor=32) == (2400, 1088)  # Qwen3-VL
    assert smart_resize(10000, 10000, max_pixels=1_003_520) == (980, 980)
    assert smart_resize(10, 10) == (56, 56)
    assert smart_resize(28 * 40, 28 * 20) == (28 * 40, 28 * 20)  # already conforming: unchanged


@settings(max_examples=300, deadline=None)
@given(h=st.integers(10, 9000), w=st.integers(10, 9000), factor=st.sampled_from([28, 32]),
       max_pixels=st.sampled_from([MAX_PIXELS, 1_003_520, 200_704]))
def test_smart_resize_properties(h, w, factor, max_pixels):
    if max(h, w) / min(h, w) > 200:
        with pytest.raises(ValueError):
            smart_resize(h, w, factor, MIN_PIXELS, max_pixels)
        return
    rh, rw = smart_resize(h, w, factor, MIN_PIXELS, max_pixels)
    assert rh % factor == 0 and rw % factor == 0
    assert rh >= factor and rw >= factor
    assert MIN_PIXELS <= rh * rw <= max_pixels
    # the aspect ratio survives up to one factor of rounding on each side (unless a side
    # had to be raised to the minimum of one factor)
    if min(rh, rw) > factor:
        assert abs(rh / rw - h / w) <= factor * (1 + h / w) / rw + 1e-9


@pytest.mark.parametrize("bad", [(0, 10), (10, -1), (10, 3000)])
def test_smart_resize_rejects_bad_sizes(bad):
    with pytest.raises(ValueError):
        smart_resize(*bad)


@pytest.mark.parametrize("space", [ABS, REL, DEV], ids=["absolute", "relative", "device"])
def test_coordinates_round_trip(space):
    rw, rh = space.resolution
    tol_x = SCREEN[0] / rw / 2 + 1
    tol_y = SCREEN[1] / rh / 2 + 1
    for x, y in [(0, 0), (540, 1200), (1079, 2399), (13, 2222), (977, 5)]:
        mx, my = space.to_model(x, y)
        assert 0 <= mx <= rw and 0 <= my <= rh
        dx, dy = space.to_device(mx, my)
        assert abs(dx - x) <= tol_x and abs(dy - y) <= tol_y
        assert 0 <= dx < SCREEN[0] and 0 <= dy < SCREEN[1]


def test_coordinate_spaces():
    assert ABS.resolution == (1092, 2408) and ABS.image_size == (1092, 2408)
    assert REL.resolution == (1000, 1000)
    assert REL.to_device(1000, 1000) == (1079, 2399)  # the far edge stays on the screen
    assert REL.to_device(500, 500) == (540, 1200)
    assert ABS.to_device(546, 1204) == (540, 1200)
    for space, point in [(ABS, (1093, 10)), (ABS, (-1, 10)), (REL, (10, 1001)), (DEV, (1081, 0))]:
        with pytest.raises(ParseError, match="outside"):
            space.to_device(*point)
    with pytest.raises(ParseError):
        ABS.to_device(float("nan"), 3)
    with pytest.raises(ValueError):
        CoordSpace(SCREEN, SCREEN, "polar")


# --- canonical action <-> completion round trip -------------------------------------------------

CANONICAL = [
    {"action_type": "click", "x": 613, "y": 492},
    {"action_type": "click", "index": 4},
    {"action_type": "double_tap", "x": 100, "y": 2000},
    {"action_type": "long_press", "x": 540, "y": 1300},
    {"action_type": "long_press", "x": 540, "y": 1300, "duration_ms": 1500},
    {"action_type": "long_press", "index": 7},
    {"action_type": "scroll", "direction": "down"},
    {"action_type": "scroll", "direction": "left", "x": 540, "y": 800},
    {"action_type": "swipe", "direction": "up"},
    {"action_type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600},
    {"action_type": "swipe", "x": 900, "y": 1000, "x2": 100, "y2": 1000, "duration_ms": 300},
    {"action_type": "input_text", "text": "Alice Smith"},
    {"action_type": "input_text", "text": "héllo \"quoted\" 你好", "x": 540, "y": 345, "clear_text": True},
    {"action_type": "input_text", "text": "note", "index": 1, "clear_text": False},
    {"action_type": "keyboard_enter"},
    {"action_type": "navigate_home"},
    {"action_type": "navigate_back"},
    {"action_type": "open_app", "app_name": "Settings"},
    {"action_type": "wait"},
    {"action_type": "wait", "seconds": 2.5},
    {"action_type": "answer", "text": "87%"},
    {"action_type": "status", "goal_status": "complete"},
    {"action_type": "status", "goal_status": "infeasible"},
]


def test_canonical_list_covers_every_action_type():
    assert {a["action_type"] for a in CANONICAL} == set(ACTION_TYPES)


def _same_action(got: dict, want: dict, space: CoordSpace) -> None:
    rw, rh = space.resolution
    tol = max(SCREEN[0] / rw, SCREEN[1] / rh) / 2 + 1
    assert set(got) == set(want), (got, want)
    for k, v in want.items():
        if k in ("x", "y", "x2", "y2"):
            assert abs(got[k] - v) <= tol, (k, got, want)
        else:
            assert got[k] == v, (k, got, want)


@pytest.mark.parametrize("prompt", ["guiowl", "m3a", "compact"])
@pytest.mark.parametrize("space", [ABS, REL, DEV], ids=["absolute", "relative", "device"])
@pytest.mark.parametrize("action", CANONICAL, ids=lambda a: "-".join(map(str, a.values()))[:40])
def test_format_parse_round_trip(action, space, prompt):
    cfg = PolicyConfig(prompt=prompt, coords=space.mode, element_index=True)
    text = format_completion(action, "I need to do this step.", space=space, config=cfg)
    got, thought = parse_completion(text, space=space, config=cfg)
    _same_action(got, action, space)
    assert thought == "I need to do this step."
    # the lenient path (parse_any) reads it the same way
    got2, _ = parse_completion(text, space=space, config=cfg, lenient=True)
    assert got2 == got
    if space is DEV:
        assert got == Action.parse(action).to_dict()


def test_completion_shape_guiowl():
    text = format_completion({"action_type": "click", "x": 613, "y": 492}, "Tap Network & internet.",
                             space=ABS, elements='[4] TextView "Network & internet" (189,456,1038,529)\n'
                                                 '[3] LinearLayout {clickable} (0,430,1080,619)')
    assert text.startswith("<thinking>\nTap Network & internet.\n</thinking>\n<tool_call>\n")
    call = json.loads(text.split("<tool_call>\n")[1].split("\n</tool_call>")[0])
    assert call == {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [620, 494]}}
    assert text.endswith('<conclusion>\nTap "Network & internet" at (620, 494)\n</conclusion>')
    rel = format_completion({"action_type": "click", "x": 540, "y": 1200}, "", space=REL,
                            config=PolicyConfig(coords="relative", conclusion=False))
    assert '"coordinate": [500, 500]' in rel and "<conclusion>" not in rel


def test_completion_shape_m3a():
    cfg = PolicyConfig(prompt="m3a")
    text = format_completion({"action_type": "input_text", "text": "hi", "index": 2}, "Type it.",
                             space=ABS, config=cfg)
    assert text == 'Reason: Type it.\nAction: {"action_type": "input_text", "index": 2, "text": "hi"}'


def test_format_rejects_invalid_actions():
    with pytest.raises(ValueError):
        format_completion({"action_type": "click"}, "", space=ABS)
    with pytest.raises(ValueError):
        format_completion({"action_type": "teleport"}, "", space=ABS)


def test_index_targets_replace_a_centred_touch_by_the_element_number():
    els = ('[3] LinearLayout {clickable} (0,278,1080,425)\n'
           '[7] Switch {clickable,checkable} (902,309,1038,393)\n'
           '[9] SeekBar {clickable} (42,600,1038,700)')
    # the Switch's centre: the smallest element there whose centre it is (numbers kept as shown)
    switch = {"action_type": "click", "x": 970, "y": 351}
    assert index_target(switch, els) == {"action_type": "click", "index": 7}
    assert index_target({"action_type": "long_press", "x": 540, "y": 351}, els)["index"] == 3
    # off-centre (a slider set at a point), swipes, and targetless actions stay as they are
    for a in ({"action_type": "click", "x": 300, "y": 650}, {"action_type": "navigate_back"},
              {"action_type": "swipe", "x": 540, "y": 650, "x2": 900, "y2": 650}):
        assert "index" not in index_target(a, els)
    cfg = PolicyConfig(observation="text", index_targets=True)
    reply = format_completion(switch, "", space=ABS, config=cfg, elements=els)
    assert '"index": 7' in reply and "coordinate" not in reply
    assert parse_completion(reply, space=ABS, config=cfg)[0] == {"action_type": "click", "index": 7}
    no_numbers = PolicyConfig(observation="screenshot", index_targets=True)  # no [i] in its prompt
    assert "coordinate" in format_completion(switch, "", space=ABS, config=no_numbers, elements=els)


def test_index_targets_act_exactly_like_the_oracles_touches():
    """Over whole oracle episodes, the retargeted actions leave the phone exactly where
    the oracle's coordinates do."""
    from antrap_gym.agents.oracle import OracleAgent

    converted = 0
    for task in ("ContactsAddContact", "MarkorCreateNote", "SettingsBrightness", "SettingsWifiToggle"):
        env = gym.make("antrap/AndroidSim-Text-v0", task=task)
        twin = gym.make("antrap/AndroidSim-Text-v0", task=task)
        obs, info = env.reset(seed=2)
        twin_obs, _ = twin.reset(seed=2)
        oracle = OracleAgent()
        oracle.reset(env, obs, info)
        done = False
        while not done:
            action = oracle.act(obs, info)
            retargeted = index_target(action, obs["ui_elements"])
            converted += "index" in retargeted
            obs, reward, term, trunc, info = env.step(action)
            twin_obs, twin_reward, *_ = twin.step(retargeted)
            assert twin_obs["ui_elements"] == obs["ui_elements"] and twin_reward == reward
            done = term or trunc
        assert reward == 1.0
        env.close()
        twin.close()
    assert converted >= 8


def test_summaries():
    els = '[0] Switch {clickable,checkable,checked} (902,309,1038,393)\n[1] TextView "Wi-Fi" (42,278,860,425)'
    assert summarize_action({"action_type": "click", "x": 970, "y": 351}, ABS, els) == \
        "Tap (981, 352)"  # the switch has no label of its own
    assert summarize_action({"action_type": "click", "index": 1}, ABS, els) == 'Tap "Wi-Fi" at element [1]'
    assert summarize_action({"action_type": "open_app", "app_name": "Markor"}) == "Open the Markor app"
    assert "complete" not in summarize_action({"action_type": "status", "goal_status": "infeasible"})


# --- prompts ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def settings_obs():
    env = gym.make("antrap/AndroidSim-v0", task="SettingsWifiToggle")
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step({"action_type": "open_app", "app_name": "Settings"})
    yield obs
    env.close()


def test_system_prompt_declares_tool_and_resolution():
    cfg = PolicyConfig()
    text = system_prompt(ABS, cfg)
    assert "The screen's resolution is 1092x2408." in text
    assert "<tools>" in text and "<tool_call>" in text
    schema = json.loads(text.split("<tools>\n")[1].split("\n</tools>")[0])
    assert schema == tool_schema(ABS, cfg)
    fn = schema["function"]
    assert fn["name"] == "mobile_use"
    actions = fn["parameters"]["properties"]["action"]["enum"]
    for a in ("click", "long_press", "swipe", "type", "answer", "system_button", "wait", "terminate",
              "open", "key"):
        assert a in actions
    assert fn["parameters"]["properties"]["button"]["enum"] == ["Back", "Home", "Menu", "Enter"]
    assert fn["parameters"]["properties"]["status"]["enum"] == ["success", "failure"]
    assert "index" not in fn["parameters"]["properties"]
    rel = system_prompt(REL, PolicyConfig(coords="relative", element_index=True))
    assert "The screen's resolution is 1000x1000." in rel and '"index"' in rel
    m3a = system_prompt(ABS, PolicyConfig(prompt="m3a"))
    assert '"action_type": "click"' in m3a and "Reason:" in m3a and "1092x2408" in m3a


def test_messages_with_screenshot(settings_obs):
    history = ["Open the Settings app", "Scroll down [failed: nothing to scroll]"]
    msgs = build_messages(settings_obs["goal"], SCREEN, screenshot=settings_obs["screenshot"],
                          elements=settings_obs["ui_elements"], history=history,
                          last_error="nothing to scroll")
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert isinstance(msgs[0]["content"], str)
    text_part, image_part = msgs[1]["content"]
    assert text_part["type"] == "text" and image_part["type"] == "image_url"
    text = text_part["text"]
    assert "Turn Wi-Fi off." in text or "Turn Wi-Fi on." in text
    assert "Step 1: Open the Settings app" in text and "Step 2: Scroll down" in text
    assert "Your last action failed: nothing to scroll" in text
    assert "Network & internet" not in text  # screenshot mode: no element text
    url = image_part["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    img = decode_data_url(url)
    assert img.size == (1092, 2408) and img.mode == "RGB"
    # the picture is the screen, resized: compare with a plain resize
    shot = np.asarray(settings_obs["screenshot"], dtype=np.float32)
    small = np.asarray(img.resize(SCREEN), dtype=np.float32)
    assert np.abs(small - shot).mean() < 12
    json.dumps(msgs)  # the request body must serialise


def test_messages_text_mode_maps_element_bounds(settings_obs):
    cfg = PolicyConfig(observation="text")
    assert cfg.uses_index
    msgs = build_messages(settings_obs["goal"], SCREEN, elements=settings_obs["ui_elements"], config=cfg)
    text = msgs[1]["content"]
    assert isinstance(text, str) and "screenshot" not in text
    assert "None yet" in text
    shown = parse_element_lines(text.split("(x0,y0,x1,y1) in 1092x2408 screen coordinates):\n")[1])
    orig = parse_element_lines(settings_obs["ui_elements"])
    assert len(shown) == len(orig)
    for a, b in zip(shown, orig):
        assert a.label == b.label
        if b.bbox_pixels:
            assert a.bbox_pixels == ABS.box_to_model(b.bbox_pixels)
    assert '"index"' in msgs[0]["content"]


def test_format_elements_cuts_whole_lines(settings_obs):
    full = format_elements(settings_obs["ui_elements"], ABS)
    cut = format_elements(settings_obs["ui_elements"], ABS, max_chars=300)
    assert len(cut) < 400 and "more elements not shown" in cut
    assert full.startswith(cut.rsplit("\n", 1)[0])


def test_hf_messages(settings_obs):
    hf = build_hf_messages(settings_obs["goal"], SCREEN, screenshot=settings_obs["screenshot"])
    parts = hf[1]["content"]
    assert parts[0]["type"] == "text" and parts[1]["type"] == "image"
    assert parts[1]["image"].size == (1092, 2408)
    assert hf[0]["content"][0]["type"] == "text"
    converted = to_hf_messages(build_messages(settings_obs["goal"], SCREEN,
                                              screenshot=settings_obs["screenshot"]))
    assert converted[1]["content"][0] == parts[0]
    assert converted[1]["content"][1]["image"].size == (1092, 2408)
    assert np.array_equal(np.asarray(converted[1]["content"][1]["image"]), np.asarray(parts[1]["image"]))
    flat = to_hf_messages(build_messages("g", SCREEN, screenshot=settings_obs["screenshot"]), text_only=True)
    assert all(isinstance(m["content"], str) for m in flat)


def test_history_is_capped():
    cfg = PolicyConfig(observation="text", max_history=3)
    msgs = build_messages("goal", SCREEN, elements="", history=[f"action {i}" for i in range(10)], config=cfg)
    text = msgs[1]["content"]
    assert "(7 earlier steps omitted)" in text
    assert "Step 8: action 7" in text and "Step 10: action 9" in text and "Step 7:" not in text


@pytest.mark.parametrize("prompt", ["guiowl", "m3a"])
def test_goal_reminder_restates_the_goal_after_the_screen(prompt):
    on = PolicyConfig(observation="text", prompt=prompt, goal_reminder=True)
    off = PolicyConfig(observation="text", prompt=prompt)
    goal = "Turn Wi-Fi off."
    text = build_messages(goal, SCREEN, elements="[0] TextView \"Wi-Fi\"", config=on)[1]["content"]
    assert text.count(goal) == 2
    assert text.index("[0] TextView") < text.rindex(goal) < text.index("Answer as:" if prompt == "m3a"
                                                                         else "Before acting")
    plain = build_messages(goal, SCREEN, elements="[0] TextView \"Wi-Fi\"", config=off)[1]["content"]
    assert plain.count(goal) == 1 and "Remember" not in plain


def _tools_json(text: str) -> dict:
    return json.loads(text.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0])


def test_compact_prompt_keeps_the_tool_and_the_element_numbers(settings_obs):
    """tool_docs=False / element_bounds=False: the same tool (names, types, enums) and the
    same `[i]` numbering in a far shorter prompt; an index reply still acts on the element."""
    full = PolicyConfig(observation="text")
    small = PolicyConfig(observation="text", tool_docs=False, element_bounds=False, index_targets=True)
    big, short = _tools_json(system_prompt(ABS, full)), _tools_json(system_prompt(ABS, small))
    props_big = big["function"]["parameters"]["properties"]
    props_short = short["function"]["parameters"]["properties"]
    assert list(props_short) == list(props_big)
    for name, prop in props_short.items():
        assert "description" not in prop
        assert {k: v for k, v in props_big[name].items() if k != "description"} == prop
    assert len(system_prompt(ABS, small)) < len(system_prompt(ABS, full)) / 2.5
    goal = settings_obs["goal"]
    els = settings_obs["ui_elements"]
    text_full = build_messages(goal, SCREEN, elements=els, config=full)[1]["content"]
    text_short = build_messages(goal, SCREEN, elements=els, config=small)[1]["content"]
    assert "bounds" in text_full and "bounds" not in text_short
    lines_full = [ln for ln in text_full.splitlines() if ln.startswith("[")]
    lines_short = [ln for ln in text_short.splitlines() if ln.startswith("[")]
    assert len(lines_short) == len(lines_full) > 3
    for a, b in zip(lines_full, lines_short):
        assert a.startswith(b) and a[len(b):].startswith(" (") and "(" not in b.split('"')[-1]
    # the oracle's tap on "Network & internet" becomes an index target, and reads back as the same tap
    net = next(e for e in parse_element_lines(settings_obs["ui_elements"]) if e.text == "Network & internet")
    x, y = net.bbox_pixels.center
    reply = format_completion({"action_type": "click", "x": x, "y": y}, space=ABS, config=small,
                              elements=settings_obs["ui_elements"])
    action, _ = parse_completion(reply, space=ABS, config=small)
    i = action["index"]
    assert '"Network & internet"' in lines_short[i] and lines_short[i].startswith(f"[{i}]")


# --- parsers on realistic outputs ---------------------------------------------------------------

GUIOWL_CLICK = """<thinking>
The task is to turn off Wi-Fi. I am on the home screen and can see the Settings app icon in the \
top row. I should tap it to open Settings.
</thinking>
<tool_call>
{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [682, 571]}}
</tool_call>
<conclusion>
Tapped the Settings icon on the home screen to open the Settings app.
</conclusion>"""

REALISTIC = [
    # (style, text, space, expected action)
    ("guiowl", GUIOWL_CLICK, ABS, {"action_type": "click", "x": 675, "y": 569}),
    ("guiowl", '<think>\nThe note is open; type the title.\n</think>\n<tool_call>\n{"name": "mobile_use", '
               '"arguments": {"action": "type", "text": "Groceries"}}\n</tool_call>', ABS,
     {"action_type": "input_text", "text": "Groceries"}),
    ("guiowl", '<thinking>Go back.</thinking><tool_call>{"name": "mobile_use", "arguments": '
               '{"action": "system_button", "button": "Back"}}</tool_call>', ABS,
     {"action_type": "navigate_back"}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": '
               '[500, 900], "coordinate2": [500, 300]}}\n</tool_call>', REL,
     {"action_type": "swipe", "x": 540, "y": 2160, "x2": 540, "y2": 720}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "long_press", "coordinate": '
               '[300, 410], "time": 2}}\n</tool_call>', REL,
     {"action_type": "long_press", "x": 324, "y": 984, "duration_ms": 2000}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "open", "text": "Markor"}}'
               "\n</tool_call>", ABS, {"action_type": "open_app", "app_name": "Markor"}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "answer", "text": "87%"}}'
               "\n</tool_call>", ABS, {"action_type": "answer", "text": "87%"}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "terminate", "status": '
               '"success"}}\n</tool_call>', ABS, {"action_type": "status", "goal_status": "complete"}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "wait", "time": 3}}'
               "\n</tool_call>", ABS, {"action_type": "wait", "seconds": 3.0}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "key", "text": "enter"}}'
               "\n</tool_call>", ABS, {"action_type": "keyboard_enter"}),
    # OpenAI-style arguments as a JSON string, MAI-UI's drag and swipe-by-direction
    ("guiowl", '<tool_call>{"name": "mobile_use", "arguments": "{\\"action\\": \\"click\\", '
               '\\"coordinate\\": [546, 1204]}"}</tool_call>', ABS,
     {"action_type": "click", "x": 540, "y": 1200}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "drag", "start_coordinate": '
               '[100, 100], "end_coordinate": [900, 100]}}\n</tool_call>', DEV,
     {"action_type": "swipe", "x": 100, "y": 100, "x2": 900, "y2": 100}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "swipe", "direction": "up", '
               '"coordinate": [546, 1204]}}\n</tool_call>', ABS,
     {"action_type": "swipe", "direction": "up", "x": 540, "y": 1200}),
    ("guiowl", '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "index": 12}}'
               "\n</tool_call>", ABS, {"action_type": "click", "index": 12}),
    # UI-TARS-1.5: absolute coordinates on the resized image
    ("uitars", "Thought: I need to open the Settings app first. The Settings icon is in the top row of "
               "the home screen.\nAction: click(start_box='(682,571)')", ABS,
     {"action_type": "click", "x": 675, "y": 569}),
    ("uitars", "Thought: Tap Network & internet.\nAction: click(point='<point>620 494</point>')", ABS,
     {"action_type": "click", "x": 613, "y": 492}),
    # UI-TARS: relative 0-1000 with box tokens
    ("uitars", "Thought: The Wi-Fi switch is on the right.\nAction: click(start_box='<|box_start|>"
               "(898,146)<|box_end|>')", REL, {"action_type": "click", "x": 970, "y": 350}),
    ("uitars", "Thought: two-corner box\nAction: long_press(start_box='<|box_start|>(100,100,300,300)"
               "<|box_end|>')", REL, {"action_type": "long_press", "x": 216, "y": 480}),
    ("uitars", "Thought: Type the name and submit.\nAction: type(content='Alice Smith\\n')", REL,
     {"action_type": "input_text", "text": "Alice Smith\n"}),  # the newline submits: kept
    ("uitars", "Thought: It's a quote.\nAction: type(content='It's here')", REL,
     {"action_type": "input_text", "text": "It's here"}),
    ("uitars", "Thought: The list continues below.\nAction: scroll(start_box='<|box_start|>(500,600)"
               "<|box_end|>', direction='down')", REL,
     {"action_type": "scroll", "direction": "down", "x": 540, "y": 1440}),
    ("uitars", "Thought: Drag the slider.\nAction: drag(start_box='<|box_start|>(200,500)<|box_end|>', "
               "end_box='<|box_start|>(800,500)<|box_end|>')", REL,
     {"action_type": "swipe", "x": 216, "y": 1200, "x2": 864, "y2": 1200}),
    ("uitars", "Thought: Go home.\nAction: press_home()", REL, {"action_type": "navigate_home"}),
    ("uitars", "Thought: Go back.\nAction: press_back()", REL, {"action_type": "navigate_back"}),
    ("uitars", "Thought: Submit.\nAction: hotkey(key='enter')", REL, {"action_type": "keyboard_enter"}),
    ("uitars", "Thought: Open the app.\nAction: open_app(app_name='Contacts')", REL,
     {"action_type": "open_app", "app_name": "Contacts"}),
    ("uitars", "Thought: The page is loading.\nAction: wait()", REL, {"action_type": "wait"}),
    ("uitars", "Thought: Done.\nAction: finished(content='The battery level is 87%.')", REL,
     ({"action_type": "answer", "text": "The battery level is 87%."},
      {"action_type": "status", "goal_status": "complete"})),
    ("uitars", "Thought: Done.\nAction: finished()", REL,
     {"action_type": "status", "goal_status": "complete"}),
    # AndroidWorld JSON (M3A / T3A)
    ("androidworld", 'Reason: The Wi-Fi switch is currently on; tapping it turns it off.\nAction: '
                     '{"action_type": "click", "index": 5}', ABS, {"action_type": "click", "index": 5}),
    ("androidworld", 'Reason: Type the title into the field.\nAction: ```json\n{"action_type": '
                     '"input_text", "text": "hello", "index": 1}\n```', ABS,
     {"action_type": "input_text", "text": "hello", "index": 1}),
    ("androidworld", 'Reason: scroll\nAction: {"action_type": "scroll", "direction": "down"}', ABS,
     {"action_type": "scroll", "direction": "down"}),
    ("androidworld", 'Reason: Everything is done.\nAction: {"action_type": "status", "goal_status": '
                     '"task_complete"}', ABS, {"action_type": "status", "goal_status": "complete"}),
    ("androidworld", 'Reason: Tap the centre.\nAction: {"action_type": "click", "x": 546, "y": 1204}', ABS,
     {"action_type": "click", "x": 540, "y": 1200}),
    ("androidworld", 'Reason: Open it.\nAction: {"action_type": "open_app", "app_name": "Settings"}', ABS,
     {"action_type": "open_app", "app_name": "Settings"}),
    # AndroidLab (XML mode: device-pixel bounds; SoM mode: element numbers)
    ("androidlab", 'The Settings app is open. To reach Wi-Fi I need "Network & internet".\n'
                   'do(action="Tap", element=[0,430,1080,619])', DEV,
     {"action_type": "click", "x": 540, "y": 524}),
    ("androidlab", 'Tap the third element.\n```\ndo(action="Tap", element=3)\n```', DEV,
     {"action_type": "click", "index": 3}),
    ("androidlab", 'Enter the name.\n```\ndo(action="Type", text="Alice")\n```', DEV,
     {"action_type": "input_text", "text": "Alice"}),
    ("androidlab", 'do(action="Swipe", element=[0,430,1080,2274], direction="up", dist="medium")', DEV,
     {"action_type": "swipe", "x": 540, "y": 1352, "x2": 540, "y2": 392}),
    ("androidlab", 'do(action="Swipe", direction="down")', DEV,
     {"action_type": "swipe", "direction": "down"}),
    ("androidlab", 'do(action="Long Press", element=[100,200,300,400])', DEV,
     {"action_type": "long_press", "x": 200, "y": 300}),
    ("androidlab", 'do(action="Press Home")', DEV, {"action_type": "navigate_home"}),
    ("androidlab", 'do(action="Press Back")', DEV, {"action_type": "navigate_back"}),
    ("androidlab", 'do(action="Press Enter")', DEV, {"action_type": "keyboard_enter"}),
    ("androidlab", 'do(action="Wait")', DEV, {"action_type": "wait"}),
    ("androidlab", 'do(action="Launch", app="Settings")', DEV,
     {"action_type": "open_app", "app_name": "Settings"}),
    ("androidlab", 'The answer is on screen.\nfinish(message="87%")', DEV,
     ({"action_type": "answer", "text": "87%"}, {"action_type": "status", "goal_status": "complete"})),
]


@pytest.mark.parametrize("style,text,space,want", REALISTIC,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REALISTIC)])
def test_parsers_on_realistic_outputs(style, text, space, want):
    """`want`: the action, or the actions in order where one reply stands for several."""
    want = want if isinstance(want, tuple) else (want,)
    got = parsers.PARSERS[style](text, space)
    assert got.actions == want and got.action == want[0]
    assert got.style == style
    anyp = parse_any(text, space=space)
    assert anyp.actions == want and anyp.style == style


def test_parsers_keep_thought_and_conclusion():
    p = parsers.parse_guiowl(GUIOWL_CLICK, ABS)
    assert p.thought.startswith("The task is to turn off Wi-Fi.")
    assert p.conclusion == "Tapped the Settings icon on the home screen to open the Settings app."
    p = parsers.parse_uitars("Thought: Open Settings.\nAction: click(start_box='(1,2)')", ABS)
    assert p.thought == "Open Settings."
    p = parsers.parse_androidworld('Reason: Because.\nAction: {"action_type": "wait"}', ABS)
    assert p.thought == "Because."
    p = parsers.parse_androidlab('I will go home.\ndo(action="Press Home")', DEV)
    assert p.thought == "I will go home."


MALFORMED = [
    ("", "empty"),
    ("   \n ", "empty"),
    ("I think I should tap the Settings icon and then look for Wi-Fi.", "no action found"),
    ('<thinking>tap</thinking>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
     '"coordinate": [682,', "invalid or incomplete"),
    ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "fly", "coordinate": [1, 2]}}'
     "\n</tool_call>",
     "unknown mobile_use action 'fly'"),
    ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click"}}\n</tool_call>',
     "click needs 'coordinate'"),
    ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5000, 100]}}'
     "\n</tool_call>", "outside the 1092x2408 image"),
    ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10]}}'
     "\n</tool_call>",
     "coordinate must be"),
    ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": "left"}}'
     "\n</tool_call>", "coordinate must be"),
    ("<tool_call></tool_call>", "holds no JSON"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "click", "coordinate": [1, 2]}}'
     "</tool_call>",
     "unknown tool 'computer_use'"),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Menu"}}'
     "</tool_call>",
     "Menu"),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "type"}}</tool_call>', "type needs 'text'"),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "scroll"}}</tool_call>', "needs 'direction'"),
    ('<tool_call>{"name": "mobile_use", "arguments": {"action": "key", "text": "volume_up"}}</tool_call>',
     "unsupported key"),
    ('<tool_call>{"name": "mobile_use", "arguments": [1, 2]}</tool_call>', "must be a JSON object"),
    ("Thought: tap\nAction: click()", "needs a point"),
    ("Thought: tap\nAction: click(start_box='(682,571", "not closed"),
    ("Thought: type\nAction: type(content='abc)", "unterminated"),
    ("Thought: swipe\nAction: scroll(direction='sideways')", "direction must be"),
    ("Thought: go\nAction: teleport(start_box='(1,2)')", "no action found"),
    ("Thought: far\nAction: click(start_box='(1500,200)')", "outside"),
    ('Reason: tap\nAction: {"action_type": "click"}', "needs a target"),
    ('Reason: tap\nAction: {"action_type": "clik", "x": 1, "y": 2}', "unknown action_type 'clik'"),
    ('Reason: tap\nAction: {"action_type": "click", "x": 10', "invalid or incomplete"),
    ('Reason: tap\nAction: {"action_type": "click", "x": 10}', "both 'x' and 'y'"),
    ('Reason: tap\nAction: {"action_type": "click", "x": "left", "y": 3}', "must be a number"),
    ('do(action="Tap")', "needs element"),
    ('do(action="Fly", element=[1,2,3,4])', "unknown AndroidLab action 'Fly'"),
    ('do(action="Swipe", direction="sideways")', "direction must be"),
    ('do(action="Type")', "Type needs text"),
    ('do(action="Launch")', "Launch needs app"),
]


@pytest.mark.parametrize("text,msg", MALFORMED, ids=[f"m{i}" for i in range(len(MALFORMED))])
def test_malformed_outputs_raise_parse_error(text, msg):
    with pytest.raises(ParseError, match=msg.replace("(", r"\(").replace("[", r"\[")):
        parse_any(text, space=ABS)


@pytest.mark.parametrize("bad", [None, 123, b"bytes", "x" * 200_001])
def test_non_text_outputs(bad):
    with pytest.raises(ParseError):
        parse_any(bad, space=ABS)
    for parse in parsers.PARSERS.values():
        with pytest.raises(ParseError):
            parse(bad, ABS)


def test_parse_errors_are_value_errors():
    assert issubclass(ParseError, ValueError)
    assert parsers.ParseError is ParseError


def test_every_prefix_of_a_realistic_output_parses_or_raises_parse_error():
    """Truncated replies (max_tokens hit) never raise anything but ParseError."""
    samples = [GUIOWL_CLICK] + [r[1] for r in REALISTIC[14:]]
    for text in samples:
        for n in range(0, len(text) + 1, 3):
            try:
                p = parse_any(text[:n], space=ABS)
            except ParseError:
                continue
            Action.parse(p.action)  # whatever is accepted is a valid action


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(max_size=200),
    st.builds(lambda a, b: a + b, st.sampled_from(
        ["<tool_call>{", "Action: {", "Action: click(", 'do(action="', "finish(", "Action: type(content=",
         '<tool_call>{"name": "mobile_use", "arguments": {"action": ', '{"action_type": ']),
        st.text(max_size=80))))
def test_fuzzed_outputs_never_crash(text):
    for space in (ABS, REL, None):
        try:
            p = parse_any(text, space=space)
        except ParseError:
            continue
        Action.parse(p.action)


# --- one episode from the policy's side ---------------------------------------------------------


def test_session_unparseable_reply_becomes_an_env_error(text_env):
    obs, info = text_env.reset(seed=0, options={"task": "SettingsWifiToggle"})
    s = PolicySession(obs["goal"], text_env.unwrapped.screen_size, PolicyConfig(observation="text"))
    s.observe(obs)
    d = s.decode("I am not sure what to do.")
    assert d.error and d.action["action_type"] == UNPARSEABLE and d.raw == "I am not sure what to do."
    obs, _, term, trunc, info = text_env.step(d.action)
    assert "could not read an action from the model's output" in obs["last_action_error"]
    assert not (term or trunc)
    s.observe(obs)
    text = s.messages(obs)[1]["content"]
    assert "could not be parsed: no action found" in text
    assert text.count("could not be parsed") == 2  # in the history and as the last failure
    # a good reply works again, and an env error is noted against its step
    d = s.decode('<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "index": 999}}'
                 "</tool_call>")
    obs, *_ = text_env.step(d.action)
    assert "out of range" in obs["last_action_error"]
    s.observe(obs)
    assert s.history[-1].startswith("Tap element [999] [failed: index 999 is out of range")


def test_session_splits_a_final_answer():
    s = PolicySession("What is the battery level?", SCREEN, PolicyConfig(coords="relative"))
    d = s.decode("Thought: found it\nAction: finished(content='87%')")
    assert d.action == {"action_type": "answer", "text": "87%"}
    assert s.next_pending() == {"action_type": "status", "goal_status": "complete"}
    assert s.next_pending() is None
    assert s.history == ['Answer "87%"', "Finish: the task is done"]
    # once answered, a later finished(content=...) just ends the task
    d = s.decode("Thought: done\nAction: finished(content='87%')")
    assert d.action == {"action_type": "status", "goal_status": "complete"}


def test_session_uses_conclusion_as_summary():
    s = PolicySession("Turn Wi-Fi off.", SCREEN)
    d = s.decode(GUIOWL_CLICK)
    assert d.action == {"action_type": "click", "x": 675, "y": 569} and d.style == "guiowl"
    assert s.history == ["Tapped the Settings icon on the home screen to open the Settings app."]
    strict = PolicySession("Turn Wi-Fi off.", SCREEN, lenient=False)
    assert strict.decode("Thought: x\nAction: press_home()").error  # not the policy's own format


def test_the_compact_style_shows_task_steps_error_and_screen_in_a_shorter_prompt(settings_obs):
    """prompt="compact": the task, the last steps (max_history), the last error and the
    elements under a few lines on the `mobile_use` call: instructions under half of
    GUI-Owl's shortest (tool_docs and element bounds off); replies are the same tool calls,
    without a thinking block when there is no thought, and an `[i]` reply acts on the
    element."""
    history = ["Open the Settings app", "Tap Network & internet", "Scroll down"]
    args = dict(elements=settings_obs["ui_elements"], history=history, last_error="nothing to scroll")
    owl = PolicyConfig(observation="text", tool_docs=False, element_bounds=False, conclusion=False,
                       max_history=2)
    compact = PolicyConfig(observation="text", prompt="compact", element_bounds=False, conclusion=False,
                           max_history=2)
    small = build_messages(settings_obs["goal"], SCREEN, config=compact, **args)
    big = build_messages(settings_obs["goal"], SCREEN, config=owl, **args)
    system, user = small[0]["content"], small[1]["content"]
    assert '<tool_call>\n{"name": "mobile_use", "arguments": {"action": ...}}\n</tool_call>' in system
    assert "index: an element's [i]" in system and "1092x2408" in system
    assert user.startswith(f"Task: {settings_obs['goal']}\nSteps so far:\n(1 earlier steps omitted)\n"
                           "Step 2: Tap Network & internet\nStep 3: Scroll down\nError: nothing to scroll\n"
                           "Screen:\n[0] ")
    assert "Network & internet" in user.split("Screen:\n")[1]
    assert len(system) * 2 < len(big[0]["content"])
    assert len(system) + len(user) < 0.7 * (len(big[0]["content"]) + len(big[1]["content"]))
    first = build_messages(settings_obs["goal"], SCREEN, config=compact, elements="")[1]["content"]
    assert "Steps so far: none" in first and "Error" not in first
    space = compact.space(SCREEN)
    reply = format_completion({"action_type": "click", "index": 3}, "", space=space, config=compact)
    call = '{"name": "mobile_use", "arguments": {"action": "click", "index": 3}}'
    assert reply == f"<tool_call>\n{call}\n</tool_call>"
    assert parse_completion(reply, space=space, config=compact) == ({"action_type": "click", "index": 3}, "")
