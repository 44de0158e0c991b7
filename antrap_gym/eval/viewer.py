"""A static HTML trajectory viewer for an evaluation's episodes.

`write_viewer(records, out)` writes one page, `out/viewer/index.html`: every
episode in a filterable, sortable table (in a fixed order: agent, setting --
clean, then the traps in taxonomy order --, task, variant, run), drawn a page of
PAGE_ROWS rows at a time from one compressed data file (`viewer/data/rows.js`),
so a run of tens of thousands of episodes opens in well under a second; and, when an
episode is opened, its view (goal, verdict, trap events, and each step: the
screen the agent saw with its action drawn over it, the action, the agent's
reasoning, the env's error, and a marker where a trap acted).

The episodes' records (what a view shows of them: `VIEW_FIELDS`) are stored
compressed, CHUNK episodes to a file, in `viewer/data/NNN.js`; opening an
episode loads its file with a script tag (which works from file://, where
fetch() of a local file does not), inflates it in the browser
(`DecompressionStream`) and renders the view from the record
(`viewer_assets/episode.js`). A record compresses far better than its rendered
HTML, so the views of a run of tens of thousands of episodes take a few MB;
only what is looked at is read. Frames are referenced by relative path
(`../screens/...`, whatever layout the run's records name), so the run
directory can be copied or served as is. All record text is HTML-escaped by the
renderer: goals, thoughts and raw model output are untrusted.

The page is a Jinja template and its style and scripts are package data
(`viewer_assets/index.html`, `viewer.css`, `*.js`); the style and scripts are inlined
into index.html so that the viewer is one self-contained page and its data. Every value
the template shows is escaped (autoescape).

The view lives in the URL hash: filters (`index.html#agent=x&setting=loop&
outcome=failure&q=text`), the page of rows (`&page=3`) and the episode open
(`&ep=<key>`, `&at=step-3`), so a filtered list or a step of an episode can be
linked to.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import math
import re
import shutil
import zlib
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2

from antrap_gym.eval.worker import safe_name
from antrap_gym.traps.taxonomy import LAYER_OF, TRAP_TYPES

OUTCOMES = ("success", "failure", "error")
PLOTS = ("success_by_trap.png", "drop_by_layer.png")
DATA_DIR = "data"  # under viewer/: the episodes' records, CHUNK to a file
CHUNK = 50  # episodes per data file: small files, few of them, a task instance together
ROWS_FILE = f"{DATA_DIR}/rows.js"  # the table's rows, rendered PAGE_ROWS at a time
PAGE_ROWS = 100
_OLD_PAGE = re.compile(r"-[0-9a-f]{8}\.html$")  # a per-episode page of the older layout


def esc(x: Any) -> str:
    """Text (of anything) escaped for HTML content and quoted attributes."""
    return html.escape("" if x is None else str(x), quote=True)


def outcome(r: dict[str, Any]) -> str:
    """success / failure / error (an episode that crashed or was cut short by the harness)."""
    if r.get("error"):
        return "error"
    return "success" if _num(r.get("success")) >= 1.0 else "failure"


def episode_key(r: dict[str, Any]) -> str:
    """An episode's key in the viewer's URLs and data (unique, URL-safe)."""
    return safe_name(str(r.get("id", "")))


def chunk_name(n: int) -> str:
    """The file (under viewer/) holding data chunk `n`."""
    return f"{DATA_DIR}/{n:03d}.js"


def _num(x: Any, default: float = 0.0) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return default
    return v if math.isfinite(v) else default


def _title(setting: str) -> str:
    return setting.replace("_", " ").capitalize()


def _settings(records: list[dict[str, Any]]) -> list[str]:
    """clean, trap types in taxonomy order, then any other named settings."""
    seen = {str(r.get("setting")) for r in records}
    known = [t for t in TRAP_TYPES if t in seen]
    rest = sorted(s for s in seen if s not in known and s != "clean")
    return (["clean"] if "clean" in seen else []) + known + rest


def _agents(records: list[dict[str, Any]], first: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The agents of `records`: those named in `first` (the run's configured order) in that
    order, then any others as they first appear."""
    seen = {str(r.get("agent")) for r in records}
    out = [a for a in dict.fromkeys(first) if a in seen]
    for r in records:
        if str(r.get("agent")) not in out:
            out.append(str(r.get("agent")))
    return out


def run_agents(out: str | Path) -> list[str]:
    """The agent labels of the run in `out`, in the order it was configured (config.json),
    so that the viewer's order does not depend on which worker finished first."""
    try:
        config = json.loads((Path(out) / "config.json").read_text(encoding="utf-8"))
        return [str(a["label"]) for a in config["agents"] if isinstance(a, dict) and a.get("label")]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def sort_records(records: list[dict[str, Any]], agents: list[str] | tuple[str, ...] = ()
                 ) -> list[dict[str, Any]]:
    """The episodes in the viewer's order: agent (`agents` first, as in the overview table),
    setting (clean, then the traps in taxonomy order), task, variant, run; the id breaks any
    tie."""
    agent_rank = {a: i for i, a in enumerate(_agents(records, agents))}
    settings = {s: i for i, s in enumerate(_settings(records))}
    return sorted(records, key=lambda r: (
        agent_rank[str(r.get("agent"))], settings[str(r.get("setting"))], str(r.get("task")),
        _num(r.get("variant")), _num(r.get("run")), str(r.get("id"))))


def write_viewer(records: list[dict[str, Any]], out: str | Path) -> Path:
    """Write the viewer under `out/viewer/` (replacing an earlier one, of either layout);
    returns the index page's path."""
    out = Path(out)
    root = out / "viewer"
    root.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(root / DATA_DIR, ignore_errors=True)
    for old in root.glob("*.html"):  # the one-page-per-episode layout of older runs
        if _OLD_PAGE.search(old.name):
            old.unlink()
    (root / DATA_DIR).mkdir()
    agents = run_agents(out)
    order = sort_records(records, agents)
    keys = [episode_key(r) for r in order]
    stored = chunk_order(order)
    chunk_of = [0] * len(order)
    for n, start in enumerate(range(0, len(stored), CHUNK)):
        part = stored[start:start + CHUNK]
        for i in part:
            chunk_of[i] = n
        data = [[keys[i], view_record(order[i])] for i in part]
        (root / chunk_name(n)).write_text(chunk_script(n, data), encoding="utf-8")
    rows = [row_data(r, k, chunk_of[i]) for i, (r, k) in enumerate(zip(order, keys))]
    (root / ROWS_FILE).write_text(rows_script(rows), encoding="utf-8")
    plots = [p for p in PLOTS if (out / p).exists()]
    index = root / "index.html"
    index.write_text(index_page(order, plots, agents), encoding="utf-8")
    return index


def chunk_order(order: list[dict[str, Any]]) -> list[int]:
    """The episodes (positions in the table's `order`) in the order the data files hold them:
    a task instance's episodes (template, variant, run: every agent and setting) together,
    in the table's order within it. They share goal, parameters and most steps, so a file
    of them compresses about twice as well as a file of table neighbours (other tasks)."""
    return sorted(range(len(order)), key=lambda i: (
        str(order[i].get("task")), _num(order[i].get("variant")), _num(order[i].get("run")), i))


def _data_script(call: str, data: Any) -> str:
    """`call("<base64 of zlib of JSON data>");`: a script, not JSON, so that a page opened
    from file:// can load it; compressed, because what it holds repeats itself."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return f'{call}"{base64.b64encode(zlib.compress(payload, 6)).decode("ascii")}");\n'


#: what an episode's view shows of its record (`viewer_assets/episode.js` reads these)
VIEW_FIELDS = ("id", "agent", "task", "variant", "run", "seed", "setting", "params", "goal",
               "trap_seed", "trap_attempts", "success", "steps", "budget", "terminated", "truncated",
               "answer", "wall_s", "error", "traceback", "traps", "screen_size", "screens", "trajectory")


def _finite(x: Any) -> Any:
    """`x` with every non-finite float (NaN, infinities: not JSON) written as a string, and
    anything else JSON cannot hold as its str()."""
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if isinstance(x, dict):
        return {str(k): _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x if x is None or isinstance(x, (str, int)) else str(x)


def view_record(r: dict[str, Any]) -> dict[str, Any]:
    """What an episode's view is rendered from: its record's `VIEW_FIELDS`, as strict JSON."""
    view = {k: r[k] for k in VIEW_FIELDS if k in r}
    try:
        json.dumps(view, allow_nan=False)
    except (TypeError, ValueError):
        view = _finite(view)
    return view


def chunk_script(n: int, episodes: list[list[Any]]) -> str:
    """A data file: `antrapChunk(n, "<base64 of zlib of JSON [[key, view record], ...]>")`."""
    return _data_script(f"antrapChunk({n}, ", episodes)


def read_chunk(path: str | Path) -> list[list[Any]]:
    """The entries of a data file, as `chunk_script` or `rows_script` wrote them (for tools and
    tests)."""
    text = Path(path).read_text(encoding="utf-8")
    b64 = text[text.index('"') + 1: text.rindex('"')]
    return json.loads(zlib.decompress(base64.b64decode(b64)))


def asset(name: str) -> str:
    """A file of the page's style or scripts (package data, `antrap_gym/eval/viewer_assets/`)."""
    return resources.files("antrap_gym.eval").joinpath("viewer_assets", name).read_text(encoding="utf-8")


#: what each row of the table holds (`row_data`), in order: the page builds its rows from them
ROW_FIELDS = ("ep", "chunk", "agent", "task", "variant", "setting", "run", "outcome", "score",
              "steps", "budget", "events", "wall", "error", "search")


def row_data(r: dict[str, Any], key: str, chunk: int) -> list[Any]:
    """One table row's values (`ROW_FIELDS`): what the page shows, filters and sorts on."""
    search = " ".join(str(r.get(k) or "") for k in ("id", "task", "goal", "answer", "error")).lower()
    return [key, chunk, str(r.get("agent")), str(r.get("task")), str(r.get("variant")),
            str(r.get("setting")), int(_num(r.get("run"))), outcome(r), round(_num(r.get("success")), 4),
            int(_num(r.get("steps"))), int(_num(r.get("budget"))), len(r.get("traps") or []),
            round(_num(r.get("wall_s")), 2), str(r.get("error") or ""), search]


def rows_script(rows: list[list[Any]]) -> str:
    """The table's rows as a data file, `antrapRows("<base64 of zlib of JSON>")`: the page
    renders a page of them at a time, so a run of tens of thousands of episodes opens at once."""
    return _data_script("antrapRows(", rows)


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a viewer's rows file (`viewer/data/rows.js`) as dicts of `ROW_FIELDS`."""
    return [dict(zip(ROW_FIELDS, row)) for row in read_chunk(path)]


# ------------------------------------------------------------------------------------------------
# shared page parts

@functools.cache
def _templates() -> jinja2.Environment:
    """The page's Jinja templates (package data beside the style and scripts), escaping
    every value put into them."""
    env = jinja2.Environment(loader=jinja2.FunctionLoader(asset), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters.update(setting_title=_title, urlpart=lambda v: quote(str(v), safe=""),
                       as_json=json.dumps)
    return env


def _setting_chip(setting: str) -> str:
    if setting == "clean":
        return '<span class="chip">clean</span>'
    layer = LAYER_OF.get(setting)
    cls = f" layer-{layer}" if layer else ""
    return f'<span class="chip trap{cls}" title="{esc(layer or "")}">{esc(setting)}</span>'


# ------------------------------------------------------------------------------------------------
# the page: the table of episodes, and the view of the episode opened

def _overview_cells(records: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Successes / episodes per (agent, setting), with the cell's colour (red to green)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for r in records:
        c = counts.setdefault((str(r.get("agent")), str(r.get("setting"))), [0, 0])
        c[0] += outcome(r) == "success"
        c[1] += 1
    return {k: {"wins": w, "n": n, "colour": f"hsl({round(120 * w / n)}, 60%, {88 - 8 * w / n:.0f}%)"}
            for k, (w, n) in counts.items()}


def index_page(records: list[dict[str, Any]], plots: list[str] | tuple[str, ...] = (),
               agents: list[str] | tuple[str, ...] = ()) -> str:
    """The page: the overview, filters and counts of every episode, the table the page
    draws from `viewer/data/rows.js`, and the place an opened episode is shown."""
    agents = _agents(records, agents)
    settings = _settings(records)
    return _templates().get_template("index.html").render(
        title="AnTrap trajectories", css=asset("viewer.css"), script=asset("episode.js") + asset("index.js"),
        n=len(records), agents=agents, settings=settings, outcomes=OUTCOMES,
        totals={o: sum(1 for r in records if outcome(r) == o) for o in OUTCOMES},
        cells=_overview_cells(records), plots=list(plots), page_rows=PAGE_ROWS,
        heads=["Agent", "Task", "Setting", "Run", "Outcome", "Steps / budget", "Trap events", "Wall s",
               "Error"],
        # the rows' setting cells, as episode views draw them
        chips={s: _setting_chip(s) for s in settings}, fields=ROW_FIELDS, layers=LAYER_OF)
