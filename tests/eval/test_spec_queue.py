"""The run's queue hands every episode out once, a task instance to one worker."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from antrap_gym.eval import AgentSpec
from antrap_gym.eval.spec import EpisodeSpec
from antrap_gym.eval.spec_queue import SpecQueue, instance_of

AGENTS = [AgentSpec.make("oracle"), AgentSpec.make("random")]
SETTINGS = ["clean", "loop", "state_deadlock"]


def specs(templates: int, variants: int = 2) -> list[EpisodeSpec]:
    """In the run's own order: task-major, then agent, then setting."""
    return [EpisodeSpec(a, f"T{t}", v, s, 0)
            for t in range(templates) for v in range(variants) for a in AGENTS for s in SETTINGS]


@settings(max_examples=150, deadline=None)
@given(templates=st.integers(1, 8), workers=st.integers(1, 4),
       turns=st.lists(st.integers(0, 3), min_size=200, max_size=200))
def test_each_episode_once_and_an_instance_split_only_at_the_end(templates, workers, turns):
    """Whatever order the workers come back in, every episode is given out once, and at
    most workers - 1 instances are shared (the ones left when others ran out of work)."""
    todo = specs(templates)
    queue = SpecQueue(todo)
    given_to: dict[tuple, set[int]] = defaultdict(set)
    out = []
    turns = iter(turns)
    while queue:
        w = next(turns, 0) % workers
        spec = queue.take(w)
        out.append(spec)
        given_to[instance_of(spec)].add(w)
    assert sorted(s.key for s in out) == sorted(s.key for s in todo)
    shared = [k for k, ws in given_to.items() if len(ws) > 1]
    assert len(shared) <= workers - 1


def test_two_workers_alternating_each_finish_their_own_instances():
    """The pool's pattern: workers take turns. Handing out from one line would split every
    instance; here each instance stays with one worker, in run order within it."""
    todo = specs(4)
    queue = SpecQueue(todo)
    got: dict[int, list[EpisodeSpec]] = {0: [], 1: []}
    w = 0
    while queue:
        got[w].append(queue.take(w))
        w = 1 - w
    for mine in got.values():
        for k in {instance_of(s) for s in mine}:
            theirs = [s for s in todo if instance_of(s) == k]
            assert [s for s in mine if instance_of(s) == k] == theirs
    assert {instance_of(got[0][0]), instance_of(got[1][0])} == {("T0", 0, 0), ("T0", 1, 0)}


def test_an_episode_put_back_goes_first():
    todo = specs(3)
    queue = SpecQueue(todo)
    first = queue.take(0)
    later = [queue.take(1) for _ in range(3)]
    queue.put_back(first)  # its worker died: the retry comes before anything else of the run
    assert queue.take(0) == first
    queue.put_back(later[1])
    assert queue.popleft() == later[1]
    assert len(queue) == len(todo) - 4
