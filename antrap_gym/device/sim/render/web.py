"""Painting a web page's views (kind "web", made by `sim/web/present.py`).

A web view's value says all it shows: (background, border widths, border colours,
corner radius, text lines[, canvas picture]); each line is (text, dx, dy, size, rgb,
bold, underline, width) from the view's top-left, in device pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.render import canvas as cv
from antrap_gym.device.sim.render import pictures
from antrap_gym.device.sim.render.damage import meet

if TYPE_CHECKING:
    import numpy as np

    from antrap_gym.device.sim.toolkit.views import View

Color = tuple[int, int, int]


def paint(frame: np.ndarray, v: View, clip, bg: Color | None) -> Color | None:
    """Draw `v` into `frame`; returns the colour its children sit on (None: unknown)."""
    value = v.value
    if not value:
        return bg
    fill, widths, colors, radius, lines = value[:5]
    clip = meet(clip, v.clip)
    x0, y0, x1, y1 = v.rect
    inner = bg
    if fill is not None:
        fill = tuple(fill)
        if radius:
            cv.rounded(frame, v.rect, radius, fill, clip, bg)
        else:
            cv.fill(frame, v.rect, fill, clip)
        inner = fill
    if any(widths):
        if len(set(widths)) == 1 and len(set(colors)) == 1 and radius:
            cv.outline(frame, v.rect, radius, widths[0], tuple(colors[0]), clip, None)
        else:
            t, r, b, left = widths
            sides = ((t, colors[0], (x0, y0, x1, y0 + t)), (r, colors[1], (x1 - r, y0, x1, y1)),
                     (b, colors[2], (x0, y1 - b, x1, y1)), (left, colors[3], (x0, y0, x0 + left, y1)))
            for w, c, rect in sides:
                if w:
                    cv.fill(frame, rect, tuple(c), clip)
    if len(value) > 5 and value[5] is not None:  # a canvas, inside its border
        t, r, b, left = widths
        pictures.paste(frame, value[5].picture(), (x0 + left, y0 + t, x1 - r, y1 - b), clip, False)
        return None
    box = clip
    for text, dx, dy, size, rgb, bold, underline, width in lines:
        x, y = x0 + dx, y0 + dy
        # blended over what is there: a box behind the text is a sibling view, not a parent
        cv.text(frame, text, x, y, size, tuple(rgb), box, bold, fill)
        if underline:
            uy = y + round(size * 1.05)
            cv.fill(frame, (x, uy, x + width, uy + max(1, size // 14)), tuple(rgb), box)
    return inner
