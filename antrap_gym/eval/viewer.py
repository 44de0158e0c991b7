"""A static HTML trajectory viewer for an evaluation's episodes.

`write_viewer(records, out)` writes one page, `out/viewer/index.html`: every
episode in a filterable, sortable table (in a fixed order: agent, setting --
clean, then the traps in taxonomy order --, task, variant, run), drawn a page of
PAGE_ROWS rows at a time from one compressed data file (`viewer/data/rows.js`),
so a run of tens of thousands of episodes opens in well under a second; and, when an
episode is opened, its view (goal, verdict, trap events, and each step: the
screen the agent saw with its action drawn over it, the action, the agent's
reasoning, the env's error, and a marker where a trap acted).

The episode views are rendered here and stored compressed, a few dozen
episodes to a file, in `viewer/data/NNN.js`; opening an episode loads its file
with a script tag (which works from file://, where fetch() of a local file
does not) and inflates it in the browser (`DecompressionStream`). So a run of
thousands of episodes is one page, a few dozen data files and the frames, and
only what is looked at is read. Frames are referenced by relative path
(`../screens/...`, whatever layout the run's records name), so the run
directory can be copied or served as is. All record text is HTML-escaped:
goals, thoughts and raw model output are untrusted.

The view lives in the URL hash: filters (`index.html#agent=x&setting=loop&
outcome=failure&q=text`), the page of rows (`&page=3`) and the episode open
(`&ep=<key>`, `&at=step-3`), so a filtered list or a step of an episode can be
linked to.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
import shutil
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import quote

from antrap_gym.eval.worker import safe_name
from antrap_gym.traps.taxonomy import LAYER_OF, TRAP_TYPES

OUTCOMES = ("success", "failure", "error")
FRAME_WIDTH = 300  # CSS pixels of a screenshot on an episode view
PLOTS = ("success_by_trap.png", "drop_by_layer.png")
DATA_DIR = "data"  # under viewer/: the episodes' views, CHUNK to a file
CHUNK = 50  # episodes per data file: small files, few of them, neighbours together
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
    for n, start in enumerate(range(0, len(order), CHUNK)):
        part = [[keys[i], episode_title(order[i]), episode_html(order[i])]
                for i in range(start, min(start + CHUNK, len(order)))]
        (root / chunk_name(n)).write_text(chunk_script(n, part), encoding="utf-8")
    rows = [row_data(r, k, i // CHUNK) for i, (r, k) in enumerate(zip(order, keys))]
    (root / ROWS_FILE).write_text(rows_script(rows), encoding="utf-8")
    plots = [p for p in PLOTS if (out / p).exists()]
    index = root / "index.html"
    index.write_text(index_page(order, plots, agents), encoding="utf-8")
    return index


def _data_script(call: str, data: Any) -> str:
    """`call("<base64 of zlib of JSON data>");`: a script, not JSON, so that a page opened
    from file:// can load it; compressed, because what it holds repeats itself."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return f'{call}"{base64.b64encode(zlib.compress(payload, 6)).decode("ascii")}");\n'


def chunk_script(n: int, episodes: list[list[str]]) -> str:
    """A data file: `antrapChunk(n, "<base64 of zlib of JSON [[key, title, html], ...]>")`
    (the views' HTML compresses ~15x)."""
    return _data_script(f"antrapChunk({n}, ", episodes)


def read_chunk(path: str | Path) -> list[list[str]]:
    """The episodes of a data file, as `chunk_script` wrote them (for tools and tests)."""
    text = Path(path).read_text(encoding="utf-8")
    b64 = text[text.index('"') + 1: text.rindex('"')]
    return json.loads(zlib.decompress(base64.b64decode(b64)))


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

CSS = """
:root { --fg:#1d232b; --muted:#5f6b7a; --line:#dde2e8; --bg:#f5f7fa; --card:#fff;
  --ok:#1a7f45; --ok-bg:#e3f5ea; --bad:#b3261e; --bad-bg:#fbe6e4; --err:#8a4b00; --err-bg:#fff1d6;
  --trap:#d9480f; --trap-bg:#fff4e6; --accent:#1565c0; }
* { box-sizing: border-box; }
[hidden] { display:none !important; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg);
  background:var(--bg); }
main { max-width:1280px; margin:0 auto; padding:18px 24px 48px; }
a { color:var(--accent); text-decoration:none; } a:hover { text-decoration:underline; }
h1 { font-size:22px; margin:6px 0 4px; } h2 { font-size:17px; margin:22px 0 10px; }
code, pre { font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
pre { background:#f0f3f7; border:1px solid var(--line); border-radius:6px; padding:8px 10px; margin:6px 0;
  white-space:pre-wrap; word-break:break-word; max-height:360px; overflow:auto; }
.muted { color:var(--muted); }
.badge { display:inline-block; padding:1px 9px; border-radius:999px; font-size:12px; font-weight:600;
  vertical-align:middle; }
.o-success { color:var(--ok); background:var(--ok-bg); }
.o-failure { color:var(--bad); background:var(--bad-bg); }
.o-error { color:var(--err); background:var(--err-bg); }
.chip { display:inline-block; padding:0 7px; border-radius:4px; font-size:12px; background:#eef1f5;
  color:#3b4654; white-space:nowrap; }
.chip.trap { background:var(--trap-bg); color:var(--trap); }
.layer-state { border-left:3px solid #3d6fb6; } .layer-thinking { border-left:3px solid #c98a1b; }
.layer-action { border-left:3px solid #2e8b57; } .layer-round { border-left:3px solid #a34d8f; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:14px 16px; }
nav.top { display:flex; gap:14px; align-items:center; font-size:13px; margin-bottom:6px; }
nav.top .spacer { flex:1; }
"""

INDEX_CSS = """
.summary { display:flex; flex-wrap:wrap; gap:10px; margin:10px 0 4px; }
.overview { overflow:auto; }
.overview table { border-collapse:collapse; font-size:12px; }
.overview th, .overview td { padding:4px 8px; text-align:center; border-bottom:1px solid var(--line); }
.overview th:first-child, .overview td:first-child { text-align:left; }
.overview td a { display:block; border-radius:4px; padding:1px 4px; color:#111; }
form.filters { display:flex; flex-wrap:wrap; gap:14px; align-items:end; margin:18px 0 8px; }
form.filters label { display:flex; flex-direction:column; font-size:12px; color:var(--muted); gap:3px; }
form.filters select, form.filters input { font:inherit; padding:4px 6px; border:1px solid #c3cad3;
  border-radius:6px; background:#fff; min-width:150px; }
form.filters button { font:inherit; padding:4px 12px; border:1px solid #c3cad3; border-radius:6px;
  background:#fff; cursor:pointer; }
#counts { margin:6px 0 10px; color:var(--muted); } #counts b { color:var(--fg); }
nav.pager { display:flex; gap:14px; align-items:center; margin:0 0 8px; font-size:13px; }
nav.pager #page-info { color:var(--muted); }
table.episodes { width:100%; border-collapse:collapse; background:#fff; border:1px solid var(--line);
  border-radius:10px; overflow:hidden; }
table.episodes th { text-align:left; font-size:12px; color:var(--muted); background:#f0f3f7;
  padding:7px 10px; cursor:pointer; user-select:none; white-space:nowrap; }
table.episodes th[aria-sort=ascending]::after { content:" ▲"; }
table.episodes th[aria-sort=descending]::after { content:" ▼"; }
table.episodes td { padding:6px 10px; border-top:1px solid var(--line); vertical-align:top; }
table.episodes tr:hover td { background:#f7faff; }
table.episodes td.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
table.episodes td.err { color:var(--err); font-size:12px; max-width:280px; overflow:hidden;
  text-overflow:ellipsis; white-space:nowrap; }
details.plots img { max-width:100%; margin:8px 0; border:1px solid var(--line); border-radius:8px;
  background:#fff; }
"""

EPISODE_CSS = """
.goal { font-size:16px; margin:10px 0 14px; padding:10px 14px; background:#fff; border:1px solid var(--line);
  border-left:4px solid var(--accent); border-radius:8px; }
dl.meta { display:grid; grid-template-columns:max-content 1fr; gap:4px 16px; margin:0; }
dl.meta dt { color:var(--muted); } dl.meta dd { margin:0; word-break:break-word; }
.error-box { margin:12px 0; padding:10px 14px; background:var(--err-bg); color:var(--err);
  border-radius:8px; border:1px solid #f0d29a; }
ol.trap-events { list-style:none; padding:0; margin:0; display:grid; gap:8px; }
li.trap-event { background:var(--trap-bg); border:1px solid #ffd8a8; border-left:5px solid var(--trap);
  border-radius:8px; padding:8px 12px; }
li.trap-event .what { font-weight:600; color:var(--trap); }
.ok { color:var(--ok); font-weight:600; } .no { color:var(--bad); font-weight:600; }
article.step { display:grid; grid-template-columns:""" + str(FRAME_WIDTH) + """px 1fr; gap:18px;
  background:#fff; border:1px solid var(--line); border-radius:10px; padding:14px; margin:0 0 14px;
  scroll-margin-top:10px; }
article.step.noshot { grid-template-columns:1fr; }
article.step.trap-at { border:2px solid var(--trap);
  background:linear-gradient(90deg,var(--trap-bg),#fff 60%); }
article.step.trap-active { border-left:6px solid #ffa94d; }
article.step.focus, li.trap-event.focus { box-shadow:0 0 0 3px #90caf9; }
.loading { padding:40px 0; color:var(--muted); }
nav.top #position { color:var(--muted); }
.frame { position:relative; width:""" + str(FRAME_WIDTH) + """px; border-radius:14px; overflow:hidden;
  background:#222; box-shadow:0 1px 4px rgba(0,0,0,.25); }
.frame img { display:block; width:100%; height:auto; }
.frame svg { position:absolute; left:0; top:0; width:100%; height:100%; overflow:visible; }
.frame.broken img { visibility:hidden; min-height:200px; }
.frame.broken::after { content:"screenshot missing"; position:absolute; inset:0; display:grid;
  place-items:center; color:#ccc; }
.caption { font-size:12px; color:var(--muted); margin-top:5px; text-align:center; }
.step-head { display:flex; flex-wrap:wrap; gap:8px; align-items:center; margin-bottom:6px; }
.step-head .num { font-weight:700; font-size:15px; }
.step-head .act { font-weight:600; }
.trap-marker { display:inline-block; background:var(--trap); color:#fff; font-weight:700; font-size:12px;
  padding:2px 9px; border-radius:999px; }
.trap-marker.active { background:#ffe8cc; color:var(--trap); }
.trap-note { font-size:12px; color:var(--trap); margin:2px 0 6px; }
.thought { white-space:pre-wrap; word-break:break-word; margin:6px 0; padding:8px 10px; background:#f7f9fc;
  border-radius:6px; border:1px solid var(--line); }
.label { font-size:11px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); margin-top:8px; }
.env-error { margin:8px 0 0; padding:6px 10px; border-radius:6px; background:var(--bad-bg);
  color:var(--bad); }
details > summary { cursor:pointer; color:var(--muted); font-size:12px; margin-top:8px; }
.keys { font-size:12px; color:var(--muted); }
@media (max-width: 760px) { article.step { grid-template-columns:1fr; } .frame { margin:0 auto; } }
nav.timeline { display:flex; flex-wrap:wrap; gap:5px; margin:0 0 14px; }
nav.timeline a.tl { display:flex; flex-direction:column; align-items:center; min-width:54px; padding:3px 6px;
  border:1px solid var(--line); border-radius:7px; background:#fff; color:var(--fg); font-weight:700;
  font-size:13px; line-height:1.2; }
nav.timeline a.tl small { font-weight:400; font-size:10px; color:var(--muted); white-space:nowrap; }
nav.timeline a.tl.trap { background:var(--trap); border-color:var(--trap); color:#fff; }
nav.timeline a.tl.trap small { color:#ffe8cc; }
nav.timeline a.tl.active { border-color:#ffa94d; background:var(--trap-bg); }
nav.timeline a.tl.err { box-shadow:inset 0 -3px 0 var(--bad); }
"""


def _page(title: str, body: str, css: str, script: str = "") -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}{css}</style></head>\n"
            f"<body>\n<main>\n{body}\n</main>\n"
            + (f"<script>\n{script}\n</script>\n" if script else "") + "</body></html>\n")


def _badge(r: dict[str, Any]) -> str:
    o = outcome(r)
    score = _num(r.get("success"))
    extra = f" ({score:g})" if o == "failure" and 0 < score < 1 else ""
    return f'<span class="badge o-{o}">{o}{extra}</span>'


def _setting_chip(setting: str) -> str:
    if setting == "clean":
        return '<span class="chip">clean</span>'
    layer = LAYER_OF.get(setting)
    cls = f" layer-{layer}" if layer else ""
    return f'<span class="chip trap{cls}" title="{esc(layer or "")}">{esc(setting)}</span>'


# ------------------------------------------------------------------------------------------------
# the page: the table of episodes, and the view of the episode opened

INDEX_JS = r"""
(function () {
  var keys = ['agent', 'setting', 'outcome', 'q'];
  var ctl = {};
  keys.forEach(function (k) { ctl[k] = document.getElementById('f-' + k); });
  var body = document.body;
  var table = document.getElementById('episodes');
  var tbody = table.querySelector('tbody');
  var listView = document.getElementById('list'), epView = document.getElementById('episode');
  var epBody = document.getElementById('episode-body');
  var back = document.getElementById('back'), prev = document.getElementById('prev');
  var next = document.getElementById('next'), position = document.getElementById('position');
  var pagePrev = document.getElementById('page-prev'), pageNext = document.getElementById('page-next');
  var pageInfo = document.getElementById('page-info');
  var PAGE = +table.dataset.page, CHIPS = JSON.parse(table.dataset.chips);
  var FIELDS = JSON.parse(table.dataset.fields);
  var baseTitle = document.title;
  var rows = null;      // every episode's row (objects of FIELDS), in the table's order
  var list = [];        // the rows the filters let through, in the table's order
  var page = 1, sortCol = -1, sortAsc = true;
  var chunkOf = {};

  function esc(x) {
    return String(x).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;'}[c];
    });
  }

  // ---- the list: filters (kept in the URL hash), counts, sorting, a page of rows at a time
  function has(select, v) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === v; });
  }
  function readHash(p) {
    keys.forEach(function (k) {
      var v = p.get(k) || '';
      if (k !== 'q' && !has(ctl[k], v)) v = '';
      ctl[k].value = v;
    });
    page = Math.max(1, parseInt(p.get('page'), 10) || 1);
  }
  function current(pageNo) {  // the filters' hash, on page `pageNo` (none: the first)
    var p = new URLSearchParams();
    keys.forEach(function (k) { if (ctl[k].value) p.set(k, ctl[k].value); });
    if (pageNo > 1) p.set('page', pageNo);
    return p.toString();
  }
  function link(ep, at) {  // the hash of an episode (and a step of it) under the current filters
    var p = new URLSearchParams(current());
    p.set('ep', ep);
    if (at) p.set('at', at);
    return '#' + p.toString();
  }
  function writeHash() {
    var h = current(page);
    history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
  }
  var SORT = [
    function (r) { return r.agent; }, function (r) { return r.task + '|' + r.variant; },
    function (r) { return r.setting; }, function (r) { return r.run; },
    function (r) { return r.outcome; }, function (r) { return r.steps; },
    function (r) { return r.events; }, function (r) { return r.wall; },
    function (r) { return r.error; }];
  function ordered() {
    if (sortCol < 0) return rows;
    var key = SORT[sortCol];
    var out = rows.slice();
    out.sort(function (x, y) {  // stable: ties keep the table's order
      var u = key(x), v = key(y);
      var c = typeof u === 'number' ? u - v : String(u).localeCompare(String(v));
      return (sortAsc ? c : -c) || (x.i - y.i);
    });
    return out;
  }
  function rowHtml(r) {
    var extra = r.outcome === 'failure' && r.score > 0 && r.score < 1 ? ' (' + r.score + ')' : '';
    return '<tr data-agent="' + esc(r.agent) + '" data-setting="' + esc(r.setting) +
      '" data-outcome="' + r.outcome + '" data-events="' + r.events + '" data-ep="' + esc(r.ep) +
      '" data-chunk="' + r.chunk + '">' +
      '<td>' + esc(r.agent) + '</td>' +
      '<td><a class="open" href="#ep=' + esc(r.ep) + '">' + esc(r.task) + '</a> <span class="muted">#' +
      esc(r.variant) + '</span></td>' +
      '<td>' + CHIPS[r.setting] + '</td>' +
      '<td class="num">' + r.run + '</td>' +
      '<td><span class="badge o-' + r.outcome + '">' + r.outcome + extra + '</span></td>' +
      '<td class="num">' + r.steps + ' / ' + r.budget + '</td>' +
      '<td class="num">' + (r.events ? r.events : '\u2013') + '</td>' +
      '<td class="num">' + r.wall.toFixed(2) + '</td>' +
      '<td class="err" title="' + esc(r.error) + '">' + esc(r.error) + '</td></tr>';
  }
  function pages() { return Math.max(1, Math.ceil(list.length / PAGE)); }
  function render() {
    page = Math.min(page, pages());
    var from = (page - 1) * PAGE, to = Math.min(list.length, from + PAGE);
    tbody.innerHTML = list.slice(from, to).map(rowHtml).join('');
    pageInfo.textContent = list.length ? 'rows ' + (from + 1) + '\u2013' + to + ' of ' + list.length +
      ' (page ' + page + ' of ' + pages() + ')' : 'no rows';
    pagePrev.hidden = page <= 1;
    pageNext.hidden = page >= pages();
    if (!pagePrev.hidden) pagePrev.setAttribute('href', '#' + current(page - 1));
    if (!pageNext.hidden) pageNext.setAttribute('href', '#' + current(page + 1));
    body.setAttribute('data-page', page);
    if (body.getAttribute('data-rows-state') !== 'ready') {  // the page is usable from here
      body.setAttribute('data-rows-ms', Math.round(performance.now()));
      body.setAttribute('data-rows-state', 'ready');
    }
  }
  function apply() {
    var a = ctl.agent.value, s = ctl.setting.value, o = ctl.outcome.value;
    var q = ctl.q.value.trim().toLowerCase();
    var n = {shown: 0, success: 0, failure: 0, error: 0};
    list = ordered().filter(function (d) {
      var ok = (!a || d.agent === a) && (!o || d.outcome === o) &&
        (!s || (s === '*trap' ? d.setting !== 'clean' :
                s === '*fired' ? d.events !== 0 : d.setting === s)) &&
        (!q || d.search.indexOf(q) >= 0);
      if (ok) { n.shown += 1; n[d.outcome] += 1; }
      return ok;
    });
    Object.keys(n).forEach(function (k) { document.getElementById('n-' + k).textContent = n[k]; });
    body.setAttribute('data-shown', n.shown);
    body.setAttribute('data-filter', current());
    render();
  }
  keys.forEach(function (k) {
    ctl[k].addEventListener(k === 'q' ? 'input' : 'change', function () {
      page = 1; writeHash(); apply();
    });
  });
  document.getElementById('f-reset').addEventListener('click', function (e) {
    e.preventDefault();
    keys.forEach(function (k) { ctl[k].value = ''; });
    page = 1; writeHash(); apply();
  });
  var ths = table.querySelectorAll('thead th');
  Array.prototype.forEach.call(ths, function (th, col) {
    th.addEventListener('click', function () {
      if (!rows) return;
      sortAsc = !(sortCol === col && sortAsc);
      sortCol = col;
      Array.prototype.forEach.call(ths, function (t) { t.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', sortAsc ? 'ascending' : 'descending');
      page = 1; writeHash(); apply();
    });
  });
  tbody.addEventListener('click', function (e) {  // open an episode, keeping the filters
    var a = e.target.closest && e.target.closest('a.open');
    if (!a || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    location.hash = link(a.closest('tr').dataset.ep);
  });

  // ---- episode data: one script per chunk of episodes, loaded when first needed
  var loaded = {}, done = {}, waiting = {};
  function finish(n, err) {
    var cbs = waiting[n] || [];
    waiting[n] = null;
    if (!err) done[n] = true;
    cbs.forEach(function (cb) { cb(err); });
  }
  function inflate(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).text();
  }
  window.antrapChunk = function (n, b64) {
    if (!window.DecompressionStream) {
      finish(n, 'this browser cannot inflate the viewer\u2019s data (it needs DecompressionStream)');
      return;
    }
    inflate(b64).then(function (text) {
      JSON.parse(text).forEach(function (e) { loaded[e[0]] = {title: e[1], html: e[2]}; });
      finish(n, null);
    }, function (err) { finish(n, 'data chunk ' + n + ' is damaged: ' + err); });
  };
  function need(n, cb) {
    if (done[n]) { cb(null); return; }
    if (waiting[n]) { waiting[n].push(cb); return; }
    waiting[n] = [cb];
    var s = document.createElement('script');
    s.src = 'data/' + String(n).padStart(3, '0') + '.js';
    s.onerror = function () { s.remove(); finish(n, 'could not read viewer/' + s.getAttribute('src')); };
    document.head.appendChild(s);
  }

  // ---- the episode view
  var shown = null, rendered = null, listScroll = 0;
  function state(s) { body.setAttribute('data-episode-state', s); }
  function message(cls, text) {
    epBody.innerHTML = '';
    var p = document.createElement('p');
    p.className = cls;
    p.textContent = text;
    epBody.appendChild(p);
    rendered = null;
  }
  function watchImages() {
    var imgs = epBody.querySelectorAll('.frame img');
    function mark() {
      var ok = 0, bad = 0, pending = 0;
      Array.prototype.forEach.call(imgs, function (img) {
        if (!img.complete) { pending += 1; return; }
        var good = img.naturalWidth > 0;
        img.parentNode.classList.toggle('broken', !good);
        if (good) ok += 1; else bad += 1;
      });
      body.setAttribute('data-images-loaded', ok);
      body.setAttribute('data-images-broken', bad);
      body.setAttribute('data-images-pending', pending);
    }
    Array.prototype.forEach.call(imgs, function (img) {
      img.addEventListener('load', mark);
      img.addEventListener('error', mark);
    });
    mark();
  }
  function focus(el) {
    Array.prototype.forEach.call(epBody.querySelectorAll('.focus'), function (x) {
      x.classList.remove('focus');
    });
    el.classList.add('focus');
    el.scrollIntoView();
  }
  function neighbours(key) {
    var within = list, at = list.findIndex(function (r) { return r.ep === key; });
    if (at < 0) { within = rows; at = rows.findIndex(function (r) { return r.ep === key; }); }
    [[prev, within[at - 1]], [next, within[at + 1]]].forEach(function (x) {
      x[0].hidden = !x[1];
      if (x[1]) x[0].setAttribute('href', link(x[1].ep));
    });
    position.textContent = at >= 0 ? 'episode ' + (at + 1) + ' of ' + within.length : '';
    if (within === list && at >= 0) page = Math.floor(at / PAGE) + 1;  // back to the page it is on
    back.setAttribute('href', '#' + current(page));
  }
  function openEpisode(key, at) {
    if (epView.hidden) listScroll = window.scrollY;
    listView.hidden = true;
    epView.hidden = false;
    shown = key;
    body.setAttribute('data-episode', key);
    neighbours(key);
    var n = chunkOf[key];
    if (n === undefined) {
      message('error-box', 'There is no episode ' + key + ' in this run.');
      document.title = baseTitle;
      state('missing');
      return;
    }
    if (rendered !== key) { message('loading', 'loading the episode\u2026'); state('loading'); }
    need(n, function (err) {
      if (shown !== key) return;
      if (err) { message('error-box', 'Could not load this episode: ' + err); state('error'); return; }
      var e = loaded[key];
      if (rendered !== key) {
        epBody.innerHTML = e.html;
        rendered = key;
        watchImages();
      }
      document.title = e.title;
      var target = at && document.getElementById(at);
      if (target && epBody.contains(target)) focus(target); else window.scrollTo(0, 0);
      state('ready');
    });
  }
  function showList() {
    shown = null;
    body.removeAttribute('data-episode');
    body.removeAttribute('data-episode-state');
    if (!epView.hidden) {
      epView.hidden = true;
      listView.hidden = false;
      window.scrollTo(0, listScroll);
    }
    document.title = baseTitle;
  }
  epBody.addEventListener('click', function (e) {  // links within the episode: scroll, keep the view
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (!a) return;
    var id = a.getAttribute('href').slice(1), el = document.getElementById(id);
    if (!el || !epBody.contains(el)) return;
    e.preventDefault();
    focus(el);
    history.replaceState(null, '', link(shown, id));
  });
  document.addEventListener('keydown', function (e) {  // j / k: next / previous step
    if (epView.hidden || (e.target.closest && e.target.closest('input, textarea, select'))) return;
    if (e.key !== 'j' && e.key !== 'k') return;
    var steps = Array.prototype.slice.call(epBody.querySelectorAll('article.step'));
    var y = window.scrollY + 20, i;
    if (e.key === 'j') {
      for (i = 0; i < steps.length; i++) if (steps[i].offsetTop > y) { steps[i].scrollIntoView(); break; }
    } else {
      for (i = steps.length - 1; i >= 0; i--) {
        if (steps[i].offsetTop < y - 30) { steps[i].scrollIntoView(); break; }
      }
    }
  });

  function route() {
    if (!rows) return;
    var p = new URLSearchParams(location.hash.replace(/^#/, ''));
    readHash(p);
    apply();
    if (p.get('ep')) openEpisode(p.get('ep'), p.get('at') || ''); else showList();
  }
  window.addEventListener('hashchange', route);

  // ---- the rows: one data file, read when the page opens
  body.setAttribute('data-rows-state', 'loading');
  function rowsFailed(why) {
    body.setAttribute('data-rows-state', 'error');
    tbody.innerHTML = '<tr><td colspan="9" class="error-box"></td></tr>';
    tbody.querySelector('td').textContent = 'Could not load the episodes’ rows: ' + why;
  }
  window.antrapRows = function (b64) {
    if (!window.DecompressionStream) {
      rowsFailed('this browser cannot inflate the viewer’s data (it needs DecompressionStream)');
      return;
    }
    inflate(b64).then(function (text) {
      rows = JSON.parse(text).map(function (values, i) {
        var r = {i: i};
        FIELDS.forEach(function (f, j) { r[f] = values[j]; });
        chunkOf[r.ep] = r.chunk;
        return r;
      });
      route();
    }, function (err) { rowsFailed('viewer/data/rows.js is damaged: ' + err); });
  };
  var rowsScript = document.createElement('script');
  rowsScript.src = 'data/rows.js';
  rowsScript.onerror = function () { rowsFailed('could not read viewer/data/rows.js'); };
  document.head.appendChild(rowsScript);
})();
"""


def _overview(records: list[dict[str, Any]], agents: list[str], settings: list[str]) -> str:
    """Successes / episodes per agent and setting, each cell a link that filters the table."""
    cells: dict[tuple[str, str], list[int]] = {}
    for r in records:
        c = cells.setdefault((str(r.get("agent")), str(r.get("setting"))), [0, 0])
        c[0] += outcome(r) == "success"
        c[1] += 1
    head = "".join(f'<th title="{esc(s)}">{esc(_title(s))}</th>' for s in settings)
    body = []
    for a in agents:
        tds = []
        for s in settings:
            wins, n = cells.get((a, s), (0, 0))
            if not n:
                tds.append('<td class="muted">–</td>')
                continue
            rate = wins / n
            colour = f"hsl({round(120 * rate)}, 60%, {88 - 8 * rate:.0f}%)"
            href = "#" + esc(f"agent={quote(a, safe='')}&setting={quote(s, safe='')}")
            tds.append(f'<td><a href="{href}" style="background:{colour}" '
                       f'title="{wins} of {n} succeeded">{wins}/{n}</a></td>')
        body.append(f"<tr><td><b>{esc(a)}</b></td>{''.join(tds)}</tr>")
    return (f'<div class="card overview"><table><thead><tr><th>agent \\ setting</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def index_page(records: list[dict[str, Any]], plots: list[str] | tuple[str, ...] = (),
               agents: list[str] | tuple[str, ...] = ()) -> str:
    """The page: the overview, filters and counts of every episode, the table the page
    draws from `viewer/data/rows.js`, and the place an opened episode is shown."""
    agents = _agents(records, agents)
    settings = _settings(records)
    totals = {o: sum(1 for r in records if outcome(r) == o) for o in OUTCOMES}
    opt = lambda v, label: f'<option value="{esc(v)}">{esc(label)}</option>'  # noqa: E731
    agent_opts = opt("", "all agents") + "".join(opt(a, a) for a in agents)
    setting_opts = (opt("", "all settings") + opt("*trap", "any trap setting")
                    + opt("*fired", "a trap fired") + "".join(opt(s, s) for s in settings))
    outcome_opts = opt("", "all outcomes") + "".join(opt(o, o) for o in OUTCOMES)
    plot_html = ""
    if plots:
        imgs = "".join(f'<img src="../{esc(p)}" alt="{esc(p)}">' for p in plots)
        plot_html = f'<details class="plots"><summary>plots</summary>{imgs}</details>'
    heads = ["Agent", "Task", "Setting", "Run", "Outcome", "Steps / budget", "Trap events", "Wall s",
             "Error"]
    thead = "".join(f"<th>{esc(h)}</th>" for h in heads)
    chips = {s: _setting_chip(s) for s in settings}  # the rows' setting cells, as episode views draw them
    table_data = (f'data-page="{PAGE_ROWS}" data-fields="{esc(json.dumps(ROW_FIELDS))}" '
                  f'data-chips="{esc(json.dumps(chips))}"')
    body = f"""
<section id="list">
<h1>AnTrap trajectories</h1>
<p class="muted">{len(records)} episodes · {len(agents)} agent{"s" if len(agents) != 1 else ""} ·
{len(settings)} setting{"s" if len(settings) != 1 else ""} ·
<span class="badge o-success">{totals["success"]} success</span>
<span class="badge o-failure">{totals["failure"]} failure</span>
<span class="badge o-error">{totals["error"]} error</span></p>
{_overview(records, agents, settings) if records else ""}
{plot_html}
<form class="filters" id="filters" onsubmit="return false">
<label>Agent<select id="f-agent">{agent_opts}</select></label>
<label>Trap / setting<select id="f-setting">{setting_opts}</select></label>
<label>Outcome<select id="f-outcome">{outcome_opts}</select></label>
<label>Search (task, goal, answer, error)<input id="f-q" type="search" placeholder="text…"></label>
<button id="f-reset" type="button">reset</button>
</form>
<p id="counts"><b id="n-shown">{len(records)}</b> of {len(records)} episodes shown ·
<span id="n-success">{totals["success"]}</span> success ·
<span id="n-failure">{totals["failure"]}</span> failure ·
<span id="n-error">{totals["error"]}</span> error</p>
<nav class="pager"><a id="page-prev" href="#" hidden>‹ previous {PAGE_ROWS}</a>
<span id="page-info">loading the rows…</span><a id="page-next" href="#" hidden>next {PAGE_ROWS} ›</a></nav>
<table class="episodes" id="episodes" {table_data}><thead><tr>{thead}</tr></thead>
<tbody></tbody></table>
</section>
<section id="episode" hidden>
<nav class="top"><a id="back" href="#">← all episodes</a><span id="position"></span>
<span class="spacer"></span><a id="prev" rel="prev" href="#">‹ previous</a>
<a id="next" rel="next" href="#">next ›</a><span class="keys">j / k: next / previous step</span></nav>
<div id="episode-body"></div>
</section>
"""
    return _page("AnTrap trajectories", body, INDEX_CSS + EPISODE_CSS, INDEX_JS)


# ------------------------------------------------------------------------------------------------
# actions drawn over a screenshot (SVG in device pixels, scaled by its viewBox)

ACTION_COLOUR = "#1e88e5"
LABEL_DY = 11.0  # label distance from a target point, in hundredths of the screen width
TRAP_COLOUR = "#f76707"


def action_summary(a: dict[str, Any]) -> str:
    """A one-line description of a canonical action."""
    if not isinstance(a, dict):
        return str(a)
    t = str(a.get("action_type", a.get("action", "?")))
    at = ""
    if a.get("x") is not None and a.get("y") is not None:
        at = f" at ({_num(a['x']):g}, {_num(a['y']):g})"
    elif a.get("index") is not None:
        at = f" on element #{a['index']}"
    if t in ("click", "double_tap", "long_press"):
        return t.replace("_", " ") + at
    if t == "scroll":
        return f"scroll {a.get('direction', '')}{at}"
    if t == "swipe":
        if a.get("x2") is not None:
            return (f"swipe ({_num(a.get('x')):g}, {_num(a.get('y')):g}) → "
                    f"({_num(a['x2']):g}, {_num(a.get('y2')):g})")
        return f"swipe {a.get('direction', '')}{at}"
    if t == "input_text":
        clear = " (clearing)" if a.get("clear_text") else ""
        return f"type “{a.get('text', '')}”{at}{clear}"
    if t == "open_app":
        return f"open app “{a.get('app_name', '')}”"
    if t == "answer":
        return f"answer “{a.get('text', '')}”"
    if t == "status":
        return f"status: {a.get('goal_status', '')}"
    if t == "wait":
        return f"wait {a['seconds']:g}s" if isinstance(a.get("seconds"), (int, float)) else "wait"
    return {"navigate_back": "◀ back", "navigate_home": "● home",
            "keyboard_enter": "⏎ enter"}.get(t, t.replace("_", " "))


class _Svg:
    """SVG primitives in device pixels; sizes relative to the screen width."""

    def __init__(self, w: float, h: float) -> None:
        self.w, self.h = w, h
        self.u = w / 100
        self.parts: list[str] = []

    def circle(self, x: float, y: float, r: float, colour: str, *, fill: float = 0.25,
               width: float = 0.7, dash: bool = False) -> None:
        d = f' stroke-dasharray="{self.u * 1.5:.1f} {self.u:.1f}"' if dash else ""
        if width >= 0.7:  # a white halo keeps the ring visible on any background
            self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * self.u:.1f}" fill="none" '
                              f'stroke="#fff" stroke-opacity="0.9" '
                              f'stroke-width="{(width + 0.8) * self.u:.1f}"/>')
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * self.u:.1f}" fill="{colour}" '
                          f'fill-opacity="{fill}" stroke="{colour}" stroke-width="{width * self.u:.1f}"{d}/>')

    def dot(self, x: float, y: float, colour: str) -> None:
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.9 * self.u:.1f}" fill="{colour}" '
                          f'stroke="#fff" stroke-width="{0.3 * self.u:.1f}"/>')

    def arrow(self, x0: float, y0: float, x1: float, y1: float, colour: str, dash: bool = False) -> None:
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        head = min(5 * self.u, length * 0.5)
        bx, by = x1 - ux * head, y1 - uy * head
        px, py = -uy * head * 0.55, ux * head * 0.55
        d = f' stroke-dasharray="{self.u * 2:.1f} {self.u:.1f}"' if dash else ""
        for stroke, extra in (("#fff", 0.6), (colour, 0.0)):  # a white halo keeps it visible
            self.parts.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                              f'stroke="{stroke}" stroke-width="{(1.3 + extra) * self.u:.1f}" '
                              f'stroke-linecap="round"{d if not extra else ""}/>')
        self.parts.append(f'<polygon points="{x1:.1f},{y1:.1f} {bx + px:.1f},{by + py:.1f} '
                          f'{bx - px:.1f},{by - py:.1f}" fill="{colour}" stroke="#fff" '
                          f'stroke-width="{0.3 * self.u:.1f}"/>')
        self.dot(x0, y0, colour)

    def label(self, x: float, y: float, text: str, colour: str, *, anchor: str = "middle") -> None:
        """Text in a rounded box centred (or anchored) at (x, y), kept on screen."""
        fs = 4.2 * self.u
        max_chars = max(4, int((self.w * 0.9 - 4 * self.u) / (0.6 * fs)))
        if len(text) > max_chars:
            text = text[: max_chars - 1] + "…"
        tw = len(text) * 0.6 * fs + 4 * self.u
        th = fs * 1.5
        left = {"middle": x - tw / 2, "start": x, "end": x - tw}[anchor]
        left = min(max(left, self.u), self.w - tw - self.u)
        top = min(max(y - th / 2, self.u), self.h - th - self.u)
        self.parts.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{tw:.1f}" height="{th:.1f}" '
                          f'rx="{th / 2.5:.1f}" fill="{colour}" fill-opacity="0.92" stroke="#fff" '
                          f'stroke-width="{0.3 * self.u:.1f}"/>')
        self.parts.append(f'<text x="{left + tw / 2:.1f}" y="{top + th * 0.7:.1f}" text-anchor="middle" '
                          f'font-size="{fs:.1f}" font-family="system-ui,sans-serif" font-weight="600" '
                          f'fill="#fff">{esc(text)}</text>')

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: str) -> None:
        self.parts.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
                          f'fill="none" stroke="{colour}" stroke-width="{0.8 * self.u:.1f}" '
                          f'stroke-dasharray="{2 * self.u:.1f} {self.u:.1f}"/>')

    def render(self, kind: str) -> str:
        return (f'<svg class="overlay" data-kind="{esc(kind)}" viewBox="0 0 {self.w:g} {self.h:g}" '
                f'preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">'
                + "".join(self.parts) + "</svg>")


def _dy(dy: float | None, y: float, h: float) -> float:
    """A label offset (screen-width hundredths): the one asked, else below unless near the bottom."""
    if dy is not None:
        return dy
    return -LABEL_DY if y > 0.85 * h else LABEL_DY


def _label_offsets(p: tuple[float, float] | None, q: tuple[float, float] | None, h: float
                   ) -> tuple[float | None, float | None]:
    """Label offsets for the agent's action at `p` and the executed one at `q`, so that the
    two labels do not overlap: on opposite sides, or stacked on one side near an edge."""
    if p is None or q is None:
        return None, None
    mine, theirs = (-LABEL_DY, LABEL_DY) if q[1] > p[1] + 1 else (LABEL_DY, -LABEL_DY)
    if (mine < 0 and p[1] < 0.12 * h) or (theirs < 0 and q[1] < 0.12 * h):
        mine, theirs = LABEL_DY, LABEL_DY + 6.5
    elif (mine > 0 and p[1] > 0.85 * h) or (theirs > 0 and q[1] > 0.85 * h):
        mine, theirs = -LABEL_DY, -LABEL_DY - 6.5
    return mine, theirs


def _point(a: dict[str, Any]) -> tuple[float, float] | None:
    x, y = a.get("x"), a.get("y")
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y))
    return (float(x), float(y)) if ok and math.isfinite(x) and math.isfinite(y) else None


def draw_action(svg: _Svg, a: dict[str, Any], colour: str = ACTION_COLOUR, *, tag: str = "",
                dash: bool = False, dy: float | None = None) -> str:
    """Draw one action onto `svg`; returns the kind drawn (point, arrow, text, caption).

    `dy`: where its label goes relative to a target point, in hundredths of the screen
    width (negative: above); by default below, or above near the bottom edge."""
    if not isinstance(a, dict):
        return "none"
    t = str(a.get("action_type", ""))
    w, h = svg.w, svg.h
    p = _point(a)
    prefix = f"{tag}: " if tag else ""
    if t in ("click", "double_tap", "long_press") and p:
        x, y = p
        svg.circle(x, y, 5.0, colour, dash=dash)
        if t == "double_tap":
            svg.circle(x, y, 7.5, colour, fill=0.0, width=0.7, dash=dash)
        if t == "long_press":
            svg.circle(x, y, 7.5, colour, fill=0.12, width=1.2, dash=dash)
        svg.dot(x, y, colour)
        if tag or t != "click":
            svg.label(x, y + _dy(dy, y, h) * svg.u, prefix + t.replace("_", " "), colour)
        return "point"
    if t in ("scroll", "swipe"):
        direction = str(a.get("direction") or "")
        if t == "swipe" and a.get("x2") is not None and p:
            x0, y0 = p
            x1, y1 = _num(a.get("x2")), _num(a.get("y2"))
        else:
            x0, y0 = p or (w / 2, h / 2)
            if t == "scroll":  # the direction the agent scrolls the content towards
                d = {"up": (0, -0.25 * h), "down": (0, 0.25 * h), "left": (-0.35 * w, 0),
                     "right": (0.35 * w, 0)}.get(direction, (0, 0.25 * h))
                x0, y0 = x0 - d[0] / 2, y0 - d[1] / 2
            else:  # the finger's path, as the env performs it
                d = {"up": (0, -0.3 * h), "down": (0, 0.3 * h), "left": (-0.4 * w, 0),
                     "right": (0.4 * w, 0)}.get(direction, (0, -0.3 * h))
            x1, y1 = x0 + d[0], y0 + d[1]
        svg.arrow(x0, y0, x1, y1, colour, dash=dash)
        svg.label((x0 + x1) / 2 + (12 * svg.u if x0 == x1 else 0),
                  (y0 + y1) / 2 + (0 if x0 == x1 else -8 * svg.u),
                  prefix + f"{t} {direction}".strip(), colour)
        return "arrow"
    if t == "input_text":
        text = f"⌨ “{a.get('text', '')}”"
        if p:
            x, y = p
            svg.circle(x, y, 3.0, colour, dash=dash)
            svg.dot(x, y, colour)
            svg.label(x, y + _dy(dy, y, h) * svg.u, prefix + text, colour)
        else:
            svg.label(w / 2, h * (0.79 if (dy or 0) < 0 else 0.86), prefix + text, colour)
        return "text"
    svg.label(w / 2, h * (0.79 if (dy or 0) < 0 else 0.86), prefix + action_summary(a), colour)
    return "caption"


# ------------------------------------------------------------------------------------------------
# episode page

def _json(x: Any) -> str:
    return json.dumps(x, indent=1, ensure_ascii=False, default=str, allow_nan=True)


def _events_by_step(events: list[dict[str, Any]]) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Step -> indices of the events acting at it, and of those still active (duration > 1)."""
    at: dict[int, list[int]] = {}
    active: dict[int, list[int]] = {}
    for i, ev in enumerate(events):
        step = ev.get("step")
        if not isinstance(step, int) or isinstance(step, bool):
            continue
        at.setdefault(step, []).append(i)
        for s in range(step + 1, step + max(1, int(_num(ev.get("duration"), 1)))):
            active.setdefault(s, []).append(i)
    return at, active


def _event_item(i: int, ev: dict[str, Any], n_steps: int, result: str = "success") -> str:
    """One trap event; `result` (the episode's outcome) completes a recovery: recovering
    from the trap and then failing the task are both said."""
    kind = str(ev.get("type", "?"))
    layer = ev.get("layer") or LAYER_OF.get(kind, "")
    step = ev.get("step")
    where = (f'<a href="#step-{esc(step)}">step {esc(step)}</a>'
             if isinstance(step, int) and 1 <= step <= n_steps else f"step {esc(step)}")
    dur = int(_num(ev.get("duration"), 1))
    if ev.get("recovered"):
        rec = (f'<span class="ok">recovered from the trap</span> after {esc(ev.get("recovery_steps"))} '
               f'step(s), {esc(ev.get("extra_steps"))} extra')
        if result == "failure":
            rec += ', <span class="no">then failed the task</span>'
        elif result == "error":
            rec += ', <span class="no">then the episode ended in an error</span>'
    else:
        rec = '<span class="no">not recovered</span>'
    bits = [f'<span class="what">⚠ {esc(_title(kind))}</span> <span class="chip">{esc(layer)} layer</span>',
            f"at {where}", f"lasting {dur} step{'s' if dur != 1 else ''}" if dur > 1 else "", rec]
    if ev.get("budget_added"):
        bits.append(f"budget +{esc(ev.get('budget_added'))}")
    if ev.get("solvable") is False:
        bits.append('<span class="no">unsolvable</span>')
    detail = ""
    if ev.get("params") or ev.get("substituted"):
        detail = (f'<details><summary>trap parameters and what it changed</summary>'
                  f'<pre>{esc(_json({"params": ev.get("params"), "substituted": ev.get("substituted")}))}'
                  f'</pre></details>')
    return (f'<li class="trap-event" id="trap-{i}" data-step="{esc(step)}" data-type="{esc(kind)}">'
            + " · ".join(b for b in bits if b) + detail + "</li>")


def _brief(ev: dict[str, Any], limit: int = 220) -> str:
    """The trap's parameters and effect on one line (`key=value; ...`)."""
    parts = []
    for block in (ev.get("params"), ev.get("substituted")):
        if isinstance(block, dict):
            for k, v in block.items():
                if k in ("intended", "executed") or v is None:
                    continue
                parts.append(f"{k}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _timeline(traj: list[Any], at: dict[int, list[int]], active: dict[int, list[int]]) -> str:
    """A row of links to every step, trap steps highlighted."""
    links = []
    for i, s in enumerate(traj):
        s = s if isinstance(s, dict) else {"action": s}
        n = s.get("step", i + 1)
        n = n if isinstance(n, int) and not isinstance(n, bool) else i + 1
        a = s.get("action") if isinstance(s.get("action"), dict) else {}
        cls = "tl" + (" trap" if at.get(n) else " active" if active.get(n) else "") + \
            (" err" if s.get("error") else "")
        links.append(f'<a class="{cls}" href="#step-{n}" title="{esc(action_summary(a))}">{n}'
                     f'<small>{esc(str(a.get("action_type", "?")).replace("_", " "))}</small></a>')
    return f'<nav class="timeline">{"".join(links)}</nav>'


def _trap_overlay(svg: _Svg, ev: dict[str, Any], dy: float | None = None) -> None:
    """What a trap changed, drawn over the step's screen: an executed action that is not
    the agent's, a covered region."""
    sub = ev.get("substituted") or {}
    executed = sub.get("executed") if isinstance(sub, dict) else None
    if isinstance(executed, dict) and executed != sub.get("intended"):
        draw_action(svg, executed, TRAP_COLOUR, tag="executed", dash=True, dy=dy)
    rect = (ev.get("params") or {}).get("rect") if isinstance(ev.get("params"), dict) else None
    if isinstance(rect, (list, tuple)) and len(rect) == 4 and all(isinstance(v, (int, float)) for v in rect):
        svg.rect(*map(float, rect), TRAP_COLOUR)


def _frame(src: str, alt: str, thumb: tuple[int, int], svg: _Svg | None = None,
           kind: str = "none") -> str:
    tw, th = thumb
    overlay = svg.render(kind) if svg is not None else ""
    return (f'<div class="frame"><img src="{esc(src)}" alt="{esc(alt)}" width="{tw}" height="{th}">'
            f"{overlay}</div>")


def _img_src(path: str) -> str:
    return "../" + quote(str(path).replace("\\", "/"), safe="/")


def _substitution(events: list[dict[str, Any]], here: list[int]) -> tuple[dict | None, dict | None]:
    """(intended, executed) when a trap acting at this step ran another action than the agent's."""
    for j in here:
        sub = events[j].get("substituted")
        if isinstance(sub, dict) and isinstance(sub.get("executed"), dict) \
                and isinstance(sub.get("intended"), dict) and sub["executed"] != sub["intended"]:
            return sub["intended"], sub["executed"]
    return None, None


def _marker(ev: dict[str, Any], active: bool = False) -> str:
    kind = esc(ev.get("type"))
    if active:
        return (f'<span class="trap-marker active" data-trap="{kind}">trap still active: '
                f'{esc(_title(str(ev.get("type"))))}</span>')
    return f'<span class="trap-marker" data-trap="{kind}">⚠ trap: {esc(_title(str(ev.get("type"))))}</span>'


def _step(i: int, s: Any, events: list[dict[str, Any]], at: dict[int, list[int]],
          active: dict[int, list[int]], src: str | None, device: tuple[float, float] | None,
          thumb: tuple[int, int]) -> str:
    """One step's block: screen with the action drawn, action, reasoning, error, trap markers.

    The trajectory holds the action the env executed; where an action-layer trap swapped
    it, the agent's own action (`substituted.intended`) is drawn and named as the step's
    action and the executed one is drawn dashed in the trap's colour."""
    s = s if isinstance(s, dict) else {"action": s}
    n = s.get("step", i + 1)
    n = n if isinstance(n, int) and not isinstance(n, bool) else i + 1
    a = s.get("action") if isinstance(s.get("action"), dict) else {"action_type": str(s.get("action"))}
    here = at.get(n, [])
    still = [j for j in active.get(n, []) if j not in here]
    intended, executed = _substitution(events, here)
    agent_action = intended or a
    classes = ["step"] + (["trap-at"] if here else []) + (["trap-active"] if still else [])
    markers = "".join(_marker(events[j]) for j in here) + "".join(_marker(events[j], True) for j in still)
    notes = "".join(f'<div class="trap-note"><a href="#trap-{j}">{esc(_title(str(events[j].get("type"))))}'
                    f"</a>: {esc(_brief(events[j]))}</div>" for j in here)
    if executed is not None:
        notes += (f'<div class="trap-note">the agent chose <b>{esc(action_summary(intended))}</b>; the trap '
                  f"executed <b>{esc(action_summary(executed))}</b> instead (dashed orange)</div>")
    shot = ""
    if src is not None:
        svg = _Svg(*device) if device else None
        kind = "none"
        if svg is not None:
            mine, theirs = _label_offsets(_point(agent_action), _point(executed or {}), svg.h)
            for j in here:
                _trap_overlay(svg, events[j], dy=theirs)
            kind = draw_action(svg, agent_action, tag="agent" if executed is not None else "", dy=mine)
        frame = _frame(src, f"screen before step {n}", thumb, svg, kind)
        shot = (f'<div class="shot">{frame}'
                f'<div class="caption">screen the agent saw before step {n}</div></div>')
    else:
        classes.append("noshot")
    body = [f'<div class="step-head"><span class="num">Step {n}</span>'
            f'<span class="act">{esc(action_summary(agent_action))}</span>{markers}</div>', notes]
    if executed is not None:
        body.append(f'<div class="label">agent\'s action</div>'
                    f'<pre class="action-json">{esc(_json(intended))}</pre>'
                    f'<div class="label">executed (trap)</div><pre class="action-json">{esc(_json(a))}</pre>')
    else:
        body.append(f'<div class="label">action</div><pre class="action-json">{esc(_json(a))}</pre>')
    if s.get("thought"):
        body.append(f'<div class="label">thought</div><div class="thought">{esc(s.get("thought"))}</div>')
    if s.get("raw"):
        raw = str(s.get("raw"))
        body.append(f'<details class="raw"><summary>raw model output ({len(raw)} chars)</summary>'
                    f"<pre>{esc(raw)}</pre></details>")
    if s.get("error"):
        body.append(f'<div class="env-error"><b>env error:</b> {esc(s.get("error"))}</div>')
    trap_attr = f' data-trap="{esc(",".join(str(events[j].get("type")) for j in here))}"' if here else ""
    return (f'<article class="{" ".join(classes)}" id="step-{n}" data-step="{n}"{trap_attr}>'
            f'{shot}<div class="info">{"".join(body)}</div></article>')


def episode_title(r: dict[str, Any]) -> str:
    """The page title while an episode is open."""
    return f"{r.get('task')} · {r.get('agent')} · {r.get('setting')} · {outcome(r)}"


def episode_html(r: dict[str, Any]) -> str:
    """One episode's view: header, trap events, and every step with its screen and action."""
    traj = r.get("trajectory") or []
    events = [e for e in (r.get("traps") or []) if isinstance(e, dict)]
    screens = r.get("screens") or {}
    files = list(screens.get("files") or [])
    size = r.get("screen_size") or []
    has_size = (isinstance(size, (list, tuple)) and len(size) == 2 and _num(size[0]) > 0
                and _num(size[1]) > 0)
    dw, dh = (_num(size[0]), _num(size[1])) if has_size else (1080.0, 2400.0)
    tw = int(_num(screens.get("width"), FRAME_WIDTH)) or FRAME_WIDTH
    th = int(_num(screens.get("height"), round(tw * dh / dw))) or round(tw * dh / dw)
    at, active = _events_by_step(events)
    setting = str(r.get("setting"))
    o = outcome(r)

    meta = [("Agent", esc(r.get("agent"))),
            ("Task", f"{esc(r.get('task'))} <span class='muted'>variant {esc(r.get('variant'))} · run "
                     f"{esc(r.get('run'))} · seed {esc(r.get('seed'))}</span>"),
            ("Setting", _setting_chip(setting)
             + (f" <span class='muted'>trap seed {esc(r.get('trap_seed'))}, "
                f"{esc(r.get('trap_attempts'))} attempt(s)</span>" if r.get("trap_seed") is not None
                else "")),
            ("Verdict", f"{_badge(r)} <span class='muted'>score {_num(r.get('success')):g}</span>"),
            ("Steps", f"{int(_num(r.get('steps')))} of a budget of {int(_num(r.get('budget')))}"
                      + (" · terminated" if r.get("terminated") else "")
                      + (" · truncated" if r.get("truncated") else "")),
            ("Wall time", f"{_num(r.get('wall_s')):.2f} s")]
    if r.get("answer") is not None:
        meta.insert(4, ("Answer", f"<b>{esc(r.get('answer'))}</b>"))
    if r.get("params"):
        meta.insert(2, ("Params", f"<code>{esc(json.dumps(r.get('params'), ensure_ascii=False, default=str))}"
                                  "</code>"))
    meta.append(("Episode id", f"<code>{esc(r.get('id'))}</code>"))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta)

    error = ""
    if r.get("error"):
        tb = (f"<details><summary>traceback</summary><pre>{esc(r.get('traceback'))}</pre></details>"
              if r.get("traceback") else "")
        error = f'<div class="error-box"><b>Error:</b> {esc(r.get("error"))}{tb}</div>'

    if events:
        items = "".join(_event_item(i, ev, len(traj), o) for i, ev in enumerate(events))
        trap_html = (f'<h2>Trap events ({len(events)})</h2><ol class="trap-events" id="trap-events">'
                     f"{items}</ol>")
    elif setting != "clean" and traj:
        trap_html = '<h2>Trap events (0)</h2><p class="muted">No trap fired in this episode.</p>'
    else:
        trap_html = ""

    steps_html = []
    for i, s in enumerate(traj):
        src = _img_src(files[i]) if i < len(files) else None
        steps_html.append(_step(i, s, events, at, active, src, (dw, dh) if has_size else None, (tw, th)))

    final = ""
    if len(files) > len(traj):
        last = len(traj) + 1
        here = at.get(last, [])
        marker = "".join(f'<span class="trap-marker" data-trap="{esc(events[j].get("type"))}">'
                         f'⚠ trap: {esc(_title(str(events[j].get("type"))))}</span>' for j in here)
        frame = _frame(_img_src(files[-1]), "final screen", (tw, th))
        final = (f'<article class="step final{" trap-at" if here else ""}" id="final">'
                 f'<div class="shot">{frame}'
                 f'<div class="caption">final screen</div></div><div class="info"><div class="step-head">'
                 f'<span class="num">End</span>{_badge(r)}{marker}</div>'
                 + (f"<p>answer: <b>{esc(r.get('answer'))}</b></p>" if r.get("answer") is not None else "")
                 + "</div></article>")
    no_screens = ("" if files or not traj else
                  '<p class="muted">No screenshots were kept for this episode (the run\'s '
                  "<code>screens</code> setting keeps them, by default, for failed episodes and a "
                  "sample of the others).</p>")
    if traj:
        steps_section = (f'<h2>Steps ({len(traj)})</h2>{_timeline(traj, at, active)}{no_screens}'
                         f'<div class="steps">{"".join(steps_html)}{final}</div>')
    else:
        steps_section = '<h2>Steps (0)</h2><p class="muted">No steps were taken.</p>'

    return f"""
<article class="episode" data-id="{esc(r.get("id"))}" data-outcome="{o}">
<h1>{esc(r.get("task"))} {_badge(r)}</h1>
<div class="goal">{esc(r.get("goal")) or '<span class="muted">(no goal)</span>'}</div>
<div class="card"><dl class="meta">{dl}</dl></div>
{error}
{trap_html}
{steps_section}
</article>
"""
