"""The oracle's behaviour, pinned: what it does on every template x seeds 0..4, clean and
under each of the ten trap types, and what the solvability guard and the oracle's
distance say on a few trapped episodes.

Recorded before the solver moved out of the oracle agent into the tasks layer; a
refactoring of the oracle, the solver or the traps' use of it must leave it unchanged.
Where a change of behaviour is meant, rewrite the records and say why in the commit:

    python -m tests.agents.test_oracle_golden
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from antrap_gym.agents import OracleAgent
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES
from antrap_gym.traps import TRAP_TYPES
from antrap_gym.traps.solvability import Prover
from tests.paths import DATA

STREAMS = DATA / "oracle_streams.json"
GUARD = DATA / "oracle_guard.json"
SEEDS = range(5)
CONDITIONS = ("clean", *TRAP_TYPES)
#: trapped episodes whose guard verdicts and per-step distances are kept in full
GUARDED = (("external_interruption", "ContactsAddContact", 1),
           ("loop", "MarkorCreateNoteInFolder", 2),
           ("intent_deviation", "SettingsWifiToggle", 0),
           ("state_deadlock", "ContactsDeleteContact", 3),
           ("context_disruption", "SettingsBrightness", 4))


def _canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str, ensure_ascii=False)


def _episode_hash(env, agent: OracleAgent, template: str, seed: int) -> str:
    """A digest of everything the oracle did and what came of it: the actions it sent,
    what the phone executed, the errors, the outcome and the trap events (whose
    recovery is judged by the oracle's distance)."""
    res = run_episode(env, agent, seed=seed, options={"task": template})
    record = {
        "sent": [s.intended if s.intended is not None else s.action for s in res.trajectory],
        "executed": [s.action for s in res.trajectory],
        "errors": [s.error for s in res.trajectory],
        "success": res.success, "steps": res.steps, "budget": res.budget,
        "answer": res.answer, "faults": list(agent.faults),
        "events": res.info.get("traps", []),
    }
    return hashlib.sha256(_canon(record).encode()).hexdigest()[:16]


def record_streams(condition: str, seeds=SEEDS, keys: set[str] | None = None) -> dict[str, str]:
    """Digests of `template/seed` episodes: every template x `seeds`, or those of `keys`."""
    env = make_env(traps=None if condition == "clean" else [condition], obs_mode="text")
    agent = OracleAgent()
    try:
        return {f"{t}/{s}": _episode_hash(env, agent, t, s)
                for t in sorted(TEMPLATES) for s in seeds if keys is None or f"{t}/{s}" in keys}
    finally:
        env.close()


def record_guard(trap: str, template: str, seed: int) -> dict[str, Any]:
    """The guard's verdict on every event, and the oracle's distance before each step."""
    env = make_env(traps=[trap], obs_mode="text", verify_solvable=True)
    prover = Prover()
    agent = OracleAgent()
    distances: list[int | None] = []
    try:
        obs, info = env.reset(seed=seed, options={"task": template})
        agent.reset(env, obs, info)
        done = False
        while not done:
            distances.append(prover.distance(env.unwrapped))
            obs, _, term, trunc, info = env.step(agent.act(obs, info))
            done = term or trunc
        return {"distances": distances, "success": info.get("success"),
                "events": [{k: e[k] for k in ("type", "step", "solvable", "recovered",
                                              "recovery_steps", "extra_steps")}
                           for e in info["traps"]]}
    finally:
        env.close()


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("condition", [
    c if c in ("clean", "external_interruption") else pytest.param(c, marks=pytest.mark.slow)
    for c in CONDITIONS])
def test_the_oracles_action_streams_are_unchanged(condition):
    # every seed recorded clean; under each of the ten types one seed per template, rotating
    # through the five by template and type, so every recorded seed is played under every
    # type (the records hold all five: `python -m tests.agents.test_oracle_golden`)
    k = CONDITIONS.index(condition)
    wanted = None if condition == "clean" else {
        f"{t}/{SEEDS[(i + k) % len(SEEDS)]}" for i, t in enumerate(sorted(TEMPLATES))}
    want = {key: v for key, v in _load(STREAMS)[condition].items() if wanted is None or key in wanted}
    got = record_streams(condition, keys=wanted)
    changed = sorted(k for k in want if got.get(k) != want[k])
    assert set(got) == set(want) and not changed, changed


@pytest.mark.parametrize("trap,template,seed", GUARDED)
def test_the_guard_and_the_distance_are_unchanged(trap, template, seed):
    want = _load(GUARD)[f"{trap}/{template}/{seed}"]
    got = record_guard(trap, template, seed)
    assert got == want
    assert any(e["solvable"] is not None for e in got["events"])  # the guard did look


def main() -> None:
    DATA.mkdir(exist_ok=True)
    STREAMS.write_text(_canon({c: record_streams(c) for c in CONDITIONS}) + "\n")
    GUARD.write_text(_canon({f"{t}/{tid}/{s}": record_guard(t, tid, s)
                             for t, tid, s in GUARDED}) + "\n")
    print(f"wrote {STREAMS} and {GUARD}", file=sys.stderr)


if __name__ == "__main__":
    main()
