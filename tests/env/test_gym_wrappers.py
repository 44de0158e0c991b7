"""Gymnasium's own wrappers and vector envs over our envs (whose text fields are
`UnicodeText`, a custom space Gymnasium's space utilities must be taught)."""

from __future__ import annotations

import json
import multiprocessing as mp
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.spaces import Box, Dict, Tuple
from gymnasium.spaces import utils as su
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import utils as vu
from gymnasium.wrappers import (
    FilterObservation,
    FlattenObservation,
    FrameStackObservation,
    RecordEpisodeStatistics,
    TimeLimit,
    TransformObservation,
)
from gymnasium.wrappers import vector as vw
from gymnasium.wrappers.utils import create_zero_array

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.env import UnicodeText

SETTINGS = {"action_type": "open_app", "app_name": "Settings"}
HOME = {"action_type": "navigate_home"}
SMALL = (108, 240)  # a small screen keeps stacked screenshots cheap
# text a phone can show: several scripts, an emoji, and a lone surrogate (Java strings may hold one)
ODD_TEXT = " — ✓ 漢字 한글 😀 \udcff"


def text_env(**kwargs) -> gym.Env:
    return gym.make("antrap/AndroidSim-Text-v0", **kwargs)


def zero_stack(env: gym.Env, size: int) -> gym.Env:
    """Stacked, padded with the empty observation (Gymnasium's default pads with the first)."""
    return FrameStackObservation(env, size, padding_type="zero")


# --- the space itself ----------------------------------------------------------------------------

def test_space_contains_sample_eq_and_json():
    s = UnicodeText(8)
    assert s.contains("") and s.contains("😀" * 8) and not s.contains("x" * 9)
    assert not s.contains(b"bytes") and not s.contains(None) and not s.contains(3)
    a, b = UnicodeText(8, seed=5), UnicodeText(8, seed=5)
    draws = [a.sample() for _ in range(20)]
    assert draws == [b.sample() for _ in range(20)]  # seeded: reproducible
    assert all(s.contains(d) for d in draws) and len(set(draws)) > 5
    assert len(a.sample(mask=(5, None))) == 5 and len(a.sample(probability=(0, None))) == 0
    with pytest.raises(ValueError, match="no fixed charset"):
        a.sample(mask=(3, np.ones(4, np.int8)))
    with pytest.raises(ValueError, match="length"):
        a.sample(mask=(9, None))
    with pytest.raises(ValueError, match="max_length"):
        UnicodeText(-1)
    assert UnicodeText(8) == UnicodeText(8) and UnicodeText(8) != UnicodeText(9)
    assert hash(UnicodeText(8)) == hash(UnicodeText(8)) and UnicodeText(8) != gym.spaces.Text(8)
    batch = ["", "a", ODD_TEXT.replace("\udcff", "")]
    assert s.from_jsonable(json.loads(json.dumps(s.to_jsonable(batch)))) == batch


def test_space_utilities_match_gymnasiums_text():
    s = UnicodeText(8, seed=1)
    assert create_zero_array(s) == "" and s.contains(create_zero_array(s))
    assert vu.create_empty_array(s, n=3) == ("", "", "")
    batched = vu.batch_space(s, 3)
    assert batched == Tuple([UnicodeText(8)] * 3)
    assert len(set(batched.sample())) == 3  # each copy seeded apart
    assert vu.batch_differing_spaces([UnicodeText(4), UnicodeText(8)]) == Tuple(
        [UnicodeText(4), UnicodeText(8)])
    assert vu.concatenate(s, ["a", "b"], vu.create_empty_array(s, 2)) == ("a", "b")
    assert su.is_space_dtype_shape_equiv(s, UnicodeText(8))
    assert not su.is_space_dtype_shape_equiv(s, UnicodeText(9))
    # iterating a batch yields whole strings, also nested under a Tuple or Dict
    nested = vu.batch_space(Dict({"t": Tuple([s, Box(0, 1, (2,))])}), 2)
    items = {"t": (("ab", "漢字"), np.zeros((2, 2)))}
    got = list(vu.iterate(nested, items))
    assert [g["t"][0] for g in got] == ["ab", "漢字"]


@pytest.mark.parametrize("fn", [su.flatdim, su.flatten_space,
                                lambda s: su.flatten(s, "ab"),
                                lambda s: su.unflatten(s, np.zeros(2))])
def test_flattening_is_refused_with_the_reason(fn):
    with pytest.raises(ValueError, match=r"arbitrary Unicode.*Tokenize"):
        fn(UnicodeText(8))


def test_flatten_observation_says_what_to_do_and_works_without_text():
    env = gym.make("antrap/AndroidSim-v0", screen_size=SMALL)
    with pytest.raises(ValueError, match="FilterObservation"):
        FlattenObservation(env)
    flat = FlattenObservation(FilterObservation(env, ["screenshot"]))
    obs, _ = flat.reset(seed=0)
    assert obs.shape == (SMALL[0] * SMALL[1] * 3,)
    np.testing.assert_array_equal(obs, env.unwrapped.observe()["screenshot"].ravel())
    env.close()


def test_shared_memory_round_trips_any_unicode():
    s = UnicodeText(6)
    mem = vu.create_shared_memory(s, n=2, ctx=mp)
    vu.write_to_shared_memory(s, 0, "漢字😀\udcff", mem)
    vu.write_to_shared_memory(s, 1, "😀" * 9, mem)  # too long: cut at a character, not a byte
    assert tuple(vu.read_from_shared_memory(s, mem, n=2)) == ("漢字😀\udcff", "😀" * 6)


# --- single-env wrappers -------------------------------------------------------------------------

def test_frame_stack_text_pads_with_empty_strings_then_shifts():
    env = zero_stack(text_env(), 3)
    obs, info = env.reset(seed=0)
    first = env.unwrapped.observe()
    assert obs["goal"] == ("", "", info["goal"]) and info["goal"]
    assert obs["ui_elements"] == ("", "", first["ui_elements"])
    assert env.observation_space.contains(obs)
    obs, *_ = env.step(SETTINGS)
    now = env.unwrapped.observe()
    assert obs["ui_elements"] == ("", first["ui_elements"], now["ui_elements"])
    assert "Network & internet" in obs["ui_elements"][-1]
    obs, *_ = env.step("not json")
    assert obs["last_action_error"][:2] == ("", "") and "JSON" in obs["last_action_error"][2]
    obs, *_ = env.step(HOME)
    assert "" not in obs["ui_elements"]  # the padding has scrolled out
    assert obs["ui_elements"][-1] == first["ui_elements"]  # home again
    assert obs["last_action_error"][1] != "" and obs["last_action_error"][2] == ""
    env.close()


@pytest.mark.parametrize("padding", ["zero", "reset"])
def test_frame_stack_screenshots(padding):
    env = FrameStackObservation(gym.make("antrap/AndroidSim-v0", screen_size=SMALL), 3,
                                padding_type=padding)
    obs, _ = env.reset(seed=0)
    home = env.unwrapped.observe()["screenshot"]
    assert obs["screenshot"].shape == (3, SMALL[1], SMALL[0], 3)
    pad = np.zeros_like(home) if padding == "zero" else home
    np.testing.assert_array_equal(obs["screenshot"][0], pad)
    np.testing.assert_array_equal(obs["screenshot"][1], pad)
    np.testing.assert_array_equal(obs["screenshot"][2], home)
    assert obs["goal"][0] == ("" if padding == "zero" else obs["goal"][2])
    obs, *_ = env.step(SETTINGS)
    settings = env.unwrapped.observe()["screenshot"]
    assert not np.array_equal(settings, home)
    np.testing.assert_array_equal(obs["screenshot"][1], home)
    np.testing.assert_array_equal(obs["screenshot"][2], settings)
    assert env.observation_space.contains(obs)
    env.close()


def test_time_limit_and_episode_statistics_over_a_frame_stack():
    env = RecordEpisodeStatistics(TimeLimit(zero_stack(text_env(), 2),
                                            max_episode_steps=3))
    for seed in (0, 1):  # two episodes: the statistics and the stack start over
        obs, info = env.reset(seed=seed)
        assert obs["goal"] == ("", info["goal"])
        total = 0.0
        for i, action in enumerate([SETTINGS, HOME, SETTINGS]):
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            assert not terminated and truncated == (i == 2)
        assert info["episode"]["l"] == 3 and info["episode"]["r"] == total == 0.0
        assert "Network & internet" in obs["ui_elements"][1]
    assert list(env.length_queue) == [3, 3]
    env.close()


def test_filter_and_transform_observation_then_stack():
    base = text_env()
    kept = FilterObservation(base, ["ui_elements", "goal"])
    assert set(kept.observation_space.keys()) == {"ui_elements", "goal"}
    # keep only the first element's line (a text agent trimming its prompt)
    first_line = TransformObservation(
        kept, lambda o: {**o, "ui_elements": o["ui_elements"].split("\n", 1)[0]},
        kept.observation_space)
    env = zero_stack(first_line, 2)
    obs, info = env.reset(seed=4)
    assert set(obs) == {"ui_elements", "goal"}
    assert obs["goal"] == ("", info["goal"])
    assert obs["ui_elements"] == ("", base.unwrapped.observe()["ui_elements"].split("\n")[0])
    assert obs["ui_elements"][1].startswith("[0] ") and "\n" not in obs["ui_elements"][1]
    obs, *_ = env.step(SETTINGS)
    assert obs["ui_elements"][1] == base.unwrapped.observe()["ui_elements"].split("\n")[0]
    assert env.observation_space.contains(obs)
    env.close()


def test_check_env_passes_on_wrapped_envs():
    stacked = FrameStackObservation(gym.make("antrap/AndroidSim-v0", screen_size=SMALL), 2)
    filtered = FrameStackObservation(FilterObservation(text_env(), ["ui_elements", "goal"]), 2)
    for env in (stacked, filtered):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # any other checker warning fails
            warnings.filterwarnings("ignore", message=".*different from the unwrapped")
            check_env(env, skip_render_check=True)
        env.close()


# --- vector envs ---------------------------------------------------------------------------------

def test_sync_vector_env_with_stacked_filtered_transformed_observations():
    venv = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=2, vectorization_mode="sync",
                        wrappers=[lambda e: zero_stack(e, 2)], max_episode_steps=2)
    venv = vw.RecordEpisodeStatistics(vw.FilterObservation(venv, ["ui_elements", "goal"]))
    venv = vw.VectorizeTransformObservation(
        venv, TransformObservation,
        func=lambda o: {**o, "goal": tuple(g.upper() for g in o["goal"])},
        observation_space=venv.single_observation_space)
    obs, infos = venv.reset(seed=[3, 4])
    assert set(obs) == {"ui_elements", "goal"}
    # Gymnasium batches a Tuple slot by slot: obs[key][stack slot][env]
    assert obs["goal"][0] == ("", "")
    assert list(obs["goal"][1]) == [g.upper() for g in infos["goal"]] and all(obs["goal"][1])
    obs, _, term, trunc, infos = venv.step([SETTINGS, HOME])
    assert "Network & internet" in obs["ui_elements"][1][0]
    assert obs["ui_elements"][0][1] == obs["ui_elements"][1][1]  # home, then home again
    assert not trunc.any() and "episode" not in infos
    obs, _, term, trunc, infos = venv.step([HOME, SETTINGS])
    assert trunc.all() and not term.any()
    assert list(infos["episode"]["l"]) == [2, 2] and list(infos["_episode"]) == [True, True]
    assert "Network & internet" in obs["ui_elements"][1][1]
    obs, *_ = venv.step([HOME, HOME])  # autoreset: a fresh stack, padded again
    assert obs["goal"][0] == ("", "")
    venv.close()


@pytest.mark.parametrize("shared_memory", [True, False])
def test_async_vector_env_carries_stacked_unicode(shared_memory):
    def odd(env: gym.Env) -> gym.Env:
        return TransformObservation(env, lambda o: {**o, "goal": o["goal"] + ODD_TEXT},
                                    env.observation_space)

    venv = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=2, vectorization_mode="async",
                        vector_kwargs={"shared_memory": shared_memory},
                        wrappers=[odd, lambda e: zero_stack(e, 2)])
    venv = vw.RecordEpisodeStatistics(venv)
    obs, infos = venv.reset(seed=[0, 1])
    assert obs["goal"][0] == ("", "")
    assert list(obs["goal"][1]) == [g + ODD_TEXT for g in infos["goal"]]
    obs, _, term, trunc, infos = venv.step([SETTINGS, "not json"])
    assert "Network & internet" in obs["ui_elements"][1][0]
    assert obs["last_action_error"][1][0] == "" and "JSON" in obs["last_action_error"][1][1]
    assert obs["ui_elements"][0][1] == obs["ui_elements"][1][1]  # a bad action changes nothing
    assert venv.observation_space.contains(obs)
    venv.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env_observation_mode_different(mode):
    """'different' batches each env's own space (batch_differing_spaces) and checks
    them for equivalence (is_space_dtype_shape_equiv)."""
    venv = gym.make_vec("antrap/AndroidSim-Text-v0", num_envs=2, vectorization_mode=mode,
                        vector_kwargs={"observation_mode": "different"})
    assert venv.observation_space["goal"] == Tuple([venv.single_observation_space["goal"]] * 2)
    obs, infos = venv.reset(seed=5)
    assert list(obs["goal"]) == list(infos["goal"])
    obs, *_ = venv.step([HOME, SETTINGS])
    assert "Network & internet" in obs["ui_elements"][1]
    venv.close()
