"""A dialog or menu card an activity lays out itself, over its own screen.

`Dialog` and `Menu` (popups.py) cover the common shapes: one text field, one list.
A richer dialog (two fields, check boxes, a live status line, as Markor's Search /
Replace) or a menu whose items carry radio/check marks is drawn by the activity
inside its window: a scrim that dismisses on a touch, then a card whose contents
are laid out with an ordinary `UI`, so fields, rows and buttons behave as anywhere
else. A title with the `android:id/alertTitle` id names the dialog as a popup's does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from antrap_gym.device.sim.toolkit.builder import UI

if TYPE_CHECKING:
    from antrap_gym.device.sim.toolkit.views import Rect, View

ALERT_TITLE = "android:id/alertTitle"


def _scrim(ui: UI, on_dismiss: Callable[[], Any], dim: bool) -> View:
    # clickable, so that a touch outside the card reaches it and not the screen below
    return ui.mk("scrim", ui.rect, style="dim" if dim else "clear", on_click=on_dismiss,
                 clickable=True)


def _close(ui: UI, card: View, body: UI) -> None:
    """End `card` where its body's content does, and hand it the body's views."""
    body.spacer(8)
    x0, y0, x1, _ = card.rect
    bottom = min(body.y, ui.rect[3])
    card.rect = (x0, y0, x1, bottom)
    card.clip = (x0, y0, x1, max(y0, bottom))
    card.children.extend(body.finish().children)


@contextmanager
def dialog(ui: UI, title: str, on_dismiss: Callable[[], Any], top_dp: float = 72
           ) -> Iterator[UI]:
    """A dialog card `top_dp` below the window's top; yields the UI for its body,
    laid out below the title. The card ends where the body does."""
    _scrim(ui, on_dismiss, dim=True)
    x0, x1 = ui.rect[0] + ui.dp(24), ui.rect[2] - ui.dp(24)
    y0 = min(ui.rect[1] + ui.dp(top_dp), ui.rect[3])
    card = ui.mk("dialog", (x0, y0, x1, ui.rect[3]))
    body = UI(ui.phone, ui.activity, (x0 + ui.dp(8), y0, x1 - ui.dp(8), ui.rect[3]), ui.package)
    body.spacer(16)
    body.mk("text", (x0 + ui.dp(24), body.y, x1 - ui.dp(24), body.y + ui.dp(40)), text=title,
            style="dialog_title", rid=ALERT_TITLE)
    body.spacer(44)
    yield body
    _close(ui, card, body)


@contextmanager
def menu(ui: UI, anchor: tuple[int, int], width_dp: float, on_dismiss: Callable[[], Any]
         ) -> Iterator[UI]:
    """A popup menu card whose top right corner is at `anchor`; yields the UI for its
    items (rows: `ui.row(label, trailing=("radio", on))` and the like)."""
    _scrim(ui, on_dismiss, dim=False)
    x1 = min(anchor[0], ui.rect[2] - ui.dp(8))
    x0 = max(ui.rect[0] + ui.dp(8), x1 - ui.dp(width_dp))
    y0 = max(ui.rect[1], min(anchor[1], ui.rect[3]))
    card = ui.mk("menu", (x0, y0, x1, ui.rect[3]))
    body = UI(ui.phone, ui.activity, (x0, y0, x1, ui.rect[3]), ui.package)
    body.spacer(8)
    yield body
    _close(ui, card, body)


def split(rect: Rect, n: int, gap: int) -> list[Rect]:
    """`rect` cut into n side-by-side cells (buttons or check boxes on one line)."""
    w = (rect[2] - rect[0] - gap * (n - 1)) // max(1, n)
    return [(rect[0] + i * (w + gap), rect[1], rect[0] + i * (w + gap) + w, rect[3])
            for i in range(n)]
