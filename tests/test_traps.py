"""The ten STAR traps: effects, schedules, determinism, stacking, budgets, configs."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from antrap_gym.agents import OracleAgent, RandomAgent
from antrap_gym.device.sim import SimDevice
from antrap_gym.env import AndroidEnv
from antrap_gym.env.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.traps import LAYERS, TRAP_TYPES, TriggerSchedule, camel, parse_protocol, parse_stack
from antrap_gym.traps.words import is_destructive

CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "traps"


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
    obs, info = env.reset(seed=0)
    assert info["traps"] == [] or info["traps"][0]["type"] == trap
    assert type(env.unwrapped) is AndroidEnv
    env.close()


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
    # at least once: nothing fires with p = 0, so the last eligible step fires
    assert [f.step for f in TriggerSchedule(p=0.0).plan(rng(0), 10)] == [8]
    assert TriggerSchedule(p=0.0, at_least_once=False).plan(rng(0), 10) == []
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
    obs, *_ = env.step({"action_type": "click", "x": 540, "y": 2000})  # swallowed
    assert title in obs["ui_elements"]
    assert dev.snapshot().payload[0].count(b"Display") == before.count(b"Display")
    # the agent taps a button it sees in the composited elements
    from antrap_gym.device.elements import parse_element_lines

    label = info["traps"][0]["params"]["buttons"][0]
    button = next(e for e in parse_element_lines(obs["ui_elements"]) if e.label == label)
    obs, _, _, _, info = env.step({"action_type": "click", "x": button.center[0],
                                   "y": button.center[1]})
    assert title not in obs["ui_elements"] and "Network & internet" in obs["ui_elements"]
    assert info["traps"][0]["substituted"]["result"] in ("dismiss", "accept")
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


def test_intent_deviation_alters_typed_text():
    env = trapped("intent_deviation", task="SettingsRenameDevice", obs_mode="text", **at(1))
    obs, info = env.reset(seed=0)
    agent = OracleAgent()
    agent.reset(env, obs, info)
    while not info["traps"]:
        a = agent.act(obs, info)
        obs, r, term, trunc, info = env.step(a)
    ev = info["traps"][0]
    if ev["params"]["mode"] == "text":
        assert ev["params"]["to_text"] != ev["params"]["from_text"]


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


def test_trapped_vector_env_runs_async():
    venv = gym.make_vec("antrap/AndroidSim-Text-ExternalInterruption-v0", num_envs=2,
                        vectorization_mode="async")
    venv.reset(seed=0)
    for _ in range(6):
        obs, r, term, trunc, infos = venv.step(['{"action_type": "navigate_back"}'] * 2)
    venv.close()


@pytest.mark.slow
def test_oracle_succeeds_on_at_least_200_trapped_episodes_per_type():
    """The solvability audit: every injection leaves the task solvable (proved on a
    fork) and the oracle finishes >= 99% of trapped episodes, per trap type."""
    from antrap_gym.traps.audit import audit
    from tasks import get_suite

    suite = get_suite("antrap")
    episodes = [(t, v) for t in suite.templates for v in range(10)]
    results = audit(list(TRAP_TYPES), episodes, trap_settings={"p": 0.35})
    for trap, a in results.items():
        assert a.trapped_episodes >= 200, (trap, a.trapped_episodes)
        assert a.solvable_rate == 1.0, (trap, a.failures[:2])
        assert a.oracle_success_rate >= 0.99, (trap, a.oracle_success_rate, a.failures[:3])
