"""A loaded page as snapshot state: its source, clock, seed and the log of what the
user did, with the live JavaScript context kept beside it (never pickled).

Restoring a snapshot gives a `Page` without its context; the first use after that
loads the source again and replays the log (every action the user took, in order),
which rebuilds the same DOM: the page scripts' only inputs are the source, the
fixed clock and seed, and the log. Restore stays as cheap as unpickling a string.

So a page's layout is a function of (source, url, clock, seed, log, width), and the
process remembers the layouts it built by that key (`LAID_OUT_MAX`). A page whose
state was laid out before needs no context at all: an action is logged and sent to
the context only when something the page has not shown before is asked for (a new
layout, its errors, a canvas's pixels). The oracle's forks, which restore the same
phone states over and over, mostly walk pages they have seen. A state reached without
the page reading the clock or drawing a random number (`Engine.read_clock`) is also
remembered without them: the same page opened again at another time shows it too.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from antrap_gym.device.sim.web import layout as lay
from antrap_gym.device.sim.web.script import Engine

#: the viewport of a Pixel 6 in Chrome: 1080 device px at a device-pixel ratio of 2.625
DPR = 2.625
#: actions kept in a page's log at most (a page driven longer stops taking input)
MAX_LOG = 20000
#: contexts of released pages kept for reuse (see `Page.live`)
PARKED_MAX = 16
#: layout entries remembered (see the module's docstring; a timeless state holds two)
LAID_OUT_MAX = 512
#: id -> (origin, the log it has had, context), oldest first; a context is held by one
#: page or parked here, never both
_parked: OrderedDict[int, tuple[tuple, tuple, _Live]] = OrderedDict()
#: (origin, log, width), and (source, url, log, width) for a state reached without
#: reading the clock or drawing a random number -> its layout, oldest first
_laid_out: OrderedDict[tuple, lay.Layout] = OrderedDict()
#: (origin, log) -> a number naming that page state for as long as the process lives
_state_names: dict[tuple, int] = {}


def forget_layouts() -> None:
    """Drop the remembered layouts (a benchmark's repeat measures the work of laying out)."""
    _laid_out.clear()


def _park(origin: tuple, log: tuple, live: _Live) -> None:
    _parked[id(live)] = (origin, log, live)
    while len(_parked) > PARKED_MAX:
        _parked.popitem(last=False)


def _unpark(origin: tuple, log: list) -> tuple[_Live | None, int]:
    """The parked context of `origin` whose log is the longest beginning of `log`, taken
    out of the park, and how many of `log`'s entries it has had; (None, 0) if none is."""
    best: tuple[int, int] | None = None
    for key, (o, had, _) in _parked.items():
        n = len(had)
        if (n <= len(log) and (best is None or n > best[1]) and o == origin
                and all(a == b for a, b in zip(had, log, strict=False))):
            best = (key, n)
    if best is None:
        return None, 0
    return _parked.pop(best[0])[2], best[1]


@lru_cache(maxsize=64)
def _layout_of(raw: str, viewport_w: float) -> lay.Layout:
    """The layout of the DOM dumped as `raw`, built once per process (a layout is a pure
    function of the dump and the width, and nothing changes it once built). The oracle's
    forks bring the same few page states back over and over, each in a context loaded
    afresh: in the main job nine builds in ten were of a DOM laid out before."""
    return lay.build(json.loads(raw), viewport_w)


class Page:
    """One page of a tab: what it was loaded from and what was done to it."""

    __slots__ = ("_live", "_sent", "_shown", "log", "now_ms", "seed", "source", "url")

    def __init__(self, url: str, source: str, now_ms: int, seed: int) -> None:
        self.url = url
        self.source = source
        self.now_ms = now_ms
        self.seed = seed
        #: (kind, nid, *args) for every action sent to the page, in order
        self.log: list[tuple] = []
        self._live: _Live | None = None
        #: how many of `log`'s entries the live context has had (the rest are still to send)
        self._sent = 0
        #: laid out or acted on since this object was made (see `loaded`)
        self._shown = False

    def __getstate__(self) -> dict:
        return {"url": self.url, "source": self.source, "now_ms": self.now_ms,
                "seed": self.seed, "log": list(self.log)}

    def __setstate__(self, st: dict) -> None:
        self.url, self.source, self.now_ms = st["url"], st["source"], st["now_ms"]
        self.seed, self.log = st["seed"], st["log"]
        self._live = None
        self._sent = 0
        self._shown = False

    @property
    def origin(self) -> tuple:
        return (self.source, self.url, self.now_ms, self.seed)

    # --- the live context -------------------------------------------------------------
    @property
    def live(self) -> _Live:
        """The JavaScript context, loaded (and the log replayed) on first use, and sent
        every logged action it has not had yet. A context a released page of the same
        origin left (`release`) is taken over when the log it has had is where this
        page's begins: a phone restored to the same state over and over (the oracle's
        forks) would otherwise load the same page every time."""
        if self._live is None:
            live, done = _unpark(self.origin, self.log)
            if live is None:
                live = _Live(Engine(self.source, self.url, self.now_ms, self.seed,
                                    (1080 / DPR, 2400 / DPR), DPR))
                done = 0
            self._live, self._sent = live, done
        live = self._live
        while self._sent < len(self.log):
            live.engine.act(*self.log[self._sent])
            self._sent += 1
        return live

    def release(self) -> None:
        """The page is gone with its phone state: park its context for another to take."""
        live, self._live = self._live, None
        if live is not None:
            _park(self.origin, tuple(self.log[:self._sent]), live)
        self._sent = 0

    @property
    def loaded(self) -> bool:
        """Whether this page object was laid out or acted on (a tab in the background,
        restored from a snapshot, is not until it is shown)."""
        return self._shown

    def act(self, kind: str, nid: int, *args: Any) -> None:
        """Send a user action to the page (and log it for the replay). It reaches the
        context when the page's next state is asked for and was not laid out before."""
        if len(self.log) >= MAX_LOG:
            return
        self.log.append((kind, int(nid), *args))
        self._shown = True

    def layout(self, viewport_w: float) -> lay.Layout:
        self._shown = True
        log = tuple(self.log)
        key = (self.origin, log, viewport_w)
        # a state the page reached without reading the clock or drawing a random number is
        # the same whatever time and seed it was loaded with (a page opened again later)
        timeless = (self.source, self.url, log, viewport_w)
        for k in (key, timeless):
            known = _laid_out.get(k)
            if known is not None:
                _laid_out.move_to_end(k)
                return known
        live = self.live
        layout = live.layout(viewport_w)
        _laid_out[key] = layout
        if not live.engine.read_clock:
            _laid_out[timeless] = layout
        while len(_laid_out) > LAID_OUT_MAX:
            _laid_out.popitem(last=False)
        return layout

    @property
    def canvases(self) -> _Canvases:
        """Where this page state's canvas pixels come from (its context, loaded only
        when a picture is painted)."""
        return _Canvases(self)

    @property
    def errors(self) -> list[str]:
        return self.live.engine.errors


class _Canvases:
    """A page state's canvases (`present.Canvases`): named by the page state, which
    together with a canvas's drawing version fixes its pixels."""

    __slots__ = ("_page", "_serial")

    def __init__(self, page: Page) -> None:
        self._page = page
        self._serial = 0

    @property
    def serial(self) -> int:
        if not self._serial:
            key = (self._page.origin, tuple(self._page.log))
            serial = _state_names.get(key)
            if serial is None:
                serial = _state_names[key] = len(_state_names) + 1
            self._serial = serial
        return self._serial

    def canvas_png(self, nid: int, width: int, height: int) -> bytes:
        return self._page.live.engine.canvas_png(nid, width, height)


class _Live:
    """A page's context and its last layout (rebuilt when the DOM changed)."""

    __slots__ = ("_layout", "_width", "engine")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._layout: lay.Layout | None = None
        self._width = 0.0

    def layout(self, viewport_w: float) -> lay.Layout:
        raw = self.engine.dump_json(force=self._layout is None or viewport_w != self._width)
        if raw is not None:
            self._layout = _layout_of(raw, viewport_w)
            self._width = viewport_w
        if self._layout is None:  # the page could not be dumped at all: a blank page
            self._layout = lay.Layout(None, 0.0, viewport_w, "", 0, (255, 255, 255, 255))
        return self._layout
