"""What an evaluation runs: agents x suite variants x settings x runs.

Each (agent, task, variant, setting, run) is one episode with stable seeds:
the task's parameters come from the variant (the same in every setting and
run), traps and the agent's own randomness from (task, variant, run). So the
clean and trapped episodes of a variant face the very same task, and run r
of every setting shares its trap seed.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from antrap_gym.traps.config import Setting, TrapSpec, parse_protocol


def stable_seed(*parts: Any) -> int:
    """A seed that is the same on every machine and Python run."""
    return zlib.crc32("|".join(str(p) for p in parts).encode()) & 0x7FFFFFFF


SCREENS = ("none", "failed", "sample", "all")
#: tasks.base.GRADINGS (not imported: that loads every template)
GRADINGS = ("ours", "reference")


@dataclass(frozen=True)
class AgentSpec:
    """How to build an agent: a registered name or `module:Class`, its options,
    and the label it is reported under."""

    name: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    label: str = ""

    @classmethod
    def make(cls, name: str, label: str | None = None, **kwargs: Any) -> AgentSpec:
        return cls(name, tuple(sorted(kwargs.items())), label or default_label(name, kwargs))

    def build(self):
        from antrap_gym.agents import make_agent

        return make_agent(self.name, **dict(self.kwargs))


def default_label(name: str, kwargs: dict[str, Any]) -> str:
    if ":" in name:
        name = name.rsplit(":", 1)[1]
    model = kwargs.get("model") or kwargs.get("model_path")
    return f"{name}:{str(model).rstrip('/').rsplit('/', 1)[-1]}" if model else name


@dataclass(frozen=True)
class EpisodeSpec:
    agent: AgentSpec
    task: str
    variant: int
    setting: str
    run: int

    @property
    def key(self) -> str:
        return f"{self.agent.label}|{self.task}|{self.variant}|{self.setting}|{self.run}"

    @property
    def task_seed(self) -> int:
        return self.variant

    def trap_seed(self, attempt: int = 0) -> int:
        return stable_seed("traps", self.task, self.variant, self.run, attempt)

    @property
    def agent_seed(self) -> int:
        return stable_seed("agent", self.task, self.variant, self.run)


@dataclass
class EvalConfig:
    """Everything an evaluation needs, serialisable into the run directory."""

    agents: list[AgentSpec]
    suite: str = "antrap"
    traps: Any = "all"  # all | none | a layer | types | a protocol YAML
    runs: int = 1
    variants: int | None = None  # None: the suite's own
    obs_mode: str | None = None  # None: what each agent asks for
    #: which episodes keep their screens for the viewer: none | failed | sample (the failed
    #: ones and a seeded sample of the rest) | all
    screens: str = "sample"
    #: with screens="sample": the share of task instances (task, variant, run) whose successful
    #: episodes keep their screens too (the same instances in every agent and setting, so a
    #: sampled success can be compared clean vs trapped)
    screens_sample: float = 0.1
    #: with screens="failed" or "sample": failed episodes keep their screens for about this
    #: many episodes per (agent, setting, app), a seeded draw (0: every failure). A random
    #: agent fails thousands of episodes alike; painting and storing each was a third of
    #: the main job's time and most of its output.
    screens_failed: int = 8
    screen_width: int = 360
    trap_retries: int = 2  # re-run a trapped episode where no trap fired, with a new trap seed
    episode_timeout_s: float = 300.0
    #: how long a worker may take to start (imports, building the agents: loading a model)
    #: before it is replaced; start-up never counts against the episode timeout
    worker_start_timeout_s: float = 900.0
    #: devices the workers use, one each (`sim`, `adb:SERIAL`, `adb:HOST:PORT/SERIAL`)
    devices: list[str] = field(default_factory=lambda: ["sim"])
    settings: list[Setting] = field(default_factory=list)
    #: ours | reference: grade by our checks or the reference's (docs/grading.md)
    grading: str = "ours"

    def __post_init__(self) -> None:
        if not self.settings:
            if self.traps in (None, "", "none", "clean"):  # clean only: nothing to parse
                self.settings = [Setting("clean", ())]
            else:
                self.settings = parse_protocol(self.traps)
        if self.grading not in GRADINGS:
            raise ValueError(f"grading must be one of {', '.join(GRADINGS)}, got {self.grading!r}")
        if self.screens not in SCREENS:
            raise ValueError(f"screens must be one of {', '.join(SCREENS)}")
        if not (isinstance(self.screens_sample, int | float) and 0.0 <= self.screens_sample <= 1.0):
            raise ValueError("screens_sample must be a fraction between 0 and 1")
        if isinstance(self.screens_failed, bool) or not isinstance(self.screens_failed, int) \
                or self.screens_failed < 0:
            raise ValueError(f"screens_failed must be a whole number >= 0, got {self.screens_failed!r}")
        # a count or time out of range would run nothing, or fail every episode, and say nothing
        for name, least in (("runs", 1), ("variants", 1), ("trap_retries", 0)):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < least):
                raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
        for name in ("episode_timeout_s", "worker_start_timeout_s"):
            if not getattr(self, name) > 0:  # NaN too
                raise ValueError(f"{name} must be a number of seconds above 0, "
                                 f"got {getattr(self, name)!r}")

    def keeps_screens(self, spec: EpisodeSpec, failed: bool) -> bool:
        """Whether an episode's screens are saved: the failures and, for `sample`, every
        episode of a seeded share of task instances (stable across machines, workers, runs)."""
        if self.screens == "all":
            return True
        if self.screens == "none":
            return False
        if failed:
            if not self.screens_failed:
                return True
            draw = stable_seed("screens-failed", spec.agent.label, spec.setting, spec.task,
                               spec.variant, spec.run) / 0x80000000
            return draw < self.screens_failed / self.count_screen_cells()[_cell(spec)]
        draw = stable_seed("screens", spec.task, spec.variant, spec.run) / 0x80000000
        return self.screens == "sample" and draw < self.screens_sample

    def count_screen_cells(self, specs: list[EpisodeSpec] | None = None) -> Counter:
        """Episodes per (agent, setting, app) of the whole run, which `keeps_screens` draws
        failures against: counted once, and kept with the config (so it travels to worker
        processes with it)."""
        sizes = self.__dict__.get("_cells")
        if sizes is None:
            specs = self.episodes() if specs is None else specs
            sizes = self.__dict__["_cells"] = Counter(_cell(s) for s in specs)
        return sizes

    def device_for(self, worker: int) -> str:
        return self.devices[worker % len(self.devices)]

    def max_workers(self, wanted: int) -> int:
        """Real devices cannot be shared: one worker per device unless all are `sim`."""
        if all(d == "sim" for d in self.devices):
            return wanted
        return min(wanted, len(self.devices))

    def setting(self, name: str) -> Setting:
        for s in self.settings:
            if s.name == name:
                return s
        raise KeyError(name)

    def episodes(self) -> list[EpisodeSpec]:
        from antrap_gym.tasks import get_suite

        suite = get_suite(self.suite)
        variants = self.variants if self.variants is not None else suite.variants
        # task-major: a task instance's episodes (every agent, every setting) run one after
        # another, so a worker meets its phone states while it still remembers them (the
        # oracle's distances, the screens it painted), and a run cut short holds whole rows
        return [EpisodeSpec(a, t, v, s.name, r)
                for t in suite.templates for v in range(variants) for r in range(self.runs)
                for a in self.agents for s in self.settings]

    def to_json(self) -> str:
        d = asdict(self)
        d["settings"] = [{"name": s.name, "traps": [t.to_dict() for t in s.traps]}
                         for s in self.settings]
        return json.dumps(d, indent=1, default=str)

    @staticmethod
    def settings_from_json(items: list[dict]) -> list[Setting]:
        from antrap_gym.traps.config import parse_stack

        return [Setting(i["name"], tuple(parse_stack(i["traps"]))) for i in items]


def _cell(spec: EpisodeSpec) -> tuple[str, str, str]:
    """(agent, setting, app): the group a capped share of failures is drawn in."""
    from antrap_gym.tasks.registry import get_template

    return spec.agent.label, spec.setting, get_template(spec.task).apps[0]


def spec_traps(setting: Setting) -> list[dict[str, Any]]:
    return [t.to_dict() for t in setting.traps]


__all__ = ["AgentSpec", "EpisodeSpec", "EvalConfig", "Setting", "TrapSpec", "stable_seed"]
