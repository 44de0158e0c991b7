"""System state the reference System templates read: NFC (`svc nfc`, `dumpsys nfc`, the
Connection preferences switch), the refused AIRPLANE_MODE broadcast, dark mode through
`cmd uimode night`, the brightness slider's ends, and the Verify rows' stricter check."""

from __future__ import annotations

import numpy as np

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.checks.system import NfcIs, NightModeIs, nfc_on
from tests.screen import need, tap

PKG = "com.android.settings"


def switch_of(dev: SimDevice, label: str):
    title = need(dev, label)
    switches = [e for e in dev.ui_elements() if (e.class_name or "").endswith("Switch")]
    return min(switches, key=lambda e: abs(e.center[1] - title.center[1]))


def test_svc_nfc_and_dumpsys_nfc_and_the_switch_agree():
    dev = SimDevice()
    assert nfc_on(dev) and dev.shell("settings get global nfc_on").stdout.strip() == "null"
    assert dev.shell("svc nfc disable").exit_code == 0
    out = dev.shell("dumpsys nfc").stdout
    assert "mState=off" in out and "mScreenState=ON_UNLOCKED" in out
    assert not nfc_on(dev) and NfcIs(False).score(dev, None) == 1.0
    dev.launch(PKG)
    for row in ("Connected devices", "Connection preferences"):
        tap(dev, row)
    sw = switch_of(dev, "NFC")
    assert not sw.is_checked
    dev.tap(*sw.center)
    assert nfc_on(dev) and "mState=on" in dev.shell("dumpsys nfc").stdout
    assert "nfc [enable|disable]" in dev.shell("svc").stdout


def test_the_airplane_mode_broadcast_is_refused_to_the_shell():
    dev = SimDevice()
    res = dev.shell("am broadcast -a android.intent.action.AIRPLANE_MODE --ez state true")
    assert res.exit_code == 255 and "Permission Denial" in res.stderr
    assert dev.shell("settings get global airplane_mode_on").stdout.strip() == "0"


def test_night_mode_is_read_from_cmd_uimode():
    dev = SimDevice()
    assert dev.shell("cmd uimode night").stdout == "Night mode: no\n"
    assert NightModeIs(False).score(dev, None) == 1.0
    dev.shell("cmd uimode night yes")
    assert NightModeIs(True).score(dev, None) == 1.0 and NightModeIs(False).score(dev, None) == 0.0


def test_the_brightness_slider_reaches_1_and_255():
    dev = SimDevice()
    dev.launch(PKG)
    tap(dev, "Display")
    b = need(dev, desc="Brightness level").bbox_pixels
    dev.tap(b.x_min, b.center[1])
    assert dev.shell("settings get system screen_brightness").stdout.strip() == "1"
    dev.tap(b.x_max - 1, b.center[1])
    assert dev.shell("settings get system screen_brightness").stdout.strip() == "255"


def test_a_verify_row_wants_the_page_in_front_and_the_state_kept():
    cls = TEMPLATES["SystemWifiTurnOnVerify"]
    task = cls(cls.generate_params(np.random.default_rng(0)))
    dev = SimDevice()
    task.setup(dev)
    assert cls.reference_check(dev, None) == 1.0  # the reference passes untouched
    assert task.is_successful(dev) == 0.0
    dev.launch(PKG)
    for row in ("Network & internet", "Internet"):
        tap(dev, row)
    assert task.is_successful(dev) == 1.0
    dev.tap(*switch_of(dev, "Wi-Fi").center)  # broke it
    assert task.is_successful(dev) == 0.0
    task.teardown(dev)


def test_reference_rows_carry_the_reference_schema_and_budget():
    for tid, key, value in (("SystemBrightnessMin", "max_or_min", "min"),
                            ("SystemBluetoothTurnOffVerify", "on_or_off", "off"),
                            ("SystemScreenTimeoutLong", "mode", "long")):
        cls = TEMPLATES[tid]
        assert cls.generate_params(np.random.default_rng(3)) == {key: value}
        assert cls.complexity == 1.0 and cls.source in ("AndroidWorld", "AnTrap")
    assert TEMPLATES["TurnOffWifiAndTurnOnBluetooth"].complexity == 2.0
