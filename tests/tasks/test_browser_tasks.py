"""The 43 browser task templates on the simulated phone: the same seed and the same
winning plan give `Success!` in the simulated Chrome (the oracle, through Files and
Chrome's first run) and in headless Chromium; the set-up is the reference's, through
the shell; and the oracle finds its way back into the page after what traps do (sent
home, BACK out of the page, a stray tap, a covered button, the "Open with" chooser)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps import Activity, App, default_apps
from antrap_gym.device.sim.intents import IntentFilter
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.apps import chrome as cr
from antrap_gym.tasks.apps.grants import granted
from antrap_gym.tasks.browser_pages import PAGES, page_html, page_params
from antrap_gym.tasks.browser_pages.plans import CANVAS, winning_plan
from antrap_gym.tasks.browser_pages.seeded import DRAW_PALETTE, MOVES, SEED_MAX
from antrap_gym.tasks.browser_pages.shown import Drawn, maze_position
from antrap_gym.tasks.browser_tasks import SEED
from antrap_gym.tasks.steps import Tap, Target
from tests.screen import texts

CROSS_SEEDS = (0, SEED_MAX)
CASES = [(name, seed) for name in PAGES for seed in CROSS_SEEDS]
CHROMIUM = "/usr/bin/chromium"


def task_of(name: str, seed: int):
    return TEMPLATES[name]({SEED: seed})


@pytest.fixture(scope="module")
def env():
    e = make_env(obs_mode="text")
    yield e
    e.close()


def play(env, name: str, seed: int, disrupt=None):
    """The oracle on template `name` with the page seed `seed`; `disrupt(step, device)`
    runs after each of its actions (what a trap would do to the phone)."""
    agent = OracleAgent()
    hook = None
    if disrupt is not None:
        count = [0]

        def hook(obs, info):
            count[0] += 1
            if disrupt(count[0], env.unwrapped.device):
                obs["ui_elements"] = env.unwrapped.observe()["ui_elements"]

    res = run_episode(env, agent, options={"task": TEMPLATES[name], "params": {SEED: seed}},
                      on_step=hook)
    actions = [s.action for s in res.trajectory]
    assert not agent.solver.faults, agent.solver.faults
    assert not [s.error for s in res.trajectory if s.error]
    return res, actions


# --- the cross-check: simulated Chrome and headless Chromium ---------------------------------


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs {CHROMIUM}")
    playwright = pytest.importorskip("playwright.sync_api")
    from tests.tasks.chromium_pages import ARGS, PageDriver

    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield PageDriver(browser, tmp_path_factory.mktemp("pages"))
        browser.close()


@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_the_same_seed_and_plan_win_in_the_simulated_chrome_and_in_chromium(env, driver, name, seed):
    res, _ = play(env, name, seed)
    assert res.success == 1.0, (name, seed, res.steps)
    phone = env.unwrapped.device
    assert phone.foreground()[0] == cr.PKG and cr.SUCCESS in texts(phone)
    driver.load(page_html(name, seed))
    assert not driver.shows_success()
    driver.run(winning_plan(name, seed))
    assert driver.shows_success(), (name, seed, driver.texts())
    assert not driver.errors, driver.errors


def test_the_page_readers_agree_with_chromium(driver):
    """The maze's X and the canvas colours, read the way the plans' `done` reads them."""
    p = page_params("BrowserMaze", 7)
    driver.load(page_html("BrowserMaze", 7))
    cell = (0, 0)
    for move in p["path"][:3]:
        assert maze_position(driver.ui_elements(), 4) == cell
        driver.step(Tap(target=Target(text=move)))
        cell = (cell[0] + MOVES[move][0], cell[1] + MOVES[move][1])
    assert maze_position(driver.ui_elements(), 4) == cell
    driver.load(page_html("BrowserDraw", 7))
    first, other = page_params("BrowserDraw", 7)["colours"][0], DRAW_PALETTE[-1]
    plan = winning_plan("BrowserDraw", 7)
    assert not Drawn(CANVAS, first["hex"])(driver)
    driver.run(plan[:2])
    assert Drawn(CANVAS, first["hex"])(driver) and not Drawn(CANVAS, other[1])(driver)


# --- set-up and check ----------------------------------------------------------------------------


def test_setup_is_the_references_through_the_shell():
    dev = SimDevice()
    dev.shell("mkdir -p /sdcard/Music && printf x > /sdcard/Music/old.mp3")
    task = task_of("BrowserSearch", 123456789)
    task.setup(dev)
    assert dev.pull(cr.PAGE_PATH) == page_html("BrowserSearch", 123456789).encode()
    assert dev.shell("ls /sdcard/Music").stdout.strip() == ""  # storage cleared, folders kept
    assert cr.POST_NOTIFICATIONS in granted(dev, cr.PKG)
    assert task.is_successful(dev) == 0.0
    assert dev.shell(f"am start -n {cr.PKG}/com.google.android.apps.chrome.Main").exit_code == 0
    assert dev.foreground() == (cr.PKG, cr.FIRST_RUN)  # Chrome's data was cleared
    task.teardown(dev)
    assert dev.shell("cat /sdcard/Music/old.mp3").stdout == "x"
    assert dev.shell(f"test -e {cr.PAGE_PATH}").exit_code != 0


def test_success_needs_chrome_in_front_and_the_exact_text(env):
    res, _ = play(env, "BrowserClick3", 5)
    assert res.success == 1.0
    dev = env.unwrapped.device
    task = env.unwrapped.task
    assert task.is_successful(dev) == 1.0
    dev.key("HOME")
    assert task.is_successful(dev) == 0.0  # Success! is on the page, not in front
    dev.shell(f"am start -n {cr.PKG}/com.google.android.apps.chrome.Main")
    assert task.is_successful(dev) == 1.0


def test_the_longest_maze_fits_its_budget(env):
    seed = next(s for s in range(10_000) if len(page_params("BrowserMaze", s)["path"]) == 14)
    res, _ = play(env, "BrowserMaze", seed)
    assert res.success == 1.0 and res.steps <= TEMPLATES["BrowserMaze"].complexity * 10


# --- finding the way back into the page ------------------------------------------------------------


def test_sent_home_mid_page_returns_to_chrome_and_keeps_the_count(env):
    seen = {}

    def home_after_three_taps(step, dev):
        if "Taps: 3" in texts(dev) and "home" not in seen:
            seen["home"] = step
            dev.key("HOME")
            return True
        if seen.get("home") == step - 1:
            seen["back_in"] = texts(dev)
        return False

    res, actions = play(env, "BrowserClick10", 0, home_after_three_taps)
    assert res.success == 1.0
    assert actions[seen["home"]] == {"action_type": "open_app", "app_name": "Chrome"}
    assert "Taps: 3" in seen["back_in"]  # the tab kept the page's state
    page_taps = [a for a in actions[seen["home"] + 1:] if a["action_type"] == "click"]
    assert len(page_taps) == 7


def test_back_out_of_the_page_opens_the_file_again(env):
    seen = {}

    def back_after_two_taps(step, dev):
        if "Taps: 2" in texts(dev) and "back" not in seen:
            seen["back"] = step
            dev.key("BACK")  # Chrome closes the tab it was handed, and the page with it
            return True
        return False

    res, actions = play(env, "BrowserClick5", 0, back_after_two_taps)
    assert res.success == 1.0
    after = actions[seen["back"]:seen["back"] + 2]
    assert after[0] == {"action_type": "open_app", "app_name": "Files"}
    assert after[1]["action_type"] == "click"  # task.html, listed where Files opens


def _branch(p: dict) -> tuple[tuple[int, int], str] | None:
    """A cell on the maze's path with a side open off the path, and that side."""
    cell, came = (0, 0), ""
    for move in p["path"]:
        off = [d for d in MOVES if d[0] in p["open"][cell[0]][cell[1]] and d not in (move, came)]
        if off:
            return cell, off[0]
        cell = (cell[0] + MOVES[move][0], cell[1] + MOVES[move][1])
        came = {"Up": "Down", "Down": "Up", "Left": "Right", "Right": "Left"}[move]
    return None


def test_a_stray_move_in_the_maze_is_walked_back(env):
    seed = next(s for s in range(1000) if _branch(page_params("BrowserMaze", s)) is not None)
    at, stray = _branch(page_params("BrowserMaze", seed))
    done = {}

    def stray_tap(step, dev):
        if not done and maze_position(dev.ui_elements(), 4) == at:
            el = next(e for e in dev.ui_elements() if e.text == stray)
            dev.tap(*el.center)
            done["to"] = maze_position(dev.ui_elements(), 4)
            return True
        return False

    res, _ = play(env, "BrowserMaze", seed, stray_tap)
    assert done["to"] not in (None, at) and res.success == 1.0


def test_a_toggle_a_stray_tap_turned_on_is_left_on(env):
    seen = {}

    def wifi_on(step, dev):
        els = dev.ui_elements()
        if seen or "Quick Settings" not in [e.text for e in els]:
            return False
        label = next(e for e in els if e.text == "WiFi")
        toggle = min((e for e in els if e.text == "Off"), key=lambda e: abs(e.center[1] - label.center[1]))
        seen["at"] = step
        dev.tap(*toggle.center)
        assert "On" in texts(dev)
        return True

    res, actions = play(env, "BrowserToggleAll", 0, wifi_on)
    assert res.success == 1.0
    page_taps = [a for a in actions[seen["at"]:] if a["action_type"] == "click"]
    assert len(page_taps) == 2  # Bluetooth and Location; WiFi, on already, is left alone


def test_a_covered_button_is_waited_for_not_backed_out_of(env):
    env.reset(options={"task": TEMPLATES["BrowserClick4"], "params": {SEED: 0}})
    agent = OracleAgent()
    base = env.unwrapped
    obs = base.observe()
    agent.reset(env, obs, {})
    for _ in range(20):
        if "Tap me" in obs["ui_elements"]:
            break
        obs, *_ = env.step(agent.act(obs, {}))
    covered = "\n".join(line for line in obs["ui_elements"].splitlines() if "Tap me" not in line)
    assert agent.act({**obs, "ui_elements": covered}, {})["action_type"] == "wait"
    assert agent.act(obs, {})["action_type"] == "click"


class PageViewer(Activity):
    name = ".PageViewer"
    package = "org.example.pageviewer"

    def build(self, ui, phone) -> None:
        ui.toolbar("Page Viewer")


class PageViewerApp(App):
    package = "org.example.pageviewer"
    label = "Page Viewer"
    main = PageViewer
    intent_filters = (IntentFilter(mime_types=("text/html",), schemes=("file", "content")),)


def test_the_open_with_chooser_is_answered_with_chrome():
    e = make_env(device=SimDevice(apps=[*default_apps(), PageViewerApp]), obs_mode="text")
    try:
        chooser = {}

        def note(obs, info):
            if "Open with" in obs["ui_elements"]:
                chooser["seen"] = e.unwrapped.device.foreground()

        res = run_episode(e, OracleAgent(), options={"task": TEMPLATES["BrowserSum"], "params": {SEED: 41}},
                          on_step=note)
        assert chooser and chooser["seen"][0] == "android"
        assert res.success == 1.0 and e.unwrapped.device.foreground()[0] == cr.PKG
    finally:
        e.close()


def test_a_restored_canvas_is_painted_from_its_own_page_not_the_last_one(env):
    """Two phone states whose canvases have the same node and drawing version (one stroke
    in two colours) are different pictures: a phone restored from one to the other shows
    the second's pixels. (The painter took the canvas as unchanged and kept the first's:
    the oracle's scratch phone read stale colours, and its distances depended on which
    episodes the process had run before.)"""
    obs, info = env.reset(options={"task": TEMPLATES["BrowserDraw"], "params": {SEED: 0}})
    dev = env.unwrapped.device
    agent = OracleAgent()
    agent.reset(env, obs, info)
    while CANVAS.find(dev.ui_elements()) is None:  # the oracle opens the page
        obs, *_, info = env.step(agent.act(obs, info))
    start = dev.snapshot()
    taken = []
    for name, hexes in DRAW_PALETTE[:2]:
        dev.restore(start)
        els = dev.ui_elements()
        swatch = Target(desc=name).find(els).bbox_pixels
        dev.tap(swatch.center[0], swatch.center[1])
        pad = CANVAS.find(dev.ui_elements()).bbox_pixels
        y = (pad.y_min + pad.y_max) // 2
        dev.swipe(pad.x_min + 20, y, pad.x_max - 20, y, 300)
        assert Drawn(CANVAS, hexes).holds(dev.ui_elements(), dev)
        taken.append((dev.snapshot(), np.asarray(dev.screenshot()).copy()))
    (first, first_shot), (second, second_shot) = taken
    dev.restore(first)
    assert np.array_equal(np.asarray(dev.screenshot()), first_shot)
    dev.restore(second)
    assert np.array_equal(np.asarray(dev.screenshot()), second_shot)
