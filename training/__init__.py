"""Training GUI-agent policies on the simulated phone (SFT and GRPO with TRL).

Needs the `train` extra: `pip install -e ".[train]"`. Nothing here is imported
by `antrap_gym`, which works without torch; `config`, `data` and `cli` import
without torch too (the rest load it when they run).

- `config`: `TrainConfig` from YAML (`configs/train/*.yaml`), `load_config`.
- `config_errors`: `ConfigError`, validation errors as messages naming the dotted key.
- `data`: `collect` — the oracle's steps as chat rows in the policy format.
- `tiny`: `build_tiny_policy` (built locally, never downloaded), `load_policy`.
- `sft`: `run_sft` on TRL's `SFTTrainer`; `grpo`: `run_grpo` on `GRPOTrainer`.
- `callbacks`: `metrics.jsonl`, progress bar, checkpoints and resume.
- `evaluation`: `evaluate_checkpoint` through the evaluation harness.
- `cli`: `antrap collect` and `antrap train sft|grpo`.
"""
