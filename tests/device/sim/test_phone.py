"""The simulated phone's window manager, toolkit, IME, clock and snapshots."""

from __future__ import annotations

import hashlib

import numpy as np

from antrap_gym.device.sim.wm import Overlay, OverlayButton
from tests.conftest import canonical
from tests.screen import need, tap

SETTINGS = "com.android.settings"


def labels(dev) -> list[str]:
    return [e.label for e in dev.ui_elements()]


def test_boots_to_home_with_launcher_icons(dev):
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert "Settings" in labels(dev)
    assert dev.screen_size == (1080, 2400)


def test_launcher_opens_app_and_back_returns_home(dev):
    tap(dev, text="Settings")
    assert dev.foreground() == (SETTINGS, "com.android.settings.Settings")
    tap(dev, text="Display")
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")
    dev.key("KEYCODE_BACK")
    assert dev.foreground()[1] == "com.android.settings.Settings"
    dev.key("KEYCODE_BACK")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_per_app_back_stack_survives_home_and_relaunch(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    dev.key("KEYCODE_HOME")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    dev.shell("monkey -p com.android.settings 1")
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_nav_bar_buttons_work_by_touch(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    w, h = dev.screen_size
    dev.tap(w // 6, h - 40)  # the Back button in the navigation bar
    assert dev.foreground()[1] == "com.android.settings.Settings"
    dev.tap(w // 2, h - 40)  # Home
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_recents_switch_and_clear(dev):
    dev.launch(SETTINGS)
    dev.key("KEYCODE_HOME")
    dev.key("KEYCODE_APP_SWITCH")
    card = need(dev, desc="Settings")
    dev.tap(*card.center)
    assert dev.foreground()[0] == SETTINGS
    dev.key("KEYCODE_APP_SWITCH")
    tap(dev, text="Clear all")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert dev.phone.wm.recents == []


def test_overlay_swallows_input_until_dismissed(dev):
    dev.launch(SETTINGS)
    display = need(dev, text="Display")
    dev.phone.show_overlay(Overlay("dialog", "Rate this app", "Enjoying it?",
                                   [OverlayButton("Cancel", "dismiss"), OverlayButton("OK", "accept")],
                                   ident="test"))
    assert "Rate this app" in labels(dev)
    assert dev.foreground() == ("com.android.systemui", "")
    dev.tap(*display.center)  # lands on the overlay's scrim: swallowed
    assert dev.phone.wm.overlays
    tap(dev, text="Cancel")
    assert dev.foreground()[1] == "com.android.settings.Settings"  # the tap never reached it
    assert not dev.phone.wm.overlays
    assert dev.phone.wm.overlay_log[-1].result == "dismiss"
    dev.tap(*display.center)
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_overlay_closes_with_back_and_blocks_typing(dev):
    dev.launch(SETTINGS)
    field = need(dev, cls="EditText")
    dev.tap(*field.center)
    dev.phone.show_overlay(Overlay("fullscreen_ad", "Big Sale", "Everything 50% off",
                                   [OverlayButton("X", "dismiss", desc="Close ad")], ident="ad"))
    dev.type_text("lost")
    dev.key("KEYCODE_BACK")
    assert not dev.phone.wm.overlays
    dev.tap(*need(dev, cls="EditText").center)
    dev.type_text("kept")
    assert need(dev, cls="EditText").text == "kept"


def test_keyboard_focus_cursor_and_editing(dev):
    dev.launch(SETTINGS)
    field = need(dev, cls="EditText")
    dev.tap(*field.center)
    assert dev.phone.ime_shown
    dev.type_text("displ")
    dev.type_text("ay")
    assert need(dev, cls="EditText").text == "display"
    dev.key("KEYCODE_DPAD_LEFT")
    dev.key("KEYCODE_DPAD_LEFT")
    dev.type_text("-")
    assert need(dev, cls="EditText").text == "displ-ay"
    dev.key("KEYCODE_MOVE_END")
    dev.key("KEYCODE_DEL")
    assert need(dev, cls="EditText").text == "displ-a"
    dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    dev.type_text("Display")
    assert need(dev, cls="EditText").text == "Display"
    # typed text filters the settings list; the keyboard shrinks the window
    assert "Network & internet" not in labels(dev)
    dev.key("KEYCODE_BACK")  # first BACK hides the keyboard
    assert not dev.phone.ime_shown and dev.foreground()[0] == SETTINGS


def test_tapping_places_the_cursor(dev):
    dev.launch(SETTINGS)
    field = need(dev, cls="EditText")
    dev.tap(*field.center)
    dev.type_text("abcdef")
    b = need(dev, cls="EditText").bbox_pixels
    dev.tap(b.x_min + 5, b.center[1])  # far left, inside the search icon padding
    dev.type_text("X")
    assert need(dev, cls="EditText").text == "Xabcdef"


def test_vertical_list_scrolls_to_hidden_rows(dev):
    dev.launch(SETTINGS)
    assert "About phone" not in labels(dev)
    lst = next(e for e in dev.ui_elements() if e.is_scrollable)
    cx, cy = lst.center
    for _ in range(4):
        dev.swipe(cx, cy + 400, cx, cy - 400)
    assert "About phone" in labels(dev)
    assert "Network & internet" not in labels(dev)
    for _ in range(4):
        dev.swipe(cx, cy - 400, cx, cy + 400)
    assert "Network & internet" in labels(dev)


def test_slider_set_by_dragging_and_tapping(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    sl = need(dev, desc="Brightness level")
    b = sl.bbox_pixels
    dev.swipe(b.center[0], b.center[1], b.x_max + 50, b.center[1])
    assert dev.shell("settings get system screen_brightness").stdout == "255\n"
    dev.tap(b.x_min, b.center[1])  # the left end is the display's minimum, 1 (never 0)
    assert dev.shell("settings get system screen_brightness").stdout == "1\n"


def test_switch_toggles_setting_and_dialog_choice(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    row_switch = [e for e in dev.ui_elements() if (e.class_name or "").endswith("Switch")]
    dark = min(row_switch, key=lambda e: abs(e.center[1] - need(dev, text="Dark theme").center[1]))
    dev.tap(*dark.center)
    assert dev.shell("settings get secure ui_night_mode").stdout == "2\n"
    tap(dev, text="Screen timeout")
    assert need(dev, text="Screen timeout").resource_name == "android:id/alertTitle"
    tap(dev, text="5 minutes")
    assert dev.shell("settings get system screen_off_timeout").stdout == "300000\n"
    assert "After 5 minutes of inactivity" in labels(dev)


def test_dialog_cancelled_by_back_and_outside_touch(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    tap(dev, text="Screen timeout")
    dev.key("KEYCODE_BACK")
    assert "5 minutes" not in labels(dev)
    tap(dev, text="Screen timeout")
    dev.tap(540, 200)  # outside the dialog card
    assert "5 minutes" not in labels(dev)
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_toast_shows_then_expires_with_the_clock(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Network & internet")
    tap(dev, text="Internet")
    tap(dev, text="Guest-5G")
    assert dev.phone.wm.toast is not None
    shot = dev.screenshot().copy()
    dev.wait(5)
    assert dev.phone.wm.toast is None
    assert not np.array_equal(shot, dev.screenshot())


def test_clock_starts_at_androidworld_time_and_advances_with_actions(dev):
    t0 = dev.phone.now
    assert dev.shell("date +%Y-%m-%d").stdout == "2023-10-15\n"
    dev.tap(10, 1000)
    dev.key("KEYCODE_BACK")
    assert dev.phone.now == t0 + 2


def test_snapshot_restore_is_exact(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    snap = dev.snapshot()
    before = (dev.shell("settings list system").stdout, dev.ui_xml(), dev.phone.now)
    shot_before = dev.screenshot().copy()
    tap(dev, text="Dark theme")
    dev.key("KEYCODE_HOME")
    dev.shell("echo hi > /sdcard/x.txt")
    dev.restore(snap)
    assert (dev.shell("settings list system").stdout, dev.ui_xml(), dev.phone.now) == before
    assert np.array_equal(dev.screenshot(), shot_before)
    assert dev.shell("ls /sdcard/x.txt").exit_code == 1


def test_rendering_is_lazy_and_cached(dev):
    dev.launch(SETTINGS)
    tap(dev, text="Display")
    assert dev.phone.frame_cache is None  # nothing drawn without a screenshot
    a = dev.screenshot()
    assert dev.screenshot() is a  # cached until something changes
    tap(dev, text="Dark theme")
    b = dev.screenshot()
    assert b is not a and b.mean() < a.mean()  # the dark theme is darker


def test_screens_render_differently_and_deterministically(dev):
    from antrap_gym.device.sim import SimDevice

    def digest(d):
        return hashlib.sha256(d.screenshot().tobytes()).hexdigest()

    home = digest(dev)
    dev.launch(SETTINGS)
    settings = digest(dev)
    other = SimDevice()
    other.launch(SETTINGS)
    assert home != settings and digest(other) == settings


def test_text_is_drawn_where_elements_say(dev):
    dev.launch(SETTINGS)
    el = need(dev, text="Network & internet")
    b = el.bbox_pixels
    region = dev.screenshot()[b.y_min:b.y_max, b.x_min:b.x_max]
    assert (region.min(axis=2) < 100).mean() > 0.02  # dark glyph pixels in the text box
    blank = dev.screenshot()[b.y_min:b.y_max, 1040:1075]
    assert (blank.min(axis=2) < 100).mean() == 0


# --- status bar ---------------------------------------------------------------------------------


def status_bar(dev) -> tuple[list, object]:
    """The status bar's elements (system UI: not in the focused window's list) and window."""
    win = next(w for w in dev.phone.windows() if w.name == "status_bar")
    return [v.to_element(win.package) for v in win.root.walk() if v.text or v.desc], win


def status_item(dev, desc=None, rid=None):
    els, _ = status_bar(dev)
    for e in els:
        if (desc is None or e.content_description == desc) and \
                (rid is None or (e.resource_name or "").endswith(rid)):
            return e
    return None


def ink(frame, el, bg) -> float:
    """Share of pixels inside an element's box that differ from the background colour."""
    b = el.bbox_pixels
    region = frame[b.y_min:b.y_max, b.x_min:b.x_max].astype(int)
    return float((np.abs(region - np.array(bg)).sum(axis=2) > 60).mean())


STATUS_BG = (254, 251, 255)  # the light theme's status bar, over an app


def expected_clock(dev, h24: bool = False) -> str:
    hh, mm = (int(x) for x in dev.shell("date +%H:%M").stdout.strip().split(":"))
    return f"{hh:02d}:{mm:02d}" if h24 else f"{hh % 12 or 12}:{mm:02d}"


def test_status_bar_clock_follows_the_device_clock(dev):
    dev.launch(SETTINGS)
    assert status_item(dev, rid="clock").text == "3:34" == expected_clock(dev)  # 15:34 UTC
    first = dev.screenshot().copy()
    dev.wait(25)  # 15:34:25
    assert status_item(dev, rid="clock").text == "3:34"
    assert np.array_equal(dev.screenshot(), first)  # same minute, same pixels
    dev.wait(35)  # 15:35:00
    clock = status_item(dev, rid="clock")
    assert clock.text == "3:35" == expected_clock(dev)
    later = dev.screenshot()
    b = clock.bbox_pixels
    assert not np.array_equal(first[b.y_min:b.y_max, b.x_min:b.x_max],
                              later[b.y_min:b.y_max, b.x_min:b.x_max])
    assert ink(later, clock, STATUS_BG) > 0.01  # the digits are drawn
    assert np.array_equal(first[: b.y_max, b.x_max + 40: 900], later[: b.y_max, b.x_max + 40: 900])
    for minutes, want in ((25, "4:00"), (8 * 60, "12:00"), (60, "1:00")):
        dev.wait(minutes * 60)
        assert status_item(dev, rid="clock").text == want == expected_clock(dev)
    dev.shell("settings put system time_12_24 24")
    assert status_item(dev, rid="clock").text == expected_clock(dev, h24=True) == "01:00"
    assert dev.shell("date +%H:%M").stdout == "01:00\n"  # 2023-10-16 01:00 UTC


def test_status_bar_icons_follow_radios_and_are_drawn(dev):
    dev.launch(SETTINGS)
    frame = dev.screenshot().copy()
    battery = status_item(dev, desc="Battery 87 percent.")
    wifi = status_item(dev, desc="Wifi signal full.")
    assert battery is not None and wifi is not None
    assert status_item(dev, desc="Airplane mode.") is None
    assert ink(frame, battery, STATUS_BG) > 0.1 and ink(frame, wifi, STATUS_BG) > 0.1
    dev.shell("svc wifi disable")
    off = dev.screenshot().copy()
    assert status_item(dev, desc="Wifi signal full.") is None
    assert ink(off, wifi, STATUS_BG) == 0.0  # the icon is gone from the pixels too
    dev.shell("cmd connectivity airplane-mode enable")
    plane = status_item(dev, desc="Airplane mode.")
    assert plane is not None and ink(dev.screenshot(), plane, STATUS_BG) > 0.1
    dev.shell("cmd connectivity airplane-mode disable")
    assert status_item(dev, desc="Airplane mode.") is None
    assert status_item(dev, desc="Wifi signal full.") is None  # it was off before: stays off
    dev.shell("svc wifi enable; svc bluetooth enable")
    assert status_item(dev, desc="Wifi signal full.") is not None
    bt = status_item(dev, desc="Bluetooth on.")
    assert bt is not None and ink(dev.screenshot(), bt, STATUS_BG) > 0.05
    dev.shell("settings put system status_bar_show_battery_percent 1")
    els, _ = status_bar(dev)
    pct = next(e for e in els if e.text == "87%")
    assert ink(dev.screenshot(), pct, STATUS_BG) > 0.01


def test_status_bar_is_drawn_on_the_home_wallpaper_too(dev):
    on = dev.screenshot().copy()
    wifi = status_item(dev, desc="Wifi signal full.")
    dev.shell("svc wifi disable")
    off = dev.screenshot()
    b = wifi.bbox_pixels
    assert not np.array_equal(on[b.y_min:b.y_max, b.x_min:b.x_max], off[b.y_min:b.y_max, b.x_min:b.x_max])
    below = status_bar(dev)[1].root.rect[3]
    assert np.array_equal(on[below:], off[below:])  # only the status bar changed


# --- launcher: home screen and app drawer ------------------------------------------------------------


def launcher_icons(dev) -> list[str]:
    return [e.text for e in dev.ui_elements()
            if (e.resource_name or "").endswith(":id/icon") and e.text]


def test_app_drawer_opens_lists_every_app_and_launches_one(dev):
    assert need(dev, text="All apps")
    tap(dev, text="All apps")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert dev.phone.wm.top_activity().drawer
    search = need(dev, cls="EditText")
    assert search.hint_text == "Search apps"
    labels_in_drawer = launcher_icons(dev)
    installed = sorted(dev.phone.apps[p].label for p in dev.app_packages().values())
    assert labels_in_drawer == sorted(installed, key=str.lower) and len(installed) >= 3
    assert "All apps" not in labels(dev)
    tap(dev, text="Markor")
    assert dev.foreground()[0] == "net.gsantner.markor"
    dev.key("KEYCODE_HOME")
    assert "All apps" in labels(dev)  # home again, the drawer closed


def test_app_drawer_by_swipe_back_and_search(dev):
    dev.swipe(540, 1900, 540, 700)  # swipe up on the home screen
    assert dev.phone.wm.top_activity().drawer and "All apps" not in labels(dev)
    dev.key("KEYCODE_BACK")
    assert "All apps" in labels(dev)
    tap(dev, text="All apps")
    tap(dev, cls="EditText")
    dev.type_text("sett")
    assert launcher_icons(dev) == ["Settings"]
    dev.type_text("zz")
    assert launcher_icons(dev) == [] and "No apps found" in labels(dev)
    dev.clear_text()
    dev.type_text("cont")
    dev.key("KEYCODE_ENTER")
    assert dev.foreground()[0] == "com.google.android.contacts"


def _sets_in(obj, path="state", seen=None) -> list[str]:
    """Where in a saved phone state a set or frozenset sits (their pickled order follows
    the process's string hashing and, after a restore, their rebuild history)."""
    seen = {} if seen is None else seen
    if id(obj) in seen or isinstance(obj, str | bytes | int | float | bool | type(None)):
        return []
    seen[id(obj)] = obj  # held, so that no temporary's id is reused while walking
    if isinstance(obj, set | frozenset):
        return [path]
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += _sets_in(k, f"{path}[{k!r}] (key)", seen) + _sets_in(v, f"{path}[{k!r}]", seen)
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            found += _sets_in(v, f"{path}[{i}]", seen)
    else:
        state = obj.__reduce_ex__(5)
        if isinstance(state, tuple) and len(state) > 2 and state[2] is not None:
            found += _sets_in(state[2], f"{path}.{type(obj).__name__}", seen)
    return found


def test_a_restored_phone_saves_the_same_state_as_the_phone_it_came_from() -> None:
    """Equal phones save equal states: the state holds no sets (their pickled order
    follows the process's string hashing and, after a restore, how they were rebuilt:
    two equal phones compared unequal about half the time), and snapshot -> restore ->
    snapshot gives the state back, after the oracle played one template of every app
    on one phone (permissions granted, files, databases, a web page)."""
    import pickle

    import gymnasium as gym

    import antrap_gym  # noqa: F401
    from antrap_gym.agents import OracleAgent
    from tests.device.sim.test_sim_golden import TEMPLATES

    env = gym.make("antrap/AndroidSim-Text-v0")
    dev = env.unwrapped.device
    agent = OracleAgent()
    for template in TEMPLATES:
        obs, info = env.reset(seed=0, options={"task": template})
        agent.reset(env, obs, info)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(agent.act(obs, info))
            done = term or trunc
        snap = dev.snapshot()
        payload = snap.payload[0] if isinstance(snap.payload, tuple) else snap.payload
        assert _sets_in(pickle.loads(payload)) == [], template
        dev.restore(snap)
        again = dev.snapshot().payload
        assert canonical(again) == canonical(snap.payload), template
        assert canonical(again) == again  # and a restored phone's bytes are already canonical
    env.close()
