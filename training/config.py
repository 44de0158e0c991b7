"""The training configuration: one YAML file per run, checked strictly.

A `TrainConfig` has one section per concern (see `configs/train/*.yaml` for
commented examples):

    model       which policy: a local HF directory, or null to build the tiny one
    policy      the policy format (`antrap_gym.agents.policy.PolicyConfig` fields)
    env         the phone: suite, tasks, training variants, observation mode
    traps       the training trap setting: clean | a trap type | a layer | mixed
    sft         SFT warm-start: data, epochs, learning rate, batch, max length ...
    grpo        GRPO settings (held here, used by `training.grpo`)
    train       output directory, seed, checkpointing, logging, resume
    eval_after  the evaluation of the final checkpoint with the harness

`load_config(path, overrides)` reads the YAML, applies `key.sub=value`
overrides (values are YAML: `sft.lr=1e-4`, `env.tasks=[A,B]`, `model.path=null`)
and validates: an unknown key is an error naming the section, its known keys
and the closest match. Nothing here imports torch; the device helpers at the
bottom import it lazily.
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from antrap_gym.agents.policy import PolicyConfig
from antrap_gym.configs import config_dir
from antrap_gym.training.disturbances import check_weights

CONFIG_DIR = config_dir("train")
#: the training trap modes besides a trap type or a layer name
TRAP_MODES = ("clean", "mixed")
#: mixed mode: the ten types stacked, each at this per-step probability and with no
#: guaranteed firing, so the expected firings per step (10 x 0.016 = 0.16) match one
#: trap type at AnTrap's p = 0.16 instead of ten times that
MIXED_P = 0.016


#: the policy section's defaults over PolicyConfig's: the tiny policy is a text LM
DEFAULT_POLICY: dict[str, Any] = {"observation": "text"}


class ConfigError(ValueError):
    """A training config that cannot be used (the message says which key and why)."""


# --- sections -----------------------------------------------------------------------------------


@dataclass
class TinyConfig:
    """Sizes of the tiny policy built when `model.path` is null (`training.tiny`)."""

    arch: Literal["auto", "qwen3", "qwen2"] = "auto"  # auto: Qwen3 if this transformers has it
    hidden_size: int = 64
    num_layers: int = 2
    num_heads: int = 4
    num_kv_heads: int = 2
    intermediate_size: int = 128
    vocab_size: int = 4096
    max_position_embeddings: int = 8192
    corpus_variants: int = 2  # seeded variants per task template in the tokenizer corpus
    # model.family set (a tiny Qwen2.5-VL / Qwen3-VL, `training.tiny_qwen_vl`): the vision tower
    vision_hidden_size: int = 32
    vision_layers: int = 2
    vision_heads: int = 2
    image_tokens: int = 36  # a screenshot's merged image tokens at most (max_pixels = this x factor^2)


@dataclass
class LoRAConfig:
    """LoRA adapters (peft) instead of full fine-tuning: the base stays frozen, only the
    adapters train, and checkpoints hold the adapters alone (`training.lora`)."""

    r: int = 16
    alpha: float = 32.0
    dropout: float = 0.05
    #: module names (Qwen's attention and MLP projections), or [all-linear]
    target_modules: list[str] = field(default_factory=lambda: [
        "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])


@dataclass
class ModelConfig:
    path: str | None = None  # a local HF model directory; null = build the tiny policy
    #: the VLM family (its coordinates and image geometry): null = read from path's config.json
    #: (a text model when none); with path null, the tiny model of that family is built
    family: Literal["qwen2_5_vl", "qwen3_vl"] | None = None
    tiny: TinyConfig = field(default_factory=TinyConfig)
    lora: LoRAConfig | None = None  # null: full fine-tuning
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    device: Literal["auto", "cpu", "cuda"] = "auto"
    trust_remote_code: bool = False
    attn_implementation: str | None = None  # e.g. sdpa, flash_attention_2 (GPU)
    gradient_checkpointing: bool = False


@dataclass
class EnvConfig:
    suite: str = "antrap-mini"
    tasks: list[str] | None = None  # template ids; null = the suite's templates
    variants: int = 2  # seeded task variants per template used for training
    #: training variants are first_variant .. first_variant+variants-1; the harness
    #: evaluates variants 0..k-1, so the default keeps training and test tasks apart
    first_variant: int = 100
    obs_mode: Literal["text", "screenshot"] | None = None  # null: from policy.observation
    max_steps: int | None = None  # step budget override; null = the task's own


@dataclass
class TrapsConfig:
    """The training trap setting.

    mode: clean | a trap type | a layer (state, thinking, action, round) | mixed.
    stack: an explicit stack (anything `parse_stack` reads: names, dicts, a YAML
        path) used instead of `mode`.
    The rest override the trigger schedule of every trap in the stack (null =
    the trap's own default); `params` sets trap parameters where they fit.
    """

    mode: str = "clean"
    stack: Any = None
    p: float | None = None
    window: Any = None  # a fraction of the budget, or [first, last]
    at_least_once: bool | None = None
    max_events: int | None = None
    duration: list[int] | None = None
    steps: list[int] | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class CollectConfig:
    """How SFT data is collected when `sft.data` is empty (`training.data.collect`)."""

    traps: list[str] = field(default_factory=lambda: ["clean", "train"])  # train = the `traps` section
    seeds: int = 1  # trap seeds per (task, variant) under each trapped setting
    success_only: bool = True  # keep only episodes the oracle finished successfully
    thought: Literal["summary", "none"] = "summary"
    noise: float = 0.0  # per-step probability of a disturbance instead of the oracle's action (DART)
    # relative weights of the disturbance kinds (wait, back, home, tap, miss); empty = all alike
    noise_kinds: dict[str, float] = field(default_factory=dict)


@dataclass
class SFTSection:
    data: list[str] = field(default_factory=list)  # JSONL files or `antrap collect` dirs; empty = collect
    collect: CollectConfig = field(default_factory=CollectConfig)
    epochs: float = 1.0
    max_steps: int | None = None  # overrides epochs
    lr: float = 2e-4
    lr_scheduler: str = "linear"
    warmup: float = 0.0  # steps, or a fraction of the total in [0, 1)
    weight_decay: float = 0.0
    batch_size: int = 4
    grad_accum: int = 1
    max_length: int | None = 4096  # longer rows are dropped (a cut target teaches nothing)
    completion_only_loss: bool = True
    packing: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # any other trl.SFTConfig argument


@dataclass
class RewardWeights:
    format: float = 0.1
    validity: float = 0.2
    progress: float = 1.0


@dataclass
class GRPOSection:
    """GRPO settings; `training.grpo` reads them (this module only holds and checks them)."""

    granularity: Literal["step", "episode"] = "step"
    init_from: str | None = None  # start from this checkpoint (e.g. an SFT run's `final`)
    steps: int = 100
    num_generations: int = 4
    batch_size: int = 4  # completions per device per step (a multiple of num_generations)
    grad_accum: int = 1
    lr: float = 1e-6
    beta: float = 0.0
    loss_type: str = "dapo"
    max_completion_length: int = 256
    temperature: float = 1.0
    top_p: float = 1.0
    reward_weights: RewardWeights = field(default_factory=RewardWeights)
    refresh_every: int = 10  # re-gather trap states every N steps (step granularity)
    states_per_refresh: int = 32
    oracle_share: float = 0.5  # share of states reached by the oracle (vs the policy)
    trapped_weight: float = 4.0  # states where a trap acts are this many times as likely to be trained on
    discount: float = 1.0  # episode granularity: per-step discount of the return
    per_step_reward: float = 0.0  # episode granularity: reward (cost if < 0) per step taken
    max_turns: int | None = None  # episode granularity: null = the task's budget
    #: where rollout environments live: this process, Gymnasium async vector env
    #: processes (one per environment), or Ray actors (`ray_address`: a cluster; null = local)
    rollout: Literal["sync", "async", "ray"] = "sync"
    num_envs: int = 4  # environments played together (one batched generate per turn)
    rollout_workers: int | None = None  # ray: actors sharing the environments (null = one each)
    ray_address: str | None = None
    use_vllm: bool = False  # colocated vLLM generation (GPU, when vllm is installed)
    vllm_mode: Literal["colocate", "server"] = "colocate"
    vllm_gpu_memory_utilization: float = 0.3
    extra: dict[str, Any] = field(default_factory=dict)  # any other trl.GRPOConfig argument


@dataclass
class RunConfig:
    out: str | None = None  # run directory root; null = runs/<config name>; a stage goes in <out>/<stage>
    seed: int = 0
    save_steps: int = 50
    save_total_limit: int | None = 2
    logging_steps: int = 1
    resume: bool = False
    report_to: Literal["auto", "none", "tensorboard"] = "auto"  # auto: tensorboard when importable
    progress: bool = True  # a rich progress bar with ETA
    #: CPU threads for torch (null: torch's default, one per core). On a shared or busy
    #: machine 1 can be several times faster than oversubscribed cores
    threads: int | None = None


@dataclass
class EvalAfterConfig:
    enabled: bool = True
    suite: str = "antrap-mini"
    tasks: list[str] | None = None  # a subset of templates (a throwaway suite is registered)
    traps: Any = "all"  # the harness's protocol: all | none | a layer | types | a protocol YAML
    variants: int | None = 1
    runs: int = 1
    workers: int = 1
    max_new_tokens: int = 256
    out: str | None = None  # null = <run dir>/eval


@dataclass
class TrainConfig:
    name: str = ""
    description: str = ""
    model: ModelConfig = field(default_factory=ModelConfig)
    policy: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_POLICY))
    env: EnvConfig = field(default_factory=EnvConfig)
    traps: TrapsConfig = field(default_factory=TrapsConfig)
    sft: SFTSection = field(default_factory=SFTSection)
    grpo: GRPOSection = field(default_factory=GRPOSection)
    train: RunConfig = field(default_factory=RunConfig)
    eval_after: EvalAfterConfig = field(default_factory=EvalAfterConfig)
    source: str | None = field(default=None, metadata={"internal": True})  # the YAML it came from

    # --- derived -----------------------------------------------------------------------------
    def policy_config(self) -> PolicyConfig:
        """The policy format as the agents take it: the `policy` section over what the
        model's family fixes (`model_geometry`), so a Qwen3-VL speaks 0-1000 unless told."""
        return PolicyConfig(**{**self.model_geometry(), **self.policy})

    def model_geometry(self) -> dict[str, Any]:
        """`coords`, `factor` and image bounds of the model's family (`agents.families`):
        from `model.path`'s config and processor files, or, for the tiny model of
        `model.family`, the bounds it is built with; {} for a text model."""
        from antrap_gym.agents.families import family, policy_geometry

        m = self.model
        if m.path:
            return policy_geometry(m.family, m.path)
        if m.family is None:
            return {}
        f = family(m.family).factor
        return {**policy_geometry(m.family), "min_pixels": 4 * f * f,
                "max_pixels": m.tiny.image_tokens * f * f}

    def obs_mode(self) -> str:
        """The env's observation mode: `env.obs_mode`, else what the policy reads."""
        if self.env.obs_mode:
            return self.env.obs_mode
        return "text" if self.policy_config().observation == "text" else "screenshot"

    def tasks(self) -> list[str]:
        """The training task templates."""
        from antrap_gym.tasks import get_suite

        return list(self.env.tasks) if self.env.tasks else list(get_suite(self.env.suite).templates)

    def variant_seeds(self) -> list[int]:
        return list(range(self.env.first_variant, self.env.first_variant + self.env.variants))

    def trap_stack(self) -> list[dict[str, Any]]:
        """The training trap stack as `make_env(traps=...)` takes it ([] = clean)."""
        return trap_stack(self.traps)

    def run_dir(self, stage: str, out: str | Path | None = None) -> Path:
        """Where a stage (sft, grpo) writes: `out` if given, else `<train.out>/<stage>`."""
        if out is not None:
            return Path(out)
        root = self.train.out or f"runs/{self.name or 'train'}"
        return Path(root) / stage

    def env_kwargs(self) -> dict[str, Any]:
        """`make_env` keyword arguments for training episodes (traps included)."""
        kw: dict[str, Any] = {"obs_mode": self.obs_mode(), "traps": self.trap_stack() or None}
        if self.env.max_steps is not None:
            kw["max_steps"] = self.env.max_steps
        return kw

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d.pop("source", None)
        return d

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)


# --- trap setting -> stack ---------------------------------------------------------------------------

_SCHEDULE_FIELDS = ("p", "window", "at_least_once", "max_events", "duration", "steps")


def trap_stack(cfg: TrapsConfig) -> list[dict[str, Any]]:
    """The stack of a training trap setting, as dicts (`TrapSpec.to_dict`).

    clean -> []; a type -> that trap; a layer -> its types stacked; mixed -> all
    ten stacked, each at p = `MIXED_P` with no guaranteed firing (unless
    overridden). Schedule overrides apply to every trap; `params` to the traps
    that have such a setting (a key no trap of the stack has is an error).
    """
    from antrap_gym.traps.config import parse_stack
    from antrap_gym.traps.taxonomy import LAYERS, TRAP_CLASSES, TRAP_TYPES

    over = {k: getattr(cfg, k) for k in _SCHEDULE_FIELDS if getattr(cfg, k) is not None}
    for k in ("duration", "steps", "window"):
        if isinstance(over.get(k), list):
            over[k] = tuple(over[k])
    if cfg.stack is not None:
        source: Any = cfg.stack
    else:
        mode = str(cfg.mode).strip().lower().replace("-", "_")
        if mode in ("clean", "none"):
            if over or cfg.params:
                raise ConfigError("traps: schedule overrides or params given with mode clean")
            return []
        if mode == "mixed":
            source = list(TRAP_TYPES)
            over = {"p": MIXED_P, "at_least_once": False, **over}
        elif mode in LAYERS or mode in TRAP_CLASSES:
            source = [mode]
        else:
            raise ConfigError(f"traps.mode {cfg.mode!r} is not clean, mixed, a layer ({', '.join(LAYERS)}) "
                              f"or a trap type ({', '.join(TRAP_TYPES)})")
    try:
        specs = parse_stack(source, {**over, **cfg.params})
    except (KeyError, ValueError, TypeError) as e:
        raise ConfigError(f"traps: {e.args[0] if e.args else e}") from None
    if cfg.params:
        known = {k for s in specs for k in TRAP_CLASSES[s.type].defaults}
        unknown = sorted(set(cfg.params) - known)
        if unknown:
            raise ConfigError(f"traps.params {unknown} fit no trap of the stack "
                              f"({', '.join(s.type for s in specs)}); their settings: {sorted(known)}")
    out = []
    for s in specs:
        d = s.to_dict()
        out.append({k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items()})
    return out


# --- loading and validation ----------------------------------------------------------------------


def _unknown(section: str, key: str, known: list[str]) -> ConfigError:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    where = f"{section}.{key}" if section else key
    return ConfigError(f"unknown config key {where!r}{hint}; known keys"
                       f"{' in ' + section if section else ''}: {', '.join(known)}")


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """`value` as type `tp` (YAML gives `1e-4` as a string; ints may stand for floats)."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _coerce(value, a, where)
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError(errors[-1] if errors else f"{where}: bad value {value!r}")
    if origin is Literal:
        choices = typing.get_args(tp)
        if value not in choices:
            raise ConfigError(f"{where} must be one of {', '.join(map(str, choices))}, got {value!r}")
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise ConfigError(f"{where} must be a mapping, got {value!r}")
        return _build(tp, value, where)
    if origin is list:
        (item,) = typing.get_args(tp) or (Any,)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            value = [v.strip() for v in value.split(",") if v.strip()] if isinstance(value, str) else [value]
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where} must be a list, got {value!r}")
        return [_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict or tp is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where} must be a mapping, got {value!r}")
        return dict(value)
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
            return value.lower() in ("true", "yes")
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise ConfigError(f"{where} must be an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(float(value)) if float(value).is_integer() else int(value)
            except ValueError:
                pass
        raise ConfigError(f"{where} must be an integer, got {value!r}")
    if tp is float:
        if isinstance(value, bool):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise ConfigError(f"{where} must be a number, got {value!r}")
    if tp is str:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        raise ConfigError(f"{where} must be a string, got {value!r}")
    return value


def _build(cls: type, data: dict[str, Any], section: str = ""):
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("internal")}
    kwargs = {}
    for key, value in data.items():
        if key not in fields:
            raise _unknown(section, str(key), list(fields))
        where = f"{section}.{key}" if section else key
        kwargs[key] = _coerce(value, hints[key], where)
    return cls(**kwargs)


def _policy(data: dict[str, Any]) -> dict[str, Any]:
    known = [f.name for f in dataclasses.fields(PolicyConfig)]
    for key in data:
        if key not in known:
            raise _unknown("policy", str(key), known)
    try:
        PolicyConfig(**data)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"policy: {e}") from None
    return dict(data)


def from_dict(data: dict[str, Any], source: str | None = None) -> TrainConfig:
    """A validated `TrainConfig` from a mapping (a parsed YAML file)."""
    if not isinstance(data, dict):
        raise ConfigError("a training config is a mapping of sections")
    data = dict(data)
    policy = data.pop("policy", None)
    cfg = _build(TrainConfig, data)
    if policy is not None:
        if not isinstance(policy, dict):
            raise ConfigError("policy must be a mapping of PolicyConfig fields")
        cfg.policy = _policy({**DEFAULT_POLICY, **policy})
    cfg.source = source
    validate(cfg)
    return cfg


def validate(cfg: TrainConfig) -> None:
    """Cross-field checks (each message names the key)."""
    _policy(cfg.policy)
    cfg.trap_stack()  # raises ConfigError for a bad trap setting
    t = cfg.model.tiny
    if t.hidden_size % t.num_heads or t.num_heads % t.num_kv_heads:
        raise ConfigError("model.tiny: hidden_size must divide by num_heads, num_heads by num_kv_heads")
    if cfg.model.lora is not None:
        check_lora(cfg.model.lora)
    for where, v in (("sft.batch_size", cfg.sft.batch_size),
                     ("grpo.num_generations", cfg.grpo.num_generations),
                     ("grpo.batch_size", cfg.grpo.batch_size), ("env.variants", cfg.env.variants),
                     ("train.save_steps", cfg.train.save_steps),
                     ("train.logging_steps", cfg.train.logging_steps)):
        if v < 1:
            raise ConfigError(f"{where} must be at least 1, got {v}")
    if cfg.grpo.num_generations < 2:
        raise ConfigError("grpo.num_generations must be at least 2 (GRPO compares completions in a group)")
    if (cfg.grpo.batch_size * cfg.grpo.grad_accum) % cfg.grpo.num_generations:
        raise ConfigError("grpo.batch_size x grpo.grad_accum must be a multiple of grpo.num_generations")
    for name in cfg.sft.collect.traps:
        if name not in ("clean", "train"):
            try:
                trap_stack(TrapsConfig(mode=name))
            except ConfigError:
                raise ConfigError(f"sft.collect.traps: {name!r} is not clean, train, mixed, a layer "
                                  "or a trap type") from None
    if not 0.0 <= cfg.sft.collect.noise < 1.0:
        raise ConfigError(f"sft.collect.noise must be in [0, 1), got {cfg.sft.collect.noise}")
    try:
        check_weights(cfg.sft.collect.noise_kinds)
    except ValueError as e:
        raise ConfigError(f"sft.collect.noise_kinds: {e}") from None
    if cfg.policy_config().shows_image and cfg.obs_mode() == "text":
        raise ConfigError("env.obs_mode text gives no screenshot, but policy.observation wants one")


def check_lora(lora: LoRAConfig) -> None:
    """The LoRA section's own checks (whether its modules exist is checked on the model)."""
    if lora.r < 1:
        raise ConfigError(f"model.lora.r must be at least 1, got {lora.r}")
    if lora.alpha <= 0:
        raise ConfigError(f"model.lora.alpha must be positive, got {lora.alpha}")
    if not 0.0 <= lora.dropout < 1.0:
        raise ConfigError(f"model.lora.dropout must be in [0, 1), got {lora.dropout}")
    if not lora.target_modules or any(not str(m).strip() for m in lora.target_modules):
        raise ConfigError("model.lora.target_modules must name at least one module (or [all-linear])")


def parse_override(item: str) -> tuple[list[str], Any]:
    """`a.b.c=value` -> (["a", "b", "c"], YAML value of `value`)."""
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"an override is key.sub=value, got {item!r}")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        value = raw
    return [k for k in key.strip().split(".") if k], value


def apply_overrides(data: dict[str, Any], overrides: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """`data` with each `key.sub=value` set (missing sections are created)."""
    data = dict(data)
    for item in overrides:
        path, value = parse_override(item)
        node = data
        for i, k in enumerate(path[:-1]):
            child = node.get(k)
            if child is None:
                child = {}
            elif not isinstance(child, dict):
                raise ConfigError(f"cannot set {'.'.join(path)}: {'.'.join(path[:i + 1])} is not a section")
            node[k] = dict(child)
            node = node[k]
        node[path[-1]] = value
    return data


def resolve_path(path: str | Path) -> Path:
    """A config path, or a name under `configs/train/` (`smoke_cpu` -> configs/train/smoke_cpu.yaml)."""
    p = Path(path)
    if p.exists():
        return p
    for cand in (CONFIG_DIR / p, CONFIG_DIR / f"{p}.yaml"):
        if cand.exists():
            return cand
    raise FileNotFoundError(f"no training config {path} (nor {CONFIG_DIR / p.name})")


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` laid on `base`, section by section (mappings merge, anything else replaces)."""
    out = dict(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def read_yaml(path: str | Path, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A config file as a mapping, its `extends:` parent (a path relative to it, or a
    name under configs/train/) merged underneath."""
    p = resolve_path(path).resolve()
    if p in _seen:
        raise ConfigError(f"{p}: extends itself ({' -> '.join(map(str, _seen))})")
    with p.open(encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: a training config is a mapping of sections")
    parent = data.pop("extends", None)
    data.setdefault("name", p.stem)
    if parent:
        rel = p.parent / str(parent)
        base = read_yaml(rel if rel.exists() else parent, (*_seen, p))
        data = merge(base, data)
    return data


def load_config(path: str | Path | None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """Read a YAML training config (or the defaults, `path=None`), apply overrides, validate.

    A config may start with `extends: other.yaml` to change only some keys of another."""
    data: dict[str, Any] = {}
    source = None
    if path is not None:
        p = resolve_path(path)
        source = str(p)
        data = read_yaml(p)
    data = apply_overrides(data, overrides)
    try:
        return from_dict(data, source)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}" if source else str(e)) from None


# --- devices and precision (torch imported lazily) -------------------------------------------------


def resolve_device(model: ModelConfig) -> str:
    """cpu or cuda: `model.device`, with auto = cuda when torch sees a GPU."""
    import torch

    if model.device == "cuda" and not torch.cuda.is_available():
        raise ConfigError("model.device is cuda but torch sees no GPU")
    if model.device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return model.device


def resolve_dtype(model: ModelConfig) -> str:
    """The weights' dtype: float32 on CPU whatever is asked; on GPU bfloat16 for auto."""
    import torch

    if resolve_device(model) == "cpu":
        return "float32"
    if model.dtype == "auto":
        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    return model.dtype


def precision_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """`bf16` / `fp16` / `use_cpu` for a TRL config: CPU forces float32 and use_cpu."""
    if resolve_device(cfg.model) == "cpu":
        return {"bf16": False, "fp16": False, "use_cpu": True}
    dtype = resolve_dtype(cfg.model)
    return {"bf16": dtype == "bfloat16", "fp16": dtype == "float16", "use_cpu": False}


def report_to(cfg: TrainConfig) -> list[str]:
    """TensorBoard only when asked (or auto) and importable; never an online tracker."""
    if cfg.train.report_to == "none":
        return []
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        if cfg.train.report_to == "tensorboard":
            import warnings

            warnings.warn("train.report_to is tensorboard but tensorboard is not installed", stacklevel=2)
        return []
    return ["tensorboard"]


def vllm_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """GRPOConfig's vLLM arguments: colocated vLLM only when asked for, on a GPU, and installed."""
    if not cfg.grpo.use_vllm:
        return {"use_vllm": False}
    import importlib.util
    import warnings

    if resolve_device(cfg.model) != "cuda":
        warnings.warn("grpo.use_vllm ignored: no GPU", stacklevel=2)
        return {"use_vllm": False}
    if importlib.util.find_spec("vllm") is None:
        warnings.warn("grpo.use_vllm ignored: vllm is not installed", stacklevel=2)
        return {"use_vllm": False}
    return {"use_vllm": True, "vllm_mode": cfg.grpo.vllm_mode,
            "vllm_gpu_memory_utilization": cfg.grpo.vllm_gpu_memory_utilization}


def trainer_kwargs(cfg: TrainConfig, out: str | Path) -> dict[str, Any]:
    """The `TrainingArguments` every stage shares: output, seed, checkpoints, logging,
    precision, reporting. (`training.sft` and `training.grpo` add their own.)"""
    return {
        "output_dir": str(out),
        "seed": cfg.train.seed,
        "data_seed": cfg.train.seed,
        "logging_steps": cfg.train.logging_steps,
        "save_strategy": "steps",
        "save_steps": cfg.train.save_steps,
        "save_total_limit": cfg.train.save_total_limit,
        "report_to": report_to(cfg) or "none",
        "disable_tqdm": True,  # our callback draws the progress bar
        "dataloader_num_workers": 0,
        **checkpointing_kwargs(cfg),
        **precision_kwargs(cfg),
    }


def checkpointing_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """Activation (gradient) checkpointing, under the name this transformers uses. Always
    explicit: TRL's configs default it to on, which slows a tiny model down for nothing."""
    import dataclasses as dc

    from transformers import TrainingArguments

    names = {f.name for f in dc.fields(TrainingArguments)}
    key = "activation_checkpointing" if "activation_checkpointing" in names else "gradient_checkpointing"
    return {key: bool(cfg.model.gradient_checkpointing)}


def configure_torch(cfg: TrainConfig) -> None:
    """Process-wide torch settings of a run: `train.threads` (CPU threads)."""
    if cfg.train.threads:
        import torch

        torch.set_num_threads(int(cfg.train.threads))


def quiet_libraries() -> None:
    """Silence the per-file progress bars of transformers and datasets (our bar and
    metrics.jsonl report progress); warnings and errors still show."""
    try:
        import datasets

        datasets.disable_progress_bars()
    except ImportError:
        pass
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()


__all__ = [
    "MIXED_P",
    "CollectConfig",
    "ConfigError",
    "EnvConfig",
    "EvalAfterConfig",
    "GRPOSection",
    "LoRAConfig",
    "ModelConfig",
    "RewardWeights",
    "RunConfig",
    "SFTSection",
    "TinyConfig",
    "TrainConfig",
    "TrapsConfig",
    "apply_overrides",
    "check_lora",
    "checkpointing_kwargs",
    "configure_torch",
    "from_dict",
    "load_config",
    "merge",
    "precision_kwargs",
    "quiet_libraries",
    "read_yaml",
    "report_to",
    "resolve_device",
    "resolve_dtype",
    "trainer_kwargs",
    "trap_stack",
    "validate",
    "vllm_kwargs",
]
