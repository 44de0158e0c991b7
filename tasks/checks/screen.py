"""Text on the screen, from the accessibility elements (`ui_elements`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.match import squash

if TYPE_CHECKING:
    from antrap_gym.device import Device


@dataclasses.dataclass
class ScreenShows(Check):
    """Some element shows `text` (its text or content description; whole text unless
    `contains`), optionally only in `package`'s window (the focused app)."""

    text: str
    contains: bool = False
    package: str | None = None

    def score(self, device: Device, answer: str | None) -> float:
        if self.package is not None and device.foreground()[0] != self.package:
            return 0.0
        want = squash(self.text)
        for el in device.ui_elements():
            for shown in (el.text, el.content_description):
                if shown and (want in squash(shown) if self.contains else squash(shown) == want):
                    return 1.0
        return 0.0


#: the accessibility fields an `ElementShows` pattern may name
ELEMENT_FIELDS = ("text", "content_description", "hint_text", "class_name", "resource_id")


@dataclasses.dataclass
class ElementShows(Check):
    """Each pattern matches a different element on screen: a pattern maps element fields
    (`ELEMENT_FIELDS`) to matchers (`Eq`, `Text`, `Fuzzy`, `Phone`...) or to a plain
    value (equality). What a form shows before it is saved is checked this way
    (AndroidWorld's ContactsNewContactDraft reads the editor's fields by their hints)."""

    patterns: tuple[dict[str, Any], ...]

    def __post_init__(self) -> None:
        for p in self.patterns:
            unknown = set(p) - set(ELEMENT_FIELDS)
            if unknown or not p:
                raise ValueError(f"element pattern {p!r}: fields must be some of {ELEMENT_FIELDS}")

    def score(self, device: Device, answer: str | None) -> float:
        els = device.ui_elements()
        used: set[int] = set()
        for p in self.patterns:
            i = next((i for i, el in enumerate(els) if i not in used and _matches(el, p)), None)
            if i is None:
                return 0.0
            used.add(i)
        return 1.0


#: a pattern's field -> the element's attribute (the id as uiautomator names it)
_ATTR = {"resource_id": "resource_name"}


def _matches(el: Any, pattern: dict[str, Any]) -> bool:
    for name, want in pattern.items():
        value = getattr(el, _ATTR.get(name, name), None)
        if not (want(value) if callable(want) else value == want):
            return False
    return True
