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

Each section is a pydantic dataclass: typed fields with their bounds, unknown keys
refused. `load_config(path, overrides)` reads the YAML, applies `key.sub=value`
overrides (values are YAML: `sft.lr=1e-4`, `env.tasks=[A,B]`, `model.path=null`)
and validates; every error names the dotted key (`training.config_errors`).
Nothing here imports torch; the device helpers at the bottom import it lazily.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic.dataclasses import dataclass

from antrap_gym.agents.policy import PolicyConfig
from antrap_gym.configs import config_dir
from antrap_gym.training.config_errors import ConfigError, check_passthrough, describe, unknown_key
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


# --- value types ---------------------------------------------------------------------------------

#: every section: unknown keys refused, assignments checked, numbers taken where text is
#: expected (`env.suite: 7`), no NaN or infinity
_SECTION = ConfigDict(extra="forbid", validate_assignment=True, coerce_numbers_to_str=True,
                      allow_inf_nan=False)


def _whole(value: Any) -> Any:
    """YAML reads `1e3` as text and a bool is no count: `1e3` -> 1000, True refused."""
    if isinstance(value, bool):
        raise ValueError(f"must be an integer, got {value!r}")
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else value
    return value


def _real(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"must be a number, got {value!r}")
    return value


def _flag(value: Any) -> Any:
    """true / false (or yes / no ...), never a number standing for one."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return value


def _listed(value: Any) -> Any:
    """A list key also takes one item, or items separated by commas (`env.tasks=A,B`)."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [value]
    return value


def _within(lo: float, hi: float, *, hi_open: bool = False):
    """A check that a number lies in [lo, hi] (or [lo, hi))."""
    def check(value: float) -> float:
        if value < lo or value > hi or (hi_open and value == hi):
            raise ValueError(f"must be in [{lo:g}, {hi:g}{')' if hi_open else ']'}, got {value!r}")
        return value
    return AfterValidator(check)


Int = Annotated[int, BeforeValidator(_whole)]
Count = Annotated[int, BeforeValidator(_whole), Field(ge=1)]  # a size or step count: 1 or more
Flag = Annotated[bool, BeforeValidator(_flag)]
Float = Annotated[float, BeforeValidator(_real)]
Positive = Annotated[float, BeforeValidator(_real), Field(gt=0)]
NonNegative = Annotated[float, BeforeValidator(_real), Field(ge=0)]
Probability = Annotated[float, BeforeValidator(_real), _within(0.0, 1.0)]
Fraction = Annotated[float, BeforeValidator(_real), _within(0.0, 1.0, hi_open=True)]  # in [0, 1)
StrList = Annotated[list[str], BeforeValidator(_listed)]
IntList = Annotated[list[Int], BeforeValidator(_listed)]


def _modules(names: list[str]) -> list[str]:
    if not names or any(not n.strip() for n in names):
        raise ValueError("must name at least one module (or [all-linear])")
    return names


def _weights(weights: dict[str, Any]) -> dict[str, Any]:
    check_weights(weights)
    return weights


# --- sections -----------------------------------------------------------------------------------


@dataclass(config=_SECTION)
class TinyConfig:
    """Sizes of the tiny policy built when `model.path` is null (`training.tiny`)."""

    arch: Literal["auto", "qwen3", "qwen2"] = "auto"  # auto: Qwen3 if this transformers has it
    hidden_size: Count = 64
    num_layers: Count = 2
    num_heads: Count = 4
    num_kv_heads: Count = 2
    intermediate_size: Count = 128
    vocab_size: Count = 4096
    max_position_embeddings: Count = 8192
    corpus_variants: Count = 2  # seeded variants per task template in the tokenizer corpus
    # model.family set (a tiny Qwen2.5-VL / Qwen3-VL, `training.tiny_qwen_vl`): the vision tower
    vision_hidden_size: Count = 32
    vision_layers: Count = 2
    vision_heads: Count = 2
    #: a screenshot's merged image tokens at most (max_pixels = this x factor^2; min_pixels is 4 x)
    image_tokens: Annotated[int, BeforeValidator(_whole), Field(ge=4)] = 36

    @model_validator(mode="after")
    def _heads(self) -> TinyConfig:
        if self.hidden_size % self.num_heads or self.num_heads % self.num_kv_heads:
            raise ValueError("hidden_size must divide by num_heads, num_heads by num_kv_heads")
        return self


@dataclass(config=_SECTION)
class LoRAConfig:
    """LoRA adapters (peft) instead of full fine-tuning: the base stays frozen, only the
    adapters train, and checkpoints hold the adapters alone (`training.lora`)."""

    r: Count = 16
    alpha: Positive = 32.0
    dropout: Fraction = 0.05
    #: module names (Qwen's attention and MLP projections), or [all-linear]
    target_modules: Annotated[StrList, AfterValidator(_modules)] = field(default_factory=lambda: [
        "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])


@dataclass(config=_SECTION)
class ModelConfig:
    path: str | None = None  # a local HF model directory; null = build the tiny policy
    #: the VLM family (its coordinates and image geometry): null = read from path's config.json
    #: (a text model when none); with path null, the tiny model of that family is built
    family: Literal["qwen2_5_vl", "qwen3_vl"] | None = None
    tiny: TinyConfig = field(default_factory=TinyConfig)
    lora: LoRAConfig | None = None  # null: full fine-tuning
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    device: Literal["auto", "cpu", "cuda"] = "auto"
    trust_remote_code: Flag = False
    attn_implementation: str | None = None  # e.g. sdpa, flash_attention_2 (GPU)
    gradient_checkpointing: Flag = False


@dataclass(config=_SECTION)
class EnvConfig:
    suite: str = "antrap-mini"
    tasks: StrList | None = None  # template ids; null = the suite's templates
    variants: Count = 2  # seeded task variants per template used for training
    #: training variants are first_variant .. first_variant+variants-1; the harness
    #: evaluates variants 0..k-1, so the default keeps training and test tasks apart
    first_variant: Annotated[int, BeforeValidator(_whole), Field(ge=0)] = 100
    obs_mode: Literal["text", "screenshot"] | None = None  # null: from policy.observation
    max_steps: Count | None = None  # step budget override; null = the task's own


@dataclass(config=_SECTION)
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
    p: Probability | None = None
    window: Any = None  # a fraction of the budget, or [first, last]
    at_least_once: Flag | None = None
    max_events: Count | None = None
    duration: IntList | None = None
    steps: IntList | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(config=_SECTION)
class CollectConfig:
    """How SFT data is collected when `sft.data` is empty (`training.data.collect`)."""

    traps: StrList = field(default_factory=lambda: ["clean", "train"])  # train = the `traps` section
    seeds: Count = 1  # trap seeds per (task, variant) under each trapped setting
    success_only: Flag = True  # keep only episodes the oracle finished successfully
    thought: Literal["summary", "none"] = "summary"
    noise: Fraction = 0.0  # per-step probability of a disturbance instead of the oracle's action (DART)
    # relative weights of the disturbance kinds (wait, back, home, tap, miss); empty = all alike
    noise_kinds: Annotated[dict[str, Any], AfterValidator(_weights)] = field(default_factory=dict)


@dataclass(config=_SECTION)
class SFTSection:
    data: StrList = field(default_factory=list)  # JSONL files or `antrap collect` dirs; empty = collect
    collect: CollectConfig = field(default_factory=CollectConfig)
    epochs: Positive = 1.0
    max_steps: Count | None = None  # overrides epochs
    lr: NonNegative = 2e-4
    lr_scheduler: str = "linear"
    warmup: NonNegative = 0.0  # steps, or a fraction of the total in [0, 1)
    weight_decay: NonNegative = 0.0
    batch_size: Count = 4
    grad_accum: Count = 1
    max_length: Count | None = 4096  # longer rows are dropped (a cut target teaches nothing)
    completion_only_loss: Flag = True
    packing: Flag = False
    extra: dict[str, Any] = field(default_factory=dict)  # any other trl.SFTConfig argument


@dataclass(config=_SECTION)
class RewardWeights:
    format: NonNegative = 0.1
    validity: NonNegative = 0.2
    progress: NonNegative = 1.0


@dataclass(config=_SECTION)
class GRPOSection:
    """GRPO settings; `training.grpo` reads them (this module only holds and checks them)."""

    granularity: Literal["step", "episode"] = "step"
    init_from: str | None = None  # start from this checkpoint (e.g. an SFT run's `final`)
    steps: Count = 100
    #: completions per prompt; GRPO compares the completions of a group, so 2 or more
    num_generations: Annotated[int, BeforeValidator(_whole), Field(ge=2)] = 4
    batch_size: Count = 4  # completions per device per step (a multiple of num_generations)
    grad_accum: Count = 1
    lr: NonNegative = 1e-6
    beta: NonNegative = 0.0
    loss_type: str = "dapo"
    max_completion_length: Count = 256
    temperature: Positive = 1.0
    top_p: Annotated[float, BeforeValidator(_real), Field(gt=0, le=1)] = 1.0
    reward_weights: RewardWeights = field(default_factory=RewardWeights)
    refresh_every: Count = 10  # re-gather trap states every N steps (step granularity)
    states_per_refresh: Count = 32
    oracle_share: Probability = 0.5  # share of states reached by the oracle (vs the policy)
    trapped_weight: Positive = 4.0  # states where a trap acts are this many times as likely to be trained on
    discount: Probability = 1.0  # episode granularity: per-step discount of the return
    per_step_reward: Float = 0.0  # episode granularity: reward (cost if < 0) per step taken
    max_turns: Count | None = None  # episode granularity: null = the task's budget
    #: episode granularity: an episode whose conversation (prompt and replies) reaches this
    #: many tokens ends, unsolved
    max_context_tokens: Count = 6144
    #: where rollout environments live: this process, Gymnasium async vector env
    #: processes (one per environment), or Ray actors (`ray_address`: a cluster; null = local)
    rollout: Literal["sync", "async", "ray"] = "sync"
    num_envs: Count = 4  # environments played together (one batched generate per turn)
    rollout_workers: Count | None = None  # ray: actors sharing the environments (null = one each)
    ray_address: str | None = None
    use_vllm: Flag = False  # colocated vLLM generation (GPU, when vllm is installed)
    vllm_mode: Literal["colocate", "server"] = "colocate"
    vllm_gpu_memory_utilization: Annotated[float, BeforeValidator(_real), Field(gt=0, le=1)] = 0.3
    extra: dict[str, Any] = field(default_factory=dict)  # any other trl.GRPOConfig argument


@dataclass(config=_SECTION)
class RunConfig:
    out: str | None = None  # run directory root; null = runs/<config name>; a stage goes in <out>/<stage>
    seed: Annotated[int, BeforeValidator(_whole), Field(ge=0)] = 0
    save_steps: Count = 50
    save_total_limit: Count | None = 2
    logging_steps: Count = 1
    resume: Flag = False
    report_to: Literal["auto", "none", "tensorboard"] = "auto"  # auto: tensorboard when importable
    progress: Flag = True  # a rich progress bar with ETA
    #: CPU threads for torch (null: torch's default, one per core). On a shared or busy
    #: machine 1 can be several times faster than oversubscribed cores
    threads: Count | None = None


@dataclass(config=_SECTION)
class EvalAfterConfig:
    enabled: Flag = True
    suite: str = "antrap-mini"
    tasks: StrList | None = None  # a subset of templates (a throwaway suite is registered)
    traps: Any = "all"  # the harness's protocol: all | none | a layer | types | a protocol YAML
    variants: Count | None = 1
    runs: Count = 1
    workers: Count = 1
    max_new_tokens: Count = 256
    out: str | None = None  # null = <run dir>/eval


@dataclass(config=_SECTION)
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
    from antrap_gym.traps.registry import TRAP_CLASSES
    from antrap_gym.traps.taxonomy import LAYERS, TRAP_TYPES

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

_TRAIN_CONFIG = TypeAdapter(TrainConfig)
_POLICY = TypeAdapter(PolicyConfig)
#: the keys a config file may set at the top (`source` is where it was read from)
_TOP_KEYS = [f.name for f in dataclasses.fields(TrainConfig) if not f.metadata.get("internal")]


def _policy(data: Any) -> dict[str, Any]:
    """The `policy` section over `DEFAULT_POLICY`, each value as PolicyConfig types it."""
    if not isinstance(data, dict):
        raise ConfigError(f"policy must be a mapping of PolicyConfig fields, got {data!r}")
    known = [f.name for f in dataclasses.fields(PolicyConfig)]
    for key in data:
        if key not in known:
            raise unknown_key("policy", str(key), known)
    merged = {**DEFAULT_POLICY, **data}
    try:
        checked = _POLICY.validate_python(merged)
    except ValidationError as e:
        raise describe(e, PolicyConfig, ("policy",)) from None
    return {k: getattr(checked, k) for k in merged}


def from_dict(data: dict[str, Any], source: str | None = None) -> TrainConfig:
    """A validated `TrainConfig` from a mapping (a parsed YAML file)."""
    if not isinstance(data, dict):
        raise ConfigError("a training config is a mapping of sections")
    data = {str(k): v for k, v in data.items()}
    for key in data:
        if key not in _TOP_KEYS:
            raise unknown_key("", key, _TOP_KEYS)
    policy = data.pop("policy", None)
    try:
        cfg = _TRAIN_CONFIG.validate_python(data)
    except ValidationError as e:
        raise describe(e, TrainConfig) from None
    cfg.policy = _policy({} if policy is None else policy)
    cfg.source = source
    validate(cfg)
    return cfg


def validate(cfg: TrainConfig) -> None:
    """Checks across keys and sections (each message names the keys)."""
    _policy(cfg.policy)
    cfg.trap_stack()  # raises ConfigError for a bad trap setting
    if (cfg.grpo.batch_size * cfg.grpo.grad_accum) % cfg.grpo.num_generations:
        raise ConfigError("grpo.batch_size x grpo.grad_accum must be a multiple of grpo.num_generations")
    for name in cfg.sft.collect.traps:
        if name not in ("clean", "train"):
            try:
                trap_stack(TrapsConfig(mode=name))
            except ConfigError:
                raise ConfigError(f"sft.collect.traps: {name!r} is not clean, train, mixed, a layer "
                                  "or a trap type") from None
    if cfg.policy_config().shows_image and cfg.obs_mode() == "text":
        raise ConfigError("env.obs_mode text gives no screenshot, but policy.observation wants one")
    pol = cfg.policy_config()
    if pol.observation == "text" and not pol.element_bounds and not (pol.index_targets and pol.uses_index):
        # nothing in the prompt says where an element is: coordinate targets can only be memorised
        # screen by screen (enough for one template, never for held-out ones)
        warnings.warn("policy.element_bounds false on a text policy hides where elements are, yet SFT "
                      "targets are coordinates: set policy.index_targets true (targets by [i])",
                      stacklevel=2)
    check_passthrough(cfg.sft.extra, "sft", "SFTConfig", [f.name for f in dataclasses.fields(SFTSection)])
    check_passthrough(cfg.grpo.extra, "grpo", "GRPOConfig", [f.name for f in dataclasses.fields(GRPOSection)])


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


def _parse(p: Path) -> Any:
    """A config file's YAML; unreadable, malformed or empty files are config errors."""
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read the config file: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e)
        raise ConfigError(f"{p}: not valid YAML{at}: {problem}") from None
    if data is None:
        raise ConfigError(f"{p}: config file is empty")
    return data


def read_yaml(path: str | Path, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A config file as a mapping, its `extends:` parent (a path relative to it, or a
    name under configs/train/) merged underneath."""
    p = resolve_path(path).resolve()
    if p in _seen:
        raise ConfigError(f"{p}: extends itself ({' -> '.join(map(str, _seen))})")
    data = _parse(p)
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

    A config may start with `extends: other.yaml` to change only some keys of another.
    An empty file is an error, not a run with every default."""
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
