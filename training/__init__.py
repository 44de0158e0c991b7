"""Training GUI-agent policies on the simulated phone (SFT and GRPO with TRL).

Needs the `train` extra: `pip install -e ".[train]"`. Nothing here is imported
by `antrap_gym`, which works without torch.
"""
