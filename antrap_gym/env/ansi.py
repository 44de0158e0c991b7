"""A text picture of the screen for terminals (`render_mode="ansi"`, `antrap play`)."""

from __future__ import annotations

from antrap_gym.device.elements import UIElement

COLS = 64
ROWS = 48


def render_ansi(elements: list[UIElement], screen: tuple[int, int], cols: int = COLS,
                rows: int = ROWS) -> str:
    """Place each labelled element's index and label at its position on a grid."""
    w, h = screen
    grid = [[" "] * cols for _ in range(rows)]
    for i, el in enumerate(elements):
        b = el.bbox_pixels
        if b is None:
            continue
        label = el.label or ("[scroll]" if el.is_scrollable else "[·]" if el.is_interactive else "")
        if not label:
            continue
        if el.is_checkable:
            label = ("[x] " if el.is_checked else "[ ] ") + label
        if el.is_editable:
            label = "✎ " + label
        tag = f"{i}:{label}"
        r = min(rows - 1, max(0, int(b.y_min / h * rows)))
        c = min(cols - 1, max(0, int(b.x_min / w * cols)))
        for k, ch in enumerate(tag[: cols - c]):
            if grid[r][c + k] == " ":
                grid[r][c + k] = ch
    border = "+" + "-" * cols + "+"
    return "\n".join([border, *("|" + "".join(row) + "|" for row in grid), border])
