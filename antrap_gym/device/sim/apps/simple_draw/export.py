"""A drawing as the file Simple Draw Pro saves: PNG or JPEG pixels (Pillow), or an SVG
of its strokes (one `path` each, round caps and joins, as the app writes them)."""

from __future__ import annotations

import io

from antrap_gym.device.sim.render import vector

Stroke = tuple[tuple[int, int, int], int, tuple[tuple[int, int], ...]]  # colour, width, points
EXTENSIONS = ("png", "svg", "jpg")


def shapes(strokes: list[Stroke] | tuple[Stroke, ...]) -> tuple:
    """The strokes as `UI.vector` shapes."""
    return tuple(("line", points, color, width) for color, width, points in strokes)


def _hex(color: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def svg(strokes: list[Stroke] | tuple[Stroke, ...], w: int, h: int,
        background: tuple[int, int, int]) -> bytes:
    lines = [f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">',
             f'<rect width="{w}" height="{h}" fill="{_hex(background)}"/>']
    for color, width, points in strokes:
        (x0, y0), rest = points[0], points[1:] or points[:1]
        d = f"M{x0},{y0}" + "".join(f" L{x},{y}" for x, y in rest)
        lines.append(f'<path d="{d}" fill="none" stroke="{_hex(color)}" stroke-width="{width}" '
                     'stroke-linecap="round" stroke-linejoin="round"/>')
    lines.append("</svg>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def encode(strokes: list[Stroke] | tuple[Stroke, ...], w: int, h: int, ext: str,
           background: tuple[int, int, int] = (255, 255, 255)) -> bytes:
    """The file's bytes for extension `ext` (png, svg or jpg)."""
    if ext == "svg":
        return svg(strokes, w, h, background)
    img = vector.image(shapes(strokes), w, h, background)
    buf = io.BytesIO()
    if ext == "png":
        img.save(buf, "PNG")
    else:
        img.save(buf, "JPEG", quality=90)
    return buf.getvalue()
