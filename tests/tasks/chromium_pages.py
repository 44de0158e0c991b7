"""Drives a browser task page in headless Chromium (Playwright, Debian's /usr/bin/chromium)
the way a phone user does: the page laid out as on a Pixel 6 (412 CSS px wide, device-pixel
ratio 2.625, touch), elements found by what they show (the oracle's Target matching, on an
accessibility-like list built from the DOM), taps and strokes as touches, text typed on
the keyboard. It grounds the plans of antrap_gym.tasks.browser_pages.plans, honouring each step's
`done` (read from the page's elements and a screenshot, as on the phone)."""

from __future__ import annotations

import io
import itertools
import time
from pathlib import Path

import numpy as np
from PIL import Image
from playwright.sync_api import Browser, CDPSession, Page

from antrap_gym.device.elements import BoundingBox, UIElement
from antrap_gym.tasks.browser_pages.plans import ChooseOption, DrawStroke, TapColour
from antrap_gym.tasks.steps import SetChecked, SetSlider, Step, Tap, TypeText

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
DPR = 2.625
WIDTH, HEIGHT = 412, 915

# The visible elements in document order, each with what a phone's accessibility tree
# would say of it: its own text (direct text nodes; a label takes its control's state),
# aria-label, placeholder, kind, checked state, box in CSS px, background colour.
_ELEMENTS = r"""() => {
  const own = el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' ')
    .replace(/\s+/g, ' ').trim();
  const kind = el => {
    const t = el.tagName.toLowerCase();
    if (t === 'input') return {checkbox: 'CheckBox', radio: 'RadioButton', range: 'SeekBar'}[el.type]
      || 'EditText';
    return {button: 'Button', select: 'Spinner', textarea: 'EditText', canvas: 'View'}[t] || 'TextView';
  };
  const out = [];
  window.__antrapEls = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (r.width <= 0 || r.height <= 0 || s.visibility === 'hidden') continue;
    if (['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName)) continue;
    const control = el.tagName === 'LABEL' ? el.control : el;
    const field = el.tagName === 'TEXTAREA'
      || (el.tagName === 'INPUT' && !['checkbox', 'radio', 'range'].includes(el.type));
    window.__antrapEls.push(el);
    out.push({text: field ? el.value : own(el), desc: el.getAttribute('aria-label'),
              hint: el.getAttribute('placeholder'), cls: 'android.widget.' + kind(control || el),
              checkable: !!control && ['checkbox', 'radio'].includes(control.type),
              checked: !!control && !!control.checked, box: [r.left, r.right, r.top, r.bottom]});
  }
  return out;
}"""


def _rgb(hex_: str) -> str:
    return f"rgb({int(hex_[1:3], 16)}, {int(hex_[3:5], 16)}, {int(hex_[5:7], 16)})"


class PageDriver:
    """One Chromium tab showing task pages; `load` a page, `run` a plan, ask `shows_success`."""

    def __init__(self, browser: Browser, folder: Path):
        self.context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                           device_scale_factor=DPR, is_mobile=True, has_touch=True)
        self.page: Page = self.context.new_page()
        self.cdp: CDPSession = self.context.new_cdp_session(self.page)
        self.folder = folder
        self.errors: list[str] = []
        self.clock = time.time()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def load(self, html: str) -> None:
        """Open the page from disk (a fresh document and script realm each time)."""
        path = self.folder / "task.html"
        path.write_text(html, encoding="utf-8")
        self.errors.clear()
        self.page.goto(path.as_uri())
        self.clock = time.time()  # the time of the user's next touch (seconds since the epoch)

    def elements(self) -> list[UIElement]:
        """The visible elements as UIElements (boxes in device pixels, as on the phone)."""
        return [UIElement(text=e["text"] or None, content_description=e["desc"], hint_text=e["hint"],
                          class_name=e["cls"], is_checkable=e["checkable"], is_checked=e["checked"],
                          bbox_pixels=BoundingBox(*(round(v * DPR) for v in e["box"])))
                for e in self.page.evaluate(_ELEMENTS)]

    def ui_elements(self) -> list[UIElement]:
        """As a Device names it: what a plan step's `done` reads (plans/shown.py)."""
        return self.elements()

    def screenshot(self) -> np.ndarray:
        """The viewport in device pixels (RGB), as a Device's screenshot."""
        png = self.page.screenshot(type="png")
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    def shows_success(self) -> bool:
        """Some element whose own text is exactly `Success!` is visible in the viewport."""
        return any(e.text == "Success!" and e.bbox_pixels.y_max > 0 and e.bbox_pixels.y_min < HEIGHT * DPR
                   for e in self.elements())

    def texts(self) -> list[str]:
        return [e.text for e in self.elements() if e.text]

    # -- grounding ------------------------------------------------------------------

    def _onscreen(self, index: int) -> dict:
        """Scroll element `index` of the last listing into view if needed (as a user would); its box."""
        return self.page.evaluate("""i => {
          const el = window.__antrapEls[i];
          let r = el.getBoundingClientRect();
          if (r.top < 0 || r.bottom > innerHeight) {
            el.scrollIntoView({block: 'center'});
            r = el.getBoundingClientRect();
          }
          return {x: r.left, y: r.top, w: r.width, h: r.height};
        }""", index)

    def _find(self, step: Step) -> tuple[int, UIElement, dict]:
        els = self.elements()
        if isinstance(step, TapColour):
            want = _rgb(step.colour)
            bgs = self.page.evaluate("() => window.__antrapEls.map(e => getComputedStyle(e).backgroundColor)")
            hits = [i for i, (e, bg) in enumerate(zip(els, bgs))
                    if bg == want and not e.text and not e.content_description]
            hits.sort(key=lambda i: (els[i].bbox_pixels.y_min, els[i].bbox_pixels.x_min))
            assert len(hits) > step.nth, f"no element painted {step.colour} (#{step.nth}) on the page"
            i = hits[step.nth]
        else:
            target = step.target  # type: ignore[attr-defined]
            el = target.find(els)
            assert el is not None, f"nothing on the page matches {target.describe()}: {self.texts()}"
            i = els.index(el)
        return i, els[i], self._onscreen(i)

    # -- acting ---------------------------------------------------------------------

    def _touch(self, points: list[tuple[float, float]]) -> None:
        """One finger down at the first point, through the others in small moves, then up.

        Events carry the time a person would take (a move each 16 ms, half a second
        between gestures), not the wall clock: Chromium's gesture detector reads those
        times (a tap too soon after a stroke is not a click), and a busy machine does not
        change them."""
        send = self.cdp.send

        def touch(kind: str, at: tuple[float, float] | None, dt: float) -> None:
            self.clock += dt
            points = [{"x": at[0], "y": at[1], "id": 0}] if at else []
            send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": self.clock})

        touch("touchStart", points[0], 0.5)
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            n = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) // 24))
            for k in range(1, n + 1):
                touch("touchMove", (x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n), 0.016)
        touch("touchEnd", None, 0.2 if len(points) > 1 else 0.08)

    def _tap(self, box: dict) -> None:
        self._touch([(box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)])

    def step(self, step: Step) -> None:
        i, el, box = self._find(step)
        if isinstance(step, (Tap, TapColour)):
            self._tap(box)
        elif isinstance(step, SetChecked):
            if el.is_checked != step.checked:
                self._tap(box)
        elif isinstance(step, TypeText):
            self._tap(box)
            self.page.keyboard.press("Control+A")
            self.page.keyboard.press("Delete")
            self.page.keyboard.type(step.text)
            if step.submit:
                self.page.keyboard.press("Enter")
        elif isinstance(step, ChooseOption):
            # Chrome's option list is a native picker headless Chromium does not show:
            # pick the option the picker would, by its text (input and change fire as on a pick).
            self.page.evaluate_handle("i => window.__antrapEls[i]", i).as_element().select_option(
                label=step.option)
        elif isinstance(step, SetSlider):
            lo, hi, value = self.page.evaluate(
                "i => { const r = window.__antrapEls[i]; return [+r.min, +r.max, +r.value]; }", i)
            thumb = 16  # Chromium's range thumb (CSS px): its centre travels the track less a thumb
            at = lambda f: (box["x"] + thumb / 2 + f * (box["w"] - thumb), box["y"] + box["h"] / 2)  # noqa: E731
            self._touch([at((value - lo) / (hi - lo)), at(step.fraction)])
        elif isinstance(step, DrawStroke):
            self._touch([(box["x"] + fx * box["w"], box["y"] + fy * box["h"]) for fx, fy in step.points])
        else:
            raise TypeError(f"no way to do {type(step).__name__} on a page")

    def run(self, plan: list[Step]) -> None:
        """Each step in turn, skipping one whose `done` holds on the page as it is now."""
        for s in plan:
            if s.done is not None and s.done(self):
                continue
            self.step(s)
