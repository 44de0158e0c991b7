"""The HTML trajectory viewer, built from a real small evaluation and rendered in
headless Chromium (so its JavaScript runs): every step shown with its screen,
trap markers on the right steps, working filters, escaped text, a non-blank page."""

from __future__ import annotations

import copy
import io
import math
import shutil
import subprocess
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageStat

from antrap_gym.eval import AgentSpec, EvalConfig, evaluate, load_records
from antrap_gym.eval.spec import EpisodeSpec
from antrap_gym.eval.viewer import outcome, page_name, write_viewer
from antrap_gym.eval.worker import error_record

CHROMIUM = "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs /usr/bin/chromium")


# ------------------------------------------------------------------------------------------------
# helpers

def chromium(tmp: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    """Run headless Chromium on `url` (a fresh profile under `tmp`)."""
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def dump_dom(tmp: Path, page: Path, fragment: str = "") -> str:
    res = chromium(tmp, page.resolve().as_uri() + fragment, "--dump-dom")
    assert "<html" in res.stdout, f"no DOM from chromium (rc={res.returncode}): {res.stderr[-2000:]}"
    return res.stdout


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Dom(HTMLParser):
    """Every element of a page as (tag, attrs), and the text inside elements with an id."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag not in VOID:
            self._open.append((tag, a.get("id")))
            if a.get("id"):
                self.texts.setdefault(a["id"], "")

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            t, _ = self._open.pop()
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, ident in self._open:
            if ident:
                self.texts[ident] += data

    def find(self, tag: str, cls: str | None = None, **attrs: str) -> list[dict[str, str]]:
        out = []
        for t, a in self.elements:
            if t != tag or (cls and cls not in a.get("class", "").split()):
                continue
            if all(a.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(a)
        return out


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """A real evaluation: oracle, replay, random on the mini suite, every trap, all screens."""
    out = tmp_path_factory.mktemp("eval")
    cfg = EvalConfig(agents=[AgentSpec.make("oracle"), AgentSpec.make("replay"), AgentSpec.make("random")],
                     suite="antrap-mini", traps="all", screens="all")
    evaluate(cfg, out, workers=1, progress=False)
    return out


@pytest.fixture(scope="module")
def records(run_dir: Path) -> list[dict[str, Any]]:
    return load_records(run_dir)


def trapped_episode(records: list[dict[str, Any]]) -> dict[str, Any]:
    """A failed replay episode whose traps fired at steps it took, with screens; the one
    with the most trap events (several markers to check)."""
    cands = [r for r in records if r["agent"] == "replay" and r["traps"] and r.get("screens")
             and all(1 <= ev["step"] <= len(r["trajectory"]) for ev in r["traps"])]
    assert cands, "no trapped replay episode with screens"
    return max(cands, key=lambda r: (len({ev["step"] for ev in r["traps"]}), outcome(r) == "failure"))


# ------------------------------------------------------------------------------------------------
# files

def test_viewer_files(run_dir: Path, records: list[dict[str, Any]]) -> None:
    root = run_dir / "viewer"
    assert (root / "index.html").is_file(), "evaluate() did not write the viewer"
    assert len(records) == 198
    for r in records:
        page = root / page_name(r)
        assert page.is_file(), page
        for f in r["screens"]["files"]:  # every referenced screenshot exists, by its relative path
            assert (root / ".." / f).resolve().is_file()
    html = (root / "index.html").read_text()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert html.count("<tr data-agent=") == len(records)


def test_viewer_escapes_text_and_handles_missing_parts(records: list[dict[str, Any]], tmp_path: Path) -> None:
    """Goals, thoughts, raw output and errors are escaped; episodes without screens or steps
    (a crashed episode) still get a page."""
    r = copy.deepcopy(trapped_episode(records))
    r["id"] = "evil|<b>x</b>"
    r["goal"] = '<script>document.title="pwned"</script>'
    r["trajectory"][0]["thought"] = "<img src=x onerror=\"document.title='pwned'\">"
    r["trajectory"][0]["raw"] = '</pre><script>document.title="pwned"</script>'
    r["trajectory"][1]["error"] = "<b>bad</b>"
    del r["screens"]
    crashed = error_record(EpisodeSpec(AgentSpec.make("oracle"), "Task<x>", 0, "loop", 0),
                           "RuntimeError: <boom>", "Traceback <tb>", 1.0)
    index = write_viewer([r, crashed], tmp_path)
    page = (tmp_path / "viewer" / page_name(r)).read_text()
    assert "<script>document" not in page and "<img src=x" not in page and "<b>bad" not in page
    assert "&lt;script&gt;document.title=&quot;pwned&quot;" in page
    assert "&lt;b&gt;bad&lt;/b&gt;" in page
    assert page.count('<article class="step') == len(r["trajectory"])
    assert '<img src="' not in page and "No screenshots were kept" in page
    err_page = (tmp_path / "viewer" / page_name(crashed)).read_text()
    assert "RuntimeError: &lt;boom&gt;" in err_page and "No steps were taken" in err_page
    assert index.read_text().count("<tr data-agent=") == 2
    if Path(CHROMIUM).exists():  # nothing from the record runs as script
        text = dump_dom(tmp_path, tmp_path / "viewer" / page_name(r))
        title = text.split("<title>")[1].split("</title>")[0]
        assert title.startswith(r["task"]) and "pwned" not in title
        assert '&lt;script&gt;document.title="pwned"&lt;/script&gt;' in text  # shown as text


# ------------------------------------------------------------------------------------------------
# rendered in Chromium

@needs_chromium
def test_episode_page_renders_steps_images_and_trap_markers(run_dir: Path, records: list[dict[str, Any]],
                                                           tmp_path: Path) -> None:
    r = trapped_episode(records)
    page = run_dir / "viewer" / page_name(r)
    text = dump_dom(tmp_path, page)
    dom = Dom(text)
    steps = [a for a in dom.find("article", "step") if a.get("id", "").startswith("step-")]
    assert len(steps) == len(r["trajectory"]) >= 3
    assert [int(a["data-step"]) for a in steps] == [s["step"] for s in r["trajectory"]]
    # the screens: one per step and the final one, all loaded by the browser
    imgs = [a for a in dom.find("img") if a.get("src", "").startswith("../screens/")]
    assert [a["src"] for a in imgs] == ["../" + f for f in r["screens"]["files"]]
    assert len(imgs) == len(r["trajectory"]) + 1
    body = dom.find("body")[0]
    assert body.get("data-images-loaded") == str(len(imgs)), body
    assert body.get("data-images-broken") == "0"
    # an action overlay over each step's screen
    overlays = dom.find("svg", "overlay")
    assert len(overlays) == len(r["trajectory"])
    assert all(o["viewbox"] == f"0 0 {r['screen_size'][0]} {r['screen_size'][1]}" for o in overlays)
    # trap markers exactly on the steps where a trap acted
    trap_steps = {ev["step"] for ev in r["traps"]}
    marked = {int(a["data-step"]) for a in steps if "trap-at" in a["class"].split()}
    assert marked == trap_steps
    for n in trap_steps:
        for ev in r["traps"]:
            if ev["step"] == n:
                assert f"⚠ trap: {ev['type'].replace('_', ' ').capitalize()}" in dom.texts[f"step-{n}"]
    for n in {s["step"] for s in r["trajectory"]} - trap_steps:
        assert "⚠ trap:" not in dom.texts[f"step-{n}"]
    # the event list links to those steps; the header shows the goal and verdict
    events = dom.find("li", "trap-event")
    assert [int(e["data-step"]) for e in events] == [ev["step"] for ev in r["traps"]]
    assert [a["href"] for a in dom.find("a") if a.get("href", "").startswith("#step-")][:len(events)] \
        == [f"#step-{ev['step']}" for ev in r["traps"]]
    assert dom.find("span", f"o-{outcome(r)}")
    assert r["goal"] and f'<div class="goal">{escape(r["goal"], quote=False)}</div>' in text


@needs_chromium
def test_action_overlays_follow_the_action(run_dir: Path, records: list[dict[str, Any]]) -> None:
    """A tap is a circle at its device coordinates, a scroll an arrow, an app launch a caption."""
    def first(kind: str) -> tuple[dict[str, Any], int]:
        for r in records:
            if r.get("screens") and not r["traps"]:
                for i, s in enumerate(r["trajectory"]):
                    if s["action"]["action_type"] == kind:
                        return r, i
        raise AssertionError(f"no {kind} step")

    for kind, drawn in (("click", "point"), ("scroll", "arrow"), ("open_app", "caption"),
                        ("input_text", "text")):
        r, i = first(kind)
        html = (run_dir / "viewer" / page_name(r)).read_text()
        block = html.split(f'id="step-{r["trajectory"][i]["step"]}"')[1].split("</article>")[0]
        assert f'data-kind="{drawn}"' in block, (kind, block[:500])
        a = r["trajectory"][i]["action"]
        if kind == "click":
            assert f'cx="{float(a["x"]):.1f}" cy="{float(a["y"]):.1f}"' in block
        if kind == "scroll":
            assert "<polygon" in block


@needs_chromium
def test_index_filters(run_dir: Path, records: list[dict[str, Any]], tmp_path: Path) -> None:
    index = run_dir / "viewer" / "index.html"

    def shown(fragment: str = "") -> tuple[int, Dom]:
        dom = Dom(dump_dom(tmp_path, index, fragment))
        rows = dom.find("tr")
        rows = [a for a in rows if "data-agent" in a]
        visible = [a for a in rows if "hidden" not in a]
        assert len(rows) == len(records)
        assert dom.texts["n-shown"].strip() == str(len(visible))
        assert dom.find("body")[0].get("data-shown") == str(len(visible))
        return len(visible), dom

    n, _ = shown()
    assert n == len(records)
    n, dom = shown("#agent=replay&outcome=failure")
    want = [r for r in records if r["agent"] == "replay" and outcome(r) == "failure"]
    assert n == len(want) > 0
    assert dom.texts["n-success"].strip() == "0" and dom.texts["n-failure"].strip() == str(len(want))
    visible = [a for a in dom.find("tr") if "data-agent" in a and "hidden" not in a]
    assert all(a["data-agent"] == "replay" and a["data-outcome"] == "failure" for a in visible)
    # the filter controls took their values from the URL
    assert dom.find("body")[0]["data-filter"] == "agent=replay&outcome=failure"
    n, _ = shown("#setting=loop")
    assert n == sum(1 for r in records if r["setting"] == "loop") > 0
    n, _ = shown("#setting=%2Atrap")
    assert n == sum(1 for r in records if r["setting"] != "clean")
    n, _ = shown("#setting=%2Afired&agent=oracle")
    assert n == sum(1 for r in records if r["agent"] == "oracle" and r["traps"])
    n, _ = shown("#outcome=success&q=wi-fi")
    assert n == sum(1 for r in records if outcome(r) == "success" and "wi-fi" in
                    " ".join(str(r.get(k) or "") for k in ("id", "task", "goal", "answer", "error")).lower())
    n, dom = shown("#agent=no-such-agent")  # an unknown value is ignored, not an empty table
    assert n == len(records) and dom.find("body")[0]["data-filter"] == ""


@needs_chromium
def test_episode_page_screenshot_is_not_blank(run_dir: Path, records: list[dict[str, Any]],
                                              tmp_path: Path) -> None:
    r = trapped_episode(records)
    png = tmp_path / "page.png"
    res = chromium(tmp_path, (run_dir / "viewer" / page_name(r)).resolve().as_uri(),
                   f"--screenshot={png}", "--window-size=1280,2400", "--hide-scrollbars")
    assert png.is_file(), res.stderr[-2000:]
    img = Image.open(io.BytesIO(png.read_bytes())).convert("RGB")
    assert img.size == (1280, 2400)
    stat = ImageStat.Stat(img)
    assert max(stat.stddev) > 20, f"a near-uniform page: {stat.stddev}"
    colours = img.resize((320, 600)).getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 200, "too few colours for screenshots and text"
    # the trap highlight (#d9480f) is on screen
    px = np.asarray(img.resize((640, 1200)), dtype=int)
    orange = int((np.abs(px - [0xD9, 0x48, 0x0F]).max(axis=2) < 16).sum())
    assert orange > 50, orange


def test_viewer_rebuilds_from_records(run_dir: Path, records: list[dict[str, Any]], tmp_path: Path) -> None:
    """write_viewer over the stored records gives the same pages (the `view` command's path)."""
    out = tmp_path / "copy"
    shutil.copytree(run_dir / "screens", out / "screens")
    index = write_viewer(records, out)
    assert index == out / "viewer" / "index.html"
    r = trapped_episode(records)
    assert (out / "viewer" / page_name(r)).read_text() == (run_dir / "viewer" / page_name(r)).read_text()


# ------------------------------------------------------------------------------------------------
# swipe arrows

@pytest.fixture(scope="module")
def swipe_record(tmp_path_factory) -> tuple[Path, dict[str, Any]]:
    """A real episode of an agent that swipes by direction and by drag (tests.faulty_agents)."""
    out = tmp_path_factory.mktemp("swipes")
    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:SwipingAgent")], suite="antrap-mini",
                     traps="none", screens="all", variants=1)
    evaluate(cfg, out, workers=1, progress=False)
    r = next(r for r in load_records(out) if r["task"] == "SettingsWifiToggle")
    return out, r


def _step_svg(html: str, step: int) -> str:
    block = html.split(f'id="step-{step}"')[1].split("</article>")[0]
    return "<svg" + block.split("<svg", 1)[1].split("</svg>", 1)[0] + "</svg>"


def _arrow_geometry(svg: str) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """(line start, line end, arrow tip) of the coloured arrow in an overlay."""
    import re

    lines = re.findall(r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)" '
                       r'stroke="#1e88e5"', svg)
    assert len(lines) == 1, svg[:400]
    x1, y1, x2, y2 = map(float, lines[0])
    tip = re.search(r'<polygon points="([-\d.]+),([-\d.]+) ', svg)
    assert tip, svg[:400]
    return (x1, y1), (x2, y2), (float(tip.group(1)), float(tip.group(2)))


def test_swipe_arrows_follow_the_finger(swipe_record: tuple[Path, dict[str, Any]]) -> None:
    """A drag is an arrow from (x, y) to (x2, y2); a swipe by direction is an arrow the way the
    finger moved (up: towards the top, left: towards the left edge)."""
    from tests.faulty_agents import SWIPES

    out, r = swipe_record
    assert [s["action"] for s in r["trajectory"]] == list(SWIPES)
    html = (out / "viewer" / page_name(r)).read_text()
    w, h = r["screen_size"]
    for s in r["trajectory"][:4]:
        svg = _step_svg(html, s["step"])
        assert 'data-kind="arrow"' in svg
        a = s["action"]
        start, line_end, tip = _arrow_geometry(svg)
        if "x2" in a:
            assert start == (float(a["x"]), float(a["y"]))
            assert math.isclose(tip[0], a["x2"], abs_tol=0.1) and math.isclose(tip[1], a["y2"], abs_tol=0.1)
            assert f'cx="{float(a["x"]):.1f}" cy="{float(a["y"]):.1f}"' in svg  # the start dot
        else:
            dx, dy = tip[0] - start[0], tip[1] - start[1]
            if a["direction"] == "up":
                assert dy < -0.2 * h and abs(dx) < 1
            else:
                assert dx < -0.2 * w and abs(dy) < 1
            assert 0 <= tip[0] <= w and 0 <= tip[1] <= h
        # the line runs from the start towards the tip and stops at the arrowhead
        for i in (0, 1):
            lo, hi = sorted((start[i], tip[i]))
            assert lo - 0.1 <= line_end[i] <= hi + 0.1
        assert f"swipe {a.get('direction', '')}".strip() in svg  # its label


@needs_chromium
def test_swipe_arrows_render_where_they_point(swipe_record: tuple[Path, dict[str, Any]],
                                              tmp_path: Path) -> None:
    """The four swipe overlays drawn by Chromium, side by side at a quarter of the phone's
    size: the arrow's colour lies along the finger's path and at its head, and not on the
    path the other way."""
    out, r = swipe_record
    html = (out / "viewer" / page_name(r)).read_text()
    w, h = r["screen_size"]
    scale = 0.25
    pw, ph = round(w * scale), round(h * scale)
    panels, paths = [], []
    unit = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
    for s in r["trajectory"][:4]:
        svg = _step_svg(html, s["step"])
        a = s["action"]
        if "x2" in a:  # where the finger went, from the action itself
            paths.append(((a["x"], a["y"]), (a["x2"], a["y2"])))
        else:  # from where the arrow starts, the way the action says, as far as it is drawn
            start, _, tip = _arrow_geometry(svg)
            length = math.hypot(tip[0] - start[0], tip[1] - start[1])
            ux, uy = unit[a["direction"]]
            paths.append((start, (start[0] + ux * length, start[1] + uy * length)))
        panels.append(svg.replace('<svg class="overlay"', f'<svg width="{pw}" height="{ph}" class="overlay"'
                                  ' style="display:block;float:left"', 1))
    page = tmp_path / "swipes.html"
    page.write_text('<!doctype html><html><body style="margin:0;background:#fff">'
                    + "".join(panels) + "</body></html>")
    png = tmp_path / "swipes.png"
    res = chromium(tmp_path, page.resolve().as_uri(), f"--screenshot={png}",
                   f"--window-size={pw * 4},{ph}", "--hide-scrollbars", "--force-device-scale-factor=1")
    assert png.is_file(), res.stderr[-2000:]
    px = np.asarray(Image.open(png).convert("RGB"), dtype=int)

    def blue(i: int, x: float, y: float) -> bool:
        cx, cy = round(i * pw + x * scale), round(y * scale)
        patch = px[max(0, cy - 1):cy + 2, max(0, cx - 1):cx + 2]
        return bool((np.abs(patch - [0x1E, 0x88, 0xE5]).max(axis=2) < 40).any())

    for i, ((x0, y0), (x1, y1)) in enumerate(paths):
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        # along the shaft (clear of the labels at its middle) and inside the arrowhead
        for t in (0.15, 0.3, 0.7, 0.85):
            assert blue(i, x0 + t * (x1 - x0), y0 + t * (y1 - y0)), (i, t)
        head = min(5 * w / 100, length * 0.5)
        assert blue(i, x1 - ux * head * 0.4, y1 - uy * head * 0.4), (i, "head")
        # nothing drawn the other way from the start
        bx, by = x0 - ux * 0.25 * length, y0 - uy * 0.25 * length
        if 0 <= bx < w and 0 <= by < h:
            assert not blue(i, bx, by), (i, "behind the start")


def test_text_mode_screens_painted_afterwards_match_screens_painted_live(tmp_path: Path, monkeypatch) -> None:
    """On the simulated phone, text-mode episodes keep a phone snapshot per step and paint only
    the kept episodes' screens at the end: the very frames a live capture paints, trap
    overlays included, and the phone is left as the episode left it."""
    import antrap_gym.eval.worker as worker
    from antrap_gym.eval.worker import EpisodeRunner

    cfg = EvalConfig(agents=[AgentSpec.make("replay"), AgentSpec.make("random")], suite="antrap-mini",
                     traps="external_interruption,loop", screens="all")
    specs = [s for s in cfg.episodes() if s.task in ("ContactsAddContact", "SettingsWifiToggle")]

    def run(out: Path, live: bool) -> tuple[list[dict[str, Any]], list[Any]]:
        if live:  # no device counts as the simulated phone: every frame painted as it happens
            monkeypatch.setattr(worker, "SimDevice", type("NotASim", (), {}))
        runner = EpisodeRunner(cfg, out)
        try:
            recs, phones = [], []
            for spec in specs:
                recs.append(runner.run(spec))
                env = runner.env(cfg.setting(spec.setting), "text")
                phones.append(env.unwrapped.device.snapshot().payload)  # the phone after it
            return recs, phones
        finally:
            runner.close()
            monkeypatch.undo()

    (later, after_later), (live, after_live) = run(tmp_path / "later", False), run(tmp_path / "live", True)
    assert len(later) == len(live) == 12
    assert after_later == after_live
    n = 0
    for a, b in zip(later, live, strict=True):
        assert {k: v for k, v in a.items() if k != "wall_s"} == {k: v for k, v in b.items() if k != "wall_s"}
        assert len(a["screens"]["files"]) == len(a["trajectory"]) + 1
        for f in a["screens"]["files"]:
            assert (tmp_path / "later" / f).read_bytes() == (tmp_path / "live" / f).read_bytes(), f
            n += 1
    assert n > 50
