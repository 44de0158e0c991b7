"""The home screen and app drawer (Pixel Launcher): every app's launcher entry, by its
`App` attributes; no app is named here."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity, App
from antrap_gym.device.sim.toolkit.views import View
from antrap_gym.device.sim.wm import LAUNCHER

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

#: icons on the home screen: the pinned apps (`App.home_position`), in that order
HOME_ICONS = 8


@functools.lru_cache(maxsize=16)
def _home_apps(apps: tuple[type[App], ...]) -> tuple[type[App], ...]:
    shown = [a for a in apps if a.launchable and a.package != LAUNCHER]
    pinned = sorted((a for a in shown if a.home_position is not None),
                    key=lambda a: a.home_position)  # type: ignore[arg-type, return-value]
    return tuple(pinned[:HOME_ICONS])


def home_apps(apps: list[type[App]] | tuple[type[App], ...]) -> list[type[App]]:
    """The home screen's icons in order: the pinned apps; every other app is in the drawer
    only, so installing one leaves the home screen as it was (worked out once per set of
    apps installed, not on every home-screen build)."""
    return list(_home_apps(tuple(apps)))


class LauncherActivity(Activity):
    package = LAUNCHER
    name = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"

    def __init__(self) -> None:
        super().__init__()
        self.drawer = False

    def title(self, phone: PhoneContext) -> str:
        return "Home"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if self.drawer:
            self._build_drawer(ui, phone)
        else:
            self._build_home(ui, phone)

    def _icon_grid(self, ui: UI, phone: PhoneContext, apps: list[type[App]], parent: View,
                   top: int, cols: int = 4) -> int:
        x0, x1 = ui.rect[0], ui.rect[2]
        cell_w = (x1 - x0) // cols
        cell_h = ui.dp(104)
        icon = ui.dp(56)
        y = top
        for i, app in enumerate(apps):
            col = i % cols
            if col == 0 and i:
                y += cell_h
            cx = x0 + col * cell_w + cell_w // 2
            v = ui.mk("app_icon", (cx - cell_w // 2 + ui.dp(4), y, cx + cell_w // 2 - ui.dp(4),
                                   y + cell_h), parent, text=app.label, desc=app.label,
                      rid="com.google.android.apps.nexuslauncher:id/icon",
                      on_click=(lambda p=app.package: phone.launch(p)))
            v.icon = app.package
            v.value = icon
        return y + cell_h

    def _build_home(self, ui: UI, phone: PhoneContext) -> None:
        root = ui.mk("frame", ui.rect, rid="com.google.android.apps.nexuslauncher:id/workspace")
        root.on_swipe = lambda direction: self._open_drawer(phone) if direction == "up" else False
        top = ui.rect[1] + ui.dp(120)
        self._icon_grid(ui, phone, home_apps(tuple(phone.apps.values())), root, top)
        hint_y = ui.rect[3] - ui.dp(96)
        ui.mk("button", (ui.rect[0] + ui.dp(120), hint_y, ui.rect[2] - ui.dp(120),
                         hint_y + ui.dp(48)), root, text="All apps", style="tonal",
              desc="Apps list", rid="com.google.android.apps.nexuslauncher:id/all_apps_handle",
              on_click=lambda: self._open_drawer(phone))

    def _open_drawer(self, phone: PhoneContext) -> bool:
        self.drawer = True
        self.set_field("search", "")
        return True

    def _build_drawer(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(8)
        ui.search("search", "Search apps", rid="com.google.android.apps.nexuslauncher:id/search_box")
        query = self.fields.get("search", "").strip().lower()
        apps = sorted((a for a in phone.apps.values() if a.launchable and a.package != LAUNCHER),
                      key=lambda a: a.label.lower())
        if query:
            apps = [a for a in apps if query in a.label.lower()]
        with ui.scroll("drawer", rid="com.google.android.apps.nexuslauncher:id/apps_list_view") as lst:
            if not apps:
                ui.text("No apps found", style="summary")
            else:
                ui.set_y(self._icon_grid(ui, phone, apps, lst, ui.y + ui.dp(8)))
        lst.on_swipe = lambda direction: self._close_drawer() if direction == "down" else False

    def _close_drawer(self) -> bool:
        if self.scroll.get("drawer", 0) > 0:
            return False
        self.drawer = False
        return True

    def on_back(self, phone: PhoneContext) -> bool:
        if self.drawer:
            self.drawer = False
            self.focus = None
            return True
        return True  # BACK on the home screen does nothing

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        query = self.fields.get("search", "").strip().lower()
        matches = sorted((a for a in phone.apps.values() if a.launchable and a.package != LAUNCHER
                          and query in a.label.lower()), key=lambda a: a.label.lower())
        if query and matches:
            phone.launch(matches[0].package)

