"""The simulated phone's web engine, as a page author sees it: the HTML, CSS and
JavaScript subset of docs/browser-pages.md, driven through Chrome on the phone with
taps, typing and swipes, and read back through the accessibility tree."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from PIL import Image

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.web import script
from tests.screen import find, tap, texts
from tests.web_pages import center, open_page

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{css}</style></head><body>{body}<script>{js}</script></body></html>"""


def page(body: str, js: str = "", css: str = "", title: str = "Test") -> str:
    return PAGE.format(title=title, css=css, body=body, js=js)


def log_texts(dev: SimDevice) -> list[str]:
    e = find(dev, rid="log")
    return [] if e is None or not e.text else e.text.split(",")


LOGGER = "const log = (s) => { const l = document.getElementById('log'); l.textContent = " \
         "(l.textContent ? l.textContent + ',' : '') + s; };"
LOG = '<button id="log" style="display:block"></button>'


def test_click_counter_shows_success_as_its_own_text():
    dev = open_page(page('<button id="b">Add</button><p id="n">0</p><div id="out"></div>',
                         "let n = 0; document.getElementById('b').onclick = () => { n++;"
                         "document.getElementById('n').textContent = n;"
                         "if (n === 3) document.getElementById('out').textContent = 'Success!'; };"))
    assert "Success!" not in texts(dev)
    for want in ("1", "2", "3"):
        tap(dev, text="Add")
        assert want in texts(dev)
    assert texts(dev).count("Success!") == 1
    assert dev.shell("dumpsys window | grep mCurrentFocus").stdout.count("com.android.chrome/") == 1


def test_text_password_and_number_inputs_take_typing_and_enter():
    js = LOGGER + """
    const t = document.getElementById('t');
    t.addEventListener('input', () => document.getElementById('echo').textContent = 'echo ' + t.value);
    t.addEventListener('keydown', (e) => { if (e.key === 'Enter') log('enter:' + t.value); });
    t.addEventListener('change', () => log('change'));
    document.getElementById('n').addEventListener('input', (e) => log('num:' + e.target.value));"""
    dev = open_page(page(LOG + '<input id="t" placeholder="Name"><input id="p" type="password">'
                         '<input id="n" type="number"><p id="echo">none</p>', js))
    field = find(dev, rid="t")
    assert field.hint_text == "Name" and field.is_editable
    dev.tap(*center(field))
    dev.type_text("Ada")
    assert "echo Ada" in texts(dev)
    dev.key("ENTER")
    assert log_texts(dev) == ["enter:Ada", "change"]
    dev.tap(*center(find(dev, rid="p")))
    dev.type_text("s3cret")
    assert find(dev, rid="p").text == "\u2022" * 6
    dev.tap(*center(find(dev, rid="n")))
    dev.type_text("42")
    assert log_texts(dev)[-1] == "num:42"


def test_checkbox_radio_and_labels_fire_click_input_change_in_order():
    js = LOGGER + """
    for (const el of document.querySelectorAll('input')) for (const t of ['click', 'input', 'change'])
      el.addEventListener(t, (e) => log(t + ':' + e.target.id + ':' + e.target.checked));
    document.getElementById('locked').addEventListener('click', (e) => e.preventDefault());"""
    dev = open_page(page(LOG + '<label><input type="checkbox" id="c"> Agree</label>'
                         '<input type="radio" name="g" id="r1" checked><label for="r2">Second</label>'
                         '<input type="radio" name="g" id="r2"><input type="checkbox" id="locked">', js))
    tap(dev, cls="CheckBox", text="Agree")
    assert log_texts(dev) == ["click:c:true", "input:c:true", "change:c:true"]
    tap(dev, text="Second")  # the label checks its radio; the other one of the group unchecks
    radios = {e.resource_name: e.is_checked for e in dev.ui_elements() if e.is_checkable}
    assert radios["r2"] and not radios["r1"]
    tap(dev, rid="locked")  # a cancelled click leaves it unchecked
    assert not find(dev, rid="locked").is_checked


def test_select_opens_the_native_list_and_a_choice_fires_change():
    js = "const s = document.getElementById('s'); s.addEventListener('change', () => " \
         "document.getElementById('out').textContent = 'picked ' + s.value + ' ' + s.selectedIndex);"
    dev = open_page(page('<select id="s"><option value="a">Apple</option><option value="b">Banana</option>'
                         '</select><p id="out">none</p>', js))
    sel = find(dev, rid="s")
    assert sel.text == "Apple" and sel.class_name == "android.widget.Spinner"
    dev.tap(*center(sel))
    assert "Banana" in texts(dev) and find(dev, text="Banana").class_name != "android.widget.Spinner"
    tap(dev, text="Banana")
    assert "picked b 1" in texts(dev) and find(dev, rid="s").text == "Banana"


def test_range_slider_snaps_to_its_step():
    js = "const r = document.getElementById('r'); r.addEventListener('input', () => " \
         "document.getElementById('out').textContent = 'value ' + r.value);"
    dev = open_page(page('<input type="range" id="r" min="0" max="10" step="5" value="0" '
                         'style="width:300px"><p id="out">none</p>', js))
    b = find(dev, rid="r").bbox_pixels
    dev.swipe(b.x_min + 2, (b.y_min + b.y_max) // 2, b.x_min + (b.x_max - b.x_min) * 6 // 10,
              (b.y_min + b.y_max) // 2)
    assert "value 5" in texts(dev)  # 60% of 0..10 snaps to 5
    dev.tap(b.x_max - 2, (b.y_min + b.y_max) // 2)
    assert "value 10" in texts(dev)


CANVAS_JS = """
const c = document.getElementById('c'), ctx = c.getContext('2d');
ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, 200, 100);
let down = false, events = [];
c.addEventListener('pointerdown', (e) => { down = true; events.push('down'); ctx.beginPath();
  ctx.moveTo(e.offsetX, e.offsetY); });
c.addEventListener('pointermove', (e) => { if (!down) return; events.push('move');
  ctx.lineTo(e.offsetX, e.offsetY);
  ctx.strokeStyle = 'rgb(255, 0, 0)'; ctx.lineWidth = 6; ctx.lineCap = 'round'; ctx.stroke(); });
c.addEventListener('pointerup', () => { down = false; events.push('up');
  const d = ctx.getImageData(0, 0, 200, 100).data; let red = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 0) red++;
  document.getElementById('out').textContent = 'red ' + red + ' ' + [...new Set(events)].join('/'); });
c.addEventListener('click', () => { document.getElementById('clicks').textContent = 'clicked'; });
"""


def test_canvas_drawing_with_pointer_events_and_get_image_data():
    dev = open_page(page('<canvas id="c" width="200" height="100" aria-label="Pad"></canvas>'
                         '<p id="out">none</p><p id="clicks">no click</p>', CANVAS_JS))
    pad = find(dev, desc="Pad")
    b = pad.bbox_pixels
    dev.swipe(b.x_min + 20, b.y_min + 50, b.x_max - 20, b.y_min + 50)
    out = next(t for t in texts(dev) if t.startswith("red "))
    red = int(out.split()[1])
    assert red > 6 * 150 and out.endswith("down/move/up")  # a 6 px line across most of it
    assert "no click" in texts(dev)  # a swipe is no click
    dev.tap(*center(pad))
    assert "clicked" in texts(dev)
    frame = dev.screenshot()
    y = b.y_min + 50
    assert tuple(frame[y, (b.x_min + b.x_max) // 2]) == (255, 0, 0)


def test_hidden_elements_are_not_in_the_tree():
    css = ".gone{display:none} .ghost{visibility:hidden} .shown[hidden]{display:block}"
    dev = open_page(page('<p>Visible</p><p class="gone">Display none</p><p hidden>Hidden attr</p>'
                         '<p class="ghost">Invisible</p><p class="shown" hidden>Author display wins</p>'
                         '<button id="b">Toggle</button><p id="t">Toggled</p>',
                         "document.getElementById('b').onclick = () => {"
                         "const t = document.getElementById('t');"
                         "t.hidden = !t.hidden; };", css))
    shown = texts(dev)
    assert "Visible" in shown and "Author display wins" in shown and "Toggled" in shown
    assert not {"Display none", "Hidden attr", "Invisible"} & set(shown)
    tap(dev, text="Toggle")
    assert "Toggled" not in texts(dev)
    tap(dev, text="Toggle")
    assert "Toggled" in texts(dev)


def test_dom_creation_removal_and_selectors():
    js = """
    const list = document.querySelector('#list');
    document.querySelector('button.add').addEventListener('click', () => {
      const li = document.createElement('li'); li.className = 'item';
      li.appendChild(document.createTextNode('Item ' + (list.children.length + 1)));
      li.dataset.idx = list.children.length; list.appendChild(li); });
    document.querySelector('button.del').addEventListener('click', () => {
      const l = list.lastElementChild; if (l) l.remove(); });
    document.querySelector('button.html').addEventListener('click', () => {
      list.innerHTML = '<li class="item">A &amp; B</li><li>C</li>'; });
    document.querySelector('button.clear').addEventListener('click', () => list.replaceChildren());
    const n = document.querySelectorAll('div > p.x, #solo').length;
    const d = document.querySelectorAll('div p').length;
    document.getElementById('sel').textContent =
      'sel ' + n + ' ' + d + ' ' + document.querySelector('p.x.y').id;"""
    dev = open_page(page('<button class="add">Add</button><button class="del">Del</button>'
                         '<button class="html">Html</button><button class="clear">Clear</button>'
                         '<ul id="list"></ul><div><p class="x">1</p><section><p class="x y" id="deep">2</p>'
                         '</section></div><span id="solo">s</span><p id="sel"></p>', js))
    assert "sel 2 2 deep" in texts(dev)
    tap(dev, text="Add")
    tap(dev, text="Add")
    assert "Item 1" in texts(dev) and "Item 2" in texts(dev)
    tap(dev, text="Del")
    assert "Item 2" not in texts(dev) and "Item 1" in texts(dev)
    tap(dev, text="Html")
    assert "A & B" in texts(dev) and "C" in texts(dev) and "Item 1" not in texts(dev)
    tap(dev, text="Clear")
    assert "A & B" not in texts(dev)


def test_event_order_bubbling_and_delegation():
    js = LOGGER + """
    const b = document.getElementById('b');
    for (const t of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
      b.addEventListener(t, () => log(t));
    document.getElementById('outer').addEventListener('click', () => log('outer'));
    document.getElementById('grid').addEventListener('click', (e) => log('cell' + e.target.dataset.i));
    document.getElementById('stop').addEventListener('click', (e) => {
      e.stopPropagation(); log('stop'); });"""
    cell = 'style="width:60px;height:40px"'
    dev = open_page(page(LOG + '<div id="outer"><button id="b">Go</button><button id="stop">Stop</button>'
                         f'</div><div id="grid" style="display:flex;gap:4px"><div data-i="1" {cell}>A</div>'
                         f'<div data-i="2" {cell}>B</div></div>', js))
    tap(dev, text="Go")
    assert log_texts(dev) == ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "outer"]
    tap(dev, text="Stop")
    assert log_texts(dev)[-1] == "stop"
    dev.tap(*center(find(dev, text="B")))  # the grid listens; the cell under the finger is the target
    assert log_texts(dev)[-1] == "cell2"


def test_flex_layout_places_items_in_a_row_and_wraps():
    css = ".row{display:flex;gap:10px;justify-content:center} .row div{width:100px;height:30px}" \
          ".wrap{display:flex;flex-wrap:wrap;width:250px} .wrap span{display:block;width:100px}"
    dev = open_page(page('<div class="row"><div>L</div><div>R</div></div>'
                         '<div class="wrap"><span>W1</span><span>W2</span><span>W3</span></div>', css=css))
    left, right = find(dev, text="L").bbox_pixels, find(dev, text="R").bbox_pixels
    assert left.y_min == right.y_min and right.x_min - left.x_min == round(110 * 2.625)
    mid = (left.x_min + right.x_min + round(100 * 2.625)) / 2
    assert abs(mid - 540) <= 3  # centred on the 1080 px screen
    w1, w2, w3 = (find(dev, text=t).bbox_pixels for t in ("W1", "W2", "W3"))
    assert w1.y_min == w2.y_min and w3.y_min > w1.y_min and w3.x_min == w1.x_min


def test_overflow_box_scrolls_on_its_own():
    items = "".join(f"<p>Row {i}</p>" for i in range(30))
    dev = open_page(page(f'<div id="box" style="height:200px;overflow:auto">{items}</div><p>After</p>'))
    box = find(dev, rid="box")
    assert box.is_scrollable and "Row 0" in texts(dev) and "Row 29" not in texts(dev)
    b = box.bbox_pixels
    for _ in range(6):
        dev.swipe((b.x_min + b.x_max) // 2, b.y_max - 20, (b.x_min + b.x_max) // 2, b.y_min + 20)
    assert "Row 29" in texts(dev) and "Row 0" not in texts(dev) and "After" in texts(dev)


def test_deterministic_random_and_clock():
    js = "document.getElementById('o').textContent = Math.random().toFixed(6) + ' ' + Date.now();"
    a = open_page(page('<p id="o"></p>', js))
    b = open_page(page('<p id="o"></p>', js))
    ta = [t for t in texts(a) if " 16" in t]
    assert ta and ta == [t for t in texts(b) if " 16" in t]


def test_a_page_that_fails_shows_as_far_as_it_got(monkeypatch):
    monkeypatch.setattr(script.Engine, "time_limit_s", 0.05)
    bad = page('<p>Before</p><button id="b">Crash</button><button id="loop">Loop</button><p id="o">ok</p>'
               '<script>this is not javascript</script>'
               '<script>document.getElementById("o").textContent = "second script ran";</script>',
               "document.getElementById('b').onclick = () => { null.x = 1; };"
               "document.getElementById('loop').onclick = () => {"
               "document.getElementById('o').textContent = 'looping'; while (true) {} };"
               "while (true) {}")
    dev = open_page(bad)
    assert "Before" in texts(dev) and "second script ran" in texts(dev)
    tap(dev, text="Crash")  # an exception in a handler: the page goes on
    tap(dev, text="Loop")  # an endless handler is stopped; what it did before stays
    assert "looping" in texts(dev)
    tap(dev, text="Crash")
    assert "Before" in texts(dev)


def test_a_page_cannot_reach_the_network_or_host_files(tmp_path):
    secret = tmp_path / "secret.html"
    secret.write_text("<p>host secret</p>")
    js = """let r = [];
    fetch('http://example.org/').then(() => r.push('fetched'), () => r.push('no fetch')).finally(show);
    function show() {
      document.getElementById('o').textContent = r.join(' ') + ' ' + typeof require + ' ' + typeof std; }
    show();"""
    dev = open_page(page('<p id="o"></p>', js))
    shown = " ".join(texts(dev))
    assert "fetched" not in shown and "undefined undefined" in shown
    dev.shell(f"am start -n com.android.chrome/com.google.android.apps.chrome.Main -d file://{secret}")
    assert "host secret" not in texts(dev) and "Your file couldn\u2019t be accessed" in texts(dev)


def test_snapshot_restore_mid_page_gives_the_same_dom_and_tree():
    js = "let n = 0; document.getElementById('b').onclick = () => { n++;" \
         "const p = document.createElement('p');" \
         "p.textContent = 'line ' + n + ' ' + Math.random().toFixed(4); document.body.appendChild(p); };"
    dev = open_page(page('<button id="b">More</button><input id="t">', js))
    tap(dev, text="More")
    dev.tap(*center(find(dev, rid="t")))
    dev.type_text("abc")
    snap = dev.snapshot()
    pickle.dumps(snap)  # a plain value
    before = dev.ui_elements()
    tap(dev, text="More")
    after_tap = dev.ui_elements()
    dev.restore(snap)
    assert dev.ui_elements() == before
    tap(dev, text="More")  # the replayed page goes on exactly as the original did
    assert dev.ui_elements() == after_tap
    other = SimDevice()
    other.restore(snap)
    assert other.ui_elements() == before


@pytest.mark.parametrize("tag", ["h1", "p", "li"])
def test_text_is_exposed_whitespace_collapsed(tag):
    wrap = "<ul><li>  Success!\n  </li></ul>" if tag == "li" else f"<{tag}>\n  Success!  </{tag}>"
    dev = open_page(page(wrap))
    assert texts(dev).count("Success!") == 1


def test_a_runaway_page_neither_hangs_nor_crashes_the_phone():
    js = """let d = document.body; for (let i = 0; i < 3000; i++) { const c = document.createElement('div');
      d.appendChild(c); d = c; } d.textContent = 'deep';
      document.getElementById('b').onclick = () => {
        const a = []; while (true) a.push(new Array(1e5).fill(1)); };"""
    dev = open_page(page('<p>Top</p><button id="b">Eat memory</button>', js))
    assert "Top" in texts(dev) and "deep" not in texts(dev)  # too deep to lay out, the rest shows
    tap(dev, text="Eat memory")  # out of memory: the handler stops, the page stays
    assert "Top" in texts(dev)
    dev.screenshot()


def _canvas_nid(node) -> int | None:
    if node[1] == "canvas":
        return node[0]
    return next((n for kid in node[5] if (n := _canvas_nid(kid)) is not None), None)


def test_canvas_pixels_reach_python_exactly_long_runs_and_noise_alike():
    """A canvas's pixels cross from the page to Python as runs of equal pixels: a uniform
    stretch longer than one run can hold (67,220 pixels), a patch where every pixel
    differs from the last, and cleared (transparent, so white) pixels come out exactly."""
    js = """const g = document.getElementById('c').getContext('2d');
    g.fillStyle = '#102030'; g.fillRect(0, 0, 300, 240);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) {
      g.fillStyle = `rgb(${x * 16}, ${y * 16}, ${(x + y) * 8})`; g.fillRect(20 + x, 224 + y, 1, 1);
    }
    g.clearRect(200, 226, 10, 10);"""
    engine = script.Engine(page('<canvas id="c" width="300" height="240"></canvas>', js),
                           "file:///sdcard/Download/t.html", 0, 0, (411.0, 914.0), 2.625)
    assert not engine.errors
    nid = _canvas_nid(engine.dump(force=True)["body"])
    png = engine.canvas_png(nid, 300, 240)
    got = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    want = np.empty((240, 300, 3), np.uint8)
    want[:] = (0x10, 0x20, 0x30)
    for y in range(16):
        for x in range(16):
            want[224 + y, 20 + x] = (x * 16, y * 16, (x + y) * 8)
    want[226:236, 200:210] = 255
    assert np.array_equal(got, want)


def test_pages_with_the_same_dom_share_a_layout_and_a_change_lays_out_only_its_page():
    """A layout is built once per DOM (the oracle's forks reload the same page states over
    and over) and shared read-only: a page whose DOM then changes gets its own new layout,
    and the other page, still at the shared DOM, shows what it showed."""
    from antrap_gym.device.sim.web.page import Page

    html = page('<button id="b">Add</button><p id="n">0</p>',
                "let n = 0; document.getElementById('b').onclick = () => {"
                "document.getElementById('n').textContent = ++n; };")
    a, b = Page("file:///a.html", html, 0, 7), Page("file:///a.html", html, 0, 7)
    la, lb = a.layout(411.0), b.layout(411.0)
    assert la is lb  # one build for the equal DOMs

    def shown(layout) -> list[str]:
        out, stack = [], [layout.root]
        while stack:
            box = stack.pop()
            out.extend(k.text for k in box.kids if hasattr(k, "lines"))
            stack.extend(k for k in box.kids if not hasattr(k, "lines"))
        return sorted(out)

    button = next(box.nid for box in _boxes(la.root) if box.tag == "button")
    a.act("tap", button)
    after = a.layout(411.0)
    assert after is not la and "1" in shown(after) and "0" not in shown(after)
    assert b.layout(411.0) is lb and "0" in shown(lb) and "1" not in shown(lb)
    assert a.layout(411.0) is after  # nothing changed since: no new layout


def _boxes(root):
    stack = [root]
    while stack:
        box = stack.pop()
        yield box
        stack.extend(k for k in box.kids if not hasattr(k, "lines"))
