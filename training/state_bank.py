"""A fixed bank of trap states, scored the same way for every policy.

Success under a trap is a noisy, expensive way to compare two policies: each
episode is minutes of generation on a CPU, the trap fires at a different step
for each policy (the schedule counts the policy's own steps), and two policies
never face the same trapped screens. The bank is the paired measurement beside
it: a fixed set of decision points captured mid-episode where a trap acts (a
pop-up on the screen, a frozen frame, a perturbed action armed), on held-out
templates, each with the prompt shown there, kept only where the oracle's own
move there makes progress (a trap can fire again right after a pop-up is
closed; no reply can be judged at such a state). Every policy answers each state
once, greedily; the reply is executed on a restored copy of the whole stack
(`StepRewarder`, the rewards of step-level GRPO) and the state counts as
*handled* when the oracle's distance to success went down (closing a pop-up
does; tapping through it does not) or the task was finished.

Built deterministically from (trap, suite, size, seed): the oracle plays every
template's variants under the trap, with trap seeds derived from those four,
and the states are taken round-robin over templates, so a bank rebuilt for
another prompt format holds the same states (their `key`s match). Scores of two
policies on one bank are compared state by state, with a bootstrap over
templates (`eval/bootstrap.py`).

    antrap train bank --trap external_interruption --model oracle --model runs/x/final
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from antrap_gym.agents.policy import PolicyConfig, format_completion
from antrap_gym.eval.bootstrap import paired_difference_interval, rate_interval, template_counts
from antrap_gym.eval.spec import stable_seed
from antrap_gym.training.rewards import Outcome, StepRewarder, TrainState
from antrap_gym.training.states import _trapped_steps, play_oracle
from antrap_gym.traps.solvability import Prover

#: bumped when a bank's contents would differ for the same spec
BANK_VERSION = 1


@dataclass(frozen=True)
class BankSpec:
    """Which states a bank holds: `size` trapped decision points of `suite` under `trap`."""

    trap: str
    suite: str = "antrap-test"
    size: int = 200
    variants: int = 3
    seed: int = 0

    def __post_init__(self) -> None:
        if self.size < 1 or self.variants < 1:
            raise ValueError(f"a bank needs size >= 1 and variants >= 1, got {self.size}, {self.variants}")

    @property
    def name(self) -> str:
        return f"{self.trap}-{self.suite}-{self.size}-s{self.seed}"


@dataclass
class BankState:
    key: str  # task|variant|trap_seed|step: the same state in every prompt format
    state: TrainState
    oracle_reply: str  # what the oracle did here, in the bank's policy format


@dataclass
class StateBank:
    spec: BankSpec
    policy: PolicyConfig
    states: list[BankState]
    episodes: int = 0  # oracle episodes played to build it
    version: int = BANK_VERSION

    @property
    def templates(self) -> list[str]:
        return sorted({s.state.task for s in self.states})

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # two builders of one bank never share it
        tmp.write_bytes(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)
        return path

    @staticmethod
    def load(path: str | Path) -> StateBank:
        """A bank this version of the package built (a bank is pickled phone state: load
        only files you built)."""
        bank = pickle.loads(Path(path).read_bytes())
        if not isinstance(bank, StateBank) or bank.version != BANK_VERSION:
            raise ValueError(f"{path} is not a state bank of version {BANK_VERSION}; rebuild it")
        return bank


def policy_digest(policy: PolicyConfig) -> str:
    blob = json.dumps(dataclasses.asdict(policy), sort_keys=True, default=str)
    return hashlib.blake2b(blob.encode(), digest_size=5).hexdigest()


def bank_path(folder: str | Path, spec: BankSpec, policy: PolicyConfig) -> Path:
    """Where a bank of `spec` in `policy`'s prompt format is kept under `folder`."""
    return Path(folder) / f"{spec.name}-{policy_digest(policy)}.pkl"


def _stack(trap: str) -> list[dict[str, Any]]:
    from antrap_gym.training.config import TrapsConfig, trap_stack

    stack = trap_stack(TrapsConfig(mode=trap))
    if not stack:
        raise ValueError("a state bank is of a trap: clean has no trap states")
    return stack


def load_or_build(folder: str | Path, spec: BankSpec, policy: PolicyConfig, **kw: Any) -> StateBank:
    """The bank of `spec` in `policy`'s format from `folder`, built and saved there if missing."""
    path = bank_path(folder, spec, policy)
    if path.is_file():
        return StateBank.load(path)
    bank = build_bank(spec, policy, **kw)
    bank.save(path)
    return bank


def build_bank(spec: BankSpec, policy: PolicyConfig, *, on_episode: Callable[[int, int], None] | None = None
               ) -> StateBank:
    """Play the oracle under `spec.trap` over `spec.suite` and keep `spec.size` trapped states.

    A trapped state is kept when the oracle's own reply there is handled (see
    `BankScore.handled`). Variant 0 of every template first, then variant 1, ... until the
    episodes have given at least `size` such states; then states are taken round-robin over templates (each
    template's first trapped state, then each one's second, ...), so the bank spreads over
    templates instead of filling up with the longest tasks. `on_episode(done, planned)`
    reports progress."""
    from antrap_gym.registration import make_env
    from antrap_gym.tasks import get_suite

    stack = _stack(spec.trap)
    tasks = sorted(get_suite(spec.suite).templates)
    obs_mode = "text" if policy.observation == "text" else "screenshot"
    env = make_env(traps=stack, obs_mode=obs_mode)
    prover = Prover()
    judge = StepRewarder(policy)
    found: dict[str, list[BankState]] = {t: [] for t in tasks}
    episodes = 0
    try:
        for variant in range(spec.variants):
            for task in tasks:
                trap_seed = stable_seed("bank", spec.trap, spec.suite, task, variant, spec.seed)
                run = play_oracle(env, prover, task, variant, trap_seed, policy)
                episodes += 1
                if on_episode:
                    on_episode(episodes, len(tasks) * spec.variants)
                trapped = _trapped_steps(run.events)
                for p in run.pending:
                    if p.step not in trapped or p.distance is None or not p.distance:
                        continue
                    key = f"{task}|{variant}|{trap_seed}|{p.step}"
                    sid = f"bank-{hashlib.blake2b(key.encode(), digest_size=6).hexdigest()}"
                    ts = TrainState(sid, p.state, stack, task, variant, trap_seed, p.step, p.prompt,
                                    run.space, p.distance, True, "oracle", obs_mode, p.image)
                    judge.add([ts])
                    if BankScore.handled(judge.outcome(sid, p.reply)):
                        found[task].append(BankState(key, ts, p.reply))
                    judge.forget(set())
            if sum(len(v) for v in found.values()) >= spec.size:
                break
    finally:
        env.close()
        judge.close()
    states: list[BankState] = []
    depth = 0
    while len(states) < spec.size and any(len(v) > depth for v in found.values()):
        states += [found[t][depth] for t in tasks if len(found[t]) > depth][:spec.size - len(states)]
        depth += 1
    return StateBank(spec, policy, states, episodes)


# --- scoring ----------------------------------------------------------------------------------------

Replier = Callable[[Sequence[BankState]], list[str]]


@dataclass
class BankScore:
    """One policy's replies on a bank: a row per state, and what they add up to."""

    label: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def handled(outcome: Outcome) -> bool:
        """The reply got the task closer (the oracle's distance fell) or finished it."""
        return outcome.success or outcome.progress > 0

    def counts(self) -> dict[str, list[int]]:
        """template -> [states handled, states]."""
        return template_counts(self.rows, "handled")

    def summary(self) -> dict[str, Any]:
        n = len(self.rows)
        handled = sum(r["handled"] for r in self.rows)
        return {
            "label": self.label,
            "states": n,
            "templates": len({r["task"] for r in self.rows}),
            "handled_rate": handled / n if n else float("nan"),
            "handled_ci95_template": list(rate_interval(self.counts())),
            "parse_rate": sum(r["format"] > 0 for r in self.rows) / n if n else float("nan"),
            "valid_rate": sum(r["valid"] > 0 for r in self.rows) / n if n else float("nan"),
            "mean_progress": sum(r["progress"] for r in self.rows) / n if n else float("nan"),
        }


def score_bank(bank: StateBank, reply: Replier, label: str, *, batch: int = 8,
               on_batch: Callable[[int, int], None] | None = None) -> BankScore:
    """Each state's reply (`reply` answers a batch of states with one text each), executed
    on a restored copy of the state's stack."""
    rewarder = StepRewarder(bank.policy)
    rewarder.add([s.state for s in bank.states])
    score = BankScore(label)
    try:
        for i in range(0, len(bank.states), batch):
            chunk = bank.states[i:i + batch]
            texts = reply(chunk)
            if len(texts) != len(chunk):
                raise ValueError(f"the replier gave {len(texts)} replies for {len(chunk)} states")
            for s, text in zip(chunk, texts):
                o = rewarder.outcome(s.state.id, text)
                score.rows.append({"key": s.key, "task": s.state.task, "handled": BankScore.handled(o),
                                   "progress": o.progress, "success": o.success, "format": o.format,
                                   "valid": o.valid, "action": o.action, "error": o.error,
                                   "reply": text})
            if on_batch:
                on_batch(min(i + batch, len(bank.states)), len(bank.states))
    finally:
        rewarder.close()
    return score


def compare(after: BankScore, before: BankScore) -> dict[str, Any]:
    """after - before in the share of states handled, paired state by state (both must
    have answered the same bank), with a 95% interval resampling templates."""
    if [r["key"] for r in after.rows] != [r["key"] for r in before.rows]:
        raise ValueError(f"{after.label} and {before.label} did not answer the same states")
    a, b = after.summary(), before.summary()
    lo, hi = paired_difference_interval(after.counts(), before.counts())
    both = sum(x["handled"] and y["handled"] for x, y in zip(after.rows, before.rows))
    return {"after": after.label, "before": before.label,
            "delta": a["handled_rate"] - b["handled_rate"], "ci95_template": [lo, hi],
            "gained": sum(x["handled"] and not y["handled"] for x, y in zip(after.rows, before.rows)),
            "lost": sum(y["handled"] and not x["handled"] for x, y in zip(after.rows, before.rows)),
            "both": both}


def describe_change(c: dict[str, Any]) -> str:
    """A `compare` result in points: `+7.5 [+2.5, +12.5] (3 gained, 0 lost)`."""
    lo, hi = c["ci95_template"]
    return (f"{100 * c['delta']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] "
            f"({c['gained']} gained, {c['lost']} lost)")


# --- repliers ---------------------------------------------------------------------------------------

def oracle_replier(states: Sequence[BankState]) -> list[str]:
    """The oracle's own reply at each state (the bank's ceiling)."""
    return [s.oracle_reply for s in states]


def fixed_replier(action: dict[str, Any], policy: PolicyConfig) -> Replier:
    """The same action everywhere (`wait`, `back`: floors a policy should beat)."""
    def reply(states: Sequence[BankState]) -> list[str]:
        return [format_completion(action, "", space=s.state.space, config=policy) for s in states]
    return reply


def model_replier(model_path: str | Path, policy: PolicyConfig, *, max_new_tokens: int = 96,
                  device: str = "cpu", threads: int | None = None) -> Replier:
    """A checkpoint (or a LoRA run's adapters) answering greedily, loaded as the transformers
    agent loads it, shown the bank's prompts; a text model answers a batch of states with one
    `generate`. A checkpoint trained here
    records its prompt format (`antrap_policy.json`): one that differs from the bank's is
    refused, as its replies would be judged on prompts it never learned to read."""
    from antrap_gym.agents.transformers_agent import TransformersAgent
    from antrap_gym.training.evaluation import TRAINING_ONLY_POLICY_FIELDS

    own = Path(model_path) / "antrap_policy.json"
    if own.is_file():
        trained = json.loads(own.read_text())
        diff = sorted(k for k, v in dataclasses.asdict(policy).items()
                      if k in trained and k not in TRAINING_ONLY_POLICY_FIELDS and trained[k] != v)
        if diff:
            raise ValueError(f"{model_path} was trained on another prompt format than the bank's "
                             f"(differs in {diff}); score it on a bank of its own format")
    taken = set(TransformersAgent.__init__.__code__.co_varnames)
    kw = {k: v for k, v in dataclasses.asdict(policy).items()
          if k in taken and k not in TRAINING_ONLY_POLICY_FIELDS}
    agent = TransformersAgent(model_path, device=device, max_new_tokens=max_new_tokens, do_sample=False,
                              threads=threads, **kw)
    if agent.is_vlm:  # pictures travel with each prompt: one state at a time
        def one_by_one(states: Sequence[BankState]) -> list[str]:
            return [agent.generate(s.state.prompt) for s in states]
        return one_by_one
    from antrap_gym.training.live_policy import BatchedPolicy

    batched = BatchedPolicy(agent.model, agent.tokenizer, policy, max_new_tokens=max_new_tokens,
                            do_sample=False)

    def reply(states: Sequence[BankState]) -> list[str]:
        """One left-padded greedy `generate` for the whole batch of states."""
        return [g.text for g in batched.generate_ids([batched.encode(s.state.prompt) for s in states])]
    return reply


def write_report(scores: Iterable[BankScore], bank: StateBank, path: str | Path) -> dict[str, Any]:
    """`path` (JSON): the bank's spec, each policy's summary and rows, and every policy
    compared with the first."""
    scores = list(scores)
    report = {"bank": dataclasses.asdict(bank.spec), "states": len(bank.states),
              "templates": len(bank.templates), "episodes": bank.episodes,
              "policies": [s.summary() for s in scores],
              "compared_with_first": [compare(s, scores[0]) for s in scores[1:]],
              "rows": {s.label: s.rows for s in scores}}
    from antrap_gym.eval.metrics import to_json

    Path(path).write_text(to_json(report))
    return report


__all__ = [
    "BankScore",
    "BankSpec",
    "BankState",
    "StateBank",
    "bank_path",
    "build_bank",
    "compare",
    "describe_change",
    "fixed_replier",
    "load_or_build",
    "model_replier",
    "oracle_replier",
    "score_bank",
    "write_report",
]
