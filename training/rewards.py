"""Verified step rewards: execute a candidate reply on a restored copy of the state.

A training state is a whole environment stack captured mid-episode (phone,
episode bookkeeping, every trap's schedule and progress). To score a reply the
state is restored into a scratch stack of the same traps and the parsed action
is executed there, so an armed Action-layer trap perturbs it exactly as it
would have, a pop-up intercepts a tap, a frozen screen ignores it. The result
is scored by three functions, logged separately by TRL:

- format:   1 if the reply parses in the policy's own format, 0.5 if only in
            another supported style, 0 if not at all;
- validity: 1 if the env accepted the action (no `last_action_error`), else 0;
  neither gives any credit to a reply that ends the episode unsolved (a
  well-formed "done" in front of a pop-up would otherwise outscore every
  attempt that fails to parse or misses, and GRPO learns to give up);
- progress: the oracle's distance to success before minus after, clipped to
            [-1, 1] (1 = a step the oracle would take; a pop-up closed counts,
            since the pop-up is on the phone), 1 for finishing the task, -1 for
            ending it unsolved, reaching a state the oracle cannot finish from,
            or a reply with no usable action: unparseable, or rejected by the env
            (it forfeits the step; scored 0, it would be the safest reply wherever
            a wrong action costs -1, and GRPO learns to write such replies: an
            unknown app, an index out of range).

Outcomes are cached per (state, reply): the three functions share one execution.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from antrap_gym.agents.policy import CoordSpace, ParseError, PolicyConfig, parse_reply
from antrap_gym.env.state import StackState, restore
from antrap_gym.traps.solvability import Prover

CACHE_SIZE = 20000
#: progress of a reply that holds no usable action (unparseable, or rejected by the env):
#: no better than the worst action
UNUSABLE_PROGRESS = -1.0


@dataclass
class TrainState:
    """One decision point to train on: a captured stack and the prompt shown there."""

    id: str
    state: StackState
    stack: list[dict[str, Any]]  # the trap stack (make_env's `traps`), [] = clean
    task: str
    variant: int
    trap_seed: int | None
    step: int
    prompt: list[dict[str, Any]]  # the chat prompt (HF form) the policy answers
    space: CoordSpace
    distance: int  # oracle steps to success from here (before acting)
    trapped: bool  # a trap acts at this step
    source: str  # oracle | policy
    obs_mode: str = "text"
    image: Any = None  # the screenshot shown (VLM policies)


@dataclass
class Outcome:
    format: float
    valid: float
    progress: float
    success: bool
    action: dict[str, Any] | None
    error: str = ""
    ended: bool = False  # the reply ended the episode (finished, gave up, or ran out of steps)

    @property
    def gave_up(self) -> bool:
        """Ended the episode unsolved: the worst outcome, with no credit for form."""
        return self.ended and not self.success

    @property
    def credit(self) -> tuple[float, float]:
        """(format, validity) as rewarded: nothing for a reply that gave up."""
        return (0.0, 0.0) if self.gave_up else (self.format, self.valid)


def completion_text(completion: Any) -> str:
    """TRL gives a completion as text or as a list of messages."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion:
        content = completion[-1].get("content", "")
        if isinstance(content, list):
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return str(content)
    return ""


class StepRewarder:
    """Scores replies at training states; `reward_funcs()` are TRL reward functions
    that read the `state_id` column."""

    def __init__(self, policy: PolicyConfig, max_steps: int | None = None) -> None:
        self.policy = policy
        self.max_steps = max_steps
        self.states: dict[str, TrainState] = {}
        self._scratch: dict[str, Any] = {}
        self._cache: OrderedDict[tuple[str, str], Outcome] = OrderedDict()
        self.prover = Prover()
        self.executed = 0

    # --- states -------------------------------------------------------------------------------
    def add(self, states: list[TrainState]) -> None:
        for s in states:
            self.states[s.id] = s

    def forget(self, keep: set[str]) -> None:
        """Drop states (and cached outcomes) not in `keep`."""
        for sid in [k for k in self.states if k not in keep]:
            del self.states[sid]
        for key in [k for k in self._cache if k[0] not in keep]:
            del self._cache[key]

    def scratch(self, state: TrainState):
        """A stack of the state's traps (one per distinct stack, reused)."""
        from antrap_gym.registration import make_env

        key = json.dumps(state.stack, sort_keys=True, default=str) + state.obs_mode
        env = self._scratch.get(key)
        if env is None:
            kw: dict[str, Any] = {"obs_mode": state.obs_mode, "task": state.task}
            if self.max_steps is not None:
                kw["max_steps"] = self.max_steps
            env = make_env(traps=state.stack or None, **kw)
            env.reset(seed=0)
            self._scratch[key] = env
        return env

    # --- scoring ------------------------------------------------------------------------------
    def parse(self, text: str, space: CoordSpace) -> tuple[tuple[dict[str, Any], ...], float, str]:
        """The actions the reply stands for (none when it cannot be read), its format score
        (1 in the policy's own format, 0.5 in another supported one) and the parse error."""
        try:
            return parse_reply(text, space=space, config=self.policy, lenient=False).actions, 1.0, ""
        except (ParseError, ValueError):
            pass
        try:
            return parse_reply(text, space=space, config=self.policy, lenient=True).actions, 0.5, ""
        except (ParseError, ValueError) as e:
            return (), 0.0, str(e)

    def outcome(self, state_id: str, completion: Any) -> Outcome:
        text = completion_text(completion)
        key = (state_id, text)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        state = self.states.get(state_id)
        if state is None:
            raise KeyError(f"unknown training state {state_id!r} (gathered states were refreshed)")
        out = self._execute(state, text)
        self._cache[key] = out
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return out

    def _execute(self, state: TrainState, text: str) -> Outcome:
        actions, fmt, err = self.parse(text, state.space)
        if not actions:  # no action at all: the step is forfeit (see the module docstring)
            return Outcome(fmt, 0.0, UNUSABLE_PROGRESS, False, None, err)
        action = actions[0]
        env = self.scratch(state)
        restore(env, state.state)
        self.executed += 1
        for act in actions:  # an answer folded into `finish(...)`: answer, then finish
            obs, reward, term, trunc, info = env.step(act)
            valid = 0.0 if obs.get("last_action_error") else 1.0
            if term or trunc:
                success = float(info.get("success", reward)) >= 1.0
                return Outcome(fmt, valid, 1.0 if success else -1.0, success, action,
                               str(obs.get("last_action_error") or ""), ended=True)
            if valid and act.get("action_type") == "status":
                # held back by a trap's at-least-once guarantee (it fires before the agent may
                # finish): a device of the benchmark's measurement, not of the phone, so the
                # finish is scored as the episode would have ended
                base = env.unwrapped
                success = float(base.task.is_successful(base.device, base.answer)) >= 1.0
                return Outcome(fmt, valid, 1.0 if success else -1.0, success, action, "", ended=True)
            if not valid:  # rejected by the env: as unusable as no action at all
                return Outcome(fmt, valid, UNUSABLE_PROGRESS, False, action,
                               str(obs.get("last_action_error") or ""))
        after = self.prover.distance(env.unwrapped)
        progress = -1.0 if after is None else max(-1.0, min(1.0, float(state.distance - after)))
        return Outcome(fmt, valid, progress, False, action, str(obs.get("last_action_error") or ""))

    # --- TRL reward functions -----------------------------------------------------------------
    def reward_funcs(self) -> list:
        def format_reward(prompts=None, completions=None, state_id=None, **_):
            return [self.outcome(s, c).credit[0] for s, c in zip(state_id, completions)]

        def validity_reward(prompts=None, completions=None, state_id=None, **_):
            return [self.outcome(s, c).credit[1] for s, c in zip(state_id, completions)]

        def progress_reward(prompts=None, completions=None, state_id=None, **_):
            return [self.outcome(s, c).progress for s, c in zip(state_id, completions)]

        def success_reward(prompts=None, completions=None, state_id=None, **_):
            """Logged with weight 0: the share of replies that finished the task."""
            return [float(self.outcome(s, c).success) for s, c in zip(state_id, completions)]

        def parse_reward(prompts=None, completions=None, state_id=None, **_):
            """Logged with weight 0: the parse rate (replies usable in any supported style)."""
            return [float(self.outcome(s, c).format > 0) for s, c in zip(state_id, completions)]

        return [format_reward, validity_reward, progress_reward, success_reward, parse_reward]

    def close(self) -> None:
        for env in self._scratch.values():
            env.close()
        self._scratch.clear()


__all__ = ["Outcome", "StepRewarder", "TrainState", "completion_text"]
