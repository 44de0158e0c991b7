"""The ten STAR traps: effects, schedules, determinism, stacking, budgets, configs."""

from __future__ import annotations

import itertools
import json
import math

import gymnasium as gym
import numpy as np
import pytest

from antrap_gym.agents import OracleAgent, RandomAgent
from antrap_gym.device import DeviceLostError
from antrap_gym.device.sim import SimDevice
from antrap_gym.env import AndroidEnv
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import get_suite
from antrap_gym.traps import (
    LAYERS,
    TRAP_TYPES,
    Firing,
    Setting,
    TriggerSchedule,
    camel,
    parse_protocol,
    parse_stack,
)
from antrap_gym.traps.taxonomy import LAYER_OF
from antrap_gym.traps.words import is_destructive
from tests.paths import ROOT

CONFIGS = ROOT / "configs" / "traps"


def at(step: int, **extra) -> dict:
    """A schedule that fires exactly at `step` (p unused)."""
    return {"steps": [step], "p": 0.0, **extra}


def trapped(trap: str, task: str = "SettingsBluetoothToggle", obs_mode: str = "screenshot",
            device=None, **spec):
    kw = {"device": device} if device is not None else {}
    return make_env(traps=[{"type": trap, **spec}], task=task, obs_mode=obs_mode, **kw)


def open_settings(env):
    return env.step({"action_type": "open_app", "app_name": "Settings"})


def click_label(env, label: str):
    el = next(e for e in env.unwrapped.elements if e.label == label)
    x, y = el.center
    return env.step({"action_type": "click", "x": x, "y": y})


# --- the taxonomy and the ids --------------------------------------------------------------


def test_taxonomy_has_ten_types_in_four_layers():
    assert list(LAYERS) == ["state", "thinking", "action", "round"]
    assert len(TRAP_TYPES) == 10 and len(set(TRAP_TYPES)) == 10


@pytest.mark.parametrize("trap", TRAP_TYPES)
def test_each_type_has_an_environment_id(trap):
    env = gym.make(f"antrap/AndroidSim-{camel(trap)}-v0")
    assert type(env.unwrapped) is AndroidEnv
    traps = [w for w in _stack(env) if getattr(w, "trap_type", None)]
    assert [w.trap_type for w in traps] == [trap]  # the id builds exactly that trap
    res = run_episode(env, OracleAgent(), seed=0, options={"task": "SettingsWifiToggle"})
    assert [e["type"] for e in res.info["traps"]] and {e["type"] for e in res.info["traps"]} == {trap}
    assert res.success == 1.0
    env.close()


def _stack(env):
    out = []
    while isinstance(env, gym.Wrapper):
        out.append(env)
        env = env.env
    return out


# --- schedules ------------------------------------------------------------------------------


def test_schedule_window_cap_fixed_steps_and_durations():
    rng = np.random.default_rng
    for seed in range(200):
        plan = TriggerSchedule(p=0.5, window=0.8).plan(rng(seed), 20)
        assert plan and all(1 <= f.step <= 16 for f in plan)
        capped = TriggerSchedule(p=0.9, max_events=2).plan(rng(seed), 20)
        assert 1 <= len(capped) <= 2
        multi = TriggerSchedule(p=0.5, duration=(2, 4)).plan(rng(seed), 30)
        assert all(2 <= f.duration <= 4 for f in multi)
        assert all(a.step + a.duration <= b.step for a, b in itertools.pairwise(multi))  # no overlap
    assert [f.step for f in TriggerSchedule(steps=(3, 7)).plan(rng(0), 20)] == [3, 7]
    # at least once: nothing fires with p = 0, so the last eligible step fires...
    assert TriggerSchedule(p=0.0).plan(rng(0), 10) == [Firing(8, 1, guaranteed=True)]
    assert TriggerSchedule(p=0.0, at_least_once=False).plan(rng(0), 10) == []
    # ...or, for traps armed until an action fits, the first one; a drawn plan's
    # first firing is armed there too (an agent may stop after any action)
    assert TriggerSchedule(p=0.0).plan(rng(0), 10, at="first") == [Firing(1, 1, guaranteed=True)]
    for seed in range(50):
        drawn = TriggerSchedule(p=0.5).plan(rng(seed), 20)
        first = TriggerSchedule(p=0.5).plan(rng(seed), 20, at="first")
        assert first[0].step == 1 and [f.step for f in first[1:]] == [f.step for f in drawn[1:]]
    # a window opened late by the trap (temporal conflict needs k frames first)
    for seed in range(50):
        late = TriggerSchedule(p=0.5).plan(rng(seed), 10, min_step=4)
        assert late and all(4 <= f.step <= 8 for f in late)
    # fixed steps fire exactly there, with no guaranteed extra
    assert [f.step for f in TriggerSchedule(steps=(3, 12)).plan(rng(0), 10)] == [3, 12]
    assert TriggerSchedule(steps=()).plan(rng(0), 10) == []
    # p = 0.16 fires on average about 0.16 of eligible steps
    counts = [len(TriggerSchedule(p=0.16, at_least_once=False).plan(rng(s), 50)) for s in range(400)]
    assert 0.12 < np.mean(counts) / 40 < 0.2


def test_same_seed_same_events_and_same_plan_whatever_the_agent_does():
    def run(agent, seed):
        env = make_env(traps=["all"], obs_mode="text")
        res = run_episode(env, agent, seed=seed, agent_seed=seed)
        return res.info["traps"], env

    a, env_a = run(OracleAgent(), 5)
    b, _ = run(OracleAgent(), 5)
    assert a == b and a  # same seed, same actions: the very same events
    _, env_r = run(RandomAgent(), 5)
    assert _plans(env_r) == _plans(env_a)  # the trap pattern does not depend on the agent
    other = make_env(traps=["all"], obs_mode="text")
    other.reset(seed=6)
    assert _plans(other) != _plans(env_r)


def _plans(env):
    out = []
    while isinstance(env, gym.Wrapper):
        if hasattr(env, "plan"):
            out.append(env.plan)
        env = env.env
    return out


def test_trap_seed_option_decouples_traps_from_the_task_seed():
    env = make_env(traps=["loop", "grounding_error"], obs_mode="text", task="ContactsEditPhone")
    env.reset(seed=1, options={"trap_seed": 99})
    p1 = _plans(env)
    env.reset(seed=2, options={"trap_seed": 99})  # other contacts, same trap pattern
    assert _plans(env) == p1
    env.reset(seed=1, options={"trap_seed": 98})
    assert _plans(env) != p1


# --- budget -------------------------------------------------------------------------------------


def test_budget_grows_by_factor_and_stolen_steps():
    env = trapped("state_deadlock", task="SettingsRenameDevice", obs_mode="text",
                  **at(2, duration=(3, 3)))
    obs, info = env.reset(seed=0)
    base = env.unwrapped.base_budget
    assert info["budget"] == math.ceil(base * 1.15)
    open_settings(env)
    obs, _, _, _, info = env.step({"action_type": "navigate_back"})
    assert info["budget"] == math.ceil((base + 3) * 1.15)
    assert info["traps"][0]["budget_added"] == 3


# --- State layer ------------------------------------------------------------------------------


def test_interruption_swallows_taps_and_closes_with_its_x():
    env = trapped("external_interruption", styles=("banner",), **at(2))
    env.reset(seed=0)
    obs, *_ = open_settings(env)
    assert "Dismiss notification" in obs["ui_elements"]
    assert env.unwrapped.device.foreground()[0] == "com.android.systemui"
    shot_before = obs["screenshot"]
    # a tap on "Display" behind the banner is swallowed
    obs, *_ = env.step({"action_type": "click", "x": 540, "y": 1850})
    assert "Dismiss notification" in obs["ui_elements"]
    assert np.array_equal(obs["screenshot"], shot_before)
    obs, _, _, _, info = click_label(env, "Dismiss notification")
    assert "Dismiss notification" not in obs["ui_elements"]
    assert env.unwrapped.device.foreground() == ("com.android.settings",
                                                 "com.android.settings.Settings")
    event = info["traps"][0]
    assert event["substituted"]["result"] == "dismiss"
    assert event["recovered"] is True and event["recovery_steps"] == 2


@pytest.mark.parametrize("style", ["permission", "dialog", "banner", "fullscreen_ad"])
def test_interruption_styles_appear_in_screenshot_and_elements(style):
    env = trapped("external_interruption", styles=(style,), countdown_p=0.0, **at(2))
    env.reset(seed=3)
    obs, _, _, _, info = open_settings(env)
    ev = info["traps"][0]
    assert ev["params"]["style"] == style
    assert ev["params"]["title"] in obs["ui_elements"]
    clean = make_env(task="SettingsBluetoothToggle")
    clean.reset(seed=3)
    clean_obs, *_ = open_settings(clean)
    assert (obs["screenshot"] != clean_obs["screenshot"]).any(axis=2).mean() > 0.02
    obs, *_ = env.step({"action_type": "navigate_back"})  # BACK closes every style
    assert env.unwrapped.device.foreground()[0] == "com.android.settings"
    assert ev["substituted"]["result"] == "back"


def test_fullscreen_ad_countdown_hides_close_button_for_a_while():
    env = trapped("external_interruption", styles=("fullscreen_ad",), countdown_p=1.0, **at(2))
    env.reset(seed=0)
    obs, *_ = open_settings(env)
    assert "Close ad" not in obs["ui_elements"] and "Close in" in obs["ui_elements"]
    for _ in range(4):
        obs, *_ = env.step({"action_type": "wait"})
    assert "Close ad" in obs["ui_elements"]


def test_virtual_overlay_on_a_backend_without_overlays():
    dev = SimDevice(host_overlays=False)
    env = trapped("external_interruption", device=dev, styles=("dialog",), **at(2))
    env.reset(seed=1)
    obs, _, _, _, info = open_settings(env)
    assert info["traps"][0]["params"]["virtual"] is True
    assert not dev.phone.wm.overlays  # nothing on the phone itself...
    title = info["traps"][0]["params"]["title"]
    assert title in obs["ui_elements"]  # ...but the agent sees it
    assert "Network & internet" not in obs["ui_elements"]
    before = dev.snapshot().payload[0]
    obs, _, _, _, info = env.step({"action_type": "click", "x": 540, "y": 2000})  # swallowed
    assert title in obs["ui_elements"]
    assert dev.snapshot().payload[0].count(b"Display") == before.count(b"Display")
    # the phone underneath looks just as before the pop-up, yet the agent is not back
    assert env.unwrapped.device.foreground()[1] == "com.android.settings.Settings"
    assert info["traps"][0]["recovered"] is None
    # the agent taps a button it sees in the composited elements
    from antrap_gym.device.elements import parse_element_lines

    label = info["traps"][0]["params"]["buttons"][0]
    button = next(e for e in parse_element_lines(obs["ui_elements"]) if e.label == label)
    obs, _, _, _, info = env.step({"action_type": "click", "x": button.center[0],
                                   "y": button.center[1]})
    assert title not in obs["ui_elements"] and "Network & internet" in obs["ui_elements"]
    assert info["traps"][0]["substituted"]["result"] in ("dismiss", "accept")
    assert info["traps"][0]["recovered"] is True and info["traps"][0]["recovery_steps"] == 2
    assert env.unwrapped.device.foreground()[1] == "com.android.settings.Settings"


def test_obscuration_blurs_or_covers_the_screenshot_for_its_duration():
    env = trapped("visual_obscuration", **at(2, duration=(2, 2)), targets=("key_element",),
                  styles=("patch",))
    env.reset(seed=0)
    obs, _, _, _, info = open_settings(env)
    ev = info["traps"][0]
    x0, y0, x1, y1 = ev["params"]["rect"]
    region = obs["screenshot"][y0:y1, x0:x1]
    assert (region == region[0, 0]).all()  # one solid colour
    assert ev["substituted"]["covered"] == "Connected devices"  # where the oracle goes next
    assert "Connected devices" in obs["ui_elements"]  # picture only in screenshot mode
    obs, *_ = env.step({"action_type": "wait"})
    assert (obs["screenshot"][y0:y1, x0:x1] == region[0, 0]).all()
    obs, *_ = env.step({"action_type": "wait"})
    assert not (obs["screenshot"][y0:y1, x0:x1] == region[0, 0]).all()


def test_obscuration_hides_covered_elements_in_text_mode():
    env = trapped("visual_obscuration", obs_mode="text", **at(2, duration=(1, 1)),
                  targets=("key_element",))
    env.reset(seed=0)
    obs, *_ = open_settings(env)
    assert "Connected devices" not in obs["ui_elements"]
    assert "Network & internet" in obs["ui_elements"]
    obs, *_ = env.step({"action_type": "wait"})
    assert "Connected devices" in obs["ui_elements"]


# --- Thinking layer -----------------------------------------------------------------------------


def test_temporal_conflict_shows_the_frame_from_three_steps_back_once():
    env = trapped("temporal_conflict", **at(5))
    obs, _ = env.reset(seed=0)
    frames = [obs]
    for a in ({"action_type": "open_app", "app_name": "Settings"},
              {"action_type": "scroll", "direction": "down"},
              {"action_type": "scroll", "direction": "down"},
              {"action_type": "scroll", "direction": "down"}):
        obs, _, _, _, info = env.step(a)
        frames.append(obs)
    assert info["traps"][0]["substituted"]["shown_step"] == 2
    assert frames[4]["ui_elements"] == frames[1]["ui_elements"]
    assert np.array_equal(frames[4]["screenshot"], frames[1]["screenshot"])
    obs, *_ = env.step({"action_type": "wait"})
    assert obs["ui_elements"] == env.unwrapped.observe()["ui_elements"]  # the truth again
    assert obs["ui_elements"] != frames[1]["ui_elements"]


def test_hallucinated_label_is_gone_from_the_next_observation():
    env = trapped("visual_hallucination", task="SettingsWifiToggle", modes=("flip",), **at(4))
    env.reset(seed=0)
    open_settings(env)
    click_label(env, "Network & internet")
    obs, _, _, _, info = click_label(env, "Internet")
    ev = info["traps"][0]
    truth = env.unwrapped.elements[ev["substituted"]["index"]]
    shown = obs["ui_elements"].splitlines()[ev["substituted"]["index"]]
    assert ("checked" in shown) == ev["substituted"]["shown_checked"] != truth.is_checked
    true_shot = env.unwrapped.device.screenshot()
    b = truth.bbox_pixels
    assert not np.array_equal(obs["screenshot"][b.y_min:b.y_max, b.x_min:b.x_max],
                              true_shot[b.y_min:b.y_max, b.x_min:b.x_max])
    assert env.unwrapped.device.shell("settings get global wifi_on").stdout  # phone untouched
    obs, *_ = env.step({"action_type": "wait"})
    assert obs["ui_elements"].splitlines()[ev["substituted"]["index"]] != shown


def test_hallucination_swaps_a_label_for_its_antonym():
    env = trapped("visual_hallucination", task="SettingsWifiToggle", modes=("antonym",), **at(4))
    env.reset(seed=0)
    open_settings(env)
    click_label(env, "Network & internet")
    obs, _, _, _, info = click_label(env, "Internet")
    sub = info["traps"][0]["substituted"]
    assert f'"{sub["shown"]}"' in obs["ui_elements"] and sub["true"] != sub["shown"]
    obs, *_ = env.step({"action_type": "wait"})
    lines = obs["ui_elements"].splitlines()
    assert f'"{sub["true"]}"' in lines[sub["index"]]


# --- Action layer -------------------------------------------------------------------------------


def test_grounding_error_moves_taps_20_to_50_px():
    dists = []
    for seed in range(60):
        env = trapped("grounding_error", obs_mode="text", **at(2))
        env.reset(seed=seed)
        open_settings(env)
        _, _, _, _, info = env.step({"action_type": "click", "x": 500, "y": 1200})
        ex = info["traps"][0]["substituted"]["executed"]
        dists.append(math.dist((ex["x"], ex["y"]), (500, 1200)))
    assert min(dists) >= 20 - 1 and max(dists) <= 50 + 1
    assert np.std(dists) > 3  # a range, not one fixed offset


def test_grounding_error_resolves_index_addressed_taps():
    env = trapped("grounding_error", obs_mode="text", **at(2))
    env.reset(seed=0)
    open_settings(env)
    i = next(i for i, e in enumerate(env.unwrapped.elements) if e.label == "Display")
    center = list(env.unwrapped.elements[i].center)
    _, _, _, _, info = env.step({"action_type": "click", "index": i})
    sub = info["traps"][0]
    assert "index" not in sub["substituted"]["executed"]
    assert sub["params"]["from"] == center


def test_type_mismatch_changes_the_action_type():
    seen = set()
    for seed in range(12):
        env = trapped("type_mismatch", obs_mode="text", **at(2))
        env.reset(seed=seed)
        open_settings(env)
        _, _, _, _, info = env.step({"action_type": "click", "x": 540, "y": 900})
        ex = info["traps"][0]["substituted"]["executed"]
        seen.add(ex["action_type"])
    assert seen == {"long_press", "double_tap"}
    env = trapped("type_mismatch", obs_mode="text", **at(2))
    env.reset(seed=0)
    open_settings(env)
    _, _, _, _, info = env.step({"action_type": "scroll", "direction": "down"})
    assert info["traps"][0]["substituted"]["executed"]["direction"] == "up"
    env.reset(seed=0)
    open_settings(env)
    _, _, _, _, info = env.step({"action_type": "input_text", "text": "hi", "x": 540, "y": 350})
    assert info["traps"][0]["substituted"]["executed"] == {"action_type": "click", "x": 540, "y": 350}
    # a drag goes the other way: start and end swapped
    env.reset(seed=0)
    open_settings(env)
    before = [e.label for e in env.unwrapped.elements]
    _, _, _, _, info = env.step({"action_type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600})
    ex = info["traps"][0]["substituted"]["executed"]
    assert (ex["x"], ex["y"], ex["x2"], ex["y2"]) == (540, 600, 540, 1800)
    assert info["action"]["y"] == 600 and info["action"]["y2"] == 1800  # what the phone got
    assert [e.label for e in env.unwrapped.elements] == before  # a drag down at the top: no scroll
    clean = make_env(task="SettingsBluetoothToggle", obs_mode="text")
    clean.reset(seed=0)
    open_settings(clean)
    clean.step({"action_type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600})
    assert [e.label for e in clean.unwrapped.elements] != before  # unperturbed, it scrolls


def test_intent_deviation_never_hits_a_destructive_element():
    hits = 0
    for seed in range(150):
        env = trapped("intent_deviation", task="ContactsDeleteContact", obs_mode="text", **at(3))
        obs, info = env.reset(seed=seed)
        agent = OracleAgent()
        agent.reset(env, obs, info)
        for _ in range(6):
            obs, r, term, trunc, info = env.step(agent.act(obs, info))
            if info["traps"] or term or trunc:
                break
        for ev in info["traps"]:
            if ev["params"]["mode"] != "text":
                hits += 1
                assert not is_destructive(ev["params"]["to_label"]), ev
    assert hits > 50


def _first_step_of(task: str, action_type: str, seed: int = 0) -> int:
    """The step at which the oracle, on a clean phone, first sends `action_type`."""
    env = make_env(task=task, obs_mode="text")
    obs, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    for step in range(1, 40):
        a = agent.act(obs, info)
        if a["action_type"] == action_type:
            return step
        obs, *_ = env.step(a)
    raise AssertionError(f"the oracle never sent {action_type}")


def test_intent_deviation_alters_typed_text():
    s = _first_step_of("SettingsRenameDevice", "input_text")
    for seed in range(6):
        env = trapped("intent_deviation", task="SettingsRenameDevice", obs_mode="text", **at(s))
        obs, info = env.reset(seed=0, options={"trap_seed": seed})
        agent = OracleAgent()
        agent.reset(env, obs, info)
        for _ in range(s):
            obs, r, term, trunc, info = env.step(agent.act(obs, info))
        ev = info["traps"][0]
        assert ev["step"] == s and ev["params"]["mode"] == "text"  # the typed text, not a tap
        assert ev["params"]["to_text"] != ev["params"]["from_text"]
        assert ev["substituted"]["intended"]["text"] == ev["params"]["from_text"]
        assert ev["substituted"]["executed"]["text"] == ev["params"]["to_text"]
        while not (term or trunc):  # the oracle sees the typo and fixes it
            obs, r, term, trunc, info = env.step(agent.act(obs, info))
        assert info["success"] == 1.0


def test_intent_deviation_nearby_targets_lie_within_035_of_the_short_side():
    w, h = 1080, 2400
    nearby = 0
    for seed in range(40):
        env = trapped("intent_deviation", task="SettingsBluetoothToggle", obs_mode="text", **at(2))
        env.reset(seed=seed)
        open_settings(env)
        # a tap on "Display": no antonym there, so the tap goes to a nearby element
        _, _, _, _, info = click_label(env, "Display")
        for ev in info["traps"]:
            if ev["params"]["mode"] != "nearby":
                continue
            nearby += 1
            assert ev["params"]["radius_px"] == pytest.approx(0.35 * min(w, h), abs=0.1)
            assert math.dist(ev["params"]["from"], ev["params"]["to"]) <= 0.35 * min(w, h)
            assert ev["params"]["to_label"] != "Display"
    assert nearby >= 30


# --- Round layer ---------------------------------------------------------------------------------


def test_deadlock_freezes_exactly_d_steps():
    env = trapped("state_deadlock", task="SettingsRenameDevice", **at(2, duration=(3, 3)))
    env.reset(seed=0)
    frozen, *_ = open_settings(env)
    states = []
    for _ in range(3):
        obs, _, _, _, info = click_label(env, "Display")
        assert obs["ui_elements"] == frozen["ui_elements"]
        assert np.array_equal(obs["screenshot"], frozen["screenshot"])
        states.append(env.unwrapped.device.foreground())
    # the phone ignored all three taps...
    assert all(s == ("com.android.settings", "com.android.settings.Settings") for s in states[:2])
    ev = info["traps"][0]
    assert ev["duration"] == 3 and len(ev["substituted"]["ignored"]) == 3
    # ...and the step after the deadlock works again
    obs, *_ = click_label(env, "Display")
    assert env.unwrapped.device.foreground()[1].endswith("DisplaySettingsActivity")


def test_context_disruption_leaves_the_app():
    left = set()
    for seed in range(8):
        env = trapped("context_disruption", **at(2))
        env.reset(seed=seed)
        obs, _, _, _, info = open_settings(env)
        pkg = env.unwrapped.device.foreground()[0]
        assert pkg != "com.android.settings"
        left.add(info["traps"][0]["params"]["mode"])
    assert left == {"home", "app_switch"}


def test_loop_sends_back_every_n_steps():
    env = trapped("loop", task="SettingsBluetoothToggle", **at(3, duration=(6, 6)), interval=2)
    env.reset(seed=0)
    open_settings(env)  # step 1
    click_label(env, "Connected devices")  # step 2
    screens = []
    for _ in range(6):  # steps 3..8: BACK injected before the agent acts at 3, 5, 7
        _, _, _, _, info = env.step({"action_type": "wait"})
        screens.append(env.unwrapped.device.foreground()[0])
    assert info["traps"][0]["substituted"]["back_at_steps"] == [3, 5, 7]
    assert screens[-1] == "com.google.android.apps.nexuslauncher"  # pushed all the way out


# --- at least once: a guarantee for episodes that reach the window ----------------------------

OBSERVATION_SIDE = [t for t in TRAP_TYPES if LAYER_OF[t] != "action"]


def _trap(env, trap_type: str):
    return next(w for w in _stack(env) if getattr(w, "trap_type", None) == trap_type)


def test_every_oracle_episode_of_the_mini_suite_meets_every_trap_at_the_default_p():
    """At p = 0.16 a 5-step oracle episode often ends before any drawn firing:
    the trap still fires, and the oracle still succeeds."""
    suite = get_suite("antrap-mini")
    for trap in TRAP_TYPES:
        env = make_env(traps=[trap], obs_mode="text")
        w = _trap(env, trap)
        assert w.schedule.p == 0.16 and w.schedule.at_least_once
        triggers = []
        for tid in suite.templates:
            for seed in range(12):
                res = run_episode(env, OracleAgent(), seed=seed, options={"task": tid})
                events = [e for e in res.info["traps"] if e["type"] == trap]
                assert events, (trap, tid, seed, w.plan, res.steps)
                assert res.success == 1.0, (trap, tid, seed)
                triggers.append(events[0]["trigger"]["by"])
                if LAYER_OF[trap] == "action":  # armed from step 1: the earliest action it fits
                    assert events[0]["armed_at"] == 1
                    assert w.plan[0].step == 1
        if trap in OBSERVATION_SIDE:
            # the drawn plan alone would have missed these: the mechanism is exercised
            assert triggers.count("finishing") >= 5, (trap, triggers)


def test_a_status_before_the_trap_fired_is_held_back_once_and_the_trap_fires():
    env = trapped("external_interruption", task="SettingsWifiToggle", obs_mode="text",
                  p=0.0, styles=("dialog",))
    obs, info = env.reset(seed=0)
    w = _trap(env, "external_interruption")
    assert w.plan == [Firing(8, 1, guaranteed=True)]  # p = 0: the last eligible step
    base = env.unwrapped.base_budget
    assert info["budget"] == math.ceil(base * 1.15)
    open_settings(env)
    obs, r, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert not term and not trunc  # held back: the phone did nothing...
    ev = info["traps"][0]
    assert ev["step"] == 3 and ev["params"]["title"] in obs["ui_elements"]  # ...and the pop-up is up
    assert ev["trigger"] == {"by": "finishing", "reason": "status", "planned_step": 8}
    assert ev["substituted"]["held_back"] == {"action_type": "status", "goal_status": "complete"}
    assert ev["budget_added"] == 2  # the held-back step and the step to close it
    assert info["budget"] == math.ceil((base + 2) * 1.15 - 1e-9)
    assert w.plan == [Firing(8, 1, guaranteed=True)]  # the drawn plan is untouched
    obs, r, term, trunc, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert term  # held back once only


def test_an_answer_goes_through_and_the_trap_fires_before_the_next_look():
    env = trapped("loop", task="ContactsPhoneQuestion", obs_mode="text", p=0.0)
    env.reset(seed=0)
    env.step({"action_type": "open_app", "app_name": "Contacts"})
    obs, r, term, trunc, info = env.step({"action_type": "answer", "text": "+1 555"})
    assert env.unwrapped.answer == "+1 555" and not term
    ev = info["traps"][0]
    assert ev["step"] == 3 and ev["trigger"]["reason"] == "answer"
    assert "held_back" not in ev["substituted"]


REJECTED_FINISHES = (
    {"action_type": "answer"},                                   # no text
    {"action_type": "answer", "text": 42},                       # text not a string
    {"action_type": "status"},                                   # no goal_status
    {"action_type": "status", "goal_status": "maybe"},
    '{"action_type": "answer"',                                  # not JSON
    '{"action_type": "status", "goal_status": "done?"}',
)


@pytest.mark.parametrize("trap", ["external_interruption", "context_disruption", "loop",
                                  "visual_obscuration", "state_deadlock"])
@pytest.mark.parametrize("bad", REJECTED_FINISHES, ids=str)
def test_a_finishing_action_the_env_rejects_pulls_no_trap_forward(trap, bad):
    """Only an accepted action may trigger the at-least-once logic: a rejected answer or
    status changes nothing, so the events and the plan are those of an idle step."""
    for seed in range(6):
        env = trapped(trap, task="ContactsPhoneQuestion", obs_mode="text")
        env.reset(seed=seed)
        w = _trap(env, trap)
        planned = [f.step for f in w.live]
        obs, _, term, trunc, info = env.step(bad)
        assert not term and not trunc
        assert obs["last_action_error"] or info["traps"]  # (a deadlocked step swallows it)
        # the step was an ordinary idle step: whatever fires now was planned for step 1
        assert all(e["trigger"].get("by") != "finishing" for e in info["traps"]), (seed, info["traps"])
        assert [f.step for f in w.live] == planned


def test_no_guarantee_when_the_agent_stops_before_the_window_opens():
    env = trapped("loop", task="SettingsWifiToggle", obs_mode="text", p=0.0, window=(5, 8))
    env.reset(seed=0)
    open_settings(env)
    _, _, term, _, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert term and info["traps"] == []


def test_action_traps_fire_on_the_earliest_action_they_apply_to():
    env = trapped("grounding_error", task="SettingsWifiToggle", obs_mode="text", p=0.0)
    env.reset(seed=0)
    open_settings(env)  # nothing to mis-aim
    env.step({"action_type": "scroll", "direction": "down"})
    _, _, _, _, info = env.step({"action_type": "click", "x": 540, "y": 1200})
    ev = info["traps"][0]
    assert ev["step"] == 3 and ev["armed_at"] == 1
    assert ev["trigger"]["by"] == "at_least_once"
    # the bounded exception: an agent that never takes an action the trap applies to
    env.reset(seed=0)
    for a in ({"action_type": "open_app", "app_name": "Settings"}, {"action_type": "wait"},
              {"action_type": "status", "goal_status": "complete"}):
        _, _, term, _, info = env.step(a)
    assert term and info["traps"] == []


@pytest.mark.parametrize("task", ["SettingsAndroidVersion", "MarkorCountNotesQuestion"])
def test_hallucination_exception_is_a_screen_with_nothing_to_misshow(task):
    """The one observation-side exception: visual_hallucination waits for a screen
    with a label it can invert or a switch it can flip; these tasks show none."""
    from antrap_gym.traps import view

    env = trapped("visual_hallucination", task=task, obs_mode="text")
    w = _trap(env, "visual_hallucination")
    missed = 0
    for seed in range(6):
        shown: list = []
        res = run_episode(env, OracleAgent(), seed=seed,
                          on_reset=lambda o, i, shown=shown: shown.append((1, o)),
                          on_step=lambda o, i, shown=shown: shown.append((i["step"] + 1, o)))
        if res.info["traps"]:
            continue
        missed += 1
        first = min(f.step for f in w.plan)
        for step, obs in shown:
            if step >= first:
                assert not w._candidates(view.entries(obs["ui_elements"]), []), (seed, step)
        assert not any(a.action == {"action_type": "wait", "seconds": 0}
                       for a in res.trajectory)  # no status was held back for nothing
    assert missed >= 1


def test_temporal_conflict_is_only_eligible_once_k_frames_exist():
    for seed in range(40):
        env = trapped("temporal_conflict", obs_mode="text", p=0.5)
        env.reset(seed=seed)
        assert all(f.step >= 4 for f in _trap(env, "temporal_conflict").plan)
    env = trapped("temporal_conflict", obs_mode="text", **at(2))  # asked for too early
    env.reset(seed=0)
    open_settings(env)
    _, _, _, _, info = click_label(env, "Display")
    assert info["traps"] == []  # steps 2, 3: no frame 3 steps back yet
    _, _, _, _, info = env.step({"action_type": "navigate_back"})
    assert info["traps"][0]["step"] == 4 and info["traps"][0]["substituted"]["shown_step"] == 1


def test_temporal_conflict_shows_an_older_frame_when_k_back_looks_like_now():
    env = trapped("temporal_conflict", obs_mode="text", **at(5))
    obs, _ = env.reset(seed=0)
    frames = [obs]
    for a in ({"action_type": "open_app", "app_name": "Settings"}, None,
              {"action_type": "navigate_back"}, {"action_type": "wait"}):
        obs, _, _, _, info = click_label(env, "Display") if a is None else env.step(a)
        frames.append(obs)
    # step 5 shows Settings, like step 2 (3 steps back): the home screen of step 1 instead
    assert frames[1]["ui_elements"] == env.unwrapped.observe()["ui_elements"]
    assert info["traps"][0]["substituted"]["shown_step"] == 1
    assert frames[4]["ui_elements"] == frames[0]["ui_elements"]


def test_two_traps_of_one_type_draw_different_plans():
    one = make_env(traps=["loop"], obs_mode="text")
    two = make_env(traps=[{"type": "loop", "p": 0.3}, {"type": "loop", "p": 0.3}], obs_mode="text")
    single = make_env(traps=[{"type": "loop", "p": 0.3}], obs_mode="text")
    differ = 0
    for seed in range(20):
        two.reset(seed=seed)
        single.reset(seed=seed)
        inner, outer = [w for w in _stack(two)][::-1]
        assert (inner.salt_index, outer.salt_index) == (0, 1)
        assert inner.plan == _trap(single, "loop").plan  # the first of a type keeps its plan
        differ += outer.plan != inner.plan
    assert differ >= 18
    one.reset(seed=0)


# --- stacking order ------------------------------------------------------------------------------


def _internet_screen(env):
    open_settings(env)
    click_label(env, "Network & internet")
    return click_label(env, "Internet")


def test_obscuration_inside_hallucination_outside_hidden_elements_stay_hidden():
    for seed in range(8):
        spec = [{"type": "visual_obscuration", **at(4), "targets": ("key_element",)},
                {"type": "visual_hallucination", **at(4)}]
        env = make_env(traps=spec, task="SettingsWifiToggle", obs_mode="text")
        env.reset(seed=seed)
        obs, _, _, _, info = _internet_screen(env)
        truth = env.unwrapped.observe()["ui_elements"].splitlines()
        shown = obs["ui_elements"].splitlines()
        ob = next(e for e in info["traps"] if e["type"] == "visual_obscuration")
        x0, y0, x1, y1 = ob["params"]["rect"]
        hidden = [ln for ln in truth if ln.endswith(")") and _inside(ln, (x0, y0, x1, y1))]
        assert hidden
        shown_idx = {ln.split("]")[0] + "]" for ln in shown}
        assert not any(ln.split("]")[0] + "]" in shown_idx for ln in hidden)  # none came back
        hal = [e for e in info["traps"] if e["type"] == "visual_hallucination"]
        if hal:  # it changed one of the elements the agent is shown
            i = hal[0]["substituted"]["index"]
            assert f"[{i}]" in shown_idx and not any(ln.startswith(f"[{i}]") for ln in hidden)


def _inside(line: str, rect) -> bool:
    from antrap_gym.device.elements import parse_element_lines
    from antrap_gym.traps.obscuration import _mostly_inside

    return _mostly_inside(parse_element_lines(line)[0].bbox_pixels, rect)


def test_hallucination_outside_does_not_paint_over_an_inner_patch():
    for seed in range(8):
        spec = [{"type": "visual_obscuration", **at(4), "targets": ("key_element",),
                 "styles": ("patch",)},
                {"type": "visual_hallucination", **at(4)}]
        env = make_env(traps=spec, task="SettingsWifiToggle")
        env.reset(seed=seed)
        obs, _, _, _, info = _internet_screen(env)
        ob = next(e for e in info["traps"] if e["type"] == "visual_obscuration")
        x0, y0, x1, y1 = ob["params"]["rect"]
        patch = obs["screenshot"][y0:y1, x0:x1]
        assert (patch == patch[0, 0]).all()  # the cover is intact
        for hal in (e for e in info["traps"] if e["type"] == "visual_hallucination"):
            el = env.unwrapped.elements[hal["substituted"]["index"]]
            b = el.bbox_pixels
            assert min(b.x_max, x1) <= max(b.x_min, x0) or min(b.y_max, y1) <= max(b.y_min, y0)


@pytest.mark.parametrize("obs_mode", ["text", "screenshot"])
def test_hallucination_inside_obscuration_outside_the_lie_survives(obs_mode):
    for seed in range(6):
        hal_only = make_env(traps=[{"type": "visual_hallucination", **at(4)}],
                            task="SettingsWifiToggle", obs_mode=obs_mode)
        both = make_env(traps=[{"type": "visual_hallucination", **at(4)},
                               {"type": "visual_obscuration", **at(4), "targets": ("region",),
                                "hide_elements": True}],
                        task="SettingsWifiToggle", obs_mode=obs_mode)
        hal_only.reset(seed=seed)
        both.reset(seed=seed)
        lie, *_ = _internet_screen(hal_only)
        obs, _, _, _, info = _internet_screen(both)
        ob = next(e for e in info["traps"] if e["type"] == "visual_obscuration")
        rect = tuple(ob["params"]["rect"])
        # the elements: the hallucinated lines, minus only what the cover hides
        kept = [ln for ln in lie["ui_elements"].splitlines() if not _inside(ln, rect)]
        assert obs["ui_elements"].splitlines() == kept
        if obs_mode == "screenshot":  # the picture: the hallucinated one outside the cover
            x0, y0, x1, y1 = rect
            mask = np.ones(obs["screenshot"].shape[:2], bool)
            mask[y0:y1, x0:x1] = False
            assert np.array_equal(obs["screenshot"][mask], lie["screenshot"][mask])
            truth = both.unwrapped.device.screenshot()
            assert not np.array_equal(obs["screenshot"][mask], truth[mask])  # the lie is visible


def test_traps_over_a_virtual_overlay_work_on_its_elements():
    for outer in ({"type": "visual_hallucination", **at(2)},
                  {"type": "visual_obscuration", **at(2), "targets": ("random_element",),
                   "hide_elements": True}):
        dev = SimDevice(host_overlays=False)
        env = make_env(traps=[{"type": "external_interruption", **at(2), "styles": ("dialog",)},
                              outer], task="SettingsBluetoothToggle", device=dev)
        env.reset(seed=2)
        obs, _, _, _, info = open_settings(env)
        pop = info["traps"][0]
        assert pop["params"]["virtual"] is True
        ev = next(e for e in info["traps"] if e["type"] == outer["type"])
        assert "Network & internet" not in obs["ui_elements"]  # the app stays hidden
        labels = [e.label for e in _trap(env, "external_interruption")._virtual.elements]
        if outer["type"] == "visual_hallucination":
            assert ev["substituted"]["true"] in labels  # a button of the pop-up, shown inverted
            assert f'"{ev["substituted"]["shown"]}"' in obs["ui_elements"]
        else:
            assert ev["substituted"]["covered"] in labels
            assert f'"{ev["substituted"]["covered"]}"' not in obs["ui_elements"]


# --- app switch through recents ----------------------------------------------------------------


def _spy(dev, names) -> list[tuple]:
    """Record the device calls by name (instance attributes shadow the methods)."""
    calls: list[tuple] = []

    def make(name):
        real = getattr(dev, name)

        def spy(*a, **k):
            calls.append((name, *a))
            return real(*a, **k)

        return spy

    for name in names:
        setattr(dev, name, make(name))
    return calls


def test_app_switch_goes_through_recents():
    for seed in range(4):
        env = trapped("context_disruption", obs_mode="text", modes=("app_switch",), **at(3))
        env.reset(seed=seed)
        dev = env.unwrapped.device
        seeded = _trap(env, "context_disruption")._seeded
        task_apps = set(env.unwrapped.task.apps)
        assert seeded in dev.app_packages().values() and seeded not in task_apps  # not the task's
        assert dev.phone.wm.recents[:1] == [seeded]  # left in the background at reset
        assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
        open_settings(env)
        calls = _spy(dev, ("key", "tap", "launch", "shell"))
        obs, _, _, _, info = click_label(env, "Connected devices")
        for name in ("key", "tap", "launch", "shell"):
            delattr(dev, name)
        ev = info["traps"][0]
        assert ev["params"] == {"mode": "app_switch", "to": seeded, "path": "recents",
                                "seeded_recents": seeded}
        assert dev.foreground()[0] == seeded
        trap_calls = calls[calls.index(("key", "KEYCODE_APP_SWITCH")):]
        assert trap_calls[1][0] == "tap"  # the other app's card in the overview
        assert not any(c[0] == "launch" or str(c[1]).startswith(("monkey", "am start"))
                       for c in trap_calls)
    home_only = trapped("context_disruption", obs_mode="text", modes=("home",), **at(3))
    home_only.reset(seed=0)
    assert home_only.unwrapped.device.phone.wm.recents == []  # nothing to seed for HOME


def test_app_switch_without_another_card_launches_and_says_so():
    env = trapped("context_disruption", obs_mode="text", modes=("app_switch",), **at(3))
    env.reset(seed=0)
    dev = env.unwrapped.device
    dev.phone.dismiss_recent(_trap(env, "context_disruption")._seeded)  # the user cleared it
    open_settings(env)
    _, _, _, _, info = click_label(env, "Connected devices")
    ev = info["traps"][0]
    to = ev["params"]["to"]
    assert ev["params"]["path"] == "launch" and to != "com.android.settings"
    # the app launched is in front, or its first-start permission request over it (Camera)
    tasks = [ln for ln in dev.shell("dumpsys activity activities").stdout.splitlines() if "Task{" in ln]
    assert dev.foreground()[0] in (to, "com.google.android.permissioncontroller")
    assert any(to in ln for ln in tasks), tasks


# --- obscuration targets and styles ------------------------------------------------------------


def test_obscuration_blur_softens_the_covered_region():
    env = trapped("visual_obscuration", **at(2), targets=("key_element",), styles=("blur",))
    env.reset(seed=0)
    obs, _, _, _, info = open_settings(env)
    x0, y0, x1, y1 = info["traps"][0]["params"]["rect"]
    truth = env.unwrapped.device.screenshot()[y0:y1, x0:x1].astype(float)
    shown = obs["screenshot"][y0:y1, x0:x1].astype(float)
    assert not np.array_equal(shown, truth)
    assert np.abs(np.diff(shown, axis=1)).mean() < 0.5 * np.abs(np.diff(truth, axis=1)).mean()
    assert abs(shown.mean() - truth.mean()) < 10  # blurred, not painted over
    outside = np.ones(obs["screenshot"].shape[:2], bool)
    outside[y0:y1, x0:x1] = False
    assert np.array_equal(obs["screenshot"][outside], env.unwrapped.device.screenshot()[outside])


def test_obscuration_random_element_and_region_targets():
    w, h = 1080, 2400
    labels = set()
    for seed in range(10):
        env = trapped("visual_obscuration", obs_mode="text", **at(2), targets=("random_element",))
        env.reset(seed=seed)
        obs, _, _, _, info = open_settings(env)
        ev = info["traps"][0]
        el = next(e for e in env.unwrapped.elements if e.label == ev["substituted"]["covered"])
        b = el.bbox_pixels
        assert ev["params"]["rect"] == [max(0, b.x_min - 6), max(0, b.y_min - 6),
                                        min(w, b.x_max + 6), min(h, b.y_max + 6)]
        assert f'"{el.label}"' not in obs["ui_elements"] or el.label in ("Settings",)
        labels.add(el.label)
    assert len(labels) >= 4  # a random one, not always the same
    for seed in range(10):
        env = trapped("visual_obscuration", **at(2), targets=("region",), styles=("patch",))
        env.reset(seed=seed)
        obs, _, _, _, info = open_settings(env)
        ev = info["traps"][0]
        x0, y0, x1, y1 = ev["params"]["rect"]
        assert ev["substituted"]["covered"] == "region"
        assert 0.25 * w - 1 <= x1 - x0 <= 0.45 * w and 0.12 * h - 1 <= y1 - y0 <= 0.25 * h
        assert x0 >= 0 and x1 <= w and 0.05 * h - 1 <= y0 and y1 <= 0.95 * h + 1
        assert (obs["screenshot"][y0:y1, x0:x1] == obs["screenshot"][y0, x0]).all()


# --- device faults inside a trap's own calls ---------------------------------------------------


def _lose(dev, method: str):
    def boom(*a, **k):
        raise DeviceLostError("the phone went away")

    setattr(dev, method, boom)


@pytest.mark.parametrize("trap,method,spec", [
    ("loop", "key", at(2)),  # BACK injected before the agent's next look
    ("context_disruption", "key", {**at(2), "modes": ("home",)}),
    ("external_interruption", "show_overlay", at(2)),
    ("grounding_error", "foreground", at(2)),  # where() reads the focused window
])
def test_a_device_fault_inside_a_trap_truncates_the_step(trap, method, spec):
    env = trapped(trap, **spec)
    env.reset(seed=0)
    dev = env.unwrapped.device
    if trap == "grounding_error":  # armed at step 2: it reads the phone before the tap
        open_settings(env)
        _lose(dev, method)
        obs, r, term, trunc, info = env.step({"action_type": "click", "x": 540, "y": 900})
    else:  # these act on the phone before the agent's look at step 2
        _lose(dev, method)
        obs, r, term, trunc, info = open_settings(env)
    assert trunc and not term and r == 0.0
    assert info["error"] == "DeviceLostError: the phone went away"
    assert info["success"] == 0.0 and info["step"] == 2 - (trap != "grounding_error")
    assert env.unwrapped.step_count == info["step"]
    assert set(obs) == set(env.observation_space.spaces)
    assert all(e["recovered"] is False for e in info["traps"])
    obs, r, term, trunc, info = env.step({"action_type": "wait"})  # over: reported, not raised
    assert "over" in obs["last_action_error"]


def test_a_device_fault_in_an_inner_trap_reaches_the_outer_one_as_a_truncated_step():
    env = make_env(traps=[{"type": "loop", **at(2)}, {"type": "external_interruption", **at(5)}],
                   task="SettingsBluetoothToggle")
    env.reset(seed=0)
    _lose(env.unwrapped.device, "key")
    obs, r, term, trunc, info = open_settings(env)
    assert trunc and info["error"].startswith("DeviceLostError")


# --- stacking, configs, vector envs ------------------------------------------------------------


def test_two_stacked_traps_both_fire():
    env = make_env(traps=[{"type": "grounding_error", **at(2)},
                          {"type": "external_interruption", **at(3)}],
                   task="SettingsBluetoothToggle", obs_mode="text")
    obs, info = env.reset(seed=0)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    while True:
        obs, r, term, trunc, info = env.step(agent.act(obs, info))
        if term or trunc:
            break
    assert {e["type"] for e in info["traps"]} == {"grounding_error", "external_interruption"}
    assert info["success"] == 1.0


def test_all_ten_stacked_run_with_the_oracle():
    env = gym.make("antrap/AndroidSim-AllTraps-v0", obs_mode="text")
    wins = 0
    types = set()
    for seed in range(10):
        res = run_episode(env, OracleAgent(), seed=seed)
        wins += res.success >= 1
        types |= {e["type"] for e in res.info["traps"]}
    assert len(types) >= 6 and wins >= 6


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.stem)
def test_configs_load(path):
    if path.stem == "antrap":
        settings = parse_protocol(str(path))
        assert [s.name for s in settings] == ["clean", *TRAP_TYPES]
        assert all(s.traps[0].schedule["p"] == 0.16 for s in settings[1:])
        return
    specs = parse_stack(str(path))
    assert specs
    env = make_env(traps=str(path), obs_mode="text")
    env.reset(seed=0)
    env.step({"action_type": "wait"})


def test_bad_trap_configs_are_rejected():
    with pytest.raises(KeyError):
        parse_stack(["no_such_trap"])
    with pytest.raises(ValueError):
        parse_stack([{"type": "loop", "intervall": 3}])
    with pytest.raises(ValueError):
        parse_stack([{"type": "loop", "p": 2.0}])[0].build(AndroidEnv(obs_mode="text"))


def test_budget_factor_from_a_trap_entry_a_config_or_the_keyword(tmp_path):
    def budget(traps, **kw):
        env = make_env(traps=traps, task="SettingsRenameDevice", obs_mode="text", **kw)
        _, info = env.reset(seed=0)
        return info["budget"], env.unwrapped.base_budget

    # (grounding error takes no step at reset, so the budgets are the factor's alone)
    b, base = budget([{"type": "grounding_error", "budget_factor": 1.5}])
    assert b == math.ceil(base * 1.5)
    assert budget(["grounding_error"])[0] == math.ceil(base * 1.15)  # the default
    assert budget([{"type": "grounding_error", "budget_factor": 1.5}], budget_factor=2.0)[0] \
        == base * 2  # the keyword wins
    cfg = tmp_path / "mine.yaml"
    cfg.write_text("defaults: {budget_factor: 1.3, p: 1.0, window: [2, 3], max_events: 1}\n"
                   "traps:\n  - loop\n  - {type: grounding_error, budget_factor: 1.6}\n")
    specs = parse_stack(str(cfg))
    assert [s.budget_factor for s in specs] == [1.3, 1.6]
    assert specs[0].to_dict() == {"type": "loop", "p": 1.0, "window": (2, 3), "max_events": 1,
                                  "budget_factor": 1.3}
    assert parse_stack([specs[0].to_dict()]) == [specs[0]]  # what the eval workers rebuild from
    env = make_env(traps=str(cfg), task="SettingsRenameDevice", obs_mode="text")
    _, info = env.reset(seed=0)
    assert info["budget"] == math.ceil(base * 1.6)  # the phone's budget takes the largest
    loop = _trap(env, "loop")
    assert loop.budget_factor == 1.3
    assert loop.plan == [Firing(2, loop.plan[0].duration)]  # p = 1 in [2, 3], capped at one
    with pytest.raises(ValueError, match="budget_factor"):
        parse_stack([{"type": "loop", "budget_factor": 0.5}])


def test_the_paper_protocol_states_its_budget_factor_as_data():
    settings = parse_protocol("antrap")  # a bare config name
    for s in settings[1:]:
        (spec,) = s.traps
        assert spec.budget_factor == 1.15
        assert spec.schedule == {"p": 0.16, "window": 0.8, "at_least_once": True}
    assert parse_protocol(str(CONFIGS / "antrap.yaml")) == settings


def test_none_and_clean_protocols_are_the_clean_setting_alone():
    for name in ("none", "clean", "None"):
        assert parse_protocol(name) == [Setting("clean", ())]
    assert [s.name for s in parse_protocol("state")] == ["clean", *LAYERS["state"]]


def test_a_bare_config_name_resolves_to_configs_traps():
    assert [s.type for s in parse_stack("layer_state")] == list(LAYERS["state"])
    assert parse_stack("layer_state") == parse_stack(str(CONFIGS / "layer_state.yaml"))
    env = make_env(traps="layer_round", obs_mode="text")
    assert [w.trap_type for w in _stack(env)][::-1] == list(LAYERS["round"])
    # a type name still means the type (its config holds the same settings)
    assert [s.type for s in parse_stack("loop")] == ["loop"]
    assert [s.name for s in parse_protocol("layer_action")] == ["clean", "layer_action"]
    with pytest.raises(KeyError):
        parse_stack("no_such_config")


def test_solvability_command_reports_every_trapped_episode(capsys):
    from antrap_gym.cli.main import main

    assert main(["solvability", "--suite", "antrap-mini", "--traps", "grounding_error,loop",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"grounding_error", "loop"}
    for trap, r in report.items():
        assert r["layer"] == LAYER_OF[trap]
        assert r["episodes"] == 6 and r["trapped_episodes"] == 6  # at p = 0.16, every one
        assert r["events"] >= 6 and r["checked_events"] == r["events"]
        assert r["solvable_rate"] == 1.0 and r["oracle_success_rate"] == 1.0
        assert r["failures"] == []
    assert main(["solvability", "--suite", "antrap-mini", "--traps", "temporal_conflict",
                 "--p", "0.5"]) == 0
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if "temporal_conflict" in ln and "thinking" in ln)
    cells = [c.strip() for c in row.replace("┃", "│").split("│") if c.strip()]
    assert cells[:3] == ["temporal_conflict", "thinking", "6/6"]
    assert cells[4] == "100.0%" and cells[5] == "100.0%"


def test_trapped_vector_env_runs_async():
    venv = gym.make_vec("antrap/AndroidSim-Text-ExternalInterruption-v0", num_envs=2,
                        vectorization_mode="async")
    venv.reset(seed=0)
    for _ in range(6):
        obs, r, term, trunc, infos = venv.step(['{"action_type": "navigate_back"}'] * 2)
    venv.close()


@pytest.mark.slow
def test_the_full_suite_audit_at_the_paper_p():
    """One pass over every template per trap type, each type alone at the paper's
    p = 0.16, the solvability guard forking the phone after every injection (`antrap
    solvability`'s audit). Each (template, type) pair plays one of the variants 0..2, in
    turn (variant = (template's index + type's index) mod 3), so every template meets
    every variant across the types at a third of the cost of all three:

    - >= 90% of the episodes trapped per type (55% for visual hallucination), >= 99% of
      their events proved solvable on a fork;
    - the oracle finishes every episode, trapped or not;
    - every episode that reaches the trap's window records an event, except the stated
      exceptions of docs/traps.md:
      visual hallucination on screens with nothing to misshow (exception 2, checked
      screen by screen), and an action trap whose oracle never touches the screen after
      the planned step (exception 1: no tap to misplace).

    (The 10-variant figures of docs/traps.md come from `antrap solvability`.)"""
    from antrap_gym.traps import view

    suite = get_suite("antrap")
    figures = {}
    unfinished: list[tuple[str, str, int]] = []
    for k, trap in enumerate(TRAP_TYPES):
        # recovery is not read here: judging it would fork the phone after every trap again
        env = make_env(traps=[trap], obs_mode="text", verify_solvable=True, recovery="off")
        w = _trap(env, trap)
        fired = n = checked = solvable = 0
        for i, tid in enumerate(suite.templates):
            for seed in [(i + k) % 3]:
                shown: list = []
                acts: list = []

                def seen(o, i, shown=shown, acts=acts):
                    shown.append((i["step"] + 1, o))
                    acts.append((i["step"], i.get("action") or {}))

                res = run_episode(env, OracleAgent(), seed=seed, options={"task": tid},
                                  on_reset=lambda o, i, shown=shown: shown.append((1, o)),
                                  on_step=seen)
                n += 1
                if res.success < 1.0:
                    unfinished.append((trap, tid, seed))
                    continue
                events = res.info["traps"]
                for e in events:
                    if e.get("solvable") is not None:
                        checked += 1
                        solvable += bool(e["solvable"])
                if events:
                    fired += 1
                    continue
                if res.steps < w.min_step():
                    continue  # finished before the trap's window opened (OpenAppTaskEval: 2 steps)
                first = min(f.step for f in w.plan)
                if trap in ("grounding_error", "type_mismatch", "intent_deviation"):
                    # (intent deviation also needs a fork-proved alternative: not checked here)
                    assert trap == "intent_deviation" or not any(
                        "x" in a or a.get("action_type") in ("input_text", "scroll", "swipe")
                        for st, a in acts if st >= first), (trap, tid, seed, acts)
                    continue
                assert trap == "visual_hallucination", (trap, tid, seed, w.plan)
                assert all(not w._candidates(view.entries(o["ui_elements"]), [])
                           for s, o in shown if s >= first), (tid, seed)
        env.close()
        figures[trap] = (fired, n, solvable, checked)
        # (measured at 237 templates: 146 of 237 for visual hallucination, whose Chrome pages
        # and drawing screens have nothing it can misshow; 225 of 237 or more for the rest)
        floor = 0.55 if trap == "visual_hallucination" else 0.9
        assert fired >= floor * n, (trap, fired, n)
        assert checked and solvable / checked >= 0.99, (trap, solvable, checked)
    print({t: f"fired {f}/{n}, solvable {s}/{c}" for t, (f, n, s, c) in figures.items()})
    # the oracle finishes every episode but these, each named with why (a fixed one must
    # leave the list, a new one fails here); the list holds all three variants' episodes
    index = {tid: i for i, tid in enumerate(suite.templates)}
    played = [key for key in ORACLE_UNFINISHED_AT_PAPER_P
              if key[2] == (index[key[1]] + TRAP_TYPES.index(key[0])) % 3]
    assert sorted(unfinished) == sorted(played), unfinished


#: trapped episodes of the paper-p audit that the oracle leaves unfinished, with why
ORACLE_UNFINISHED_AT_PAPER_P: dict[tuple[str, str, int], str] = {
    ("temporal_conflict", "RetroCreatePlaylist", 1): "acts on stale frames in Retro Music's "
        "song selection twice and runs out of budget (34/34), every event proved solvable",
    ("temporal_conflict", "RetroPlaylistDuration", 2): "the same, in the playlist's songs",
    ("loop", "BrowserMaze", 1): "a loop's BACK closes the maze page's tab (as Chrome does); the "
        "walk from the start again does not fit what the trap gives back",
    ("loop", "BrowserMaze", 2): "the same",
}


def test_recovery_off_plays_the_same_episode_and_leaves_recovery_unjudged():
    """`make_env(recovery="off")` (training data collection) spares the oracle search that
    judges recovery; the episode itself is the same, only the events' verdicts are left out."""
    runs = {}
    for recovery in ("oracle", "off"):
        env = make_env(traps=["external_interruption"], obs_mode="text", recovery=recovery)
        runs[recovery] = run_episode(env, OracleAgent(), seed=0, options={"task": "ContactsAddContact"})
        env.close()
    judged, unjudged = runs["oracle"], runs["off"]
    assert [s.action for s in judged.trajectory] == [s.action for s in unjudged.trajectory]
    assert judged.success == unjudged.success == 1.0
    assert judged.info["traps"] and all(e["recovered"] is not None for e in judged.info["traps"])
    assert len(unjudged.info["traps"]) == len(judged.info["traps"])
    assert all(e["recovered"] is None for e in unjudged.info["traps"])
    with pytest.raises(ValueError, match="recovery"):
        make_env(traps=["loop"], recovery="sometimes")
