"""Declared objects bound to one variant's parameters.

A template is written once, as data (solution steps, checks, set-up recipes), with
placeholders for its parameters; `bind` turns the declaration into the objects of
one task instance. Inside a declaration:

- every string is a format string over the parameters (``"Delete {name}"``;
  write ``{{`` for a literal brace);
- `P("key")` is a parameter's value as it is (a list, a number, a bool);
- `F(fn)` is a value computed from the parameters, ``fn(params)``;
- `DONE`, in a step's ``done``, means "the task's own check holds".

A dataclass field with ``metadata={"literal": True}`` is left as written (a command
with its own placeholders), and so is an object whose `__bind__` returns itself.

Only the declaration is formatted, never a parameter's value, so a note text that
contains braces is safe.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any


class BindError(KeyError):
    """A placeholder names a value the parameters do not have."""


@dataclasses.dataclass(frozen=True)
class P:
    """A parameter's value, unformatted."""

    key: str


@dataclasses.dataclass(frozen=True)
class F:
    """A value computed from the parameters (and derived values)."""

    fn: Callable[[Mapping[str, Any]], Any]


class _Done:
    """The sentinel `DONE`: the step is done when the task's check holds."""

    _instance: _Done | None = None

    def __new__(cls) -> _Done:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "DONE"

    def __call__(self, device: Any) -> bool:  # a Step's `done` is typed as a callable
        raise TypeError("DONE is a placeholder; bind the step to a task first")


DONE = _Done()


def format_text(text: str, ns: Mapping[str, Any]) -> str:
    """`text` with its {placeholders} filled from `ns`."""
    try:
        return text.format_map(ns)
    except KeyError as e:
        raise BindError(e.args[0]) from None
    except (IndexError, ValueError) as e:
        raise ValueError(f"bad placeholder in {text!r}: {e}") from None


def bind(obj: Any, ns: Mapping[str, Any], done: Callable[[Any], bool] | None = None) -> Any:
    """`obj` with every string formatted, every P/F resolved and DONE replaced by
    `done`; dataclasses are rebuilt field by field, containers item by item, and an
    object with a `__bind__(fn)` method rebuilds itself from `fn` of its parts."""
    if isinstance(obj, str):
        return format_text(obj, ns)
    if isinstance(obj, P):
        try:
            return ns[obj.key]
        except KeyError:
            raise BindError(obj.key) from None
    if isinstance(obj, F):
        return obj.fn(ns)
    if obj is DONE:
        if done is None:
            raise ValueError("DONE is only meaningful in a task's solution")
        return done
    hook = getattr(obj, "__bind__", None)
    if hook is not None and not isinstance(obj, type):  # objects that rebuild themselves
        return hook(lambda x: bind(x, ns, done))
    if isinstance(obj, (list, tuple)):
        return type(obj)(bind(x, ns, done) for x in obj)
    if isinstance(obj, dict):
        return {bind(k, ns, done): bind(v, ns, done) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {f.name: bind(getattr(obj, f.name), ns, done)
                   for f in dataclasses.fields(obj) if f.init and not f.metadata.get("literal")}
        return dataclasses.replace(obj, **changes)
    return obj
