"""SFT warm-start data: the oracle's steps as chat rows in the policy format.

`collect` runs the privileged oracle on the simulated phone (clean and under
chosen traps) and writes one JSONL row per step:

    {"messages": [system, user, assistant], "images": [...] (VLM only),
     "action": {...}, "task", "variant", "setting", "trap_seed", "step", "episode", ...}

The system and user turns are exactly what `PolicySession` builds for a model
agent at that step (the same observation, the same step history), and the
assistant turn is `format_completion` of the oracle's action. The episode is
driven by decoding that completion with the session, as a model agent's reply
would be, so the history of later steps is the one a perfect imitator sees.

Text datasets carry the screen as element text and every `content` is a
string. VLM datasets (policy observation `screenshot`/`both`) save the image the
model is shown (smart-resized) as a PNG next to the JSONL; every `content` is a
list of parts with an `{"type": "image"}` placeholder where the screenshot goes
and the relative PNG path in the `images` column (TRL's standard VLM route).

No torch here: collecting data needs only the package itself.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from antrap_gym.agents.policy import (
    PolicyConfig,
    PolicySession,
    format_completion,
    summarize_action,
    system_prompt,
    user_text,
)
from antrap_gym.training.disturbances import check_weights

if TYPE_CHECKING:
    from antrap_gym.training.config import TrainConfig

DATA_FILE = "data.jsonl"
INFO_FILE = "dataset_info.json"
IMAGE_DIR = "images"
THOUGHTS = ("summary", "none")


@dataclass
class OracleStep:
    """One step of an oracle episode, as the policy sees and answers it."""

    system: str
    user: str
    completion: str
    action: dict[str, Any]  # the oracle's action (device pixels)
    image: Any = None  # the PIL image the model is shown (VLM), else None
    step: int = 0
    error: str = ""  # the env's error about the previous action, shown in this prompt
    traps: list[str] = field(default_factory=list)  # trap types acting at this step
    disturbed: int = 0  # disturbances executed before this step (`noise`)


@dataclass
class OracleEpisode:
    task: str
    variant: int
    setting: str
    trap_seed: int | None
    goal: str
    success: float
    steps: list[OracleStep]
    screen_size: tuple[int, int]
    traps: list[dict[str, Any]] = field(default_factory=list)
    disturbances: list[dict[str, Any]] = field(default_factory=list)  # {"step", "action"}

    @property
    def id(self) -> str:
        seed = "" if self.trap_seed is None else f"-{self.trap_seed}"
        return f"{self.setting}-{self.task}-{self.variant}{seed}"


def _thought(kind: str, action: dict[str, Any], session: PolicySession, elements: str, error: str) -> str:
    if kind == "none":
        return ""
    s = summarize_action(action, session.space, elements)
    lead = "The last action did not work, so I try again. " if error else ""
    return f"{lead}Next: {s[0].lower() + s[1:] if s else s}."


def _play(env, session: PolicySession, action: dict[str, Any], thought: str, elements: str,
          policy: PolicyConfig, what: str) -> tuple[str, dict, dict, bool]:
    """Write `action` as the policy's reply, decode it with the session (so it enters the step
    history as a model's reply would) and step the env: (reply, obs, info, done)."""
    completion = format_completion(action, thought, space=session.space, config=policy, elements=elements)
    decision = session.decode(completion)
    if decision.error:  # the format cannot express this action: a bug, never silent
        raise RuntimeError(f"the policy format cannot round-trip the {what} {action}: {decision.error}")
    obs, _, terminated, truncated, info = env.step(decision.action)
    return completion, obs, info, terminated or truncated


def oracle_episode(env, task: str, variant: int, *, policy: PolicyConfig, setting: str = "clean",
                   trap_seed: int | None = None, thought: str = "summary", noise: float = 0.0,
                   noise_seed: int = 0, noise_kinds: dict[str, float] | None = None) -> OracleEpisode:
    """Run the oracle on one task variant in `env` and record every step in the policy format.

    noise: the probability, per step, of executing a random disturbance instead of the
    oracle's action (`training.disturbances`; seeded by `noise_seed`). A disturbance enters
    the step history as the agent's own step and writes no row. `noise_kinds` weighs
    the kinds of disturbance (`training.disturbances.check_weights`; None = alike).
    """
    import numpy as np

    from antrap_gym.agents.oracle import OracleAgent
    from antrap_gym.training.disturbances import disturbance

    if thought not in THOUGHTS:
        raise ValueError(f"thought must be one of {THOUGHTS}, got {thought!r}")
    options: dict[str, Any] = {"task": task}
    if trap_seed is not None:
        options["trap_seed"] = trap_seed
    obs, info = env.reset(seed=variant, options=options)
    oracle = OracleAgent()
    oracle.reset(env, obs, info, seed=variant)
    base = env.unwrapped
    goal = obs.get("goal") or info.get("goal") or ""
    session = PolicySession(goal, base.screen_size, policy, lenient=False)
    steps: list[OracleStep] = []
    disturbed: list[dict[str, Any]] = []
    rng = np.random.default_rng(noise_seed)
    done = False
    while not done:
        session.observe(obs)
        error = str(obs.get("last_action_error") or "")
        elements = obs.get("ui_elements") or ""
        number = len(steps) + len(disturbed) + 1  # the env step this action takes
        if noise > 0 and rng.random() < noise:
            shake = disturbance(rng, elements, uses_index=policy.uses_index, weights=noise_kinds)
            _, obs, info, done = _play(env, session, shake, "", elements, policy, "disturbance")
            disturbed.append({"step": number, "action": shake})
            continue
        msgs = session.hf_messages(obs, text_only=not policy.shows_image)
        image = None
        if isinstance(msgs[1]["content"], list):
            sys_text = msgs[0]["content"][0]["text"]
            user = next(p["text"] for p in msgs[1]["content"] if p["type"] == "text")
            image = next((p["image"] for p in msgs[1]["content"] if p["type"] == "image"), None)
        else:
            sys_text, user = msgs[0]["content"], msgs[1]["content"]
        action = oracle.act(obs, info)
        completion, obs, info, done = _play(env, session, action,
                                              _thought(thought, action, session, elements, error),
                                              elements, policy, "oracle's action")
        steps.append(OracleStep(sys_text, user, completion, dict(action), image, number, error,
                                disturbed=len(disturbed)))
    for ev in info.get("traps") or []:  # which traps act at each step (a trap records its first step)
        first = int(ev.get("step", 0))
        last = first - 1 + int(ev.get("duration", 1) or 1)
        for st in steps:
            if first <= st.step <= last:
                st.traps.append(str(ev.get("type", "")))
    return OracleEpisode(task, variant, setting, trap_seed, session.goal, float(info.get("success", 0.0)),
                         steps, tuple(base.screen_size), list(info.get("traps") or []), disturbed)


def setting_stack(name: str | dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """(setting name, trap stack) of a collection setting: a training trap mode name
    (clean, a type, a layer, mixed) or `{"name": ..., "stack": [...]}`."""
    from antrap_gym.training.config import TrapsConfig, trap_stack

    if isinstance(name, dict):
        return str(name["name"]), list(name.get("stack") or [])
    return str(name), trap_stack(TrapsConfig(mode=str(name)))


def _stable_seed(*parts: Any) -> int:
    from antrap_gym.eval.spec import stable_seed

    return stable_seed(*parts)


def oracle_episodes(*, tasks: Sequence[str], variants: Sequence[int],
                    settings: Sequence[str | dict[str, Any]], seeds: int = 1, policy: PolicyConfig,
                    obs_mode: str | None = None, thought: str = "summary",
                    max_steps: int | None = None, noise: float = 0.0,
                    noise_kinds: dict[str, float] | None = None) -> Iterator[OracleEpisode]:
    """Oracle episodes over tasks x variants x settings (x trap seeds for trapped settings);
    `noise` / `noise_kinds` disturb the oracle (see `oracle_episode`)."""
    from antrap_gym.registration import make_env

    mode = obs_mode or ("text" if policy.observation == "text" else "screenshot")
    for setting in settings:
        name, stack = setting_stack(setting)
        kw: dict[str, Any] = {"obs_mode": mode}
        if max_steps is not None:
            kw["max_steps"] = max_steps
        # no one reads the events' recovery here: spare the oracle search each would cost
        env = make_env(traps=stack or None, recovery="off", **kw)
        try:
            for task in tasks:
                for v in variants:
                    for s in range(seeds if stack else 1):
                        seed = _stable_seed("collect", name, task, v, s) if stack else None
                        yield oracle_episode(env, task, v, policy=policy, setting=name, trap_seed=seed,
                                             thought=thought, noise=noise, noise_kinds=noise_kinds,
                                             noise_seed=_stable_seed("noise", name, task, v, s))
        finally:
            env.close()


def _row(ep: OracleEpisode, st: OracleStep, image_path: str | None) -> dict[str, Any]:
    if image_path is None:
        messages = [{"role": "system", "content": st.system}, {"role": "user", "content": st.user},
                    {"role": "assistant", "content": st.completion}]
    else:
        messages = [{"role": "system", "content": [{"type": "text", "text": st.system}]},
                    {"role": "user", "content": [{"type": "text", "text": st.user}, {"type": "image"}]},
                    {"role": "assistant", "content": [{"type": "text", "text": st.completion}]}]
    row: dict[str, Any] = {"messages": messages}
    if image_path is not None:
        row["images"] = [image_path]
    row.update(action=st.action, task=ep.task, variant=ep.variant, setting=ep.setting,
               trap_seed=ep.trap_seed, episode=ep.id, step=st.step, steps=len(ep.steps),
               success=ep.success, traps_fired=st.traps, disturbed=st.disturbed,
               screen_size=list(ep.screen_size))
    return row


def collect(out_dir: str | Path, suite: str = "antrap-mini",
            traps: Sequence[str | dict[str, Any]] = ("clean",), variants: int | Sequence[int] = 2,
            policy_cfg: PolicyConfig | None = None, seeds: int = 1, *, tasks: Sequence[str] | None = None,
            first_variant: int = 100, success_only: bool = True, thought: str = "summary",
            max_steps: int | None = None, obs_mode: str | None = None, noise: float = 0.0,
            noise_kinds: dict[str, float] | None = None, console=None) -> Path:
    """Run the oracle and write `out_dir/data.jsonl` (+ `images/`, `dataset_info.json`).

    suite / tasks: the templates (tasks overrides the suite's list).
    traps: settings, each clean, a trap type, a layer, mixed, or
        `{"name": ..., "stack": [...]}`; trapped settings run `seeds` trap seeds.
    variants: how many task variants (from `first_variant`), or explicit seeds.
    success_only: drop episodes the oracle did not finish (a trap or a disturbance can beat it).
    noise: per-step probability of a disturbance instead of the oracle's action
        (`training.disturbances`: the DART state distribution, the oracle's labels);
    noise_kinds: relative weights of the disturbance kinds (None = all alike).
    Returns the JSONL path.
    """
    from antrap_gym.tasks import get_suite

    policy = policy_cfg or PolicyConfig(observation="text")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = list(tasks) if tasks else list(get_suite(suite).templates)
    vseeds = (list(range(first_variant, first_variant + variants)) if isinstance(variants, int)
              else [int(v) for v in variants])
    vlm = policy.shows_image
    if vlm and (obs_mode or "screenshot") == "text":
        raise ValueError("a screenshot policy needs obs_mode screenshot")
    if vlm:
        (out / IMAGE_DIR).mkdir(exist_ok=True)
    t0 = time.monotonic()
    stats: dict[str, dict[str, Any]] = {}
    stacks = dict(setting_stack(s) for s in traps)
    n_rows = 0
    tmp = out / (DATA_FILE + ".part")
    with tmp.open("w", encoding="utf-8") as f:
        for ep in oracle_episodes(tasks=names, variants=vseeds, settings=traps, seeds=seeds, policy=policy,
                                  obs_mode=obs_mode, thought=thought, max_steps=max_steps, noise=noise,
                                  noise_kinds=noise_kinds):
            st = stats.setdefault(ep.setting, {"episodes": 0, "kept": 0, "rows": 0, "oracle_success": 0.0,
                                               "disturbances": 0})
            st["episodes"] += 1
            st["oracle_success"] += ep.success
            if success_only and ep.success < 1.0:
                continue
            st["kept"] += 1
            st["disturbances"] += len(ep.disturbances)
            for step in ep.steps:
                rel = None
                if vlm and step.image is not None:
                    rel = f"{IMAGE_DIR}/{ep.id}-{step.step:03d}.png"
                    step.image.save(out / rel, format="PNG", compress_level=1)
                f.write(json.dumps(_row(ep, step, rel), ensure_ascii=False) + "\n")
                st["rows"] += 1
                n_rows += 1
            f.flush()
    tmp.replace(out / DATA_FILE)
    for st in stats.values():
        st["oracle_success"] = round(st["oracle_success"] / max(1, st["episodes"]), 4)
    info = {
        "rows": n_rows,
        "episodes": sum(s["episodes"] for s in stats.values()),
        "episodes_kept": sum(s["kept"] for s in stats.values()),
        "by_setting": stats,
        "suite": suite,
        "tasks": names,
        "variants": vseeds,
        "seeds": seeds,
        "settings": {k: v for k, v in stacks.items()},
        "success_only": success_only,
        "thought": thought,
        "noise": noise,
        "noise_kinds": check_weights(noise_kinds) if noise > 0 else None,
        "obs_mode": obs_mode or ("text" if policy.observation == "text" else "screenshot"),
        "vlm": vlm,
        "policy": dataclasses.asdict(policy),
        "files": [DATA_FILE],
        "format": "messages: [system, user, assistant]; assistant = format_completion(oracle action)"
                  + ("; images: PNG paths relative to this directory" if vlm else ""),
        "wall_s": round(time.monotonic() - t0, 2),
    }
    (out / INFO_FILE).write_text(json.dumps(info, indent=1, ensure_ascii=False))
    if console is not None:
        console.print(f"collected {n_rows} steps from {info['episodes_kept']}/{info['episodes']} oracle "
                      f"episodes in {info['wall_s']} s -> {out / DATA_FILE}")
    return out / DATA_FILE


def collect_settings(config: TrainConfig, names: Sequence[str] | None = None) -> list[str | dict[str, Any]]:
    """The collection settings of a training config: `sft.collect.traps` (or `names`),
    where `train` stands for the config's own trap setting (`traps` section)."""
    settings: list[str | dict[str, Any]] = []
    names = list(names if names is not None else config.sft.collect.traps)
    for name in names:
        if name == "train":
            stack = config.trap_stack()
            if stack:
                settings.append({"name": f"train-{config.traps.mode}", "stack": stack})
            elif "clean" not in names:
                settings.append("clean")
        else:
            settings.append(name)
    return settings


def collect_from_config(config: TrainConfig, out_dir: str | Path, *, settings: Sequence[str] | None = None,
                        console=None) -> Path:
    """`collect` with a training config's env, policy, trap setting and `sft.collect` options."""
    c = config.sft.collect
    return collect(out_dir, suite=config.env.suite, traps=collect_settings(config, settings),
                   variants=config.variant_seeds(), policy_cfg=config.policy_config(), seeds=c.seeds,
                   tasks=config.env.tasks, success_only=c.success_only, thought=c.thought,
                   max_steps=config.env.max_steps, obs_mode=config.obs_mode(), noise=c.noise,
                   noise_kinds=c.noise_kinds or None, console=console)


def data_files(paths: Sequence[str | Path]) -> list[Path]:
    """JSONL files from files or `collect` directories (their `data.jsonl`)."""
    out = []
    for p in map(Path, paths):
        f = p / DATA_FILE if p.is_dir() else p
        if not f.is_file():
            raise FileNotFoundError(f"no dataset at {p} (expected a JSONL file or a directory "
                                    f"with {DATA_FILE})")
        out.append(f)
    return out


def read_rows(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    """Every row of the datasets, image paths made absolute."""
    rows = []
    for f in data_files(paths):
        with f.open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                row = json.loads(line)
                if row.get("images"):
                    row["images"] = [str((f.parent / p).resolve()) for p in row["images"]]
                rows.append(row)
    return rows


# --- text for the tiny policy's tokenizer ----------------------------------------------------------


def phone_corpus(policy: PolicyConfig | None = None, variants: int = 2, seed: int = 0) -> list[str]:
    """Lines of the phone's own text in the policy format, for training a tokenizer:
    goals of every template (several seeds), the prompts and completions of oracle
    episodes on every template (clean, and under the traps that bring new text to
    the screen), and the system prompts of every prompt style."""
    import numpy as np

    from antrap_gym.tasks import TEMPLATES

    policy = policy or PolicyConfig(observation="text")
    text_policy = dataclasses.replace(policy, observation="text")
    lines: list[str] = []
    rng = np.random.default_rng(seed)
    for cls in TEMPLATES.values():
        for _ in range(max(3, variants)):
            try:
                lines.append(cls(cls.generate_params(rng)).goal)
            except Exception:  # a template whose params need a device: its episodes give the goal
                break
    # clean episodes of every template, then one variant under the traps that put new text
    # on the screen (pop-ups, swapped labels, another app); the rest only move or hide things
    shown = {"name": "text-traps", "stack": [{"type": t, "p": 0.2, "at_least_once": False}
                                             for t in ("external_interruption", "visual_hallucination",
                                                       "context_disruption")]}
    runs = [("clean", list(range(seed, seed + variants))), (shown, [seed])]
    for setting, vs in runs:
        for ep in oracle_episodes(tasks=sorted(TEMPLATES), variants=vs, settings=[setting], seeds=1,
                                  policy=text_policy, obs_mode="text", thought="summary"):
            lines.append(ep.goal)
            for st in ep.steps:
                lines.extend(st.user.splitlines())
                lines.extend(st.completion.splitlines())
    for prompt in dict.fromkeys(("guiowl", "m3a", policy.prompt)):  # and the policy's own
        for coords in ("absolute", "relative"):
            for obs in ("text", "screenshot"):
                cfg = dataclasses.replace(policy, prompt=prompt, coords=coords, observation=obs)
                space = cfg.space((1080, 2400))
                lines += system_prompt(space, cfg).splitlines()
                lines += user_text("Turn Wi-Fi off.", history=["Open the Settings app"],
                                   elements_text="" if obs == "text" else None, config=cfg,
                                   space=space).splitlines()
    return [ln for ln in lines if ln.strip()]


__all__ = ["DATA_FILE", "INFO_FILE", "OracleEpisode", "OracleStep", "collect", "collect_from_config",
           "collect_settings", "data_files", "oracle_episode",
           "oracle_episodes", "phone_corpus", "read_rows", "setting_stack"]
