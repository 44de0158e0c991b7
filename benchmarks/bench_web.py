"""The simulated Chrome's web engine: what a page costs (prints figures; not a timed test).

    python benchmarks/bench_web.py
    python benchmarks/bench_web.py --json

A task-like page (a form, a list, a counter, a drawing canvas) is loaded and driven:

- load: a fresh QuickJS context, the DOM stand-in, the document built and its script run;
- event: one user action into the page (a tap with its pointer, mouse and click events);
- layout: the DOM dumped, styled and laid out after a change;
- tap + tree: a tap on the phone through the accessibility tree it gives back (what an
  agent's step costs in text mode);
- restore + tree: a phone snapshot restored and its tree read, which replays the page;
- screenshot: a frame of the page after a change.

Each is timed many times and printed as the median with the 10th and 90th percentiles.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.web import layout as lay
from antrap_gym.device.sim.web.page import DPR
from antrap_gym.device.sim.web.script import Engine

ROWS = "".join(f'<li class="item" data-i="{i}">Item {i} <span class="tag">#{i}</span></li>'
               for i in range(20))
PAGE = f"""<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bench</title><style>
body {{ font-family: sans-serif; margin: 16px }} .row {{ display: flex; gap: 8px; flex-wrap: wrap }}
button.big {{ padding: 8px 16px; background: #1a73e8; color: white; border: none; border-radius: 4px }}
.item {{ padding: 4px; border-bottom: 1px solid #ddd }} .item .tag {{ color: #888 }}
#pad {{ border: 1px solid #000; touch-action: none }}
</style></head><body><h1>Benchmark</h1>
<div class="row"><button class="big" id="inc">Add</button><button class="big" id="reset">Reset</button></div>
<p>Count: <span id="count">0</span></p><input id="name" placeholder="Name">
<label><input type="checkbox" id="ok"> OK</label><select id="s"><option>A</option><option>B</option></select>
<ul id="list">{ROWS}</ul><canvas id="pad" width="300" height="120"></canvas><div id="out"></div>
<script>
function mulberry32(a) {{ return function() {{ a |= 0; a = a + 0x6D2B79F5 | 0;
  let t = Math.imul(a ^ a >>> 15, 1 | a);
  t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }}; }}
const rnd = mulberry32(12345); let n = 0;
document.getElementById('inc').addEventListener('click', () => {{ n++;
  document.getElementById('count').textContent = n;
  if (n === 5) document.getElementById('out').textContent = 'Success!'; }});
document.getElementById('reset').addEventListener('click', () => {{ n = 0;
  document.getElementById('count').textContent = n; }});
document.getElementById('list').addEventListener('click', (e) => {{ const li = e.target.closest('li');
  if (li) li.classList.toggle('picked'); }});
const pad = document.getElementById('pad'), ctx = pad.getContext('2d'); let down = false;
pad.addEventListener('pointerdown', (e) => {{ down = true; ctx.beginPath();
  ctx.moveTo(e.offsetX, e.offsetY); }});
pad.addEventListener('pointermove', (e) => {{ if (!down) return; ctx.lineTo(e.offsetX, e.offsetY);
  ctx.strokeStyle = 'red';
  ctx.lineWidth = 4; ctx.stroke(); ctx.beginPath(); ctx.moveTo(e.offsetX, e.offsetY); }});
pad.addEventListener('pointerup', () => {{ down = false; const d = ctx.getImageData(0, 0, 300, 120).data;
  let k = 0; for (let i = 0; i < d.length; i += 4) if (d[i] === 255) k++;
  document.getElementById('out').textContent = 'red ' + k; }});
for (let i = 0; i < 5; i++) rnd();
</script></body></html>"""
URL = "file:///sdcard/Download/task.html"


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def summary(ms: list[float]) -> dict:
    q = statistics.quantiles(ms, n=10)
    return {"median_ms": round(statistics.median(ms), 3), "p10_ms": round(q[0], 3),
            "p90_ms": round(q[-1], 3), "n": len(ms)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--n", type=int, default=60)
    args = ap.parse_args()
    n = args.n
    res: dict[str, dict] = {}
    view = (1080 / DPR, 2400 / DPR)
    res["page load"] = summary(timed(lambda: Engine(PAGE, URL, 0, 1, view, DPR), n))
    eng = Engine(PAGE, URL, 0, 1, view, DPR)
    inc = _nid(eng.dump(force=True), "inc")
    res["event (tap)"] = summary(timed(lambda: eng.act("tap", inc, 5.0, 5.0), n * 5))
    res["dump + layout"] = summary(timed(lambda: (eng.act("tap", inc, 5.0, 5.0),
                                                  lay.build(eng.dump(), view[0])), n))

    dev = SimDevice()
    dev.shell("mkdir -p /sdcard/Download")
    dev.phone.fs.write("/sdcard/Download/task.html", PAGE.encode(), dev.phone.now)
    dev.shell(f"am start -n com.android.chrome/com.google.android.apps.chrome.Main -d {URL}")
    for label in ("Use without an account", "No thanks", "Allow"):
        e = next(e for e in dev.ui_elements() if e.text == label)
        dev.tap(*e.center)
    add = next(e for e in dev.ui_elements() if e.text == "Add")
    res["phone tap + tree"] = summary(timed(lambda: (dev.tap(*add.center), dev.ui_elements()), n))
    snap = dev.snapshot()
    res["snapshot"] = summary(timed(dev.snapshot, n))
    res["restore + tree (replay)"] = summary(timed(lambda: (dev.restore(snap), dev.ui_elements()), n // 2))
    res["tap + screenshot"] = summary(timed(lambda: (dev.tap(*add.center), dev.screenshot()), n // 2))
    log = len(dev.phone.wm.top_activity().entry.page.log)
    if args.json:
        print(json.dumps({"results": res, "replayed_actions": log}, indent=2))
        return
    print(f"{'what':28} {'median':>9} {'p10':>9} {'p90':>9}   (ms; restore replays {log} actions)")
    for k, v in res.items():
        print(f"{k:28} {v['median_ms']:9.3f} {v['p10_ms']:9.3f} {v['p90_ms']:9.3f}")


def _nid(dump: dict, html_id: str) -> int:
    stack = [dump["body"]]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            if node[2].get("id") == html_id:
                return node[0]
            stack.extend(k for k in node[5] if isinstance(k, list))
    raise KeyError(html_id)


if __name__ == "__main__":
    main()
