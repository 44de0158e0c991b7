"""Config errors as one readable line per problem, naming the dotted key.

The training config is validated by pydantic (`training.config`); this module turns
its `ValidationError` into `ConfigError` messages in the project's words
(`sft.max_steps must be at least 1, got -5`, `unknown config key 'sft.lrr' (did
you mean 'lr'?)`) and checks the keys passed through to a TRL config class.
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from typing import Any

from pydantic import ValidationError


class ConfigError(ValueError):
    """A training config that cannot be used (the message says which key and why)."""


def unknown_key(section: str, key: str, known: list[str], hint: str | None = None) -> ConfigError:
    """The error for `key` in `section`: the closest known key (or `hint`) and the known ones."""
    if hint is None:
        close = difflib.get_close_matches(key, known, n=1)
        hint = repr(close[0]) if close else None
    where = f"{section}.{key}" if section else key
    return ConfigError(f"unknown config key {where!r}{f' (did you mean {hint}?)' if hint else ''}; "
                       f"known keys{' in ' + section if section else ''}: {', '.join(known)}")


def _unwrap(tp: Any) -> Any:
    """The type inside `X | None` or `Annotated[X, ...]`, else `tp`."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _unwrap(args[0]) if len(args) == 1 else tp
    return tp


def _section_keys(root: type, loc: tuple[Any, ...]) -> list[str]:
    """The keys a section takes: the fields of the dataclass found at `loc` under `root`."""
    cls = root
    for part in loc:
        fields = getattr(cls, "__pydantic_fields__", None)
        if not fields or part not in fields:
            return []
        cls = _unwrap(fields[part].annotation)
    return [f.name for f in dataclasses.fields(cls) if f.init] if dataclasses.is_dataclass(cls) else []


_PLAIN = {
    "int_type": "must be an integer", "int_parsing": "must be an integer",
    "int_from_float": "must be an integer", "float_type": "must be a number",
    "float_parsing": "must be a number", "finite_number": "must be a finite number",
    "bool_type": "must be true or false", "bool_parsing": "must be true or false",
    "string_type": "must be a string", "list_type": "must be a list",
    "dict_type": "must be a mapping", "dataclass_type": "must be a mapping",
    "dataclass_args_type": "must be a mapping",
}


def _text(err: dict[str, Any]) -> str:
    """What is wrong with the value, in the project's words (no key, no value)."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind == "greater_than":
        return "must be positive" if ctx["gt"] == 0 else f"must be greater than {ctx['gt']}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}"
    if kind == "less_than":
        return f"must be less than {ctx['lt']}"
    if kind == "less_than_equal":
        return f"must be at most {ctx['le']}"
    if kind == "literal_error":
        return "must be one of " + str(ctx["expected"]).replace("'", "").replace(" or ", ", ")
    if kind == "value_error":
        return str(ctx["error"])
    return str(err["msg"])


def describe(error: ValidationError, root: type, prefix: tuple[str, ...] = ()) -> ConfigError:
    """One `ConfigError` for every problem pydantic found validating `root` (a config
    dataclass) from a mapping; `prefix` is the key path of that mapping."""
    lines = []
    for err in error.errors():
        loc = tuple(str(p) for p in err["loc"])
        if err["type"] in ("unexpected_keyword_argument", "extra_forbidden"):
            lines.append(str(unknown_key(".".join(prefix + loc[:-1]), loc[-1],
                                         _section_keys(root, loc[:-1]))))
            continue
        where = ".".join(prefix + loc) or root.__name__
        text = _text(err)
        if err["type"] == "value_error":  # our own validators' messages say what they saw
            lines.append(f"{where} {text}" if text.startswith("must") else f"{where}: {text}")
        else:
            lines.append(f"{where} {text}, got {err['input']!r}")
    return ConfigError("; ".join(lines))


def check_passthrough(extra: dict[str, Any], section: str, trl_class: str, ours: list[str]) -> None:
    """`extra`'s keys must be arguments of TRL's `trl_class` (e.g. GRPOConfig), where TRL is
    installed: an unknown key is an error naming it, and one of the section's own keys
    (`ours`) says to set it there. Without TRL there is nothing to check against."""
    if not extra:
        return
    try:
        import trl
    except ImportError:
        return
    known = [f.name for f in dataclasses.fields(getattr(trl, trl_class)) if f.init]
    for key in map(str, extra):
        if key in known:
            continue
        if key in ours:
            hint = f"set {section}.{key} instead"
        else:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"see trl.{trl_class}'s arguments"
        raise ConfigError(f"unknown config key '{section}.extra.{key}': {section}.extra takes "
                          f"trl.{trl_class} arguments only ({hint})")


def trl_config(cls: type, kwargs: dict[str, Any], section: str) -> Any:
    """`cls(**kwargs)`, a TRL config built from the `section` section: TRL refusing a value
    (one of `<section>.extra`'s, or a combination it does not allow) is a config error."""
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"trl.{cls.__name__} refuses the {section} settings ({section}.*, "
                          f"{section}.extra): {e}") from None


__all__ = ["ConfigError", "check_passthrough", "describe", "trl_config", "unknown_key"]
