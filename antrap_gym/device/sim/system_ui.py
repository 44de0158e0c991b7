"""System windows: status bar, navigation bar, soft keyboard, recents, overlays."""

from __future__ import annotations

import time as _time
from typing import TYPE_CHECKING

from antrap_gym.device.overlay import SYSTEM_UI, Overlay
from antrap_gym.device.sim.storage import radios
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.builder import SP_BODY, SP_SMALL, SP_TITLE, UI
from antrap_gym.device.sim.toolkit.views import Rect, View
from antrap_gym.device.sim.wm import LAUNCHER

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

IME_PACKAGE = "com.google.android.inputmethod.latin"
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def clock_text(phone: PhoneContext) -> str:
    """The status bar clock: "3:34" (12-hour, no AM/PM, as a Pixel shows it) or "15:34"
    when `settings system time_12_24` is 24."""
    t = _time.gmtime(phone.clock_ms // 1000)
    if phone.settings.get("system", "time_12_24") == "24":
        return f"{t.tm_hour:02d}:{t.tm_min:02d}"
    hour = t.tm_hour % 12 or 12
    return f"{hour}:{t.tm_min:02d}"


def build_status_bar(phone: PhoneContext, rect: Rect) -> View:
    root = View("frame", rect, rid="com.android.systemui:id/status_bar")
    root.package = SYSTEM_UI
    d = phone.density
    h = rect[3] - rect[1]
    root.add(View("text", (rect[0] + round(24 * d), rect[1], rect[0] + round(120 * d), rect[3]),
                  text=clock_text(phone), style="status", rid="com.android.systemui:id/clock"))
    x = rect[2] - round(16 * d)
    settings = phone.settings
    if settings.get("system", "status_bar_show_battery_percent") == "1":
        battery = "87%"
        w = txt.text_width(battery, round(14 * d)) + round(4 * d)
        root.add(View("text", (x - w, rect[1], x, rect[3]), text=battery, style="status"))
        x -= w + round(4 * d)
    icon = round(18 * d)
    y0 = rect[1] + (h - icon) // 2
    root.add(View("image", (x - icon, y0, x, y0 + icon), icon="battery", desc="Battery 87 percent."))
    x -= icon + round(6 * d)
    if radios.wifi_on(settings):  # also on in airplane mode when the user turned it back on
        root.add(View("image", (x - icon, y0, x, y0 + icon), icon="wifi", desc="Wifi signal full."))
        x -= icon + round(6 * d)
    if radios.airplane_on(settings):
        root.add(View("image", (x - icon, y0, x, y0 + icon), icon="airplane", desc="Airplane mode."))
        x -= icon + round(6 * d)
    if radios.bluetooth_on(settings):
        root.add(View("image", (x - icon, y0, x, y0 + icon), icon="bluetooth", desc="Bluetooth on."))
    return root


def build_nav_bar(phone: PhoneContext, rect: Rect) -> View:
    root = View("frame", rect, rid="com.android.systemui:id/navigation_bar_frame")
    root.package = SYSTEM_UI
    w = (rect[2] - rect[0]) // 3
    specs = (("nav_back", "Back", lambda: phone.press_back(tick=False)),
             ("nav_home", "Home", lambda: phone.press_home(tick=False)),
             ("nav_recents", "Overview", lambda: phone.press_recents(tick=False)))
    for i, (icon, desc, cb) in enumerate(specs):
        root.add(View("icon_button", (rect[0] + i * w, rect[1], rect[0] + (i + 1) * w, rect[3]),
                      icon=icon, desc=desc, on_click=cb,
                      rid=f"com.android.systemui:id/{desc.lower()}"))
    return root


def keyboard_height(phone: PhoneContext) -> int:
    return round(260 * phone.density)


def build_keyboard(phone: PhoneContext, rect: Rect) -> View:
    root = View("frame", rect, style="keyboard")
    root.package = IME_PACKAGE
    d = phone.density
    pad = round(4 * d)
    rows = [list(r) for r in KEY_ROWS]
    rows[2] = [*rows[2], "⌫"]
    rows.append([",", " ", ".", "⏎"])
    row_h = (rect[3] - rect[1] - pad) // len(rows)
    for ri, keys in enumerate(rows):
        y0 = rect[1] + pad + ri * row_h
        if ri < 3:
            kw = (rect[2] - rect[0]) // 10
            x0 = rect[0] + ((rect[2] - rect[0]) - kw * len(keys)) // 2
            widths = [kw] * len(keys)
        else:
            unit = (rect[2] - rect[0]) // 10
            widths = [unit, unit * 6, unit, unit * 2]
            x0 = rect[0]
        for key, w in zip(keys, widths):
            label = {" ": "space", "⌫": "delete", "⏎": "enter"}.get(key, key)
            root.add(View("key", (x0 + pad, y0 + pad, x0 + w - pad, y0 + row_h - pad), text=key,
                          desc=label, on_click=(lambda k=key: phone.ime_key(k))))
            x0 += w
    return root


def build_recents(phone: PhoneContext, rect: Rect) -> View:
    """The overview screen: one card per recent task, newest first."""
    ui = UI(phone, None, rect, LAUNCHER)
    ui.mk("scrim", rect, style="recents")
    d = phone.density
    recents = phone.wm.recents
    if not recents:
        ui.mk("text", rect, text="No recent items", style="empty_light")
        return ui.finish()
    card_h = round(150 * d)
    gap = round(16 * d)
    y = rect[1] + round(24 * d)
    for pkg in recents[:6]:
        app = phone.apps.get(pkg)
        label = app.label if app else pkg
        r = (rect[0] + round(32 * d), y, rect[2] - round(32 * d), y + card_h)
        card = ui.mk("card", r, desc=label, on_click=(lambda p=pkg: phone.switch_to(p)),
                     rid="com.google.android.apps.nexuslauncher:id/snapshot")
        card.on_swipe = lambda direction, p=pkg: phone.dismiss_recent(p) if direction == "up" else False
        card.icon = pkg
        ui.mk("text", (r[0] + round(72 * d), r[1], r[2], r[1] + round(56 * d)), card, text=label,
              style="card_title")
        y += card_h + gap
        if y + card_h > rect[3] - round(90 * d):
            break
    bw = round(120 * d)
    cx = (rect[0] + rect[2]) // 2
    ui.mk("button", (cx - bw // 2, rect[3] - round(72 * d), cx + bw // 2, rect[3] - round(24 * d)),
          text="Clear all", style="tonal", on_click=phone.clear_recents,
          rid="com.google.android.apps.nexuslauncher:id/clear_all")
    return ui.finish()


def build_overlay(phone: PhoneContext, ov: Overlay, index: int, screen: Rect, app_rect: Rect) -> View:
    """A system overlay window in one of its styles; it covers (and blocks) the screen."""
    ui = UI(phone, None, screen, ov.package)
    d = phone.density
    blocker = ui.mk("scrim", screen, style="clear" if ov.style == "banner" else "dim")
    blocker.value = "blocker"

    def press(i: int) -> None:
        phone.overlay_pressed(index, i)

    inner = lambda r: (r[0] + round(24 * d), r[2] - round(24 * d))  # noqa: E731

    if ov.style == "banner":
        h = round(112 * d)
        r = (app_rect[0] + round(8 * d), app_rect[1] + round(8 * d),
             app_rect[2] - round(8 * d), app_rect[1] + round(8 * d) + h)
        card = ui.mk("card", r, style="banner")
        x0, x1 = inner(r)
        ui.mk("text", (x0, r[1] + round(12 * d), x1 - round(56 * d), r[1] + round(52 * d)), card,
              text=ov.title, style="row_title")
        ui.mk("text", (x0, r[1] + round(52 * d), x1 - round(56 * d), r[3] - round(8 * d)), card,
              text=ov.message, style="summary")
        _overlay_buttons(ui, ov, card, press, r, icon_only=True)
        return ui.finish()

    if ov.style == "fullscreen_ad":
        r = app_rect
        card = ui.mk("card", r, style="ad")
        x0, x1 = inner(r)
        y = r[1] + round(120 * d)
        ui.mk("text", (x0, y, x1, y + round(80 * d)), card, text=ov.title, style="ad_title")
        y += round(96 * d)
        lines = len(txt.wrap(ov.message, round(SP_BODY * d), max(1, x1 - x0)))
        mh = lines * txt.line_height(round(SP_BODY * d)) + round(16 * d)
        ui.mk("text", (x0, y, x1, y + mh), card, text=ov.message, style="ad_body")
        _overlay_buttons(ui, ov, card, press, r, icon_only=False)
        return ui.finish()

    # centred cards: permission, dialog, system_dialog
    w = screen[2] - screen[0] - round(48 * d)
    x0 = screen[0] + round(24 * d)
    tx0, tx1 = x0 + round(24 * d), x0 + w - round(24 * d)
    tsize, bsize = round(SP_TITLE * d), round(SP_BODY * d)
    title_h = len(txt.wrap(ov.title, tsize, tx1 - tx0)) * txt.line_height(tsize) + round(16 * d)
    msg_h = (len(txt.wrap(ov.message, bsize, tx1 - tx0)) * txt.line_height(bsize) + round(16 * d)
             if ov.message else 0)
    stacked = ov.style == "permission"
    btn_h = round(56 * d)
    buttons_h = btn_h * len(ov.buttons) if stacked else round(72 * d)
    icon_h = round(56 * d) if ov.style == "permission" else 0
    h = round(24 * d) + icon_h + title_h + msg_h + buttons_h + round(8 * d)
    y0 = screen[1] + (screen[3] - screen[1] - h) // 2
    r = (x0, y0, x0 + w, y0 + h)
    card = ui.mk("dialog", r, style="system")
    y = y0 + round(24 * d)
    if icon_h:
        s = round(32 * d)
        cx = (r[0] + r[2]) // 2
        ui.mk("image", (cx - s // 2, y, cx + s // 2, y + s), card, icon=ov.icon or "shield")
        y += icon_h
    ui.mk("text", (tx0, y, tx1, y + title_h), card, text=ov.title,
          style="dialog_title_center" if stacked else "dialog_title",
          rid="com.android.permissioncontroller:id/permission_message" if stacked
          else "android:id/alertTitle")
    y += title_h
    if ov.message:
        ui.mk("text", (tx0, y, tx1, y + msg_h), card, text=ov.message, style="body",
              rid="android:id/message")
        y += msg_h
    if stacked:
        for i, b in enumerate(ov.buttons):
            ui.mk("button", (tx0, y + round(4 * d), tx1, y + btn_h - round(4 * d)), card,
                  text=b.label, desc=b.desc, style="tonal_wide", rid=b.rid,
                  on_click=(lambda i=i: press(i)))
            y += btn_h
    else:
        bx1 = tx1
        for i in range(len(ov.buttons) - 1, -1, -1):
            b = ov.buttons[i]
            bw = txt.text_width(b.label, round(SP_SMALL * d)) + round(40 * d)
            ui.mk("button", (bx1 - bw, y + round(8 * d), bx1, y + round(56 * d)), card,
                  text=b.label, desc=b.desc, style="text", rid=b.rid,
                  on_click=(lambda i=i: press(i)))
            bx1 -= bw + round(8 * d)
    return ui.finish()


def _overlay_buttons(ui: UI, ov: Overlay, card: View, press, r: Rect, icon_only: bool) -> None:
    d = ui.density
    s = round(48 * d)
    action_y = r[3] - round(120 * d)
    for i, b in enumerate(ov.buttons):
        if b.result == "dismiss" and (b.label in ("X", "×", "") or icon_only):
            if ov.countdown > 0:
                ui.mk("text", (r[2] - round(140 * d), r[1] + round(8 * d), r[2] - round(8 * d),
                               r[1] + round(8 * d) + s), card,
                      text=f"Close in {ov.countdown}", style="summary")
                continue
            ui.mk("icon_button", (r[2] - s - round(8 * d), r[1] + round(8 * d), r[2] - round(8 * d),
                                  r[1] + round(8 * d) + s), card,
                  icon="close", desc=b.desc or "Close", rid=b.rid, on_click=(lambda i=i: press(i)))
        else:
            w = txt.text_width(b.label, round(SP_SMALL * d)) + round(64 * d)
            cx = (r[0] + r[2]) // 2
            ui.mk("button", (cx - w // 2, action_y, cx + w // 2, action_y + round(56 * d)), card,
                  text=b.label, desc=b.desc, style="filled", rid=b.rid,
                  on_click=(lambda i=i: press(i)))
            action_y -= round(72 * d)
