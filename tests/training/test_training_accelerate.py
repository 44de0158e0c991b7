"""Multi-GPU launch configs and `antrap train` under `accelerate launch`, checked on CPU.

The shipped accelerate configs parse with accelerate's own loader and ship with the
package; a real `accelerate launch --cpu --num_processes 1` runs SFT steps through the
training CLI as a module and leaves the usual run files. (8 GPUs are not exercised here.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import ROOT

for _mod in ("torch", "transformers", "trl", "accelerate"):
    pytest.importorskip(_mod)

from antrap_gym.configs import config_dir  # noqa: E402


def test_the_accelerate_configs_parse_with_accelerates_loader():
    from accelerate.commands.config.config_args import load_config_from_file

    folder = config_dir("accelerate")
    assert folder == (ROOT / "configs" / "accelerate").resolve() or folder.is_dir()
    got = {}
    for path in sorted(folder.glob("*.yaml")):
        c = load_config_from_file(str(path))
        got[path.stem] = (str(c.distributed_type).rsplit(".", 1)[-1], c.num_processes, str(c.mixed_precision))
    assert got["1gpu"] == ("NO", 1, "bf16")
    assert got["8gpu_zero3"] == ("DEEPSPEED", 8, "bf16")
    assert got["8gpu_fsdp"] == ("FSDP", 8, "bf16")
    zero3 = load_config_from_file(str(folder / "8gpu_zero3.yaml"))
    assert zero3.deepspeed_config["zero_stage"] == 3
    assert "accelerate/*.yaml" in (ROOT / "setup.cfg").read_text()  # shipped in the wheel


@pytest.mark.slow
def test_antrap_train_sft_runs_under_accelerate_launch(tmp_path):
    from antrap_gym.agents.policy import PolicyConfig
    from antrap_gym.training.data import collect
    from tests.training.small_policy import small_policy

    data = collect(tmp_path / "data", traps=["clean"], variants=1, tasks=["SettingsWifiToggle"],
                   policy_cfg=PolicyConfig(observation="text"))
    tiny = small_policy(data, tmp_path / "tiny")
    run = tmp_path / "run"
    sets = {"model.path": tiny, "sft.data": f"[{data}]", "sft.max_steps": 2, "sft.batch_size": 2,
            "train.save_steps": 2, "train.progress": "false", "eval_after.enabled": "false"}
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--cpu", "--num_processes", "1",
           "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
           "-m", "antrap_gym.training.cli", "train", "sft", "--config", "smoke_cpu", "--out", str(run),
           *[a for k, v in sets.items() for a in ("--set", f"{k}={v}")]]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.strip().splitlines()[-1] == str(run / "final")
    result = json.loads((run / "result.json").read_text())
    assert result["global_step"] == 2
    assert (run / "final" / "model.safetensors").exists() and (run / "checkpoint-2").is_dir()
    assert (run / "train_config.yaml").exists() and (run / "metrics.jsonl").exists()
