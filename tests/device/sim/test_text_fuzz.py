"""Typed text of any kind never breaks a step: newlines, control characters, bidi marks,
joiners, emoji, scripts the bundled font lacks, combining marks and 10,000 characters,
typed into the editable fields of every app of the simulated phone, in text and in
screenshot mode, through `input_text`, the device's typing and `adb shell input text`.

A newline is the Enter key, as `input text` and AndroidWorld type it: a multi-line field
keeps it, a single-line one takes none (Enter is its IME action). Fields are found by
tapping through each app's first screens, seeded by one of its tasks: no list of apps or
fields is written here.
"""

from __future__ import annotations

import shlex
import unicodedata
import xml.etree.ElementTree as ET
from functools import cache
from typing import NamedTuple

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ImageFont

import antrap_gym  # noqa: F401  (registers the envs)
from antrap_gym.device.elements import UIElement, parse_numbered_element_lines
from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps import default_apps
from antrap_gym.env.state import StackState, capture, restore
from antrap_gym.tasks.registry import TEMPLATES

#: apps whose screens (within three taps) have no text field: their fields are not fuzzed,
#: and `test_the_apps_without_a_text_field_are_the_known_ones` keeps this list true
NO_TEXT_FIELD = frozenset({"com.simplemobiletools.gallery.pro", "com.android.camera2",
                           # its only field, a record's name, comes after a recording
                           "com.dimowner.audiorecorder"})
#: apps whose fields a fresh phone reaches all leave on Enter, their IME action, so no typed
#: text can be read back after it: Chrome's omnibox navigates (a page's own fields are
#: tests/device/sim/test_web_engine.py's)
ENTER_LEAVES = frozenset({"com.android.chrome"})
PERMISSION_CONTROLLER = "com.google.android.permissioncontroller"
APPS = [app.package for app in default_apps() if app.package not in NO_TEXT_FIELD]

#: strings `input_text` accepts
HOSTILE = {
    "newline": "Ann\nBob",
    "newlines": "\nfirst\n\nthird\nfourth",
    "trailing_newline": "submit me\n",
    "tab": "a\tb\t",
    "bidi": "\u200fRTL\u200e mark \u202eoverride\u202c \u2067isolate\u2069 end",
    "joiners": "a\u200db\u200cc\u2060d\ufeffe",
    "emoji": "👩\u200d👩\u200d👧\u200d👦 🏳️\u200d🌈 😀👍🏽 🇫🇷",
    "scripts": "漢字かな한국어 مرحبا שלום नमस्ते ไทย",
    "combining": "e\u0301 Z\u0334\u0321\u031ba\u0337l\u0336g\u0338o\u0335" + "\u0336" * 50,
    "private_use": "\ue000\uf8ff\U000f0000\U0010fffd\ufffd\ufffe",
    "long_words": ("lorem ipsum dolor sit amet " * 400)[:10_000],
    "long_word": "W" * 10_000,
    "long_lines": "line\n" * 2_000,
    "long_marks": "x" + "\u0301" * 9_999,
}
#: control characters `input_text` refuses with a usage error; the device still types them
CONTROL = {
    "separators": "a\u2029b\x85c\x1cd\x1ee\rf\u2028g",
    "nul": "x\x00y",
    "escape": "\x1b[31mred\x1b[0m",
    "crlf": "Ann\r\nBob",
}
SHELL_TEXT = ["Ann\nBob", "hello%sworld", "a\tb", "100% done", "%s%s", "x" * 3000]


class Field(NamedTuple):
    """An editable field reachable from an app's screens: the task that seeds the phone,
    the taps from the app's launch, and how to find it again."""

    package: str
    template: str | None
    route: tuple[tuple[int, int], ...]
    resource_name: str | None
    hint: str | None

    def find(self, elements: list[UIElement]) -> int | None:
        return next((i for i, e in enumerate(elements) if e.is_editable and e.package_name == self.package
                     and (e.resource_name, e.hint_text) == (self.resource_name, self.hint)), None)


# --- finding the fields ----------------------------------------------------------------------


def _explore(dev: SimDevice, package: str, template: str | None, depth: int = 3,
             budget: int = 300) -> list[Field]:
    """Editable fields within `depth` taps of the app's launch screen, breadth first (the
    shortest route to each)."""
    dev.launch(package)
    start = dev.snapshot()
    found: dict[tuple, Field] = {}
    frontier: list[tuple[tuple[int, int], ...]] = [()]
    for level in range(depth + 1):
        deeper = []
        for route in frontier:
            dev.restore(start)
            for point in route:
                dev.tap(*point)
            if dev.foreground()[0] not in (package, PERMISSION_CONTROLLER):
                continue
            # the app's own runtime permission prompt is a step of its route (OsmAnd asks
            # for the location on its first start)
            own = [e for e in dev.ui_elements() if e.package_name in (package, PERMISSION_CONTROLLER)]
            for e in own:
                if e.is_editable:
                    found.setdefault((e.resource_name, e.hint_text),
                                     Field(package, template, route, e.resource_name, e.hint_text))
            if level < depth:
                deeper += [(*route, e.center) for e in own if e.is_clickable and not e.is_editable]
        frontier = deeper[:budget]
    return list(found.values())


@cache
def fields_of(package: str) -> tuple[Field, ...]:
    """Up to three fields of the app (the first found, and the two deepest), with the phone
    seeded by the first of its tasks that shows any."""
    env = gym.make("antrap/AndroidSim-Text-v0")
    try:
        dev = env.unwrapped.device
        templates = sorted(n for n, t in TEMPLATES.items() if package in (t.apps or ()))
        for template in templates[:4] or [None]:
            env.reset(seed=0, options={"task": template} if template else None)
            found = _explore(dev, package, template)
            if found:
                return tuple(dict.fromkeys(found[:1] + found[-2:]))
        return ()
    finally:
        env.close()


def reach(env: gym.Env, field: Field) -> StackState:
    """The env on the field's screen (the route taken by `click` steps), captured."""
    env.reset(seed=0, options={"task": field.template} if field.template else None)
    env.unwrapped.device.launch(field.package)
    for x, y in field.route:
        env.step({"action_type": "click", "x": x, "y": y})
    return capture(env)


def app_fields(package: str) -> tuple[Field, ...]:
    found = fields_of(package)
    assert found, f"{package} shows no editable field within three taps of its screens"
    return found


@pytest.mark.parametrize("package", sorted(NO_TEXT_FIELD))
def test_the_apps_without_a_text_field_are_the_known_ones(package):
    """An app listed as having no text field has none (once it gains one, it is fuzzed)."""
    assert package in {app.package for app in default_apps()}
    assert fields_of(package) == ()


# --- what Android stores -----------------------------------------------------------------


def kept(value: str, typed: str, multiline: bool) -> bool:
    """Whether a field emptied, then given `typed` (a newline being Enter), holds `value`
    as Android would: all of it in a multi-line field; in a single-line one no newline,
    only the pieces typed before its IME action moved the focus away (at least the first)."""
    if multiline:
        return value == typed
    pieces = typed.split("\n")
    return value in {"".join(pieces[:k]) for k in range(1, len(pieces) + 1)}


def env_typed(text: str) -> str:
    """What `input_text` types: the text, then Enter (AndroidWorld's action); a trailing
    newline is that Enter."""
    return (text[:-1] if text.endswith("\n") else text) + "\n"


def check_step(env: gym.Env, field: Field, result: tuple, text: str, multiline: bool) -> bool:
    """The `input_text` of `text` (or a later step) went through cleanly and the field
    holds what Android would; returns whether the field was still on screen to read."""
    obs, _, terminated, truncated, info = result
    assert not terminated and not truncated, info
    assert "error" not in info, info.get("error")
    assert obs["last_action_error"] == ""
    base = env.unwrapped
    if base.obs_mode == "screenshot":
        assert_frame(env, obs["screenshot"])
    i = field.find(base.elements)
    if i is None:  # the IME action (Enter) left the field's screen: a dialog's OK, a launch
        return False
    value = base.elements[i].text or ""
    assert kept(value, env_typed(text), multiline), (field, multiline, value[:80])
    shown = dict(parse_numbered_element_lines(obs["ui_elements"]))
    assert (shown[i].text or "") == value  # the text observation carries it exactly
    return True


def assert_frame(env: gym.Env, frame: np.ndarray) -> None:
    w, h = env.unwrapped.screen_size
    assert frame.shape == (h, w, 3) and frame.dtype == np.uint8


def assert_typed(env: gym.Env, field: Field, text: str, multiline: bool) -> None:
    """After the device typed `text` into the emptied field: it holds what Android would,
    the screen paints, and a tap into the text places the cursor (a measurement of it)."""
    dev = env.unwrapped.device
    for _ in range(2):
        els = dev.ui_elements()
        i = field.find(els)
        assert i is None or kept(els[i].text or "", text, multiline), (field, (els[i].text or "")[:80])
        assert_frame(env, dev.screenshot())
        if i is None:
            break
        dev.tap(*els[i].center)


def is_multiline(env: gym.Env, state: StackState, field: Field) -> bool:
    """Whether Enter makes a new line in the field (Android's multi-line EditText)."""
    restore(env, state)
    i = field.find(env.unwrapped.elements)
    env.step({"action_type": "input_text", "index": i, "text": "probe", "clear_text": True})
    j = field.find(env.unwrapped.elements)
    return j is not None and env.unwrapped.elements[j].text == "probe\n"


def on_field(env: gym.Env, state: StackState, field: Field) -> UIElement:
    """The field, with the env back in `state`."""
    restore(env, state)
    i = field.find(env.unwrapped.elements)
    assert i is not None, field
    return env.unwrapped.elements[i]


@pytest.fixture(scope="module", params=["text", "screenshot"])
def env(request):
    e = gym.make("antrap/AndroidSim-v0", obs_mode=request.param, max_steps=10_000)
    yield e
    e.close()


# --- input_text in every app -------------------------------------------------------------


@pytest.mark.parametrize("package", APPS)
def test_input_text_of_any_string_keeps_the_episode_going(env, package):
    read = dict.fromkeys(HOSTILE, 0)
    for field in app_fields(package):
        state = reach(env, field)
        multiline = is_multiline(env, state, field)
        for name, text in HOSTILE.items():
            on_field(env, state, field)
            i = field.find(env.unwrapped.elements)
            result = env.step({"action_type": "input_text", "index": i, "text": text,
                               "clear_text": True})
            read[name] += check_step(env, field, result, text, multiline)
            j = field.find(env.unwrapped.elements)
            if j is not None:  # tapped again, it places its cursor in the text it holds
                check_step(env, field, env.step({"action_type": "click", "index": j}), text, multiline)
    assert all(read.values()) or package in ENTER_LEAVES, \
        f"no field of {package} could be read back after: {read}"


@pytest.mark.parametrize("package", APPS)
def test_control_characters_are_a_usage_error_and_the_device_types_them(env, package):
    """`input_text` refuses control characters (a clear error, the phone unchanged); typed by
    the device itself they are stored as they are, and paint."""
    field = app_fields(package)[0]
    state = reach(env, field)
    multiline = is_multiline(env, state, field)
    dev = env.unwrapped.device
    for text in CONTROL.values():
        before = on_field(env, state, field)
        obs, _, terminated, truncated, info = env.step(
            {"action_type": "input_text", "index": field.find(env.unwrapped.elements), "text": text})
        assert "control character" in obs["last_action_error"]
        assert not terminated and not truncated and "error" not in info
        assert env.unwrapped.elements[field.find(env.unwrapped.elements)] == before

        on_field(env, state, field)
        dev.tap(*before.center)
        dev.clear_text()
        assert dev.type_text(text).ok
        assert_typed(env, field, text, multiline)
        ET.fromstring(dev.ui_xml())


@pytest.mark.parametrize("package", APPS)
def test_adb_input_text_types_through_the_shell(env, package):
    """`adb shell input text` (%s a space, a quoted newline the Enter key); what its virtual
    keyboard cannot type is refused with Android's message, the field left empty."""
    field = app_fields(package)[0]
    state = reach(env, field)
    multiline = is_multiline(env, state, field)
    dev = env.unwrapped.device
    for text in SHELL_TEXT + list(HOSTILE.values()):
        before = on_field(env, state, field)
        dev.tap(*before.center)
        dev.clear_text()
        res = dev.shell("input text " + shlex.quote(text))
        if all(" " <= ch <= "~" or ch in "\n\t" for ch in text):
            assert res.exit_code == 0, res.stderr
            assert_typed(env, field, text.replace("%s", " "), multiline)
        else:
            assert res.exit_code != 0 and "no key mapping" in res.stderr
            els = dev.ui_elements()
            i = field.find(els)
            assert i is not None and not els[i].text
            assert_frame(env, dev.screenshot())


# --- fuzzing ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_env():
    """A screenshot env, and a single-line and a multi-line field (the first of each kind
    found) with the state that shows each."""
    e = gym.make("antrap/AndroidSim-v0", max_steps=10_000)
    picked: dict[bool, tuple[Field, StackState]] = {}
    for package in APPS:
        for field in fields_of(package):
            state = reach(e, field)
            picked.setdefault(is_multiline(e, state, field), (field, state))
        if len(picked) == 2:
            break
    assert len(picked) == 2, "no app shows both a single-line and a multi-line field"
    yield e, [(field, state, multiline) for multiline, (field, state) in sorted(picked.items())]
    e.close()


def _refused(text: str) -> bool:
    """Whether `input_text` refuses the text: a control character other than newline and tab."""
    return any((unicodedata.category(ch) == "Cc" and ch not in "\n\t") or ch in "\u2028\u2029"
               for ch in text)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.characters(exclude_categories=("Cs",)), max_size=120))
def test_fuzzed_text_never_breaks_a_step(fuzz_env, text):
    """`input_text` of any text types it or refuses it cleanly; the device types any text
    as it is; either way the screen paints."""
    env, states = fuzz_env
    dev = env.unwrapped.device
    for field, state, multiline in states:
        on_field(env, state, field)
        i = field.find(env.unwrapped.elements)
        result = env.step({"action_type": "input_text", "index": i, "text": text, "clear_text": True})
        if _refused(text):
            obs, _, terminated, truncated, info = result
            assert "control character" in obs["last_action_error"]
            assert not terminated and not truncated and "error" not in info
            assert_frame(env, obs["screenshot"])
        else:
            check_step(env, field, result, text, multiline)

        dev.tap(*on_field(env, state, field).center)
        dev.clear_text()
        assert dev.type_text(text).ok
        assert_typed(env, field, text, multiline)


# --- long text stays near-linear ----------------------------------------------------------------


class _Measured:
    """Counts the characters Pillow lays out (its getlength and getbbox, wrapped)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.chars = 0
        for name in ("getlength", "getbbox"):
            real = getattr(ImageFont.FreeTypeFont, name)

            def counted(font, text, *args, _real=real, **kwargs):
                self.chars += len(text)
                return _real(font, text, *args, **kwargs)

            monkeypatch.setattr(ImageFont.FreeTypeFont, name, counted)


@pytest.mark.parametrize("multiline", [False, True])
def test_10000_characters_are_typed_tapped_and_painted_with_n_log_n_layout(fuzz_env, monkeypatch,
                                                                              multiline):
    """Typing 10,000 characters, tapping into them and painting them lays out O(n log n)
    characters, not every prefix (O(n^2): 50 million)."""
    env, states = fuzz_env
    field, state, _ = next(s for s in states if s[2] == multiline)
    # text no other test lays out (no cached measurement), CJK the bundled font lacks
    text = "".join(chr(0x4E00 + (i * 7919 + multiline) % 20_000) if i % 9 else " "
                   for i in range(10_000))
    measured = _Measured(monkeypatch)
    on_field(env, state, field)
    i = field.find(env.unwrapped.elements)
    check_step(env, field, env.step({"action_type": "input_text", "index": i, "text": text,
                                     "clear_text": True}), text, multiline)
    j = field.find(env.unwrapped.elements)
    check_step(env, field, env.step({"action_type": "click", "index": j}), text, multiline)
    assert 0 < measured.chars < 100 * len(text), measured.chars
