"""Overlays and repainting as Device-protocol capabilities: the simulated phone hosts
pop-ups in its window manager; a backend that cannot (`SimDevice(host_overlays=False)`,
ADB) shows them virtually, and they must look, read and behave the same."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from antrap_gym.device import UIElement
from antrap_gym.device.overlay import Overlay, OverlayButton
from antrap_gym.device.sim import SimDevice

SETTINGS = "com.android.settings"


def popup(style: str, **kw) -> Overlay:
    buttons = [OverlayButton("X", "dismiss", desc="Close ad"), OverlayButton("Learn more", "accept")] \
        if style == "fullscreen_ad" else [OverlayButton("Not now", "deny"),
                                          OverlayButton("Allow", "accept")]
    return Overlay(style, "Allow Settings to send you notifications?", "Stay in the know.",
                   buttons, ident=f"test-{style}", **kw)


def in_settings(**kw) -> SimDevice:
    dev = SimDevice(**kw)
    dev.launch(SETTINGS)
    return dev


def element(dev, label: str) -> UIElement:
    return next(e for e in dev.ui_elements() if e.label == label)


def same_screen(a, b) -> None:
    assert np.array_equal(a.screenshot(), b.screenshot())
    assert a.ui_elements() == b.ui_elements()
    assert a.ui_xml() == b.ui_xml()


@pytest.mark.parametrize("style", ["permission", "dialog", "banner", "fullscreen_ad"])
@pytest.mark.parametrize("dark", [False, True])
def test_a_virtual_overlay_looks_and_reads_as_the_native_one(style, dark):
    native, virtual = in_settings(), in_settings(host_overlays=False)
    for d in (native, virtual):
        if dark:
            d.shell("settings put secure ui_night_mode 2")
    clean = virtual.screenshot()
    assert native.show_overlay(popup(style)) is True
    assert virtual.show_overlay(popup(style)) is False
    same_screen(native, virtual)
    assert (virtual.screenshot() != clean).any(axis=2).mean() > 0.02  # it is drawn
    assert not virtual.phone.wm.overlays  # ...but not on the phone itself
    assert "Network & internet" not in [e.label for e in virtual.ui_elements()]


def test_a_virtual_overlay_swallows_input_and_the_phone_beneath_stays_untouched():
    dev = in_settings(host_overlays=False)
    beneath = dev.snapshot().payload[0]
    token = dev.observation_token()
    dev.show_overlay(popup("dialog"))
    assert dev.observation_token() != token
    scrim = (540, 2000)
    for act in (lambda: dev.tap(*scrim), lambda: dev.long_press(*scrim),
                lambda: dev.swipe(540, 1800, 540, 600), lambda: dev.type_text("lost"),
                lambda: dev.enter_text("lost", at=scrim), lambda: dev.clear_text(),
                lambda: dev.key("KEYCODE_ENTER")):
        assert act().ok and "Not now" in [e.label for e in dev.ui_elements()]
    assert dev.snapshot().payload[0] == beneath  # nothing reached the phone
    assert dev.overlay_log() == []
    dev.tap(*element(dev, "Not now").center)
    assert [(e.ident, e.result) for e in dev.overlay_log()] == [("test-dialog", "deny")]
    dev.tap(*element(dev, "Display").center)  # the phone has the screen again
    assert dev.foreground()[1].endswith("DisplaySettingsActivity")
    dev.show_overlay(popup("dialog"))
    dev.shell("input keyevent KEYCODE_BACK")  # the shell reaches the phone beneath
    assert dev.foreground()[1] == "com.android.settings.Settings"
    assert "Not now" in [e.label for e in dev.ui_elements()]


def test_a_virtual_overlay_meets_every_input_as_the_window_manager_does():
    """The same inputs on the simulated phone's own overlays and on virtual ones: the
    same screen after each (HOME, recents and launches go beneath, the pop-up stays)."""
    native, virtual = in_settings(), in_settings(host_overlays=False)
    both = (native, virtual)
    stuck = popup("permission", back_dismisses=False)
    steps = [
        lambda d: d.show_overlay(copy.deepcopy(stuck)),
        lambda d: d.show_overlay(popup("dialog")),
        lambda d: d.tap(540, 2000),
        lambda d: d.long_press(540, 2000),
        lambda d: d.swipe(540, 1800, 540, 600),
        lambda d: d.enter_text("lost", at=(540, 2000), clear=True),
        lambda d: d.key("KEYCODE_HOME"),
        lambda d: d.launch("net.gsantner.markor"),
        lambda d: d.key("KEYCODE_VOLUME_UP"),
        lambda d: d.key("KEYCODE_BACK"),  # closes the dialog...
        lambda d: d.key("KEYCODE_BACK"),  # ...not the permission prompt, which does not allow it
        lambda d: d.key("KEYCODE_APP_SWITCH"),
        lambda d: d.long_press(*element(d, "Allow").center),  # a long press on a button presses it
        lambda d: d.key("KEYCODE_APP_SWITCH"),
    ]
    for i, step in enumerate(steps):
        for d in both:
            step(d)
        same_screen(native, virtual)
        # the phone's own window manager names the pop-up focused; beneath a virtual one
        # the phone knows nothing of it (as `dumpsys window` on a real one)
        assert native.foreground() in (virtual.foreground(), ("com.android.systemui", "")), i
        assert [(e.ident, e.result) for e in native.overlay_log()] == \
            [(e.ident, e.result) for e in virtual.overlay_log()], i
    assert [e.result for e in virtual.overlay_log()] == ["back", "accept"]
    assert native.foreground() == virtual.foreground()  # both pop-ups gone: recents
    assert native.shell("settings get system volume_music").stdout == \
        virtual.shell("settings get system volume_music").stdout


def test_an_ads_countdown_runs_on_inputs_on_both_backends():
    native, virtual = in_settings(), in_settings(host_overlays=False)
    for d in (native, virtual):
        d.show_overlay(popup("fullscreen_ad", countdown=2))
    seen = []
    for _ in range(3):
        same_screen(native, virtual)
        seen.append([e.label for e in virtual.ui_elements() if e.label.startswith("Close")])
        for d in (native, virtual):
            d.wait(0)
    assert seen == [["Close in 2"], ["Close in 1"], ["Close ad"]]
    for d in (native, virtual):
        d.tap(*element(d, "Close ad").center)
        assert d.overlay_log()[-1].result == "dismiss"
    same_screen(native, virtual)


@pytest.mark.parametrize("host_overlays", [True, False])
def test_dismissing_an_overlay_by_its_ident(host_overlays):
    dev = in_settings(host_overlays=host_overlays)
    before = dev.screenshot().copy()
    dev.show_overlay(popup("banner"))
    assert dev.dismiss_overlay("nobody") is False
    assert dev.dismiss_overlay("test-banner", "timeout") is True
    assert [(e.ident, e.result) for e in dev.overlay_log()] == [("test-banner", "timeout")]
    assert np.array_equal(dev.screenshot(), before)
    assert dev.dismiss_overlay("test-banner") is False


def test_snapshots_keep_the_virtual_overlays_shown_then():
    dev = in_settings(host_overlays=False)
    bare = dev.snapshot()
    dev.show_overlay(popup("fullscreen_ad", countdown=3))
    dev.wait(0)
    up = dev.snapshot()
    shown = (dev.screenshot().copy(), dev.ui_elements())
    dev.tap(*element(dev, "Learn more").center)
    assert dev.overlay_log()[-1].result == "accept"
    dev.restore(up)
    assert np.array_equal(dev.screenshot(), shown[0]) and dev.ui_elements() == shown[1]
    assert dev.overlay_log() == []
    copied = pickle.loads(pickle.dumps(up))  # a snapshot is a plain value (GRPO states)
    other = SimDevice(host_overlays=False)
    other.restore(copied)
    assert np.array_equal(other.screenshot(), shown[0])
    dev.restore(bare)  # an env reset: no pop-up left over from the last episode
    assert "Network & internet" in [e.label for e in dev.ui_elements()]
    assert dev.overlay_log() == []


# --- repainting --------------------------------------------------------------------------------


def test_the_repainter_draws_a_pop_up_as_the_phone_shows_it():
    dev = in_settings()
    img = dev.screenshot().copy()
    dev.repainter().overlay(img, popup("permission"))
    dev.show_overlay(popup("permission"))
    assert np.array_equal(img, dev.screenshot())


def test_the_repainter_draws_a_switch_in_the_state_the_phone_would():
    dev = SimDevice()
    dev.launch(SETTINGS)
    dev.tap(*element(dev, "Network & internet").center)
    dev.tap(*element(dev, "Internet").center)
    switch = next(e for e in dev.ui_elements() if e.class_name.endswith("Switch"))
    b = switch.bbox_pixels
    before = dev.screenshot().copy()
    drawn = before.copy()
    dev.repainter().checkable(drawn, b, "switch", not switch.is_checked)
    dev.tap(*switch.center)
    assert next(e for e in dev.ui_elements() if e.bbox_pixels == b).is_checked != switch.is_checked
    after = dev.screenshot()
    box = (slice(b.y_min, b.y_max), slice(b.x_min, b.x_max))
    assert not np.array_equal(drawn[box], before[box])
    assert np.array_equal(drawn[box], after[box])  # the same pixels as the real thing
    outside = np.ones(before.shape[:2], bool)
    outside[box] = False
    assert np.array_equal(drawn[outside], before[outside])
    with pytest.raises(ValueError):
        dev.repainter().checkable(drawn, b, "slider", True)


def test_the_repainter_relabels_inside_the_bounds_only():
    dev = in_settings()
    el = element(dev, "Display")
    b = el.bbox_pixels
    img = dev.screenshot().copy()
    other = copy.deepcopy(img)
    dev.repainter().relabel(img, b, "Battery")
    box = (slice(b.y_min, b.y_max), slice(b.x_min, b.x_max))
    assert not np.array_equal(img[box], other[box])
    outside = np.ones(img.shape[:2], bool)
    outside[box] = False
    assert np.array_equal(img[outside], other[outside])


# --- over ADB (a real phone's window manager cannot be told to show one) ----------------------


@pytest.mark.slow
def test_an_adb_device_shows_overlays_virtually(adb):
    from antrap_gym.device.adb import AdbDevice
    from antrap_gym.device.adbd import serve_in_thread

    handle = serve_in_thread(port=0, serial="OVERLAY1")
    try:
        adb.connect(handle.address)
        dev = AdbDevice(serial=handle.address, port=adb.port)
        dev.launch(SETTINGS)
        boot = dev.snapshot()
        native = in_settings()
        native.show_overlay(popup("dialog"))
        assert dev.show_overlay(popup("dialog")) is False
        assert np.array_equal(dev.screenshot(), native.screenshot())
        assert dev.ui_elements() == native.ui_elements()
        with handle.lock:
            assert not handle.device.phone.wm.overlays  # not on the phone
            beneath = handle.device.snapshot().payload[0]
        dev.tap(540, 2000)
        dev.swipe(540, 1800, 540, 600)
        dev.type_text("lost")
        with handle.lock:
            assert handle.device.snapshot().payload[0] == beneath  # swallowed, not sent
        dev.tap(*element(dev, "Allow").center)
        assert [(e.ident, e.result) for e in dev.overlay_log()] == [("test-dialog", "accept")]
        assert "Network & internet" in [e.label for e in dev.ui_elements()]
        dev.show_overlay(popup("banner"))
        assert popup("banner").title in [e.label for e in dev.ui_elements()]
        dev.restore(boot)  # an env reset leaves no pop-up behind
        assert popup("banner").title not in [e.label for e in dev.ui_elements()]
        assert dev.overlay_log() == [] and dev.dismiss_overlay("test-banner") is False
    finally:
        adb.run("disconnect", handle.address, timeout=10)
        handle.close()
