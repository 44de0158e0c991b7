"""GUI-Owl's own architectures, tiny: Qwen2.5-VL and Qwen3-VL built from their configs
with their processors made here (`training.tiny_qwen_vl`), saved to a directory and
loaded from that path by the transformers agent, SFT and GRPO; and the coordinates
each family speaks, mapped to the phone's pixels and back.

With random weights the replies are noise: the agent must turn each into an action
or a parse error; the training steps must run and log a positive loss.
"""

from __future__ import annotations

import math
from pathlib import Path

import gymnasium as gym
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from antrap_gym.agents.coords import MAX_PIXELS, MIN_PIXELS, CoordSpace
from antrap_gym.agents.families import FAMILIES, detect_family, policy_geometry, processor_geometry
from antrap_gym.agents.policy import UNPARSEABLE, PolicyConfig
from antrap_gym.env.actions import Action
from tests.paths import ROOT

PHONE = (1080, 2400)
FAMILY_NAMES = sorted(FAMILIES)


# --- coordinates (no torch) -------------------------------------------------------------------------

def _space(family: str, max_pixels: int = MAX_PIXELS) -> CoordSpace:
    geo = policy_geometry(family)
    return PolicyConfig(coords=geo["coords"], factor=geo["factor"], min_pixels=MIN_PIXELS,
                        max_pixels=max_pixels).space(PHONE)


def test_each_family_speaks_its_own_coordinates():
    q25, q3 = _space("qwen2_5_vl"), _space("qwen3_vl")
    assert (q25.mode, q25.image_size, q25.resolution) == ("absolute", (1092, 2408), (1092, 2408))
    assert (q3.mode, q3.image_size, q3.resolution) == ("relative", (1088, 2400), (1000, 1000))
    assert q25.to_device(1092, 2408) == (1079, 2399) and q3.to_device(1000, 1000) == (1079, 2399)
    assert q3.to_device(500, 500) == (540, 1200) and q25.to_model(540, 1200) == (546, 1204)


@settings(max_examples=300, deadline=None)
@given(family=st.sampled_from(FAMILY_NAMES), x=st.integers(0, PHONE[0] - 1), y=st.integers(0, PHONE[1] - 1))
def test_device_point_round_trips_within_one_pixel(family, x, y):
    """device -> model -> device at 1080x2400: within a pixel (a model unit is 1.01 px
    for Qwen2.5-VL's 1092x2408 image, 1.08 x 2.4 px for Qwen3-VL's 0-1000)."""
    space = _space(family)
    mx, my = space.to_model(x, y)
    dx, dy = space.to_device(mx, my)
    assert abs(dx - x) <= 1 and abs(dy - y) <= 1


@settings(max_examples=300, deadline=None)
@given(family=st.sampled_from(FAMILY_NAMES), fx=st.floats(0, 1), fy=st.floats(0, 1))
def test_model_point_round_trips_exactly_where_units_are_pixels_or_more(family, fx, fy):
    """model -> device -> model is exact on an axis whose model unit spans at least a
    device pixel (each unit lands on its own pixel: Qwen3-VL's 0-1000 on both axes),
    and off by at most one unit where units are finer than pixels (Qwen2.5-VL's 1092
    columns over 1080 pixels: two units share a pixel here and there). The last row
    and column clamp onto the screen's edge and are left out."""
    space = _space(family)
    (rw, rh), (dw, dh) = space.resolution, space.device_size
    mx, my = round(fx * (rw - 1)), round(fy * (rh - 1))
    dx, dy = space.to_device(mx, my)
    assert 0 <= dx < dw and 0 <= dy < dh
    bx, by = space.to_model(dx, dy)
    assert abs(bx - mx) <= (rw > dw) and abs(by - my) <= (rh > dh)
    if family == "qwen3_vl":
        assert (bx, by) == (mx, my)


@settings(max_examples=200, deadline=None)
@given(family=st.sampled_from(FAMILY_NAMES), tokens=st.integers(4, 400),
       x=st.integers(0, PHONE[0] - 1), y=st.integers(0, PHONE[1] - 1))
def test_small_images_round_trip_within_half_a_model_unit(family, tokens, x, y):
    """With a small max_pixels (the tiny models'), a model unit spans several device
    pixels: the round trip is off by at most half a unit, rounded."""
    f = FAMILIES[family].factor
    space = _space(family, max_pixels=tokens * f * f)
    (rw, rh), (dw, dh) = space.resolution, space.device_size
    dx, dy = space.to_device(*space.to_model(x, y))
    assert abs(dx - x) <= math.ceil(dw / rw / 2 + 0.5) and abs(dy - y) <= math.ceil(dh / rh / 2 + 0.5)


# --- the tiny models --------------------------------------------------------------------------------

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("trl")


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    from tests.agents.test_transformers_agent import phone_corpus

    return phone_corpus()


@pytest.fixture(scope="module", params=FAMILY_NAMES)
def tiny_vl(request, tmp_path_factory, corpus) -> tuple[str, Path]:
    from antrap_gym.training.tiny_qwen_vl import build_tiny_qwen_vl

    family = request.param
    return family, build_tiny_qwen_vl(tmp_path_factory.mktemp(family), family, lines=corpus)


def test_the_tiny_model_is_the_familys_own(tiny_vl):
    import json

    family, path = tiny_vl
    config = json.loads((path / "config.json").read_text())
    assert config["model_type"] == family and detect_family(path) is FAMILIES[family]
    assert config["architectures"] == [{"qwen2_5_vl": "Qwen2_5_VLForConditionalGeneration",
                                        "qwen3_vl": "Qwen3VLForConditionalGeneration"}[family]]
    from antrap_gym.training.config import load_config

    cfg = load_config(None, [f"model.family={family}"])
    geo = processor_geometry(path)  # what the processor resizes to is what the prompt declares
    assert geo == {k: cfg.model_geometry()[k] for k in ("factor", "min_pixels", "max_pixels")}
    assert cfg.policy_config().coords == FAMILIES[family].coords


def test_agent_loads_the_path_and_acts_on_screenshots(tiny_vl):
    from antrap_gym.agents import make_agent
    from antrap_gym.rollout import run_episode

    family, path = tiny_vl
    agent = make_agent("transformers", model_path=str(path), max_new_tokens=12)
    fam = FAMILIES[family]
    assert agent.is_vlm and agent.config.observation == "screenshot"
    assert (agent.config.coords, agent.config.factor) == (fam.coords, fam.factor)
    env = gym.make("antrap/AndroidSim-v0", task="SettingsWifiToggle", max_steps=3)
    obs, info = env.reset(seed=0)
    agent.reset(env, obs, info)
    msgs = agent.session.hf_messages(obs)
    image = msgs[1]["content"][1]["image"]
    assert image.size == agent.session.space.image_size
    rendered = agent.processor.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False)
    assert "<|vision_start|><|image_pad|><|vision_end|>" in rendered
    assert f"The screen's resolution is {agent.session.space.resolution[0]}x" in rendered
    inputs = agent.encode(msgs)
    t, gh, gw = inputs["image_grid_thw"][0].tolist()
    assert (t, gw * fam.patch_size, gh * fam.patch_size) == (1, *image.size)  # the processor kept the size
    n_image = int((inputs["input_ids"] == agent.tokenizer.convert_tokens_to_ids("<|image_pad|>")).sum())
    assert n_image == gh * gw // fam.merge_size ** 2
    res = run_episode(env, agent, seed=0)
    env.close()
    assert res.error is None, res.error
    assert res.steps == len(res.trajectory) == 3
    for step in res.trajectory:
        if step.action["action_type"] == UNPARSEABLE:
            assert step.action["error"]
        else:
            Action.parse(step.action)


def _sets(family: str, path: Path, **extra) -> list[str]:
    base = {"model.path": str(path), "model.family": family, "model.device": "cpu",
            "policy.observation": "screenshot", "env.tasks": "[SettingsWifiToggle]", "env.variants": 1,
            "train.progress": "false", "train.logging_steps": 1, "eval_after.enabled": "false",
            "policy.tool_docs": "false", "policy.conclusion": "false"}
    return [f"{k}={v}" for k, v in {**base, **extra}.items()]


@pytest.mark.slow
def test_vlm_sft_steps_on_screenshots(tiny_vl, tmp_path):
    from antrap_gym.training.callbacks import read_metrics
    from antrap_gym.training.config import load_config
    from antrap_gym.training.data import collect
    from antrap_gym.training.sft import build_dataset, run_sft
    from antrap_gym.training.tiny import load_policy

    family, path = tiny_vl
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml", _sets(family, path))
    policy = cfg.policy_config()
    assert policy.coords == FAMILIES[family].coords
    data = collect(tmp_path / "data", traps=["clean"], variants=1, tasks=["SettingsWifiToggle"],
                   policy_cfg=policy)
    _, proc = load_policy(cfg.model, path)
    ds, stats = build_dataset([data], proc, 4096)
    assert stats["vlm"] and ds[0]["images"][0].size == policy.space(PHONE).image_size
    cfg = load_config(ROOT / "configs/train/smoke_cpu.yaml",
                      _sets(family, path, **{"sft.data": f"[{data}]", "sft.max_steps": 2,
                                             "sft.batch_size": 2, "train.save_steps": 10}))
    final = run_sft(cfg, tmp_path / "run", resume=False)
    rows = read_metrics(tmp_path / "run")
    losses = [(r["step"], r["loss"]) for r in rows if "loss" in r and "event" not in r]
    assert [s for s, _ in losses] == [1, 2] and all(v > 0 for _, v in losses)
    assert detect_family(final) is FAMILIES[family] and processor_geometry(final) == processor_geometry(path)


@pytest.mark.slow
def test_step_grpo_on_screenshots(tiny_vl, tmp_path):
    from antrap_gym.training.callbacks import read_metrics
    from antrap_gym.training.config import load_config
    from antrap_gym.training.grpo import run_grpo

    family, path = tiny_vl
    sets = _sets(family, path, **{"grpo.steps": 1, "grpo.num_generations": 2, "grpo.batch_size": 2,
                                  "grpo.max_completion_length": 8, "grpo.states_per_refresh": 2,
                                  "grpo.num_envs": 1, "train.save_steps": 1, "policy.max_history": 0})
    final = run_grpo(load_config(ROOT / "configs/train/smoke_cpu.yaml", sets), tmp_path / "run", resume=False)
    rows = read_metrics(tmp_path / "run")
    states = [r for r in rows if r.get("event") == "states"]
    assert states[0]["states"] == 2
    assert [r["step"] for r in rows if "rewards/format_reward/mean" in r] == [1]
    assert (final / "model.safetensors").exists() and detect_family(final) is FAMILIES[family]
