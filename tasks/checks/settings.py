"""Checks on the settings provider, read with `settings get` as on any phone."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check

if TYPE_CHECKING:
    from antrap_gym.device import Device

NAMESPACES = ("system", "secure", "global")


def get_setting(device: Device, namespace: str, key: str) -> str:
    """The value as `settings get` prints it ("null" when unset)."""
    return device.shell(f"settings get {namespace} {key}").stdout.strip()


def _ns(namespace: str) -> str:
    if namespace not in NAMESPACES:
        raise ValueError(f"settings namespace {namespace!r} is not one of {NAMESPACES}")
    return namespace


@dataclasses.dataclass
class SettingEquals(Check):
    """The setting's value is exactly `value` (as text)."""

    namespace: str
    key: str
    value: str

    def __post_init__(self) -> None:
        _ns(self.namespace)

    def score(self, device: Device, answer: str | None) -> float:
        return float(get_setting(device, self.namespace, self.key) == str(self.value))


@dataclasses.dataclass
class SettingIn(Check):
    """The setting's value is one of `values` (or, with `inside=False`, none of them):
    a switch whose "on" is stored as several values (wifi_on 1 or 2)."""

    namespace: str
    key: str
    values: tuple[str, ...]
    inside: bool = True

    def __post_init__(self) -> None:
        _ns(self.namespace)

    def score(self, device: Device, answer: str | None) -> float:
        return float((get_setting(device, self.namespace, self.key) in self.values) == self.inside)


@dataclasses.dataclass
class SettingNear(Check):
    """A numeric setting, as `unit * value / full` (e.g. brightness 0..255 as a percent),
    within `tolerance` of `target`; an unset or non-numeric value fails."""

    namespace: str
    key: str
    target: float
    tolerance: float
    full: int = 255
    unit: int = 100

    def __post_init__(self) -> None:
        _ns(self.namespace)

    def score(self, device: Device, answer: str | None) -> float:
        try:
            value = self.unit * int(get_setting(device, self.namespace, self.key)) / self.full
        except ValueError:
            return 0.0
        return float(abs(value - self.target) <= self.tolerance)
