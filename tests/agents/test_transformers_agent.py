"""The local transformers agent, on tiny models built here from a config.

No hub: the tokenizer is a byte-level BPE trained on the phone's own text
(task goals, element lines, the policy prompt), the models are random-weight
Qwen2 (text) and LLaVA-over-Qwen2 (vision) built from configs and saved to a
temporary directory. With random weights the replies are noise: the agent
must turn each into an action or a parse error, never crash.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from antrap_gym.agents import make_agent
from antrap_gym.agents.policy import UNPARSEABLE, PolicyConfig, build_hf_messages, system_prompt, user_text
from antrap_gym.env.actions import Action
from antrap_gym.rollout import run_episode
from tests.paths import ROOT

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
TAGS = ["<tool_call>", "</tool_call>", "<thinking>", "</thinking>", "<conclusion>", "</conclusion>"]

# a Qwen-style chat template that also takes content parts (text and images)
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<image>"
    "{% else %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def phone_corpus() -> list[str]:
    """A few hundred lines of the simulator's own text."""
    from antrap_gym.tasks import TEMPLATES

    rng = np.random.default_rng(0)
    lines = [cls(cls.generate_params(rng)).goal for cls in TEMPLATES.values() for _ in range(3)]
    env = gym.make("antrap/AndroidSim-Text-v0")
    for tid in list(TEMPLATES)[:6]:
        env.reset(seed=0, options={"task": tid})
        for app in ("Settings", "Contacts", "Markor"):
            obs, *_ = env.step({"action_type": "open_app", "app_name": app})
            lines += obs["ui_elements"].splitlines()
    env.close()
    cfg = PolicyConfig(observation="text")
    lines += system_prompt(cfg.space((1080, 2400)), cfg).splitlines()
    lines += user_text("Turn Wi-Fi off.", history=["Open the Settings app"], elements_text="",
                       config=cfg).splitlines()
    return lines


def train_tokenizer(lines: list[str], extra_special: list[str] = ()):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=2000, special_tokens=SPECIAL + list(extra_special),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(lines, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.add_tokens(TAGS)  # as in Qwen's vocabulary: plain added tokens, kept on decode
    return fast


def qwen_text_config(vocab_size: int, tok):
    from transformers import Qwen2Config

    return Qwen2Config(vocab_size=vocab_size, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=8192,
                       tie_word_embeddings=True, eos_token_id=tok.eos_token_id,
                       pad_token_id=tok.pad_token_id)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return phone_corpus()


@pytest.fixture(scope="module")
def text_model_dir(tmp_path_factory, corpus) -> Path:
    from transformers import Qwen2ForCausalLM

    try:  # TRL's copy of the Qwen2.5 template, when this TRL has it
        from trl.chat_template_utils import qwen2_5_chat_template as template
    except ImportError:
        template = CHAT_TEMPLATE
    tok = train_tokenizer(corpus)
    tok.chat_template = template
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(qwen_text_config(len(tok), tok))
    path = tmp_path_factory.mktemp("tiny-qwen2")
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def vlm_dir(tmp_path_factory, corpus) -> Path:
    from transformers import (
        CLIPImageProcessor,
        CLIPVisionConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )

    tok = train_tokenizer(corpus, ["<image>"])
    tok.chat_template = CHAT_TEMPLATE
    image_proc = CLIPImageProcessor(size={"shortest_edge": 56}, crop_size={"height": 56, "width": 56})
    proc = LlavaProcessor(image_processor=image_proc, tokenizer=tok, chat_template=CHAT_TEMPLATE,
                          patch_size=14, vision_feature_select_strategy="default", image_token="<image>",
                          num_additional_image_tokens=1)
    cfg = LlavaConfig(
        vision_config=CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                       num_attention_heads=2, image_size=56, patch_size=14,
                                       projection_dim=32),
        text_config=qwen_text_config(len(tok), tok),
        image_token_id=tok.convert_tokens_to_ids("<image>"), vision_feature_layer=-1,
        vision_feature_select_strategy="default")
    torch.manual_seed(0)
    model = LlavaForConditionalGeneration(cfg)
    path = tmp_path_factory.mktemp("tiny-llava")
    model.save_pretrained(path)
    proc.save_pretrained(path)
    return path


def _check_steps(res) -> None:
    assert res.error is None, res.error  # the agent never crashed
    assert res.steps == len(res.trajectory) >= 2
    for step in res.trajectory:
        act = step.action
        if act["action_type"] == UNPARSEABLE:
            assert act["error"] and act["error"] in step.error
        else:
            Action.parse(act)


def test_text_model_acts_in_the_env(text_model_dir):
    agent = make_agent("transformers", model_path=str(text_model_dir), max_new_tokens=32)
    assert agent.name == "transformers" and not agent.is_vlm
    assert agent.config.observation == "text" and agent.config.uses_index
    env = gym.make("antrap/AndroidSim-Text-v0", task="SettingsWifiToggle", max_steps=3)
    res = run_episode(env, agent, seed=0)
    env.close()
    _check_steps(res)
    assert res.steps == 3
    assert isinstance(agent.last_raw, str)
    assert len(agent.session.history) == 3


def test_threads_option_sets_the_processes_cpu_threads(text_model_dir):
    import torch

    before = torch.get_num_threads()
    want = 2 if before == 1 else 1  # differs from the current setting, so the test can fail
    try:
        make_agent("transformers", model_path=str(text_model_dir), max_new_tokens=8, threads=want)
        assert torch.get_num_threads() == want
    finally:
        torch.set_num_threads(before)


def test_prompt_goes_through_the_chat_template(text_model_dir):
    agent = make_agent("transformers", model_path=text_model_dir, max_new_tokens=4)
    env = gym.make("antrap/AndroidSim-Text-v0", task="SettingsWifiToggle")
    obs, info = env.reset(seed=0)
    agent.reset(env, obs, info, seed=0)
    msgs = agent.session.hf_messages(obs, text_only=True)
    rendered = agent.tokenizer.apply_chat_template(msgs, add_generation_prompt=True, tokenize=False)
    assert rendered.startswith("<|im_start|>system\nYou are a GUI agent")
    assert "The user query: Turn Wi-Fi off." in rendered
    assert '[2] View "Settings"' in rendered  # the elements, as text
    assert rendered.endswith("<|im_start|>assistant\n")
    ids = agent.encode(msgs)["input_ids"]
    assert ids.shape[0] == 1 and 500 < ids.shape[1] < 8192
    env.close()


def test_greedy_is_deterministic_and_sampling_is_seeded(text_model_dir):
    env = gym.make("antrap/AndroidSim-Text-v0", task="SettingsWifiToggle")
    obs, info = env.reset(seed=0)

    def raws(agent, seed, n=2):
        agent.reset(env, obs, info, seed=seed)
        out = []
        for _ in range(n):
            agent.act(obs, info)
            out.append(agent.last_raw)
        return out

    greedy = make_agent("transformers", model_path=text_model_dir, max_new_tokens=12)
    assert raws(greedy, 0) == raws(greedy, 5)
    sampler = make_agent("transformers", model_path=text_model_dir, max_new_tokens=12, do_sample=True, seed=7)
    a, b, c = raws(sampler, 1), raws(sampler, 1), raws(sampler, 2)
    assert a == b and a != c
    assert a[0] != a[1]  # each step draws afresh
    env.close()


def test_vlm_sees_the_screenshot(vlm_dir):
    agent = make_agent("transformers", model_path=vlm_dir, max_new_tokens=16)
    assert agent.is_vlm and agent.config.observation == "screenshot"
    env = gym.make("antrap/AndroidSim-v0", task="SettingsWifiToggle", max_steps=2)
    obs, info = env.reset(seed=0)
    agent.reset(env, obs, info)
    msgs = agent.session.hf_messages(obs)
    assert msgs[1]["content"][1]["image"].size == (1092, 2408)
    inputs = agent.encode(msgs)
    assert tuple(inputs["pixel_values"].shape) == (1, 3, 56, 56)
    res = run_episode(env, agent, seed=0)
    env.close()
    _check_steps(res)


def test_models_only_load_from_local_directories(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloaded"):
        make_agent("transformers", model_path="Qwen/Qwen2.5-0.5B-Instruct")
    with pytest.raises(FileNotFoundError):
        make_agent("transformers", model_path=tmp_path / "missing")


def test_hf_messages_text_only_have_string_contents():
    msgs = build_hf_messages("goal", (1080, 2400), elements='[0] View "A" (0,0,10,10)',
                             config=PolicyConfig(observation="text"))
    assert all(isinstance(m["content"], str) for m in msgs)


def test_package_imports_without_torch():
    code = ("import sys\n"
            "sys.modules['torch'] = None\nsys.modules['transformers'] = None\n"
            "import antrap_gym, antrap_gym.agents\n"
            "from antrap_gym.agents import policy, parsers, openai_agent, transformers_agent\n"
            "from antrap_gym.agents import make_agent\n"
            "agent = make_agent('openai', model='m')\n"
            "try:\n    make_agent('transformers', model_path='.')\nexcept ImportError:\n    print('lazy')\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "lazy"
