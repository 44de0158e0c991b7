"""The page's JavaScript: a QuickJS context holding the DOM stand-in (`prelude.js`).

Python and the context talk through a handful of calls: the document goes in as
one JSON tree (scripts run as the builder reaches them), the user's actions go in
as `__user(kind, nid, ...)`, and the DOM comes out as one JSON tree (`__dump`) when
it changed. Every call into the page runs under a time limit, and the context under
a memory and stack limit, so a page that loops or runs away stops where it got to:
the page stays as far as it got, and the phone goes on.
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import quickjs

from antrap_gym.device.sim.web import css, html
from antrap_gym.device.sim.web.canvas2d import png_of

#: seconds one call into the page (a script, an event with its handlers) may run
TIME_LIMIT_S = 0.5
MEMORY_LIMIT = 64 * 1024 * 1024
STACK_LIMIT = 512 * 1024
#: engines get process-unique serials (never reused, unlike `id`)
_SERIALS = itertools.count(1)


@lru_cache(maxsize=1)
def prelude() -> str:
    return resources.files(__package__).joinpath("prelude.js").read_text(encoding="utf-8")


class Engine:
    """One loaded page's JavaScript context and canvases (not picklable: rebuilt by
    replaying the page's log, see `page.Page`)."""

    time_limit_s = TIME_LIMIT_S

    def __init__(self, source: str, url: str, now_ms: int, seed: int,
                 viewport: tuple[float, float], dpr: float) -> None:
        self.errors: list[str] = []
        #: names this context for as long as the process lives: a canvas's pixels are a
        #: function of (serial, canvas, drawing version), the key its picture compares by
        self.serial = next(_SERIALS)
        ctx = self.ctx = quickjs.Context()
        ctx.set_memory_limit(MEMORY_LIMIT)
        ctx.set_max_stack_size(STACK_LIMIT)
        ctx.add_callable("__py_css", _guard(lambda texts: css.sheets_json(json.loads(texts)), "[]"))
        ctx.set("__NOW_MS", float(now_ms))  # an int would be cut to 32 bits
        ctx.set("__SEED", float(int(seed) & 0xFFFFFFFF))
        ctx.set("__URL", url)
        ctx.set("__VIEWPORT_W", float(viewport[0]))
        ctx.set("__VIEWPORT_H", float(viewport[1]))
        ctx.set("__DPR", float(dpr))
        ctx.eval(prelude())
        self._user = ctx.get("__user")
        self._dump = ctx.get("__dump")
        self._pixels = ctx.get("__canvas_pixels")
        self._read_clock = ctx.get("__read_clock")  # taken before the page's own scripts run
        self._load(source)

    # --- calls into the page, each under the time limit ------------------------------------
    def _call(self, fn: Any, *args: Any) -> Any:
        self.ctx.set_time_limit(self.time_limit_s)
        try:
            return fn(*args)
        except quickjs.JSException as e:
            self.errors.append(str(e).strip())
        except quickjs.StackOverflow as e:
            self.errors.append(str(e).strip())
        finally:
            self.ctx.set_time_limit(-1)
        return None

    def _load(self, source: str) -> None:
        self._call(self.ctx.get("__begin"), html.build_document(source))
        next_script = self.ctx.get("__next_script")
        while True:
            code = self._call(next_script)
            if code is None:
                break
            self.ctx.set_time_limit(self.time_limit_s)
            try:
                self.ctx.eval(code)
            except (quickjs.JSException, quickjs.StackOverflow) as e:
                self.errors.append(str(e).strip())
            finally:
                self.ctx.set_time_limit(-1)
        self._call(self.ctx.get("__finish_load"))
        self._collect_errors()

    def act(self, kind: str, nid: int, *args: Any) -> None:
        """A user action on the element `nid` (tap, input, key, commit, select, range,
        pointer), its handlers run, then the timeouts it set."""
        self._call(self._user, kind, int(nid), *args)
        self._collect_errors()

    def dump(self, force: bool = False) -> dict | None:
        """The DOM for layout, or None when it has not changed since the last dump (our
        own code, run without the time limit: it asks Python for the stylesheets)."""
        raw = self.dump_json(force)
        return json.loads(raw) if raw else None

    def dump_json(self, force: bool = False) -> str | None:
        """`dump` as the page wrote it (JSON): equal DOMs give equal strings, so a layout
        can be looked up by it."""
        try:
            raw = self._dump(force)
        except (quickjs.JSException, quickjs.StackOverflow) as e:
            self.errors.append(str(e).strip())
            return None
        return raw or None

    @property
    def read_clock(self) -> bool:
        """Whether the page has read the clock (`Date.now()`, `new Date()`, an event's
        `timeStamp`) or drawn a random number so far. Until it has, what it shows is a
        function of its source, its URL and the actions sent to it, whatever the time and
        seed it was loaded with."""
        try:
            return bool(self._read_clock())
        except (quickjs.JSException, quickjs.StackOverflow):
            return True

    def canvas_png(self, nid: int, width: int, height: int) -> bytes:
        """The canvas `nid`'s pixels as a PNG over white."""
        try:
            raw = self._pixels(int(nid))
        except (quickjs.JSException, quickjs.StackOverflow):
            return b""
        runs = np.frombuffer(raw.encode("utf-16-le")[::2], np.uint8)  # a character: 256 + a byte
        if runs.size % 6:
            return b""
        runs = runs.reshape(-1, 6)
        lengths = runs[:, 0].astype(np.int64) * 256 + runs[:, 1]
        return png_of(width, height, np.repeat(runs[:, 2:], lengths, axis=0).tobytes())

    def _collect_errors(self) -> None:
        raw = self._call(self.ctx.get("__errors"))
        if raw:
            found = json.loads(raw)
            self.errors.extend(e for e in found if e not in self.errors)
        del self.errors[:-50]


def _guard(fn: Any, fallback: Any) -> Any:
    """A callable the page may call: an exception in Python must never cross into QuickJS
    (it would abort the interpreter's call), so it becomes the fallback value."""

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception:
            return fallback

    return call
