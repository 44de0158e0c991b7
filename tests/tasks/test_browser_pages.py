"""The 43 browser task pages in headless Chromium: each is won by its plan (taps, typing,
a drop-down pick, a slider drag, finger strokes on a canvas), never shows `Success!` at load
or after wrong moves, and shows what its Python parameters say it shows, for seeds across
0..2^32-1. Also: the pages keep to the shared HTML/CSS/JS subset (docs/browser-pages.md)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from antrap_gym.tasks.browser_pages import PAGES, page_html, page_params, page_template
from antrap_gym.tasks.browser_pages.plans import ChooseOption, DrawStroke, losing_plans, winning_plan
from antrap_gym.tasks.browser_pages.seeded import DRAW_PALETTE
from antrap_gym.tasks.steps import Tap, Target

playwright = pytest.importorskip("playwright.sync_api")
from tests.tasks.chromium_pages import ARGS, CHROMIUM, PageDriver, _rgb  # noqa: E402

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs {CHROMIUM}")

SEEDS = [0, 2**31, 2**32 - 1]
#: pages whose content depends on the seed get more: 0..5 cover every N (mod 4) and name/query (mod 6)
SEEDED = {"BrowserMaze", "BrowserMultiply", "BrowserDraw", "BrowserClickN", "BrowserFillName",
          "BrowserCopyCode", "BrowserSum", "BrowserMatchColor", "BrowserSearch"}
CASES = [(name, seed) for name in PAGES for seed in ([*SEEDS, 1, 2, 3, 4, 5] if name in SEEDED else SEEDS)]


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs {CHROMIUM}")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield PageDriver(browser, tmp_path_factory.mktemp("pages"))
        browser.close()


def _load(driver: PageDriver, name: str, seed: int) -> None:
    driver.load(page_html(name, seed))
    assert not driver.errors, driver.errors
    assert not driver.shows_success(), f"{name} shows Success! at load"


@needs_chromium
@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_the_plan_wins_and_wrong_moves_do_not(driver, name, seed):
    _load(driver, name, seed)
    driver.run(winning_plan(name, seed))
    assert driver.shows_success(), f"{name} seed {seed}: no Success! after its plan: {driver.texts()}"
    assert not driver.errors, driver.errors
    for plan in losing_plans(name, seed):
        _load(driver, name, seed)
        driver.run(plan)
        assert not driver.shows_success(), f"{name} seed {seed}: Success! after a wrong plan {plan}"


# -- the page shows what page_params says (Python and the page's JS agree) --------------------

AGREE_SEEDS = [0, 1, 2, 7, 2**31, 2**32 - 1, 2718281828, 4000000000]


@needs_chromium
@pytest.mark.parametrize("seed", AGREE_SEEDS)
def test_maze_walls_on_the_page_are_the_python_layout(driver, seed):
    _load(driver, "BrowserMaze", seed)
    # the board is a (2n+1)^2 grid of posts, walls and cells; a wall is dark where closed
    grid = driver.page.evaluate("""() => [...document.getElementById('board').children].map(
        row => [...row.children].map(el => getComputedStyle(el).backgroundColor))""")
    p = page_params("BrowserMaze", seed)
    n, dark = p["size"], grid[0][0]
    for r in range(n):
        for c in range(n):
            shown = {"U": grid[2 * r][2 * c + 1], "D": grid[2 * r + 2][2 * c + 1],
                     "L": grid[2 * r + 1][2 * c], "R": grid[2 * r + 1][2 * c + 2]}
            assert {d for d, bg in shown.items() if bg != dark} == set(p["open"][r][c]), (seed, r, c)
    assert "X" in driver.texts()


@needs_chromium
@pytest.mark.parametrize("seed", AGREE_SEEDS)
def test_multiply_shows_the_python_numbers_in_order(driver, seed):
    _load(driver, "BrowserMultiply", seed)
    shown = []
    for _ in range(5):
        driver.step(Tap(target=Target(text="Next number")))
        shown.append(driver.page.text_content("#number"))
    assert shown == [str(n) for n in page_params("BrowserMultiply", seed)["numbers"]]
    assert Target(text="Next number").find(driver.elements()) is None  # the button is gone
    assert Target(hint="Your answer").find(driver.elements()) is not None


@needs_chromium
@pytest.mark.parametrize("seed", AGREE_SEEDS)
def test_draw_shows_the_python_colours(driver, seed):
    _load(driver, "BrowserDraw", seed)
    chips = driver.page.evaluate("""() => [...document.querySelectorAll('.target')].map(
        t => [t.textContent.trim(), getComputedStyle(t.firstChild).backgroundColor])""")
    assert chips == [[c["name"], _rgb(c["hex"])] for c in page_params("BrowserDraw", seed)["colours"]]
    swatches = [e.content_description for e in driver.elements() if e.class_name == "android.widget.Button"
                and e.content_description]
    assert swatches == [n for n, _ in DRAW_PALETTE]


@needs_chromium
@pytest.mark.parametrize("seed", AGREE_SEEDS)
def test_code_sum_and_pair_colours_shown_are_the_python_ones(driver, seed):
    _load(driver, "BrowserCopyCode", seed)
    assert str(page_params("BrowserCopyCode", seed)["code"]) in driver.texts()
    _load(driver, "BrowserSum", seed)
    p = page_params("BrowserSum", seed)
    assert f"{p['a']} + {p['b']} = ?" in driver.texts() and p["sum"] == p["a"] + p["b"]
    _load(driver, "BrowserMatchColor", seed)
    boxes = driver.page.evaluate(
        "() => [...document.querySelectorAll('.box')].map(b => getComputedStyle(b).backgroundColor)")
    p = page_params("BrowserMatchColor", seed)
    assert boxes == [_rgb(h) for h in p["colours"]]
    assert [i for i, h in enumerate(p["colours"]) if p["colours"].count(h) == 2] == p["pair"]


@needs_chromium
def test_a_drawing_canvas_needs_touch_action_none_in_chrome(driver):
    """Why the drawing page's canvas carries `touch-action: none` (docs/browser-pages.md asks
    it of every drawing canvas): without it Chrome takes a finger stroke for itself
    (pointercancel) and the page paints one dab where the finger went down, never a line."""
    stroke = DrawStroke(target=Target(desc="Drawing area"), points=((0.5, 0.1), (0.5, 0.9)))
    painted = []
    page = page_html("BrowserDraw", 0)
    for html in (page, page.replace("touch-action: none; ", "")):
        driver.load(html)
        driver.step(stroke)
        painted.append(driver.page.evaluate("""() => { const c = document.getElementById('pad');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let p = 0; p < d.length; p += 4) if (d[p] + d[p + 1] + d[p + 2] !== 765) n++;
            return n; }"""))
    assert painted[0] > 8 * 150 and painted[1] * 4 < painted[0], painted  # a line vs a dab and a nudge


@needs_chromium
def test_a_wrong_tap_resets_the_order(driver):
    _load(driver, "BrowserOrderClick", 0)
    for label in ("First", "Second", "First", "Third"):
        driver.step(Tap(target=Target(text=label)))
    assert not driver.shows_success()  # the wrong First undid First, Second: Third is wrong too
    assert "0 / 3" in driver.texts()
    _load(driver, "BrowserOrderClick", 0)
    for label in ("First", "Third", "First", "Second", "Third"):
        driver.step(Tap(target=Target(text=label)))
    assert driver.shows_success()


@needs_chromium
def test_choose_option_picks_by_text(driver):
    _load(driver, "BrowserDropdown", 0)
    driver.step(ChooseOption(target=Target(desc="Fruit"), option="Banana"))
    assert driver.page.eval_on_selector("#fruit", "s => s.value") == "Banana"


# -- the sources: parameters, seeds and the shared subset, without a browser ----------------------

def test_every_page_fills_all_its_tokens_and_keeps_the_seed_token_until_the_seed():
    for name in PAGES:
        template = page_template(name)
        assert re.findall(r"%%[A-Z_]+%%", template) == ["%%SEED%%"], name
        html = page_html(name, 2**32 - 1)
        assert "%%" not in html and "const SEED = 4294967295;" in html
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_families_share_one_file_and_derive_the_catalog_parameters():
    assert len(PAGES) == 43
    assert {PAGES[f"BrowserClick{n}"].file for n in range(3, 11)} == {PAGES["BrowserClickN"].file}
    assert [page_params("BrowserClickN", s)["n"] for s in (0, 1, 2, 3, 2**32 - 1)] == [3, 4, 5, 6, 6]
    assert [page_params("BrowserFillName", s)["name"] for s in range(7)] == [
        "Alice", "Bob", "Charlie", "Diana", "Edward", "Fiona", "Alice"]
    assert page_params("BrowserCopyCode", 2**32 - 1) == {"code": (2**32 - 1) % 9000 + 1000}
    # 4294967295 = 9 * 477218588 + 3 and 477218588 = 9 * 53024287 + 5
    assert page_params("BrowserSum", 2**32 - 1) == {"a": 4, "b": 6, "sum": 10}
    assert page_params("BrowserSearch", 2**31)["query"] == "weather"  # 2^31 mod 6 = 2 -> the third
    assert page_params("BrowserPickOrange", 5) == {"colour": "orange", "hex": "#fb8c00"}
    assert page_params("BrowserFillGrace", 5) == {"name": "Grace"}


def test_seeded_parameters_are_deterministic_and_vary():
    mazes = {str(page_params("BrowserMaze", s)["open"]) for s in range(40)}
    assert len(mazes) > 20 and page_params("BrowserMaze", 9) == page_params("BrowserMaze", 9)
    for s in range(40):
        m = page_params("BrowserMaze", s)
        assert sum(len(cell) for row in m["open"] for cell in row) == 2 * 15  # a spanning tree: 15 passages
        nums = page_params("BrowserMultiply", s)["numbers"]
        assert len(nums) == 5 and all(1 <= x <= 10 for x in nums)
        assert len({c["name"] for c in page_params("BrowserDraw", s)["colours"]}) == 3


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "7", True, None])
def test_a_bad_seed_or_name_is_a_clear_error(seed):
    with pytest.raises(ValueError, match="seed"):
        page_html("BrowserSum", seed)
    with pytest.raises(ValueError, match="seed"):
        page_params("BrowserMaze", seed)
    with pytest.raises(ValueError, match="no browser page 'BrowserNope'"):
        page_html("BrowserNope", 1)


# The subset of docs/browser-pages.md (touch-action: that document asks it of a drawing canvas).
_TAGS = {"html", "head", "title", "meta", "style", "script", "body", "div", "span", "p", "h1", "h2", "h3",
         "a", "button", "input", "label", "select", "option", "textarea", "canvas", "ul", "ol", "li", "br",
         "hr"}
_ATTRS = {"id", "class", "style", "name", "type", "value", "placeholder", "checked", "disabled", "hidden",
          "min", "max", "step", "for", "selected", "width", "height", "aria-label", "title", "href",
          "content", "charset"}
_PROPS = {"display", "flex-direction", "flex-wrap", "gap", "justify-content", "align-items", "width",
          "height", "min-height", "max-width", "margin", "padding", "border", "border-radius", "background",
          "background-color", "color", "font-size", "font-weight", "text-align", "text-decoration",
          "overflow", "visibility", "touch-action"}
_FORBIDDEN_JS = ["Math.random", "setTimeout", "setInterval", "requestAnimationFrame", "fetch(",
                 "XMLHttpRequest", "localStorage", "alert(", "confirm(", "prompt(", "innerText", "innerHTML",
                 "location", "addEventListener('mouse", "addEventListener('touch", "getBoundingClientRect"]


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.scripts, self.styles = set(), set(), [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs |= {a for a, _ in attrs if not a.startswith("data-")}
        self.styles += [v for a, v in attrs if a == "style"]
        self._in = tag if tag in ("script", "style") else None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts.append(data)
        elif self._in == "style":
            self.styles.append(data)


@pytest.mark.parametrize("file", sorted({p.file for p in PAGES.values()}))
def test_pages_keep_to_the_shared_subset(file):
    name = next(n for n, p in PAGES.items() if p.file == file)
    parsed = _Tags()
    parsed.feed(page_html(name, 12345))
    assert parsed.tags <= _TAGS, parsed.tags - _TAGS
    assert parsed.attrs <= _ATTRS, parsed.attrs - _ATTRS
    css = "\n".join(parsed.styles)
    props = set(re.findall(r"([a-z-]+)\s*:", re.sub(r"[^{};]*\{", ";", css)))
    assert props <= _PROPS, props - _PROPS
    assert ("touch-action" in props) == (file == "draw.html")  # only a drawing canvas needs it
    js = "\n".join(parsed.scripts)
    assert [bad for bad in _FORBIDDEN_JS if bad in js] == []
    assert "Success!" in js  # shown by the script, never in the markup at load
