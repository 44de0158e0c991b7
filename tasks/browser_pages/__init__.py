"""The 43 browser task pages: one self-contained HTML file per page kind, with the seed
and a page's constants filled in.

A browser task pushes `page_html(name, seed)` to /sdcard/Download/task.html; the page
shows an element whose text is exactly `Success!` once the user has done the task.
Pages that differ only in a constant (BrowserClick3..10, BrowserPickBlue.., BrowserFillBob..)
share one HTML file; the constants are data here (`%%KEY%%` in the file, filled in as
JSON), and the seed fills `%%SEED%%`. `page_params(name, seed)` gives what the page
derives from its seed, computed as its JavaScript does (seeded.py), for goals and
oracles. The pages keep to the HTML/CSS/JS subset of docs/browser-pages.md, so they run
the same in Chrome and in the simulated phone's Chrome.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from antrap_gym.tasks.browser_pages import seeded
from antrap_gym.tasks.browser_pages.seeded import DRAW_PALETTE, MATCH_PALETTE, check_seed

#: the colours of the pick-a-colour squares (name -> hex)
SQUARE_COLOURS = {"blue": "#1e88e5", "green": "#43a047", "red": "#e53935", "yellow": "#fdd835",
                  "purple": "#8e24aa", "orange": "#fb8c00", "pink": "#ec407a"}
FILL_NAMES = ["Alice", "Bob", "Charlie", "Diana", "Edward", "Fiona"]
SEARCH_QUERIES = ["hello", "pizza", "weather", "sunset", "music", "travel"]
BASKET = ["Apple", "Date", "Banana", "Eggplant", "Cherry"]
MENU = ["Apple", "Banana", "Cherry", "Date"]
POLL = ["Yes", "No", "Maybe", "Skip"]
SETTINGS = ["WiFi", "Bluetooth", "Location"]
ORDER = ["First", "Second", "Third"]
#: the sizes page's buttons, left to right: label, font size, padding (px)
SIZES = [["Medium", 18, 10], ["Large", 30, 18], ["Small", 13, 5]]
CARDS = [["Cookie notice", "We use cookies to remember your settings."],
         ["Update available", "Version 2.4 brings a dark theme."],
         ["Weekly tips", "Swipe left on a note to archive it."]]
#: the post's icons: symbol (none: a speech bubble the page draws), accessible name, colour
ICONS = [["\u2665", "Like", "#d93025"], ["", "Comment", "#5f6368"],
         ["\u279c", "Share", "#5f6368"], ["\u2605", "Save", "#f9ab00"]]

Params = Callable[[int], dict]


def _fixed(**params: object) -> Params:
    return lambda seed: dict(params)


@dataclass(frozen=True)
class Page:
    """One task page: its HTML file, the constants filled into it, its parameters."""

    file: str
    params: Params
    consts: dict[str, object] = field(default_factory=dict)


def _pick(colour: str, squares: list[str]) -> Page:
    return Page("pick_colour.html", _fixed(colour=colour, hex=SQUARE_COLOURS[colour]),
                {"SQUARES": [SQUARE_COLOURS[c] for c in squares], "TARGET": SQUARE_COLOURS[colour]})


def _fill(name: str) -> Page:
    return Page("fill_name.html", _fixed(name=name), {"FIXED_NAME": name, "NAMES": FILL_NAMES})


_SEVEN = ["blue", "green", "red", "yellow", "purple", "orange", "pink"]

PAGES: dict[str, Page] = {
    "BrowserMaze": Page("maze.html", seeded.maze),
    "BrowserMultiply": Page("multiply.html", seeded.multiply),
    "BrowserDraw": Page("draw.html", seeded.draw, {"PALETTE": DRAW_PALETTE}),
    "BrowserClickN": Page("click.html", lambda seed: {"n": seed % 4 + 3}, {"FIXED_N": 0}),
    "BrowserFillName": Page("fill_name.html", lambda seed: {"name": FILL_NAMES[seed % 6]},
                            {"FIXED_NAME": "", "NAMES": FILL_NAMES}),
    "BrowserCheckBoxes": Page("checkboxes.html", _fixed(fruits=["Apple", "Banana", "Cherry"]),
                              {"FRUITS": BASKET, "WANTED": ["Apple", "Banana", "Cherry"]}),
    "BrowserRadioPick": Page("radio.html", _fixed(choice="Yes"), {"CHOICES": POLL, "WANTED": "Yes"}),
    "BrowserToggleAll": Page("toggles.html", _fixed(settings=SETTINGS), {"SETTINGS": SETTINGS}),
    "BrowserPickColor": _pick("red", ["blue", "green", "red", "yellow"]),
    "BrowserOrderClick": Page("order_click.html", _fixed(order=ORDER),
                              {"ORDER": ORDER, "SHOWN": ["Third", "First", "Second"]}),
    "BrowserDropdown": Page("dropdown.html", _fixed(fruit="Banana"), {"FRUITS": MENU, "WANTED": "Banana"}),
    "BrowserSlider": Page("slider.html", _fixed(value=50, slack=2), {"WANTED": 50, "SLACK": 2}),
    "BrowserClickLargest": Page("click_largest.html", _fixed(label="Large"),
                                {"BUTTONS": SIZES, "WANTED": "Large"}),
    "BrowserDismissCards": Page("dismiss_cards.html", _fixed(cards=[c[0] for c in CARDS]), {"CARDS": CARDS}),
    "BrowserPickEven": Page("pick_even.html", _fixed(even=[2, 4, 6]), {"NUMBERS": [1, 2, 3, 4, 5, 6]}),
    "BrowserCopyCode": Page("copy_code.html", lambda seed: {"code": seed % 9000 + 1000}),
    "BrowserSum": Page("sum.html", lambda seed: {"a": seed % 9 + 1, "b": seed // 9 % 9 + 1,
                                                  "sum": seed % 9 + seed // 9 % 9 + 2}),
    "BrowserMatchColor": Page("match_colour.html", seeded.match_colour, {"PALETTE": MATCH_PALETTE}),
    "BrowserHeartIcon": Page("heart_icon.html", _fixed(icon=ICONS[0][0], name="Like"),
                             {"ICONS": ICONS, "WANTED": "Like"}),
    "BrowserAgreeTerms": Page("agree_terms.html", _fixed()),
    "BrowserUnsubscribe": Page("unsubscribe.html", _fixed(link="Unsubscribe")),
    "BrowserSearch": Page("search.html", lambda seed: {"query": SEARCH_QUERIES[seed % 6]},
                          {"QUERIES": SEARCH_QUERIES}),
    "BrowserResetPassword": Page("reset_password.html", _fixed()),
    **{f"BrowserClick{n}": Page("click.html", _fixed(n=n), {"FIXED_N": n}) for n in range(3, 11)},
    **{f"BrowserPick{c.capitalize()}": _pick(c, _SEVEN)
       for c in ["blue", "green", "yellow", "purple", "orange", "pink"]},
    **{f"BrowserFill{name}": _fill(name) for name in ["Bob", "Charlie", "Diana", "Edward", "Fiona", "Grace"]},
}

_TOKEN = re.compile(r"%%([A-Z_]+)%%")


def _page(name: str) -> Page:
    try:
        return PAGES[name]
    except KeyError:
        raise ValueError(f"no browser page {name!r}; the pages are {', '.join(sorted(PAGES))}") from None


@cache
def _source(file: str) -> str:
    return resources.files(__name__).joinpath(file).read_text(encoding="utf-8")


def page_template(name: str) -> str:
    """The page's HTML with its constants filled in and `%%SEED%%` still in place."""
    page = _page(name)

    def fill(m: re.Match) -> str:
        key = m.group(1)
        if key == "SEED":
            return m.group(0)
        if key not in page.consts:
            raise KeyError(f"{page.file} needs {key}, which {name} does not give")
        return json.dumps(page.consts[key], ensure_ascii=False)

    return _TOKEN.sub(fill, _source(page.file))


def page_html(name: str, seed: int) -> str:
    """The page exactly as a task pushes it: constants and the seed (0..2^32-1) filled in."""
    return page_template(name).replace("%%SEED%%", str(check_seed(seed)))


def page_params(name: str, seed: int) -> dict:
    """What the page derives from its seed (and its constants), as its script does."""
    return _page(name).params(check_seed(seed))


__all__ = ["PAGES", "Page", "page_html", "page_params", "page_template"]
