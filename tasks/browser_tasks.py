"""The 43 browser task templates (AndroidWorld's BrowserMaze, BrowserMultiply and
BrowserDraw; AnTrap's 40 browser games), one per page of tasks/browser_pages.

Every one is set up as the reference's BrowserTask: shared storage cleared, Chrome's data
cleared (its first-run screens show), its notification permission granted, and the page
with the drawn seed (`browser_task_seed`, uniform in 0..2^32-1) written to
Download/task.html. The goal asks to open that file from Downloads in Files, in Chrome,
then to do what the page asks; the check is the reference's: Chrome in front and an
element whose text is exactly `Success!`. The oracle goes there through Files and
Chrome's first run (tasks/apps/chrome.py), then grounds the page's winning plan
(tasks/browser_pages/plans.py), re-reading the page before each step.

Families that differ only in a constant (Click3..10, the Pick<colour> squares, the
Fill<name> forms) are the templates of one HTML file (`family`) and keep to one split.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import chrome as cr
from antrap_gym.tasks.apps import files as fl
from antrap_gym.tasks.browser_pages import PAGES, page_params
from antrap_gym.tasks.browser_pages.plans import winning_plan
from antrap_gym.tasks.browser_pages.seeded import SEED_MAX
from antrap_gym.tasks.steps import Step
from antrap_gym.tasks.template import DataTask, template

SEED = "browser_task_seed"

#: how the goal opens (our wording of the reference's preamble)
OPEN = ("Open the file task.html from the Downloads folder in the Files app and view it in "
        "Chrome. Then, on that page, ")

#: what each page asks, by its HTML file (its seeded values as placeholders)
ASKS: dict[str, str] = {
    "maze": "move the X to the bottom-right square of the maze using the arrow buttons.",
    "multiply": "press the button five times, keeping each number it shows in mind, then enter "
                "the product of the five numbers and submit it.",
    "draw": "draw on the canvas in each of the three colours the page shows, then submit.",
    "click": "press the big button {n} times.",
    "fill_name": "type the name {name} in the box and submit it.",
    "checkboxes": "tick Apple, Banana and Cherry and nothing else, then submit.",
    "radio": "select the answer Yes and submit.",
    "toggles": "switch all three settings on.",
    "pick_colour": "tap the {colour} square.",
    "order_click": "tap the buttons First, Second and Third, in that order.",
    "dropdown": "choose Banana in the drop-down menu and submit.",
    "slider": "move the slider to 50 and submit.",
    "click_largest": "tap the biggest of the three buttons.",
    "dismiss_cards": "close all three cards with their \u2715 marks.",
    "pick_even": "tap one of the buttons that shows an even number.",
    "copy_code": "type the code the page shows into the box and submit it.",
    "sum": "enter the sum of the two numbers the page shows and submit it.",
    "match_colour": "tap the two boxes that have the same colour.",
    "heart_icon": "tap the heart icon.",
    "agree_terms": "tick the box agreeing to the terms, then press Continue.",
    "unsubscribe": "find the unsubscribe link at the bottom of the newsletter and tap it.",
    "search": "search for {query}: type it in the search box and press Search.",
    "reset_password": "type the same new password in both boxes and save it.",
}

AW_COMPLEXITY = {"BrowserMaze": 2.0, "BrowserMultiply": 2.2, "BrowserDraw": 2.0}
#: held-out pages: a third of them, whole families on one side (the Pick<colour> squares)
TEST = {"BrowserMaze", "BrowserDropdown", "BrowserSum", "BrowserHeartIcon", "BrowserUnsubscribe",
        "BrowserResetPassword", "BrowserMatchColor", "BrowserPickColor",
        *(f"BrowserPick{c}" for c in ("Blue", "Green", "Yellow", "Purple", "Orange", "Pink"))}


class BrowserTask(DataTask):
    """A browser task: the goal names the page's seeded values (the count, the name, the
    query), which the page derives from the seed."""

    @property
    def goal(self) -> str:
        return self.template.format(**self.ns)


def _seed(rng: np.random.Generator) -> dict[str, Any]:
    return {SEED: int(rng.integers(0, SEED_MAX, endpoint=True))}


def _page_values(name: str):
    def derived(p: Mapping[str, Any]) -> dict[str, Any]:
        return page_params(name, int(p[SEED]))
    return derived


def _solution(name: str):
    def solution(ns: Mapping[str, Any]) -> list[Step]:
        return [*cr.to_page(), *cr.on_page(winning_plan(name, int(ns[SEED])))]
    return solution


def family(name: str) -> str:
    """A page shared by several templates (click.html, pick_colour.html, fill_name.html)
    is one family (BrowserClick, BrowserPickColour, BrowserFillName); every other page is
    a family of its own, declared as such: all 43 share one declaration's structure."""
    file = PAGES[name].file
    if sum(p.file == file for p in PAGES.values()) == 1:
        return name
    return "Browser" + "".join(w.capitalize() for w in file.removesuffix(".html").split("_"))


def _declare(name: str) -> type[DataTask]:
    kind = PAGES[name].file.removesuffix(".html")
    aw = name in AW_COMPLEXITY
    return template(
        id=name, source="AndroidWorld" if aw else "AnTrap", apps=(cr.PKG, fl.PKG), kind="action",
        split="test" if name in TEST else "train", family=family(name),
        complexity=AW_COMPLEXITY.get(name, 2.0),
        base=BrowserTask, goal=OPEN + ASKS[kind], params=_seed, derived=_page_values(name),
        setup=cr.setup(name), check=cr.PAGE_WON, solution=_solution(name),
        doc=f"The page {PAGES[name].file} ({'AndroidWorld' if aw else 'AnTrap'}'s {name}); the "
            "check is the reference's: Chrome in front and an element whose text is exactly "
            "'Success!'. Set-up as the reference's: storage cleared, Chrome's data cleared, its "
            "notification permission granted, the page written to Download/task.html.")


BROWSER_TASKS: dict[str, type[DataTask]] = {name: _declare(name) for name in PAGES}
globals().update(BROWSER_TASKS)  # each class is this module's attribute (pickling finds it)

__all__ = ["BROWSER_TASKS", "BrowserTask"]
