"""Paints the phone's windows into an RGB frame (lazy: only on screenshot()).

The frame is cached per phone revision, so asking twice costs nothing, and
glyph runs/icons are cached masks (see `canvas`).
"""

from __future__ import annotations

import sys
import threading
import zlib
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from antrap_gym.device.sim.context import PhoneContext
from antrap_gym.device.sim.render import canvas as cv
from antrap_gym.device.sim.render import damage, pictures, vector, web
from antrap_gym.device.sim.render.damage import meet, overlaps
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.views import View
from antrap_gym.device.sim.wm import LAUNCHER

Color = tuple[int, int, int]


class PaintedPhone(PhoneContext, Protocol):
    """What the painter reads of the phone besides what apps may: the theme, the bars'
    heights, and the frame it painted last (kept with the phone, by revision)."""

    status_h: int
    nav_h: int
    revision: int
    #: (revision, frame) of the last frame painted
    frame_cache: tuple | None
    #: frame buffers no observation holds any more, reused by the next paint
    frame_pool: list

    @property
    def dark(self) -> bool: ...

_UNKNOWN = object()  # a kind's painter returns this when it leaves a non-uniform background


@dataclass(frozen=True)
class Theme:
    bg: Color
    surface: Color
    surface_high: Color
    on_surface: Color
    on_variant: Color
    primary: Color
    on_primary: Color
    primary_container: Color
    outline: Color
    divider: Color
    status_bg: Color
    nav_bg: Color
    nav_fg: Color
    key_bg: Color
    keyboard_bg: Color
    selected: Color


LIGHT = Theme(
    bg=(254, 251, 255), surface=(255, 255, 255), surface_high=(243, 237, 247),
    on_surface=(28, 27, 31), on_variant=(73, 69, 79), primary=(103, 80, 164),
    on_primary=(255, 255, 255), primary_container=(234, 221, 255), outline=(121, 116, 126),
    divider=(230, 225, 229), status_bg=(254, 251, 255), nav_bg=(243, 237, 247),
    nav_fg=(60, 60, 64), key_bg=(255, 255, 255), keyboard_bg=(232, 234, 237),
    selected=(232, 222, 248),
)
DARK = Theme(
    bg=(28, 27, 31), surface=(40, 39, 44), surface_high=(54, 52, 59),
    on_surface=(230, 225, 229), on_variant=(202, 196, 208), primary=(208, 188, 255),
    on_primary=(56, 30, 114), primary_container=(79, 55, 139), outline=(147, 143, 153),
    divider=(60, 58, 64), status_bg=(28, 27, 31), nav_bg=(40, 39, 44), nav_fg=(220, 220, 224),
    key_bg=(70, 70, 74), keyboard_bg=(40, 40, 44), selected=(74, 68, 88),
)
AD_BG: Color = (22, 33, 62)
AD_FG: Color = (255, 255, 255)
RECENTS_BG: Color = (48, 48, 52)
KEY_ICONS = {"⌫": "backspace", "⏎": "enter"}
TOAST_BG: Color = (50, 50, 54)
AVATAR_COLORS: tuple[Color, ...] = (
    (239, 108, 0), (0, 137, 123), (57, 73, 171), (216, 27, 96), (67, 160, 71), (94, 53, 177),
    (3, 155, 229), (109, 76, 65),
)

#: frame buffers a phone keeps: the one on screen and a spare, so that an agent holding
#: the last observation (the usual loop) does not make every step paint a fresh frame
POOL_SIZE = 2

#: a solid wallpaper (Pixel ships "Solid colors" wallpapers): a uniform background
#: lets every launcher glyph be a pre-blended patch copy instead of a blend
WALLPAPER: Color = (46, 64, 110)


#: frames painted since import, by how: "whole", "partial" (only the damaged regions),
#: "recalled" (a copy of a recurring frame) or "unchanged" (a new revision that drew the
#: same pixels); for benchmarks and tests
paint_counts: Counter[str] = Counter()


class FrameBuffer:
    """A frame's pixels and what they show (its display list), so the next frame painted
    into it repaints only what changed."""

    __slots__ = ("dl", "key", "pixels")

    def __init__(self, pixels: np.ndarray) -> None:
        self.pixels = pixels
        self.key: tuple | None = None
        self.dl: damage.DisplayList | None = None


def render(phone: PaintedPhone) -> np.ndarray:
    """The current frame, read-only; painted at most once per phone revision.

    A frame handed out is never written again while anyone holds it: the next paint
    goes into a pooled buffer that nothing outside the phone references any more (only
    the regions whose views changed since that buffer's frame are repainted), or into a
    new one, so observations can be kept without copying them.
    """
    hit = phone.frame_cache
    if hit is not None and hit[0] == phone.revision:
        return hit[1]
    phone.frame_cache = None
    del hit
    buf = _free_buffer(phone)
    buf.pixels.flags.writeable = True
    _paint_into(phone, buf)
    frame = buf.pixels
    frame.flags.writeable = False
    phone.frame_cache = (phone.revision, frame)
    return frame


def _free_buffer(phone: PaintedPhone) -> FrameBuffer:
    """A pooled buffer nobody else holds, else a new pooled one."""
    pool: list[FrameBuffer] = phone.frame_pool
    shape = (phone.height, phone.width, 3)
    for buf in pool:
        # the references: the buffer's slot and getrefcount's argument
        if sys.getrefcount(buf.pixels) <= 2 and buf.pixels.shape == shape:
            return buf
    buf = FrameBuffer(np.empty(shape, np.uint8))
    pool.append(buf)
    if len(pool) > POOL_SIZE:
        pool.pop(0)  # whoever holds the oldest keeps it; the phone forgets it
    return buf


def paint(phone: PaintedPhone, out: np.ndarray | None = None) -> np.ndarray:
    """Draw every window into `out` (or a new array), whole, and return it (no cached
    frame is used: this is the reference the partial repaints are tested against)."""
    buf = FrameBuffer(np.empty((phone.height, phone.width, 3), np.uint8) if out is None else out)
    _paint_into(phone, buf, recall=False)
    return buf.pixels


class _RecurringFrames:
    """Whole frames that recur, shared by every phone of the process: the screens painted
    whole most often (the home screen every reset lands on, first of all) are kept, and
    copied instead of drawn when they come back. Two frames at most (15 MB a process); a
    screen displaces a kept one only once it has been painted more often (no thrashing
    between screens that come back a few times)."""

    def __init__(self, keep: int = 2, remember: int = 256) -> None:
        self.keep, self.remember = keep, remember
        self.frames: dict[tuple, np.ndarray] = {}
        self.counts: OrderedDict[tuple, int] = OrderedDict()
        self._lock = threading.Lock()  # phones paint on sim-adbd's threads too

    def get(self, sig: tuple) -> np.ndarray | None:
        with self._lock:
            frame = self.frames.get(sig)
            if frame is not None:
                self.counts[sig] = self.counts.get(sig, 0) + 1
            return frame

    def painted(self, sig: tuple, frame: np.ndarray) -> None:
        with self._lock:
            self._painted(sig, frame)

    def _painted(self, sig: tuple, frame: np.ndarray) -> None:
        n = self.counts.pop(sig, 0) + 1
        self.counts[sig] = n  # most recent last
        while len(self.counts) > self.remember:
            old, _ = self.counts.popitem(last=False)
            self.frames.pop(old, None)
        if n < 2:
            return
        if len(self.frames) >= self.keep:
            weakest = min(self.frames, key=lambda k: self.counts.get(k, 0))
            if self.counts.get(weakest, 0) >= n:
                return
            del self.frames[weakest]
        kept = frame.copy()
        kept.flags.writeable = False
        self.frames[sig] = kept


RECURRING = _RecurringFrames()


def _contexts(phone: PaintedPhone, th: Theme, on_home: bool) -> list[tuple]:
    """Each window with how it is painted: (window, (background, on-dark text, fill))."""
    out = []
    for win in phone.windows():
        bg: Color | None = th.bg
        on_dark = False
        fill: Color | None = None
        if win.name == "app" and on_home:
            bg, on_dark = WALLPAPER, True
        elif win.name == "status_bar":
            if on_home and not phone.wm.recents_open:
                bg, on_dark = WALLPAPER, True
            else:
                fill = bg = th.status_bg
        elif win.name == "nav_bar":
            fill = bg = th.nav_bg
        elif win.name == "ime":
            fill = bg = th.keyboard_bg
        elif win.name in ("popup", "overlay", "recents"):
            bg = None
        out.append((win, (bg, on_dark, fill)))
    return out


def _paint_into(phone: PaintedPhone, buf: FrameBuffer, recall: bool = True) -> None:
    """Paint the phone into `buf`: only the damaged regions when `buf` holds an earlier
    frame of the same screen (size, theme, background); else a copy of the same frame
    painted before (`RECURRING`, when `recall`); else everything."""
    th = DARK if phone.dark else LIGHT
    on_home = phone.wm.top == LAUNCHER
    bg_color = WALLPAPER if on_home else th.bg
    bg = cv.background(phone.width, phone.height, bg_color)
    frame = buf.pixels
    screen = (0, 0, phone.width, phone.height)
    windows = _contexts(phone, th, on_home)
    toast = phone.wm.toast
    p = Painter(frame, th, phone.density,
                {pkg: app.icon_color for pkg, app in phone.apps.items()},
                {pkg: app.icon_glyph for pkg, app in phone.apps.items() if app.icon_glyph})
    extras = []
    if toast is not None:
        extras.append((("toast", toast[0]), p.toast_rect(toast[0], phone)))
    dl = damage.build(windows, extras, screen, p.dp(DAMAGE_MARGIN_DP))
    key = (frame.shape, th, bg_color)
    rects = damage.damage(buf.dl, dl, screen) if buf.key == key and buf.dl is not None else None
    buf.key, buf.dl = key, dl
    if rects is None:
        sig = (key, frozenset(dl.entries)) if recall else None
        known = RECURRING.get(sig) if sig is not None else None
        if known is not None:
            paint_counts["recalled"] += 1
            np.copyto(frame, known)
            return
        paint_counts["whole"] += 1
        np.copyto(frame, bg)
        _draw_all(p, windows, toast, phone, None)
        if sig is not None:
            RECURRING.painted(sig, frame)
        return
    paint_counts["partial" if rects else "unchanged"] += 1
    p.own, p.subtree = dl.own, dl.subtree
    for r in rects:
        x0, y0, x1, y1 = r
        frame[y0:y1, x0:x1] = bg[y0:y1, x0:x1]
        _draw_all(p, windows, toast, phone, r)


#: a single-line field's text wider than this (px) is drawn only where it shows, not as one
#: glyph run the width of the whole text (10,000 characters would be a 250,000 px mask)
LONG_LINE_PX = 4096

#: how far outside its rect a view's drawing may reach (a slider's thumb, a label under
#: an app icon), in dp: the damage box of a view is its rect grown by this
DAMAGE_MARGIN_DP = 12


def _draw_all(p: Painter, windows: list[tuple], toast, phone: PaintedPhone, region) -> None:
    p.damage = region
    for win, (bg, on_dark, fill) in windows:
        p.on_dark = on_dark
        if fill is not None:
            cv.fill(p.f, win.root.rect, fill, region)
        p.draw(win.root, None, bg)
    if toast is not None:
        p.toast(toast[0], phone)
    p.damage = None


class Painter:
    """Draws views by kind. Each `k_<kind>` gets the colour under the view (or
    None when unknown) and returns the colour its children sit on."""

    def __init__(self, frame: np.ndarray, theme: Theme, density: float,
                 app_colors: dict[str, Color], app_glyphs: dict[str, str] | None = None) -> None:
        #: each app's launcher icon, by package: its colour, and the glyph on it when
        #: it is not the label's first letter
        self.app_colors = app_colors
        self.app_glyphs = app_glyphs or {}
        self.f = frame
        self.t = theme
        self.d = density
        self.on_dark = False
        #: a partial repaint's region (None: paint everything) and the display list's
        #: boxes that let it skip what lies outside
        self.damage: tuple[int, int, int, int] | None = None
        self.own: dict[int, tuple] = {}
        self.subtree: dict[int, tuple] = {}

    def dp(self, v: float) -> int:
        return round(v * self.d)

    def draw(self, v: View, clip, bg: Color | None) -> None:
        region = self.damage
        paint_clip = clip
        if region is not None:
            sub = self.subtree.get(id(v))
            if sub is not None and not overlaps(sub, region):
                return  # nothing of this subtree lies in the region
            own = self.own.get(id(v))
            paint_clip = meet(clip, region) if own is None or overlaps(own, region) else _NOWHERE
        fn = getattr(self, "k_" + v.kind, None)
        inner = bg
        if fn is not None:
            res = fn(v, paint_clip, bg)
            if res is _UNKNOWN:
                inner = None
            elif res is not None:
                inner = res
        child_clip = v.clip if v.kind in ("list", "hscroll", "dialog", "menu", "card") else clip
        for c in v.children:
            self.draw(c, child_clip, inner)

    # --- text helpers -------------------------------------------------------------
    def _fg(self) -> Color:
        return (255, 255, 255) if self.on_dark else self.t.on_surface

    def _muted(self) -> Color:
        return (230, 230, 230) if self.on_dark else self.t.on_variant

    def line(self, s: str, rect, size: int, color: Color, clip, bg: Color | None,
             align: str = "left", bold: bool = False) -> None:
        if not s:
            return
        x0, y0, x1, y1 = rect
        if x1 - x0 < 10**5 and txt.text_width(s, size) > x1 - x0:
            s = txt.ellipsize(s, size, x1 - x0)  # drawn cut; the element keeps the full text
        m = cv.text_mask(s, size, bold)
        h, w = m.shape
        y = y0 + (y1 - y0 - h) // 2
        x = x0 + (x1 - x0 - w) // 2 if align == "center" else x0
        cv.text(self.f, s, x, y, size, color, meet(clip, rect), bold, bg)

    def para(self, s: str, rect, size: int, color: Color, clip, bg: Color | None,
             align: str = "left", top: int | None = None, bold: bool = False) -> None:
        x0, y0, x1, y1 = rect
        lh = txt.line_height(size)
        lines = txt.wrap(s, size, max(1, x1 - x0))
        y = y0 if top is None else top
        if top is None and len(lines) * lh < (y1 - y0):
            y = y0 + ((y1 - y0) - len(lines) * lh) // 2
        box = meet(clip, rect)
        for a, b in lines:
            if y > y1:
                break
            seg = s[a:b]
            x = x0 + (x1 - x0 - txt.text_width(seg, size)) // 2 if align == "center" else x0
            cv.text(self.f, seg, x, y, size, color, box, bold, bg)
            y += lh

    # --- kinds --------------------------------------------------------------------
    def k_text(self, v: View, clip, bg):
        s = v.text or ""
        t, d = self.t, self.d
        st = v.style
        if st in ("title", "row_title", "status"):
            size = {"title": 22, "row_title": 16, "status": 14}[st]
            self.line(s, v.rect, round(size * d), self._fg(), clip, bg)
        elif st in ("summary", "caption"):
            self.line(s, v.rect, round((14 if st == "summary" else 12) * d), self._muted(), clip, bg)
        elif st == "header":
            self.line(s, v.rect, round(14 * d), t.primary, clip, bg, bold=True)
        elif st in ("dialog_title", "dialog_title_center"):
            self.para(s, v.rect, round(22 * d), t.on_surface, clip, bg,
                      align="center" if st.endswith("center") else "left", top=v.rect[1])
        elif st in ("empty", "empty_light"):
            color = (230, 230, 230) if st == "empty_light" else t.on_variant
            self.para(s, v.rect, round(16 * d), color, clip, bg, align="center")
        elif st == "menu_item":
            self.line(s, (v.rect[0] + self.dp(16), v.rect[1], v.rect[2], v.rect[3]),
                      round(16 * d), t.on_surface, clip, bg)
        elif st == "display":  # a time picker's digits
            self.line(s, v.rect, round(45 * d), self._fg(), clip, bg, align="center")
        elif st in ("intro_title", "intro_text"):  # on an intro slide's colour
            big = st == "intro_title"
            self.para(s, v.rect, round((26 if big else 16) * d), (255, 255, 255), clip, bg,
                      align="center", top=v.rect[1], bold=big)
        elif st == "card_title":
            self.line(s, v.rect, round(16 * d), t.on_surface, clip, bg, bold=True)
        elif st == "ad_title":
            self.para(s, v.rect, round(30 * d), AD_FG, clip, bg, align="center", bold=True)
        elif st == "ad_body":
            self.para(s, v.rect, round(16 * d), (220, 225, 240), clip, bg, align="center",
                      top=v.rect[1])
        else:  # body
            self.para(s, v.rect, round(16 * d), self._fg(), clip, bg, top=v.rect[1] + self.dp(6))

    def k_row(self, v: View, clip, bg):
        if v.selected:
            cv.fill(self.f, v.rect, self.t.selected, clip)
            return self.t.selected
        return None

    def k_divider(self, v: View, clip, bg):
        cv.fill(self.f, v.rect, self.t.divider, clip)

    def k_icon_button(self, v: View, clip, bg):
        name = v.icon or "dot"
        if name.startswith("nav_"):
            color = self.t.nav_fg
        elif name == "star" or (v.checkable and v.checked):
            color = self.t.primary
        elif self.on_dark or v.style == "on_color" or (bg is not None and sum(bg) < 300):
            color = (255, 255, 255)  # on a wallpaper or a dark card (an ad)
        else:
            color = self.t.on_variant
        size = min(self.dp(24), v.rect[3] - v.rect[1])
        cv.icon(self.f, name, v.rect, color, size=size, clip=clip, bg=bg)

    def k_image(self, v: View, clip, bg):
        if v.icon == "avatar":
            color = AVATAR_COLORS[zlib.crc32((v.style or "").encode()) % len(AVATAR_COLORS)]
            x0, y0, x1, y1 = v.rect
            cv.rounded(self.f, v.rect, (x1 - x0) // 2, color, clip, bg)
            self.line((v.style or "?")[:1].upper(), v.rect, round(18 * self.d), (255, 255, 255),
                      clip, color, align="center")
            return None
        status = v.icon in ("battery", "wifi", "bluetooth", "airplane")
        color = self._fg() if status else self.t.primary
        cv.icon(self.f, v.icon or "dot", v.rect, color, clip=clip, bg=bg)
        return None

    def k_web(self, v: View, clip, bg):
        """A web page's box, text or canvas (`render/web.py`)."""
        return web.paint(self.f, v, clip, bg)

    def k_picture(self, v: View, clip, bg):
        """An image file's pixels (`UI.image`), fitted or cropped to the view."""
        pictures.paste(self.f, v.value or b"", v.rect, meet(clip, v.clip), v.style == "crop")
        return _UNKNOWN

    def k_vector(self, v: View, clip, bg):
        """A drawing's shapes (`UI.vector`) over its background."""
        background, shapes = v.value
        vector.paste(self.f, shapes, v.rect, meet(clip, v.clip), background)
        return _UNKNOWN

    def k_button(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        r = (y1 - y0) // 2
        size = round(14 * self.d)
        st = v.style
        inner = bg
        if st == "filled":
            inner = t.primary if v.enabled else t.divider
            cv.rounded(self.f, v.rect, r, inner, clip, bg)
            fg = t.on_primary if v.enabled else t.on_variant
        elif st in ("tonal", "tonal_wide"):
            inner = t.primary_container
            cv.rounded(self.f, v.rect, r, inner, clip, bg)
            fg = t.on_surface
        elif st == "outlined":
            cv.outline(self.f, v.rect, r, max(1, self.dp(1)), t.outline, clip, bg)
            fg = t.primary
        elif st == "on_color":  # white text on a coloured page (an intro's DONE)
            fg = (255, 255, 255)
        else:
            fg = t.primary if v.enabled else t.outline
        self.line(v.text or v.desc or "", v.rect, size, fg, clip, inner, align="center", bold=True)
        return inner

    def k_fab(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        c = t.primary_container
        cv.rounded(self.f, v.rect, self.dp(16), c, clip, bg)
        s = self.dp(24)
        if v.text:
            ix = x0 + self.dp(16)
            cv.icon(self.f, v.icon or "add", (ix, y0, ix + s, y1), t.on_surface, size=s, clip=clip,
                    bg=c)
            self.line(v.text, (ix + s + self.dp(12), y0, x1, y1), round(14 * self.d), t.on_surface,
                      clip, c, bold=True)
        else:
            cv.icon(self.f, v.icon or "add", v.rect, t.on_surface, size=s, clip=clip, bg=c)
        return c

    def k_edit(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        pad = self.dp(16)
        size = round(16 * self.d)
        inner_bg = bg
        if v.style == "search":
            inner_bg = t.surface_high
            cv.rounded(self.f, v.rect, (y1 - y0) // 2, inner_bg, clip, bg)
            cv.icon(self.f, "search", (x0 + self.dp(8), y0, x0 + self.dp(40), y1), t.on_variant,
                    size=self.dp(24), clip=clip, bg=inner_bg)
            pad = self.dp(48)
        else:
            color = t.primary if v.focused else t.outline
            width = self.dp(2) if v.focused else max(1, self.dp(1))
            cv.outline(self.f, v.rect, self.dp(4), width, color, clip, bg)
        inner = (x0 + pad, y0, x1 - self.dp(12), y1)
        box = meet(clip, inner)
        value = v.text or ""
        multiline, cursor = v.value
        top = y0 + self.dp(12)
        if not value:
            if v.hint:
                if multiline:
                    self.para(v.hint, inner, size, t.on_variant, clip, inner_bg, top=top)
                else:
                    self.line(v.hint, inner, size, t.on_variant, clip, inner_bg)
            if v.focused:
                cy = top if multiline else y0 + (y1 - y0 - size) // 2
                cv.fill(self.f, (inner[0], cy, inner[0] + self.dp(2), cy + size), t.primary, box)
            return inner_bg
        if multiline:
            self.para(value, inner, size, t.on_surface, clip, inner_bg, top=top)
            if cursor is not None:
                lh = txt.line_height(size)
                lines = txt.wrap(value, size, max(1, inner[2] - inner[0]))
                row = next((i for i, (a, b) in enumerate(lines) if a <= cursor <= b),
                           len(lines) - 1)
                a = lines[row][0]
                cx = inner[0] + txt.text_width(value[a:cursor], size)
                cy = top + row * lh
                cv.fill(self.f, (cx, cy, cx + self.dp(2), cy + size + self.dp(4)), t.primary, box)
            return inner_bg
        shift = 0
        if cursor is not None:
            shift = max(0, txt.text_width(value[:cursor], size) - (inner[2] - inner[0]) + self.dp(4))
        shown, skip = value, 0
        if txt.text_width(value, size) > LONG_LINE_PX:  # draw only what shows, give or take a glyph
            a, b = txt.span_between(value, size, shift - size, shift + inner[2] - inner[0] + size)
            shown, skip = value[a:b], txt.text_width(value[:a], size)
        self.line(shown, (inner[0] - shift + skip, y0, inner[2] + 10**6, y1), size, t.on_surface, box,
                  inner_bg)
        if cursor is not None:
            cx = inner[0] - shift + txt.text_width(value[:cursor], size)
            cy = y0 + (y1 - y0 - size) // 2
            cv.fill(self.f, (cx, cy, cx + self.dp(2), cy + size + self.dp(4)), t.primary, box)
        return inner_bg

    def k_spinner(self, v: View, clip, bg):
        """An outlined drop-down: the value, and a down-pointing triangle at the right."""
        t = self.t
        x0, y0, x1, y1 = v.rect
        cv.outline(self.f, v.rect, self.dp(4), max(1, self.dp(1)), t.outline, clip, bg)
        self.line(v.text or "", (x0 + self.dp(12), y0, x1 - self.dp(36), y1),
                  round(16 * self.d), t.on_surface, clip, bg)
        half, cx, cy = self.dp(5), x1 - self.dp(20), (y0 + y1) // 2 - self.dp(2)
        for i in range(half + 1):
            cv.fill(self.f, (cx - half + i, cy + i, cx + half - i + 1, cy + i + 1), t.on_variant,
                    clip)
        return bg

    def k_switch(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        r = (y1 - y0) // 2
        if v.checked:
            cv.rounded(self.f, v.rect, r, t.primary, clip, bg)
            s = (y1 - y0) - self.dp(8)
            cv.rounded(self.f, (x1 - self.dp(4) - s, y0 + self.dp(4), x1 - self.dp(4), y1 - self.dp(4)),
                       s // 2, t.on_primary, clip, t.primary)
        else:
            cv.rounded(self.f, v.rect, r, t.surface_high, clip, bg)
            cv.outline(self.f, v.rect, r, self.dp(2), t.outline, clip, None)
            s = (y1 - y0) - self.dp(16)
            cv.rounded(self.f, (x0 + self.dp(8), y0 + self.dp(8), x0 + self.dp(8) + s, y1 - self.dp(8)),
                       s // 2, t.outline, clip, t.surface_high)

    def k_checkbox(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        s = self.dp(18)
        ox, oy = x0 + (x1 - x0 - s) // 2, y0 + (y1 - y0 - s) // 2
        rect = (ox, oy, ox + s, oy + s)
        if v.checked:
            cv.rounded(self.f, rect, self.dp(2), t.primary, clip, bg)
            cv.icon(self.f, "check", rect, t.on_primary, clip=clip, bg=t.primary)
        else:
            cv.outline(self.f, rect, self.dp(2), self.dp(2), t.on_variant, clip, bg)

    def k_radio(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        s = self.dp(20)
        ox, oy = x0 + (x1 - x0 - s) // 2, y0 + (y1 - y0 - s) // 2
        rect = (ox, oy, ox + s, oy + s)
        color = t.primary if v.checked else t.on_variant
        if isinstance(v.value, tuple) and len(v.value) == 3:  # a tinted one (a priority)
            color = v.value
        cv.outline(self.f, rect, s // 2, self.dp(2), color, clip, bg)
        if v.checked:
            k = self.dp(5)
            cv.rounded(self.f, (ox + k, oy + k, ox + s - k, oy + s - k), s, color, clip, bg)

    def k_slider(self, v: View, clip, bg):
        t = self.t
        x0, y0, x1, y1 = v.rect
        value, lo, hi = v.value
        frac = 0.0 if hi == lo else min(1.0, max(0.0, (value - lo) / (hi - lo)))
        cy = (y0 + y1) // 2
        th = self.dp(4)
        xv = x0 + int(frac * (x1 - x0))
        cv.fill(self.f, (x0, cy - th // 2, x1, cy + th // 2), t.primary_container, clip)
        cv.fill(self.f, (x0, cy - th // 2, xv, cy + th // 2), t.primary, clip)
        s = self.dp(20)
        cv.rounded(self.f, (xv - s // 2, cy - s // 2, xv + s // 2, cy + s // 2), s // 2, t.primary,
                   clip, None)

    def k_chip(self, v: View, clip, bg):
        t = self.t
        if v.style == "display":  # a time picker's hour or minute: a big tonal box
            inner = t.primary_container if v.checked else t.divider
            cv.rounded(self.f, v.rect, self.dp(8), inner, clip, bg)
            self.line(v.text or "", v.rect, round(45 * self.d), t.on_surface, clip, inner,
                      align="center")
            return inner
        r = self.dp(8)
        inner = bg
        if v.checked:
            inner = t.primary_container
            cv.rounded(self.f, v.rect, r, inner, clip, bg)
        else:
            cv.outline(self.f, v.rect, r, max(1, self.dp(1)), t.outline, clip, bg)
        self.line(v.text or "", v.rect, round(14 * self.d), t.on_surface, clip, inner,
                  align="center")
        return inner

    def k_bubble(self, v: View, clip, bg):
        t = self.t
        fill = t.primary_container if v.style == "outgoing" else t.surface_high
        cv.rounded(self.f, v.rect, self.dp(16), fill, clip, bg)
        x0, y0, x1, y1 = v.rect
        self.para(v.text or "", (x0 + self.dp(12), y0 + self.dp(10), x1 - self.dp(12), y1),
                  round(16 * self.d), t.on_surface, clip, fill, top=y0 + self.dp(10))
        return fill

    def k_tab(self, v: View, clip, bg):
        t = self.t
        color = t.primary if v.selected else t.on_variant
        self.line(v.text or "", v.rect, round(14 * self.d), color, clip, bg, align="center",
                  bold=True)
        if v.selected:
            x0, y0, x1, y1 = v.rect
            cv.fill(self.f, (x0 + self.dp(16), y1 - self.dp(3), x1 - self.dp(16), y1), t.primary, clip)

    def k_day(self, v: View, clip, bg):
        """A calendar day: its number centred (a filled circle when chosen), or a weekday
        letter; style "month" puts the number at the top of a month-view cell."""
        t = self.t
        s = v.text or ""
        x0, y0, x1, y1 = v.rect
        if v.style == "month":
            if v.selected:
                cv.fill(self.f, v.rect, t.selected, clip)
            color = t.primary if v.checked else self._fg()
            self.line(s, (x0, y0 + self.dp(2), x1, y0 + self.dp(22)), round(14 * self.d), color,
                      clip, t.selected if v.selected else bg, align="center", bold=v.checked)
            return t.selected if v.selected else None
        inner = bg
        if v.selected:
            r = min(x1 - x0, y1 - y0) // 2 - self.dp(2)
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            inner = t.primary
            cv.rounded(self.f, (cx - r, cy - r, cx + r, cy + r), r, inner, clip, bg)
        color = (255, 255, 255) if v.selected else (t.on_variant if v.style == "weekday"
                                                    else self._fg())
        self.line(s, v.rect, round(14 * self.d), color, clip, inner, align="center")
        return inner

    def k_clock_face(self, v: View, clip, bg):
        """A time picker's dial: a round face, the hand from its centre to the chosen
        value and the selector circle there (`v.value`: centre, hand's end, its radius);
        the labels are its children."""
        t = self.t
        x0, y0, x1, y1 = v.rect
        face = t.divider
        cv.rounded(self.f, v.rect, (x1 - x0) // 2, face, clip, bg)
        if v.value:
            cx, cy, hx, hy, sel = v.value
            cv.segment(self.f, (cx, cy), (hx, hy), self.dp(2), t.primary, clip)
            cv.rounded(self.f, (hx - sel, hy - sel, hx + sel, hy + sel), sel, t.primary, clip,
                       None)
            dot = self.dp(4)
            cv.rounded(self.f, (cx - dot, cy - dot, cx + dot, cy + dot), dot, t.primary, clip,
                       None)
        return _UNKNOWN

    def k_tint_check(self, v: View, clip, bg):
        """Tasks.org's completion box: an outlined square in the colour of `v.value` (the
        task's priority), filled with a tick when `v.style` is "done"."""
        x0, y0, x1, y1 = v.rect
        s = self.dp(20)
        ox, oy = x0 + (x1 - x0 - s) // 2, y0 + (y1 - y0 - s) // 2
        rect = (ox, oy, ox + s, oy + s)
        color = v.value if isinstance(v.value, tuple) else self.t.on_variant
        if v.style == "done":
            cv.rounded(self.f, rect, self.dp(3), color, clip, bg)
            cv.icon(self.f, "check", rect, (255, 255, 255), clip=clip, bg=color)
        else:
            cv.outline(self.f, rect, self.dp(3), self.dp(2), color, clip, bg)

    def k_dialog(self, v: View, clip, bg):
        cv.rounded(self.f, v.rect, self.dp(28), self.t.surface_high, clip, bg)
        return self.t.surface_high

    def k_menu(self, v: View, clip, bg):
        cv.rounded(self.f, v.rect, self.dp(4), self.t.surface_high, clip, bg)
        return self.t.surface_high

    def k_card(self, v: View, clip, bg):
        if v.style == "page":  # a full-window page shown over an app (a settings page)
            cv.fill(self.f, v.rect, self.t.bg, clip)
            return self.t.bg
        if v.style == "intro":  # an app's intro slides: white on its colour
            cv.fill(self.f, v.rect, self.t.primary, clip)
            return self.t.primary
        if v.style in ("dot", "dot_on"):  # the intro's page indicator
            x0, y0, x1, y1 = v.rect
            color = (255, 255, 255) if v.style == "dot_on" else self.t.primary_container
            cv.rounded(self.f, v.rect, (x1 - x0) // 2, color, clip, bg)
            return None
        if v.style == "ad":
            cv.fill(self.f, v.rect, AD_BG, clip)
            return AD_BG
        if v.style == "banner":
            cv.rounded(self.f, v.rect, self.dp(20), self.t.surface_high, clip, bg)
            return self.t.surface_high
        x0, y0, x1, y1 = v.rect  # a recents card
        cv.rounded(self.f, v.rect, self.dp(20), self.t.surface, clip, bg)
        s = self.dp(40)
        cv.rounded(self.f, (x0 + self.dp(16), y0 + self.dp(8), x0 + self.dp(16) + s,
                            y0 + self.dp(8) + s), s // 2, self._app_color(v.icon), clip,
                   self.t.surface)
        return self.t.surface

    def k_scrim(self, v: View, clip, bg):
        # a scrim covers its rect whatever the clip; a partial repaint keeps it to its region
        if v.style == "dim":
            cv.dim(self.f, meet(v.rect, self.damage))
            return _UNKNOWN
        if v.style == "recents":
            cv.fill(self.f, v.rect, RECENTS_BG, self.damage)
            return RECENTS_BG
        return None

    def k_key(self, v: View, clip, bg):
        t = self.t
        cv.rounded(self.f, v.rect, self.dp(6), t.key_bg, clip, bg)
        key_icon = KEY_ICONS.get(v.text or "")
        if key_icon:
            cv.icon(self.f, key_icon, v.rect, t.on_surface, size=self.dp(24), clip=clip, bg=t.key_bg)
        elif v.text and v.text != " ":
            self.line(v.text, v.rect, round(20 * self.d), t.on_surface, clip, t.key_bg,
                      align="center")
        return t.key_bg

    def k_app_icon(self, v: View, clip, bg):
        x0, y0, x1, y1 = v.rect
        s = v.value or self.dp(56)
        cx = (x0 + x1) // 2
        r = (cx - s // 2, y0 + self.dp(8), cx + s // 2, y0 + self.dp(8) + s)
        color = self._app_color(v.icon)
        cv.rounded(self.f, r, s // 2, color, clip, bg)
        glyph = self.app_glyphs.get(v.icon or "") or (v.text or "?")[:1]
        self.line(glyph, r, round(24 * self.d), (255, 255, 255), clip, color,
                  align="center", bold=True)
        fg = (255, 255, 255) if self.on_dark else self.t.on_surface
        label = txt.ellipsize(v.text or "", round(12 * self.d), x1 - x0)
        self.line(label, (x0, r[3] + self.dp(4), x1, r[3] + self.dp(24)), round(12 * self.d), fg,
                  clip, bg, align="center")

    def _app_color(self, package: str | None) -> Color:
        if package in self.app_colors:
            return self.app_colors[package]
        return AVATAR_COLORS[zlib.crc32((package or "").encode()) % len(AVATAR_COLORS)]

    def toast_rect(self, message: str, phone: PaintedPhone) -> tuple[int, int, int, int]:
        size = round(14 * self.d)
        w = min(phone.width - self.dp(48), txt.text_width(message, size) + self.dp(48))
        h = self.dp(48)
        x0 = (phone.width - w) // 2
        y1 = phone.height - phone.nav_h - self.dp(64)
        return (x0, y1 - h, x0 + w, y1)

    def toast(self, message: str, phone: PaintedPhone) -> None:
        size = round(14 * self.d)
        r = self.toast_rect(message, phone)
        w, h = r[2] - r[0], r[3] - r[1]
        cv.rounded(self.f, r, h // 2, TOAST_BG, self.damage)
        self.line(txt.ellipsize(message, size, w - self.dp(32)), r, size, (240, 240, 240),
                  self.damage, TOAST_BG, align="center")


_NOWHERE = (0, 0, 0, 0)  # a clip that paints nothing (a view drawn only for its colour)
