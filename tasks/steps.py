"""Semantic solution steps: what to do, named by what a person sees.

A task's `solution()` is a list of these. The oracle grounds each on the live
screen (finds the element, scrolls to it, re-navigates after a disruption),
so a solution is robust where a recorded coordinate script is not.

`screen` names where a step happens: an activity name suffix (".Settings"),
optionally with the popup shown over it ("ContactEditor|Delete contact?" for
a dialog titled so, "List|menu" for a context menu). None means anywhere.
`done` is an optional check, through the device's shell, that makes a step
idempotent: the oracle skips it when the check already holds. `requires`
names an element that must be visible for the step to apply, for screens an
activity name cannot tell apart (which folder is open, whose menu this is).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from antrap_gym.device import Device, UIElement

Check = Callable[["Device"], bool]


@dataclass(frozen=True)
class Target:
    """Matches one element by what it shows: text, description, hint, id, class."""

    text: str | None = None
    desc: str | None = None
    hint: str | None = None
    rid: str | None = None  # resource id, full or the part after ":id/"
    cls: str | None = None  # class name suffix, e.g. "Switch", "EditText"
    contains: bool = False  # substring instead of whole-string text match
    row: str | None = None  # for widgets inside a list row: the row's title text
    #: the first match below the element showing exactly this text (the list row just
    #: before it): one of several same-looking rows, by its place in the list
    after: str | None = None
    #: only an element that is (or is not) selected: a list item picked for an action
    selected: bool | None = None

    def describe(self) -> str:
        for k in ("text", "desc", "hint", "rid", "row"):
            v = getattr(self, k)
            if v:
                return f"{k}={v!r}"
        return f"cls={self.cls!r}"

    def matches(self, el: UIElement) -> bool:
        if self.cls and not (el.class_name or "").endswith(self.cls):
            return False
        if self.selected is not None and el.is_selected != self.selected:
            return False
        if self.text is not None and not _text_match(el.text, self.text, self.contains):
            return False
        if self.desc is not None and not _text_match(el.content_description, self.desc,
                                                     self.contains):
            return False
        if self.hint is not None and not _text_match(el.hint_text, self.hint, self.contains):
            return False
        if self.rid is not None:
            rn = el.resource_name or ""
            if rn != self.rid and not rn.endswith(":id/" + self.rid):
                return False
        return True

    def find(self, elements: list[UIElement]) -> UIElement | None:
        if self.row is not None:
            return _in_row(elements, self)
        if self.after is not None:
            anchor = next((e for e in elements if _norm(e.text or "") == _norm(self.after)), None)
            if anchor is None:
                return None
            elements = [e for e in elements if e.center[1] > anchor.center[1]]
        for el in elements:
            if self.matches(el):
                return el
        return None


def _norm(s: str) -> str:
    """Casefolded, single-spaced. Short ones (labels) are memoised: a screen's labels are
    matched against every step of a plan, step after step."""
    return _short_norm(s) if len(s) <= 256 else _normed(s)


def _normed(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u2011", "-")).strip().casefold()


_short_norm = lru_cache(maxsize=8192)(_normed)


def _text_match(value: str | None, want: str, contains: bool) -> bool:
    if value is None:
        return False
    v, w = _norm(value), _norm(want)
    return w in v if contains else v == w


def _in_row(elements: list[UIElement], t: Target) -> UIElement | None:
    """A widget (e.g. a Switch) that shares a list row with the text `t.row`."""
    label = next((e for e in elements if _text_match(e.text, t.row or "", t.contains)), None)
    if label is None or label.bbox_pixels is None:
        return None
    ly = label.center[1]
    bare = Target(text=t.text, desc=t.desc, hint=t.hint, rid=t.rid, cls=t.cls, contains=t.contains)
    best = None
    for el in elements:
        b = el.bbox_pixels
        if el is label or b is None or not bare.matches(el):
            continue
        if b.y_min - 60 <= ly <= b.y_max + 60 and (best is None or
                                                    abs(el.center[1] - ly) < abs(best.center[1] - ly)):
            best = el
    return best


@dataclass(frozen=True)
class Step:
    screen: str | None = None
    done: Check | None = field(default=None, compare=False)
    #: something that must be on screen for the step to apply (e.g. the toolbar
    #: showing the right folder, a menu titled with the right item); several targets:
    #: all of them (a form's earlier fields showing what was set)
    requires: Target | tuple[Target, ...] | None = None
    note: str = ""
    #: leaving the screen loses what was done on it (a web page Chrome was handed by
    #: another app: BACK closes its tab): when the target is on the phone but not in the
    #: view given (covered, a stale frame), wait for the view rather than back out
    stay: bool = False


@dataclass(frozen=True)
class OpenApp(Step):
    app: str = ""  # the label shown in the launcher, e.g. "Settings"
    package: str = ""


@dataclass(frozen=True)
class Tap(Step):
    target: Target = Target()


@dataclass(frozen=True)
class LongPress(Step):
    target: Target = Target()


@dataclass(frozen=True)
class TypeText(Step):
    """Focus the field and make its text exactly `text` (clearing what was there)."""

    target: Target = Target()
    text: str = ""
    submit: bool = False  # press Enter afterwards


@dataclass(frozen=True)
class SetChecked(Step):
    """Make a switch/checkbox checked (or not); taps only when it differs."""

    target: Target = Target()
    checked: bool = True


@dataclass(frozen=True)
class SetSlider(Step):
    """Tap the slider's track at the fraction that gives the wanted value."""

    target: Target = Target()
    fraction: float = 0.0


@dataclass(frozen=True)
class ChooseOption(Step):
    """Open the drop-down `target` and pick the option showing `option`."""

    target: Target = Target()
    option: str = ""


@dataclass(frozen=True)
class TapColour(Step):
    """Tap the `nth` (reading order, from 0) element painted `colour` (#rrggbb) that has
    no label (a web page's unlabelled coloured box)."""

    colour: str = ""
    nth: int = 0


@dataclass(frozen=True)
class DrawStroke(Step):
    """One finger stroke on `target` through `points`, fractions (0..1) of its width and
    height (a drawing canvas)."""

    target: Target = Target()
    points: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class PressKey(Step):
    key: str = "back"  # back | home | enter


@dataclass(frozen=True)
class Answer(Step):
    text: str = ""


def as_text(steps: list[Step]) -> list[str]:
    """A human-readable rendering of a solution (docs, logs)."""
    out = []
    for s in steps:
        name = type(s).__name__
        if isinstance(s, OpenApp):
            out.append(f"{name}({s.app})")
        elif isinstance(s, TypeText):
            out.append(f"{name}({s.text!r} into {s.target.describe()})")
        elif isinstance(s, (Tap, LongPress, SetChecked, SetSlider)):
            extra = f", {s.checked}" if isinstance(s, SetChecked) else (
                f", {s.fraction:.2f}" if isinstance(s, SetSlider) else "")
            out.append(f"{name}({s.target.describe()}{extra})")
        elif isinstance(s, ChooseOption):
            out.append(f"{name}({s.option!r} in {s.target.describe()})")
        elif isinstance(s, TapColour):
            out.append(f"{name}({s.colour}" + (f", #{s.nth}" if s.nth else "") + ")")
        elif isinstance(s, DrawStroke):
            out.append(f"{name}({s.target.describe()}, {len(s.points)} points)")
        elif isinstance(s, PressKey):
            out.append(f"{name}({s.key})")
        elif isinstance(s, Answer):
            out.append(f"{name}({s.text!r})")
        else:
            out.append(name)
    return out
