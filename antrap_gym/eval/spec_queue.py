"""The episodes a run still has to hand out, grouped by task instance.

A task instance's episodes (every agent and setting of one template, variant and run)
meet the same phone states: the start screen, the oracle's path, the states before a
trap fires. A worker remembers what it measured there (the oracle's distances, the
frames it painted), so each worker is given the rest of the instance it is on before it
starts another, and a new instance is one no other worker is on. Handing episodes out
one by one from a single line instead splits every instance between the workers, and
each of them measures the same states again. Only at the end, when every instance left
is another worker's, does a worker help with one.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable, Iterable

from antrap_gym.eval.spec import EpisodeSpec


def instance_of(spec: EpisodeSpec) -> tuple[str, int, int]:
    return (spec.task, spec.variant, spec.run)


class SpecQueue:
    """Episodes in their run order, handed to workers instance by instance."""

    def __init__(self, specs: Iterable[EpisodeSpec]) -> None:
        self._groups: OrderedDict[Hashable, deque[EpisodeSpec]] = OrderedDict()
        for spec in specs:
            self._groups.setdefault(instance_of(spec), deque()).append(spec)
        self._size = sum(len(g) for g in self._groups.values())
        #: worker -> the instance it was last given
        self._on: dict[Hashable, Hashable] = {}

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def take(self, worker: Hashable) -> EpisodeSpec:
        """The next episode for `worker`: the rest of its instance, else the first
        instance no other worker is on, else the first one left."""
        if not self._size:
            raise IndexError("no episodes left")
        key = self._on.get(worker)
        if key not in self._groups:
            busy = {k for w, k in self._on.items() if w != worker}
            key = next((k for k in self._groups if k not in busy), next(iter(self._groups)))
            self._on[worker] = key
        return self._pop(key)

    def popleft(self) -> EpisodeSpec:
        """The first episode left, in run order (for recording the rest as errors)."""
        if not self._size:
            raise IndexError("no episodes left")
        return self._pop(next(iter(self._groups)))

    def put_back(self, spec: EpisodeSpec) -> None:
        """An episode to run again: first of its instance, and its instance first."""
        key = instance_of(spec)
        self._groups.setdefault(key, deque()).appendleft(spec)
        self._groups.move_to_end(key, last=False)
        self._size += 1

    def _pop(self, key: Hashable) -> EpisodeSpec:
        group = self._groups[key]
        spec = group.popleft()
        if not group:
            del self._groups[key]
        self._size -= 1
        return spec
