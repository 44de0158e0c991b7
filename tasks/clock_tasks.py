"""AndroidWorld's Clock templates (single/clock.py): a timer entered but not started,
the stopwatch running, the stopwatch paused. Their checks read the screen, as the
reference does: DeskClock in front (`dumpsys window`) and what its elements show (the
timer's `HHh MMm SSs`, the stopwatch's buttons by content description).

Set-up clears the app's data (`pm clear`), as the reference's snapshot restore does:
the stopwatch reset and paused at 00:00, no timer, the first tab selected, the Clock
closed.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

from antrap_gym.tasks.apps import clock as ck
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import AllOf, Either, ElementShows, Holds, InForeground, ScreenShows
from antrap_gym.tasks.checks.window import ShownTimes
from antrap_gym.tasks.steps import Step, Tap, Target
from antrap_gym.tasks.template import template

aw = partial(template, apps=(ck.PKG,), source="AndroidWorld", kind="action", complexity=1.0,
             setup=[ck.ClearClock()])
IN_CLOCK = InForeground(ck.PKG, "DeskClock")


def _desc(*labels: str) -> ElementShows:
    return ElementShows(tuple({"content_description": label} for label in labels))


# === ClockTimerEntry ============================================================================


def _timer(rng) -> dict[str, int]:
    return {"hours": int(rng.integers(24)), "minutes": int(rng.integers(60)),
            "seconds": int(rng.integers(60))}


def _shown(p) -> dict[str, str]:
    """The setup display for the parameters, and the keys that type it (no leading 0)."""
    digits = f"{p['hours']:02d}{p['minutes']:02d}{p['seconds']:02d}"
    return {"display": f"{digits[0:2]}h {digits[2:4]}m {digits[4:6]}s",
            "keys": digits.lstrip("0")}


ZERO = "00h 00m 00s"
#: what tells the Timer tab's two views apart (a step on one needs it in front)
SETUP, RUNNING_TIMER = Target(rid="timer_setup_time"), Target(rid="timer_time_text")
_TIMER_TAB = Either(ck.shows("timer_setup_time"), ck.shows("timer_time_text"))


def timer_text(digits: str) -> str:
    """What the timer setup shows for typed digits: "00h 01m 23s" for "123"."""
    d = digits.rjust(6, "0")
    return f"{d[0:2]}h {d[2:4]}m {d[4:6]}s"


@dataclasses.dataclass(frozen=True)
class OneOf:
    """A matcher: the value is one of `values`."""

    values: tuple[str, ...]

    def __call__(self, v: object) -> bool:
        return v in self.values


def _entry(displays: list[str]) -> Holds:
    """A step's `done`: the timer setup display shows one of `displays`."""
    return Holds(ElementShows(({"resource_id": ck.RID + "timer_setup_time",
                                "text": OneOf(tuple(displays))},)))


def _timer_steps(p: dict[str, Any]) -> list[Step]:
    """Open the Timer tab (over a running timer: Add timer), take digits off while the
    entry is not the start of the wanted one, then type each digit where the entry is
    what comes before it (so a wrong key costs one Delete, not the whole entry)."""
    keys = p["keys"]
    shown = [timer_text(keys[:i]) for i in range(len(keys) + 1)]
    steps: list[Step] = [
        ck.open_app(),
        Tap(screen=ck.DESKCLOCK, target=Target(desc="Timer", rid="navigation_bar_item_timer_view"),
            done=_TIMER_TAB),
        Tap(screen=ck.DESKCLOCK, target=Target(text="Add timer"), done=ck.shows("timer_setup_time"),
            requires=RUNNING_TIMER),
        Tap(screen=ck.DESKCLOCK, target=Target(desc="Delete", rid="timer_setup_delete"),
            done=DONE if not keys else _entry(shown), requires=SETUP)]
    for i, k in enumerate(keys):
        steps.append(Tap(screen=ck.DESKCLOCK, target=Target(rid="timer_setup_digit_" + k),
                         done=DONE if i == len(keys) - 1 else _entry(shown[i + 1:]),
                         requires=Target(rid="timer_setup_time", text=shown[i])))
    return steps


ClockTimerEntry = aw(
    id="ClockTimerEntry", split="train",
    goal="Set up a timer of {hours} hours, {minutes} minutes and {seconds} seconds in the Clock "
         "app, without starting it.",
    params=_timer, derived=_shown,
    check=AllOf(IN_CLOCK, ScreenShows("{display}")),
    solution=lambda p: _timer_steps(dict(p)),
    doc="The reference's check: DeskClock in front and an element showing the entry as "
        "`HHh MMm SSs` (the timer setup display, which a started timer replaces by its "
        "countdown). Hours 0..23, minutes and seconds 0..59; the Clock's data cleared first.")


# === ClockStopWatchPausedVerify / ClockStopWatchRunning =========================================

STOPWATCH = Target(rid="stopwatch_time_text")
ON_STOPWATCH = ElementShows(({"resource_id": ck.RID + "stopwatch_time_text"},))
PAUSED_REF = AllOf(IN_CLOCK, _desc("Start"), ShownTimes("Stopwatch", 2))
RUNNING = AllOf(IN_CLOCK, _desc("Pause", "Lap"))
_STOPWATCH_TAB = Tap(screen=ck.DESKCLOCK,
                     target=Target(desc="Stopwatch", rid="navigation_bar_item_stopwatch_view"),
                     done=Holds(ON_STOPWATCH))

ClockStopWatchPausedVerify = aw(
    id="ClockStopWatchPausedVerify", split="test", family="ClockStopWatchPausedVerify",
    goal="Pause the stopwatch in the Clock app.",
    params=lambda rng: {},
    check=AllOf(PAUSED_REF, ON_STOPWATCH),
    solution=[ck.open_app(), _STOPWATCH_TAB,
              Tap(screen=ck.DESKCLOCK, target=Target(desc="Pause"), done=DONE, requires=STOPWATCH)],
    reference_check=PAUSED_REF,
    differs={"check": "Ours also wants the stopwatch's own time display in front; the "
                      "reference's (DeskClock, a Start button, two elements labelled Stopwatch) "
                      "also passes on the Timer tab showing a paused timer's Start button."},
    doc="A Verify row: set-up leaves the stopwatch reset and paused at 00:00, the goal's "
        "state. The reference check (DeskClock in front, a Start button, exactly two "
        "elements labelled Stopwatch: the navigation item and its label) already needs the "
        "Clock open, so it fails right after set-up, which closes it; ours also wants the "
        "stopwatch's own time display in front. The agent has to look, and finish without "
        "starting it.")

ClockStopWatchRunning = aw(
    id="ClockStopWatchRunning", split="train", family="ClockStopWatchRunning",
    goal="Start the stopwatch in the Clock app.",
    params=lambda rng: {},
    check=RUNNING,
    solution=[ck.open_app(), _STOPWATCH_TAB,
              Tap(screen=ck.DESKCLOCK, target=Target(desc="Start"), done=DONE, requires=STOPWATCH)],
    doc="The reference's check: DeskClock in front with the running stopwatch's Pause and "
        "Lap buttons (content descriptions). The stopwatch starts reset at 00:00.")
