"""The HTML trajectory viewer, built from a real small evaluation and rendered in
headless Chromium (so its JavaScript runs), opened straight from disk (file://):
one page whose episodes load on demand from their data files, every step shown
with its screen, trap markers on the right steps, working filters, rows in a
fixed order, escaped text, a non-blank page, and older runs' screens."""

from __future__ import annotations

import copy
import io
import math
import random
import re
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
from antrap_gym.eval.viewer import (
    CHUNK,
    PAGE_ROWS,
    ROWS_FILE,
    VIEW_FIELDS,
    chunk_name,
    episode_key,
    outcome,
    read_chunk,
    read_rows,
    write_viewer,
)
from antrap_gym.eval.worker import error_record, safe_name
from antrap_gym.traps.taxonomy import TRAP_TYPES
from tests.conftest import canonical

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


# Virtual time: Chromium runs the page's pending work (the data script, inflating it, the
# images) before it dumps or shoots, however slow the machine; it does not wait in real time.
SETTLE = "--virtual-time-budget=60000"


def dump_dom(tmp: Path, page: Path, fragment: str = "") -> str:
    res = chromium(tmp, page.resolve().as_uri() + fragment, SETTLE, "--dump-dom")
    assert "<html" in res.stdout, f"no DOM from chromium (rc={res.returncode}): {res.stderr[-2000:]}"
    return res.stdout


def open_episode(tmp: Path, viewer: Path, key: str, extra: str = "") -> tuple[str, Dom]:
    """The viewer's page opened from disk on one episode (`#ep=key`), as Chromium shows it."""
    text = dump_dom(tmp, viewer / "index.html", f"#ep={key}{extra}")
    dom = Dom(text)
    body = dom.find("body")[0]
    assert body.get("data-episode") == key, body
    assert body.get("data-episode-state") == "ready", body
    return text, dom


def episode_body(text: str) -> str:
    """The view an opened episode's page shows (the inside of its `#episode-body`)."""
    return text.split('<div id="episode-body">', 1)[1].rsplit("</section>", 1)[0]


def view_of(tmp: Path, viewer: Path, r: dict[str, Any]) -> str:
    """Episode `r`'s view, as the viewer in `viewer` renders it in Chromium."""
    return episode_body(open_episode(tmp, viewer, episode_key(r))[0])


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


def rows_of(dom: Dom) -> list[dict[str, str]]:
    return [a for a in dom.find("tr") if "data-agent" in a]


def data_scripts(dom: Dom) -> list[str]:
    return [a["src"] for a in dom.find("script") if a.get("src", "").startswith("data/")]


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


AGENTS = ["oracle", "replay", "random"]  # the run's configured order


def expected_order(records: list[dict[str, Any]]) -> list[str]:
    """Episode ids in the viewer's order, from first principles: agents in the run's order,
    clean then the trap types in taxonomy order, then task name, variant, run."""
    agents, settings = AGENTS, ["clean", *TRAP_TYPES]
    return [r["id"] for r in sorted(records, key=lambda r: (
        agents.index(r["agent"]), settings.index(r["setting"]), r["task"], r["variant"], r["run"]))]


# ------------------------------------------------------------------------------------------------
# files

def test_viewer_is_one_page_and_a_few_data_files(run_dir: Path, records: list[dict[str, Any]]) -> None:
    """No page per episode: index.html, the table's rows in one data file, and one data file
    per CHUNK episodes' records (what their views show), which between them hold every
    episode once, a task instance's episodes together; each row names the file holding its
    episode; every frame they name exists."""
    root = run_dir / "viewer"
    assert len(records) == 198
    assert sorted(p.name for p in root.iterdir()) == ["data", "index.html"]
    chunks = sorted(p for p in (root / "data").iterdir() if p.name != Path(ROWS_FILE).name)
    assert [p.name for p in chunks] == [Path(chunk_name(n)).name for n in range(math.ceil(198 / CHUNK))]
    held = [e[0] for c in chunks for e in read_chunk(c)]
    assert all(len(e) == 2 for c in chunks for e in read_chunk(c))
    by_key = {episode_key(r): r for r in records}
    key_of = {r["id"]: episode_key(r) for r in records}
    table = [key_of[i] for i in expected_order(records)]
    assert sorted(held) == sorted(table) and len(set(held)) == len(held)  # each once
    instance = {episode_key(r): (r["task"], r["variant"], r["run"]) for r in records}
    assert [instance[k] for k in held] == sorted(instance[k] for k in held)  # an instance together
    assert [k for k in held if instance[k] == instance[held[0]]] == \
        [k for k in table if instance[k] == instance[held[0]]]  # in the table's order within it
    rows = read_rows(root / ROWS_FILE)
    assert [row["ep"] for row in rows] == table  # the table's rows: every episode, in its order
    file_of = {e[0]: n for n, c in enumerate(chunks) for e in read_chunk(c)}
    assert all(row["chunk"] == file_of[row["ep"]] for row in rows)
    html = (root / "index.html").read_text()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert not any(k in html for k in held)  # the rows are data, drawn by the page a page at a time
    for c in chunks:
        for key, view in read_chunk(c):
            r = by_key[key]
            assert set(view) <= set(VIEW_FIELDS) and view["id"] == r["id"]
            assert view["trajectory"] == r["trajectory"] and view["traps"] == r["traps"]
            assert view.get("screens") == r.get("screens")
            for f in (view.get("screens") or {}).get("files", []):  # every frame named exists
                assert (run_dir / f).is_file(), f


@needs_chromium
def test_viewer_escapes_text_and_handles_missing_parts(records: list[dict[str, Any]], tmp_path: Path) -> None:
    """Goals, thoughts, raw output and errors are shown as text, never run or parsed as markup,
    in the list and in a view; episodes without screens or steps (a crashed episode) still
    get a view; a record holding what JSON cannot (NaN) still opens."""
    r = copy.deepcopy(trapped_episode(records))
    r["id"] = "evil|<b>x</b>"
    r["goal"] = '<script>document.title="pwned"</script>'
    r["trajectory"][0]["thought"] = "<img src=x onerror=\"document.title='pwned'\">"
    r["trajectory"][0]["raw"] = '</pre><script>document.title="pwned"</script>'
    r["trajectory"][1]["error"] = "<b>bad</b>"
    r["wall_s"] = float("nan")
    del r["screens"]
    crashed = error_record(EpisodeSpec(AgentSpec.make("oracle"), "Task<x>", 0, "loop", 0),
                           "RuntimeError: <boom>", "Traceback <tb>", 1.0)
    index = write_viewer([r, crashed], tmp_path)
    assert len(read_rows(tmp_path / "viewer" / ROWS_FILE)) == 2
    listed = dump_dom(tmp_path, index)
    assert len(rows_of(Dom(listed))) == 2
    assert "RuntimeError: &lt;boom&gt;" in listed and "Task&lt;x&gt;" in listed
    assert "<boom>" not in listed and "<x>" not in listed
    text, dom = open_episode(tmp_path, tmp_path / "viewer", episode_key(r))
    title = text.split("<title>")[1].split("</title>")[0]
    assert title.startswith(r["task"]) and "pwned" not in title
    view = episode_body(text)
    assert "<script" not in view and "<img src=x" not in view and "<b>bad" not in view
    assert '&lt;script&gt;document.title="pwned"&lt;/script&gt;' in view  # shown as text
    assert "&lt;img src=x onerror=" in view and "&lt;/pre&gt;&lt;script&gt;" in view
    assert "&lt;b&gt;bad&lt;/b&gt;" in view
    assert "evil|&lt;b&gt;x&lt;/b&gt;" in view
    assert len([a for a in dom.find("article", "step") if a.get("id", "").startswith("step-")]) \
        == len(r["trajectory"])
    assert "<img" not in view and "No screenshots were kept" in view
    assert "Wall time</dt><dd>0.00 s" in view  # NaN is not a time
    text, _ = open_episode(tmp_path, tmp_path / "viewer", episode_key(crashed))
    view = episode_body(text)
    assert "RuntimeError: &lt;boom&gt;" in view and "No steps were taken" in view
    assert "Traceback &lt;tb&gt;" in view


# ------------------------------------------------------------------------------------------------
# rendered in Chromium

@needs_chromium
def test_episode_loads_on_demand_with_steps_images_and_trap_markers(
        run_dir: Path, records: list[dict[str, Any]], tmp_path: Path) -> None:
    """The list loads no episode data; opening an episode from disk loads its one data file
    and shows every step, every screen (loaded by the browser) and the trap markers."""
    r = trapped_episode(records)
    key = episode_key(r)
    viewer = run_dir / "viewer"
    listed = Dom(dump_dom(tmp_path, viewer / "index.html"))
    assert data_scripts(listed) == [ROWS_FILE] and not listed.find("article", "step")  # rows only
    assert listed.find("section", id="episode")[0].get("hidden") is not None
    chunk = next(row["chunk"] for row in read_rows(viewer / ROWS_FILE) if row["ep"] == key)
    text, dom = open_episode(tmp_path, viewer, key)
    assert data_scripts(dom) == [ROWS_FILE, chunk_name(chunk)]  # its chunk, and only that
    assert dom.find("section", id="list")[0].get("hidden") is not None
    steps = [a for a in dom.find("article", "step") if a.get("id", "").startswith("step-")]
    assert len(steps) == len(r["trajectory"]) >= 3
    assert [int(a["data-step"]) for a in steps] == [s["step"] for s in r["trajectory"]]
    # the screens: one per step and the final one, all loaded by the browser from file://
    imgs = [a for a in dom.find("img") if a.get("src", "").startswith("../screens/")]
    assert [a["src"] for a in imgs] == ["../" + f for f in r["screens"]["files"]]
    assert len(imgs) == len(r["trajectory"]) + 1
    body = dom.find("body")[0]
    assert body.get("data-images-loaded") == str(len(imgs)), body
    assert body.get("data-images-broken") == "0" and body.get("data-images-pending") == "0"
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
    title = text.split("<title>")[1].split("</title>")[0]
    assert title.startswith(r["task"]) and r["agent"] in title


@needs_chromium
def test_a_step_of_an_episode_can_be_linked_to(run_dir: Path, records: list[dict[str, Any]],
                                               tmp_path: Path) -> None:
    r = trapped_episode(records)
    n = r["trajectory"][2]["step"]
    _, dom = open_episode(tmp_path, run_dir / "viewer", episode_key(r), f"&at=step-{n}")
    focused = [a for a in dom.find("article") if "focus" in a.get("class", "").split()]
    assert [a["id"] for a in focused] == [f"step-{n}"]


@needs_chromium
def test_a_missing_data_file_is_reported_not_blank(run_dir: Path, records: list[dict[str, Any]],
                                                    tmp_path: Path) -> None:
    out = tmp_path / "copy"
    shutil.copytree(run_dir / "viewer", out / "viewer")
    key = episode_key(records[0])
    row = {"data-chunk": next(r["chunk"] for r in read_rows(out / "viewer" / ROWS_FILE) if r["ep"] == key)}
    (out / "viewer" / chunk_name(int(row["data-chunk"]))).unlink()
    dom = Dom(dump_dom(tmp_path, out / "viewer" / "index.html", f"#ep={key}"))
    assert dom.find("body")[0].get("data-episode-state") == "error"
    assert "Could not load this episode" in dom.texts["episode-body"]
    assert chunk_name(int(row["data-chunk"])) in dom.texts["episode-body"]
    dom = Dom(dump_dom(tmp_path, out / "viewer" / "index.html", "#ep=no-such-episode"))
    assert dom.find("body")[0].get("data-episode-state") == "missing"
    assert "no episode no-such-episode" in dom.texts["episode-body"]


@needs_chromium
def test_action_overlays_follow_the_action(run_dir: Path, records: list[dict[str, Any]],
                                           tmp_path: Path) -> None:
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
        html = view_of(tmp_path, run_dir / "viewer", r)
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
        """How many rows the filter lets through (the counts say; the page draws the first
        PAGE_ROWS of them)."""
        dom = Dom(dump_dom(tmp_path, index, fragment))
        body = dom.find("body")[0]
        assert body.get("data-rows-state") == "ready"
        n = int(dom.texts["n-shown"].strip())
        assert body.get("data-shown") == str(n)
        assert len(rows_of(dom)) == min(n, PAGE_ROWS)
        return n, dom

    n, _ = shown()
    assert n == len(records)
    n, dom = shown("#agent=replay&outcome=failure")
    want = [r for r in records if r["agent"] == "replay" and outcome(r) == "failure"]
    assert n == len(want) > 0
    assert dom.texts["n-success"].strip() == "0" and dom.texts["n-failure"].strip() == str(len(want))
    visible = rows_of(dom)
    assert visible and all(a["data-agent"] == "replay" and a["data-outcome"] == "failure" for a in visible)
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
def test_rows_are_in_agent_setting_task_variant_run_order(run_dir: Path, records: list[dict[str, Any]],
                                                          tmp_path: Path) -> None:
    """However the records arrive (workers finish in any order), the table lists agent by
    agent (in the run's configured order), clean first and then the traps in taxonomy order
    (the overview's columns), then by task, variant and run; previous / next in an episode
    follow that order (within the filter in the URL)."""
    shutil.copyfile(run_dir / "config.json", tmp_path / "config.json")
    shuffled = copy.deepcopy(records)
    random.Random(7).shuffle(shuffled)
    extra = copy.deepcopy([r for r in records if r["task"] == "SettingsWifiToggle"
                           and r["setting"] in ("clean", "loop")])
    for r in extra:  # more variants and runs, so that both orders are exercised
        r["variant"], r["run"] = (10, 1) if r["setting"] == "clean" else (2, 3)
        r["id"] = f"{r['agent']}|{r['task']}|{r['variant']}|{r['setting']}|{r['run']}"
    shuffled[5:5] = extra
    write_viewer(shuffled, tmp_path)
    want = expected_order(records + extra)
    page = dump_dom(tmp_path, tmp_path / "viewer" / "index.html")
    dom = Dom(page)
    ids = {episode_key(r): r["id"] for r in shuffled}
    assert [ids[row["ep"]] for row in read_rows(tmp_path / "viewer" / ROWS_FILE)] == want
    assert [ids[a["data-ep"]] for a in rows_of(dom)] == want[:PAGE_ROWS]  # the first page
    later = Dom(dump_dom(tmp_path, tmp_path / "viewer" / "index.html", "#page=2"))
    assert [ids[a["data-ep"]] for a in rows_of(later)] == want[PAGE_ROWS:2 * PAGE_ROWS]
    assert later.find("a", id="page-prev")[0]["href"] == "#"
    assert later.find("body")[0]["data-page"] == "2"
    # the overview's setting columns are in that order too
    heads = [a.get("title") for a in dom.find("th") if a.get("title")]
    assert heads == ["clean", *TRAP_TYPES]
    assert [d.strip() for d in re.findall(r"<tr><td><b>([^<]+)</b>", page)] == AGENTS
    # previous / next in an episode: its neighbours among the rows the filter shows
    loop = [i for i in want if i.startswith("replay|") and "|loop|" in i]
    key = safe_name(loop[1])
    text = dump_dom(tmp_path, tmp_path / "viewer" / "index.html", f"#agent=replay&setting=loop&ep={key}")
    nav = Dom(text)
    assert nav.find("a", id="prev")[0]["href"] == f"#agent=replay&setting=loop&ep={safe_name(loop[0])}"
    assert nav.find("a", id="next")[0]["href"] == f"#agent=replay&setting=loop&ep={safe_name(loop[2])}"
    assert nav.find("a", id="back")[0]["href"] == "#agent=replay&setting=loop"
    assert nav.texts["position"] == f"episode 2 of {len(loop)}"


@needs_chromium
def test_a_recovery_in_a_failed_episode_says_the_task_then_failed(records: list[dict[str, Any]],
                                                                   tmp_path: Path) -> None:
    """'recovered' alone on a failed episode reads as if all went well: the view says both."""
    won = next(r for r in records if outcome(r) == "success" and r["traps"]
               and all(ev.get("recovered") for ev in r["traps"]))
    lost = copy.deepcopy(won)
    lost["success"], lost["id"] = 0.0, won["id"] + "-failed"
    write_viewer([won, lost], tmp_path)
    seen = {}
    for r in (won, lost):
        _, dom = open_episode(tmp_path, tmp_path / "viewer", episode_key(r))
        seen[outcome(r)] = " ".join(dom.texts["trap-events"].split())
    assert seen["success"].count("recovered from the trap") == len(won["traps"])
    assert "then failed the task" not in seen["success"]
    assert seen["failure"].count("recovered from the trap") == len(won["traps"])
    assert seen["failure"].count("then failed the task") == len(won["traps"])


@needs_chromium
def test_episode_screenshot_is_not_blank(run_dir: Path, records: list[dict[str, Any]],
                                         tmp_path: Path) -> None:
    r = trapped_episode(records)
    png = tmp_path / "page.png"
    url = (run_dir / "viewer" / "index.html").resolve().as_uri() + f"#ep={episode_key(r)}"
    res = chromium(tmp_path, url, SETTLE, f"--screenshot={png}", "--window-size=1280,2400",
                   "--hide-scrollbars")
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


@needs_chromium
def test_a_large_run_opens_on_one_page_of_rows(run_dir: Path, records: list[dict[str, Any]],
                                               tmp_path: Path) -> None:
    """A run fifty times the size (9,900 episodes): index.html is no bigger than the small
    run's (its rows are data, drawn PAGE_ROWS at a time), the page draws one page of rows,
    pages on to any page, and opens an episode on a later page with its neighbours."""
    big = [{**r, "run": n, "id": r["id"].rsplit("|", 1)[0] + f"|{n}"} for n in range(50) for r in records]
    shutil.copyfile(run_dir / "config.json", tmp_path / "config.json")
    index = write_viewer(big, tmp_path)
    assert index.stat().st_size < (run_dir / "viewer" / "index.html").stat().st_size + 1024
    rows = read_rows(tmp_path / "viewer" / ROWS_FILE)
    assert len(rows) == len(big) == 9900
    last = math.ceil(len(rows) / PAGE_ROWS)
    dom = Dom(dump_dom(tmp_path, index, f"#page={last - 1}"))
    page = rows[(last - 2) * PAGE_ROWS:(last - 1) * PAGE_ROWS]
    assert [a["data-ep"] for a in rows_of(dom)] == [r["ep"] for r in page]
    assert dom.texts["page-info"] == (f"rows {(last - 2) * PAGE_ROWS + 1}\u2013{(last - 1) * PAGE_ROWS} of "
                                      f"{len(rows)} (page {last - 1} of {last})")
    assert dom.find("a", id="page-next")[0]["href"] == f"#page={last}"
    key = rows[-2]["ep"]  # an episode on the last page: its view loads, back leads to its page
    _, ep = open_episode(tmp_path, tmp_path / "viewer", key)
    assert ep.find("a", id="back")[0]["href"] == f"#page={last}"
    assert ep.find("a", id="next")[0]["href"] == f"#ep={rows[-1]['ep']}"
    assert ep.texts["position"] == f"episode {len(rows) - 1} of {len(rows)}"


def test_viewer_rebuilds_from_records(run_dir: Path, records: list[dict[str, Any]], tmp_path: Path) -> None:
    """write_viewer over the stored records gives the same files (the `view` command's path)."""
    out = tmp_path / "copy"
    shutil.copytree(run_dir, out, ignore=shutil.ignore_patterns("viewer"))
    index = write_viewer(records, out)
    assert index == out / "viewer" / "index.html"
    for f in [Path("index.html"), *sorted(p.relative_to(run_dir / "viewer")
                                          for p in (run_dir / "viewer" / "data").iterdir())]:
        assert (out / "viewer" / f).read_bytes() == (run_dir / "viewer" / f).read_bytes(), f


def in_old_layout(record: dict[str, Any], src: Path, dst: Path) -> dict[str, Any]:
    """A copy of `record` with its frames (read from run `src`) written into run `dst` as
    older versions wrote them: JPEGs in `screens/<episode>/NNN.jpg`."""
    r = copy.deepcopy(record)
    if r.get("screens"):
        folder = Path("screens") / safe_name(r["id"])
        (dst / folder).mkdir(parents=True)
        files = []
        for i, f in enumerate(r["screens"]["files"]):
            Image.open(src / f).convert("RGB").save(dst / folder / f"{i:03d}.jpg", quality=72)
            files.append(str(folder / f"{i:03d}.jpg"))
        r["screens"]["files"] = files
    return r


@needs_chromium
def test_older_runs_screens_layout_still_renders(run_dir: Path, records: list[dict[str, Any]],
                                                 tmp_path: Path) -> None:
    """A run from before content-addressed frames (`screens/<episode>/000.jpg`, one page per
    episode in viewer/): `antrap view` rebuilds it as one page, drops the old pages, and its
    JPEG frames load."""
    old = tmp_path / "old"
    r = in_old_layout(trapped_episode(records), run_dir, old)
    files = r["screens"]["files"]
    (old / "viewer").mkdir()
    stale = old / "viewer" / f"{safe_name(r['id'])}.html"
    stale.write_text("<html>an old episode page</html>")
    notes = old / "viewer" / "notes.html"  # not one of ours: kept
    notes.write_text("mine")
    write_viewer([r], old)
    assert not stale.exists() and notes.exists()
    _, dom = open_episode(tmp_path, old / "viewer", episode_key(r))
    imgs = [a["src"] for a in dom.find("img") if a.get("src", "").startswith("../screens/")]
    assert imgs == ["../" + f for f in files]
    body = dom.find("body")[0]
    assert body.get("data-images-loaded") == str(len(files)) and body.get("data-images-broken") == "0"


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


@needs_chromium
def test_swipe_arrows_follow_the_finger(swipe_record: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """A drag is an arrow from (x, y) to (x2, y2); a swipe by direction is an arrow the way the
    finger moved (up: towards the top, left: towards the left edge)."""
    from tests.faulty_agents import SWIPES

    out, r = swipe_record
    assert [s["action"] for s in r["trajectory"]] == list(SWIPES)
    html = view_of(tmp_path, out / "viewer", r)
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
    html = view_of(tmp_path, out / "viewer", r)
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
                phones.append(canonical(env.unwrapped.device.snapshot().payload))  # the phone after it
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
