"""The simulated phone's window manager, toolkit, IME, clock and snapshots."""

from __future__ import annotations

import hashlib

import numpy as np

from antrap_gym.device.sim.wm import Overlay, OverlayButton
from tests.conftest import find, tap_on

SETTINGS = "com.android.settings"


def labels(dev) -> list[str]:
    return [e.label for e in dev.ui_elements()]


def test_boots_to_home_with_launcher_icons(dev):
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert "Settings" in labels(dev)
    assert dev.screen_size == (1080, 2400)


def test_launcher_opens_app_and_back_returns_home(dev):
    tap_on(dev, text="Settings")
    assert dev.foreground() == (SETTINGS, "com.android.settings.Settings")
    tap_on(dev, text="Display")
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")
    dev.key("KEYCODE_BACK")
    assert dev.foreground()[1] == "com.android.settings.Settings"
    dev.key("KEYCODE_BACK")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_per_app_back_stack_survives_home_and_relaunch(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Display")
    dev.key("KEYCODE_HOME")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    dev.shell("monkey -p com.android.settings 1")
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_nav_bar_buttons_work_by_touch(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Display")
    w, h = dev.screen_size
    dev.tap(w // 6, h - 40)  # the Back button in the navigation bar
    assert dev.foreground()[1] == "com.android.settings.Settings"
    dev.tap(w // 2, h - 40)  # Home
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_recents_switch_and_clear(dev):
    dev.launch(SETTINGS)
    dev.key("KEYCODE_HOME")
    dev.key("KEYCODE_APP_SWITCH")
    card = find(dev, desc="Settings")
    dev.tap(*card.center)
    assert dev.foreground()[0] == SETTINGS
    dev.key("KEYCODE_APP_SWITCH")
    tap_on(dev, text="Clear all")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert dev.phone.wm.recents == []


def test_overlay_swallows_input_until_dismissed(dev):
    dev.launch(SETTINGS)
    display = find(dev, text="Display")
    dev.phone.show_overlay(Overlay("dialog", "Rate this app", "Enjoying it?",
                                   [OverlayButton("Cancel", "dismiss"), OverlayButton("OK", "accept")],
                                   ident="test"))
    assert "Rate this app" in labels(dev)
    assert dev.foreground() == ("com.android.systemui", "")
    dev.tap(*display.center)  # lands on the overlay's scrim: swallowed
    assert dev.phone.wm.overlays
    tap_on(dev, text="Cancel")
    assert dev.foreground()[1] == "com.android.settings.Settings"  # the tap never reached it
    assert not dev.phone.wm.overlays
    assert dev.phone.wm.overlay_log[-1].result == "dismiss"
    dev.tap(*display.center)
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_overlay_closes_with_back_and_blocks_typing(dev):
    dev.launch(SETTINGS)
    field = find(dev, cls="EditText")
    dev.tap(*field.center)
    dev.phone.show_overlay(Overlay("fullscreen_ad", "Big Sale", "Everything 50% off",
                                   [OverlayButton("X", "dismiss", desc="Close ad")], ident="ad"))
    dev.type_text("lost")
    dev.key("KEYCODE_BACK")
    assert not dev.phone.wm.overlays
    dev.tap(*find(dev, cls="EditText").center)
    dev.type_text("kept")
    assert find(dev, cls="EditText").text == "kept"


def test_keyboard_focus_cursor_and_editing(dev):
    dev.launch(SETTINGS)
    field = find(dev, cls="EditText")
    dev.tap(*field.center)
    assert dev.phone.ime_shown
    dev.type_text("displ")
    dev.type_text("ay")
    assert find(dev, cls="EditText").text == "display"
    dev.key("KEYCODE_DPAD_LEFT")
    dev.key("KEYCODE_DPAD_LEFT")
    dev.type_text("-")
    assert find(dev, cls="EditText").text == "displ-ay"
    dev.key("KEYCODE_MOVE_END")
    dev.key("KEYCODE_DEL")
    assert find(dev, cls="EditText").text == "displ-a"
    dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    dev.type_text("Display")
    assert find(dev, cls="EditText").text == "Display"
    # typed text filters the settings list; the keyboard shrinks the window
    assert "Network & internet" not in labels(dev)
    dev.key("KEYCODE_BACK")  # first BACK hides the keyboard
    assert not dev.phone.ime_shown and dev.foreground()[0] == SETTINGS


def test_tapping_places_the_cursor(dev):
    dev.launch(SETTINGS)
    field = find(dev, cls="EditText")
    dev.tap(*field.center)
    dev.type_text("abcdef")
    b = find(dev, cls="EditText").bbox_pixels
    dev.tap(b.x_min + 5, b.center[1])  # far left, inside the search icon padding
    dev.type_text("X")
    assert find(dev, cls="EditText").text == "Xabcdef"


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
    tap_on(dev, text="Display")
    sl = find(dev, desc="Brightness level")
    b = sl.bbox_pixels
    dev.swipe(b.center[0], b.center[1], b.x_max + 50, b.center[1])
    assert dev.shell("settings get system screen_brightness").stdout == "255\n"
    dev.tap(b.x_min, b.center[1])
    assert dev.shell("settings get system screen_brightness").stdout == "0\n"


def test_switch_toggles_setting_and_dialog_choice(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Display")
    row_switch = [e for e in dev.ui_elements() if (e.class_name or "").endswith("Switch")]
    dark = min(row_switch, key=lambda e: abs(e.center[1] - find(dev, text="Dark theme").center[1]))
    dev.tap(*dark.center)
    assert dev.shell("settings get secure ui_night_mode").stdout == "2\n"
    tap_on(dev, text="Screen timeout")
    assert find(dev, text="Screen timeout").resource_name == "android:id/alertTitle"
    tap_on(dev, text="5 minutes")
    assert dev.shell("settings get system screen_off_timeout").stdout == "300000\n"
    assert "After 5 minutes of inactivity" in labels(dev)


def test_dialog_cancelled_by_back_and_outside_touch(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Display")
    tap_on(dev, text="Screen timeout")
    dev.key("KEYCODE_BACK")
    assert "5 minutes" not in labels(dev)
    tap_on(dev, text="Screen timeout")
    dev.tap(540, 200)  # outside the dialog card
    assert "5 minutes" not in labels(dev)
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")


def test_toast_shows_then_expires_with_the_clock(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Network & internet")
    tap_on(dev, text="Internet")
    tap_on(dev, text="Guest-5G")
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
    tap_on(dev, text="Display")
    snap = dev.snapshot()
    before = (dev.shell("settings list system").stdout, dev.ui_xml(), dev.phone.now)
    shot_before = dev.screenshot().copy()
    tap_on(dev, text="Dark theme")
    dev.key("KEYCODE_HOME")
    dev.shell("echo hi > /sdcard/x.txt")
    dev.restore(snap)
    assert (dev.shell("settings list system").stdout, dev.ui_xml(), dev.phone.now) == before
    assert np.array_equal(dev.screenshot(), shot_before)
    assert dev.shell("ls /sdcard/x.txt").exit_code == 1


def test_rendering_is_lazy_and_cached(dev):
    dev.launch(SETTINGS)
    tap_on(dev, text="Display")
    assert dev.phone.frame_cache is None  # nothing drawn without a screenshot
    a = dev.screenshot()
    assert dev.screenshot() is a  # cached until something changes
    tap_on(dev, text="Dark theme")
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
    el = find(dev, text="Network & internet")
    b = el.bbox_pixels
    region = dev.screenshot()[b.y_min:b.y_max, b.x_min:b.x_max]
    assert (region.min(axis=2) < 100).mean() > 0.02  # dark glyph pixels in the text box
    blank = dev.screenshot()[b.y_min:b.y_max, 1040:1075]
    assert (blank.min(axis=2) < 100).mean() == 0
