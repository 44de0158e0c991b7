"""System state that is not a plain setting, read as AnTrap and AndroidWorld read it:
dark mode from `cmd uimode night`, NFC from `settings get global nfc_on` falling back to
`dumpsys nfc`, and the clipboard through the Clipper helper's `clipper.get` broadcast.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.match import fuzzy_ratio
from antrap_gym.tasks.checks.settings import get_setting

if TYPE_CHECKING:
    from antrap_gym.device import Device

_CLIPPER_DATA = re.compile(r'Broadcast completed: result=(-?\d+), data="(.*)"\s*\Z', re.S)


def read_clipboard(device: Device) -> str | None:
    """The clipboard's text (Clipper's result data); None when Clipper reports no clip
    or does not answer (not installed: the broadcast completes with no data)."""
    out = device.shell("am broadcast -a clipper.get").stdout
    m = _CLIPPER_DATA.search(out)
    if m is None or m.group(1) != "-1":
        return None
    return m.group(2)


def night_mode_on(device: Device) -> bool:
    """AnTrap's reading: the `cmd uimode night` output mentions "yes" or "on"."""
    out = device.shell("cmd uimode night").stdout.strip().lower()
    return "yes" in out or "on" in out


_NFC_STATE = re.compile(r"^\s*mState=(.*?)\s*$", re.M)


def nfc_on(device: Device) -> bool:
    """Global nfc_on when it is 0/1, else the adapter's `mState=` line of `dumpsys nfc`.
    AnTrap looks for the substring "state=on" in the whole dump, which NfcService's
    `mScreenState=ON_UNLOCKED` line always holds (NFC reads as on whatever it is); this
    reads the adapter's own line."""
    val = get_setting(device, "global", "nfc_on")
    if val in ("0", "1"):
        return val == "1"
    m = _NFC_STATE.search(device.shell("dumpsys nfc").stdout)
    return m is not None and m.group(1).lower() == "on"


@dataclasses.dataclass
class NightModeIs(Check):
    """Dark theme is on (or off): a substring test of `cmd uimode night`."""

    on: bool

    def score(self, device: Device, answer: str | None) -> float:
        return float(night_mode_on(device) == self.on)


@dataclasses.dataclass
class NfcIs(Check):
    """NFC is on (or off)."""

    on: bool

    def score(self, device: Device, answer: str | None) -> float:
        return float(nfc_on(device) == self.on)


@dataclasses.dataclass
class ClipboardMatches(Check):
    """The clipboard's text has a difflib ratio of at least `fuzzy` to `text`
    (AndroidWorld's fuzzy_match: 0.9, case ignored)."""

    text: str
    fuzzy: float = 0.9

    def score(self, device: Device, answer: str | None) -> float:
        got = read_clipboard(device)
        return float(got is not None and fuzzy_ratio(got, self.text) >= self.fuzzy)
