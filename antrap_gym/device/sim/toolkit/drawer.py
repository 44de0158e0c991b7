"""A navigation drawer: the panel a hamburger button slides in from the left edge.

Plain data like `Dialog` (it lives in the activity's `popup`, so an open drawer
pickles with the state). Its items name an *action*, a method of the activity
called as `activity.<action>(phone, *args)` when tapped, which also closes the
drawer. The content behind it is dimmed and leaves the accessibility tree, as
DrawerLayout hides it; a tap on the dim part or BACK closes the drawer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from antrap_gym.device.sim.toolkit.popups import Choice

if TYPE_CHECKING:
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect


@dataclass(slots=True)
class DrawerItem:
    """One row: an icon, a title and an optional summary ("12 GB free"); `divider`
    draws a line above it (a new section)."""

    label: str
    action: str
    args: tuple = ()
    icon: str = ""
    summary: str = ""
    selected: bool = False
    divider: bool = False


@dataclass(slots=True)
class Drawer:
    items: list[DrawerItem] = field(default_factory=list)
    #: the header over the items (the app's name)
    title: str = ""
    #: resource ids: the list, and each row (its title and summary are android:id/title
    #: and android:id/summary, as in a ListView of two-line items)
    rid: str | None = None
    item_rid: str | None = None
    cancelable: bool = True

    def build_card(self, ui: UI, screen: Rect) -> None:
        _drawer_card(ui, self, screen)


def _drawer_card(ui: UI, drawer: Drawer, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    ui.mk("scrim", screen, style="dim")
    x0, y0, _, y1 = screen
    w = min(screen[2] - x0 - ui.dp(56), ui.dp(360))
    # the panel's left corners lie off the screen: only its right side shows rounded
    panel = ui.mk("menu", (x0 - ui.dp(8), y0, x0 + w, y1), rid=drawer.rid)
    panel.on_click = lambda: None  # a touch on the panel is not a touch outside
    panel.clickable = True
    y = y0 + ui.dp(8)
    if drawer.title:
        ui.mk("text", (x0 + ui.dp(28), y, x0 + w - ui.dp(16), y + ui.dp(56)), panel,
              text=drawer.title, style="title")
        y += ui.dp(56)
    for item in drawer.items:
        if item.divider:
            ui.mk("divider", (x0 + ui.dp(28), y + ui.dp(8), x0 + w - ui.dp(28), y + ui.dp(9)), panel)
            y += ui.dp(17)
        h = ui.dp(64 if item.summary else 56)
        r = (x0 + ui.dp(12), y, x0 + w - ui.dp(12), y + h)
        choice = Choice(item.label, item.action, item.args)
        row = ui.mk("row", r, panel, rid=drawer.item_rid, selected=item.selected,
                    on_click=(lambda c=choice: phone.choose(act, c)))
        s = ui.dp(24)
        iy = r[1] + (h - s) // 2
        ui.mk("image", (r[0] + ui.dp(16), iy, r[0] + ui.dp(16) + s, iy + s), row,
              icon=item.icon or None, rid="android:id/icon")
        tx = r[0] + ui.dp(56)
        if item.summary:
            mid = r[1] + h // 2
            ui.mk("text", (tx, r[1] + ui.dp(8), r[2] - ui.dp(16), mid + ui.dp(2)), row,
                  text=item.label, style="row_title", rid="android:id/title")
            ui.mk("text", (tx, mid + ui.dp(2), r[2] - ui.dp(16), r[3] - ui.dp(8)), row,
                  text=item.summary, style="summary", rid="android:id/summary")
        else:
            ui.mk("text", (tx, r[1], r[2] - ui.dp(16), r[3]), row, text=item.label,
                  style="row_title", rid="android:id/title")
        y += h
