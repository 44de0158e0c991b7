"""Solution steps for a list whose rows are selected with a long press, then by their
check boxes (Retro Music's songs, VLC's videos), and the `done` conditions they need:
selecting is under way, and a row's box is ticked, read from the screen's elements."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.checks import Either
from antrap_gym.tasks.steps import LongPress, PressKey, SetChecked, Step, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

CHECK_BOX = "android.widget.CheckBox"
#: a check box on screen: rows are being selected
BOXES = Target(cls="CheckBox")


def selecting(device: Device) -> bool:
    """Rows show check boxes: a selection is under way."""
    return any((e.class_name or "") == CHECK_BOX for e in device.ui_elements())


def _box(device: Device, title: str):
    """The check box of the row titled `title`, if that row is on screen."""
    return Target(cls="CheckBox", row=title).find(device.ui_elements())


@dataclasses.dataclass(frozen=True)
class Ticked:
    """The row titled `title` is ticked, as far as the screen tells (as a `done`): its
    box when the row shows; else the bar counts `n` or more selected and no row on
    screen outside `wanted` is ticked (rows are ticked in order, so the first n are)."""

    title: str
    n: int = 1
    wanted: tuple[str, ...] = ()

    def __call__(self, device: Device) -> bool:
        box = _box(device, self.title)
        if box is not None:
            return bool(box.is_checked)
        count = selected_count(device)
        return count is not None and count >= self.n and not any(
            _is_ticked(device, t) for t in stray_titles(device, self.wanted))


def _is_ticked(device: Device, title: str) -> bool:
    box = _box(device, title)
    return box is not None and bool(box.is_checked)


def stray_titles(device: Device, wanted: tuple[str, ...]) -> list[str]:
    """The titles of the ticked rows on screen that are not `wanted`."""
    els = device.ui_elements()
    out = []
    for el in els:
        if (el.class_name or "") != CHECK_BOX or not el.is_checked or el.bbox_pixels is None:
            continue
        y = el.center[1]
        label = next((e for e in els if e.text and (e.class_name or "").endswith("TextView")
                      and e.bbox_pixels is not None and e.bbox_pixels.y_min <= y <= e.bbox_pixels.y_max
                      and e.bbox_pixels.x_max < el.bbox_pixels.x_min), None)
        if label is not None and label.text not in wanted:
            out.append(label.text)
    return out


@dataclasses.dataclass(frozen=True)
class Untouched:
    """The row titled `title` is not ticked, or not on screen (as a `done`)."""

    title: str

    def __call__(self, device: Device) -> bool:
        return not _is_ticked(device, self.title)


def selected_count(device: Device) -> int | None:
    """How many rows the selection bar says are selected (None: no selection)."""
    for e in device.ui_elements():
        words = (e.text or "").split()
        if len(words) == 2 and words[1] == "selected" and words[0].isdigit():
            return int(words[0])
    return None


@dataclasses.dataclass(frozen=True)
class InTurn:
    """Not spoiled before ticking the row `title`, the (i+1)-th wanted one: false only
    when that row shows unticked while more than i rows are selected already (a stray
    touch ticked another row, whose place in the order is then wrong)."""

    title: str
    i: int

    def __call__(self, device: Device) -> bool:
        box = _box(device, self.title)
        count = selected_count(device)
        return box is None or bool(box.is_checked) or count is None or count <= self.i


@dataclasses.dataclass(frozen=True)
class NotOverSelected:
    """No selection, or one of at most `n` rows: true unless a stray row got ticked."""

    n: int

    def __call__(self, device: Device) -> bool:
        count = selected_count(device)
        return count is None or count <= self.n


@dataclasses.dataclass(frozen=True)
class TabShown:
    """The tab labelled `label` is the selected one (as a `done`)."""

    label: str

    def __call__(self, device: Device) -> bool:
        return any(e.text == self.label and e.is_selected for e in device.ui_elements())


@dataclasses.dataclass(frozen=True)
class Not:
    """True while `check` is false: the `done` of a step that must wait for an earlier
    part of the plan (it counts as done, so the oracle neither jumps ahead to it nor
    takes it, until that part holds)."""

    check: Any

    def __call__(self, device: Device) -> bool:
        return not self.check(device)


def tab_target(label: str) -> Target:
    """The tab labelled `label`, when it is the one shown (a step's `requires`)."""
    return Target(text=label, cls="TextView", selected=True)


def select_steps(screen: str, titles: list[str], done: Any, others: tuple[str, ...] = (),
                 tab: str | None = None, ordered: bool = True) -> list[Step]:
    """On the list of the tab labelled `tab` (None: the screen's only list): long-press
    the first row (selecting starts with it), untick any of `others` (the rows not
    wanted) a stray touch ticked, then tick every wanted row, in order; each step is
    skipped once `done` holds. Unless `ordered`, the order of the ticks does not matter."""
    wanted = tuple(titles)
    on = (tab_target(tab),) if tab else ()
    steps: list[Step] = [LongPress(screen=screen, target=Target(text=titles[0]),
                                   requires=on or None, done=Either(done, selecting))]
    # (ticks need check boxes on the rows: when BACK ended the selection, the long press
    # is taken again)
    steps += [SetChecked(screen=screen, target=Target(cls="CheckBox", row=t), checked=False,
                         requires=(BOXES, *on), done=Either(done, Untouched(t))) for t in others]
    for i, t in enumerate(titles):
        # a row ticked out of turn spoils the order: BACK ends the selection, the long
        # press starts it again
        if ordered:
            steps.append(PressKey(key="back", done=Either(done, InTurn(t, i))))
        steps += [SetChecked(screen=screen, target=Target(cls="CheckBox", row=t), checked=True,
                             requires=(BOXES, *on), done=Either(done, Ticked(t, i + 1, wanted)))]
    # a stray tick off screen spoils the selection too: BACK ends it, and the long press
    # starts it again
    steps.append(PressKey(key="back", done=Either(done, NotOverSelected(len(titles)))))
    return steps
