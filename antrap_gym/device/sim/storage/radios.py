"""Wi-Fi, Bluetooth and airplane mode, persisted as Android persists them.

The shell's `svc wifi|bluetooth`, `cmd wifi`, `cmd connectivity airplane-mode`
and the Settings app's switches all go through these functions, so both write
the global settings a real phone writes (AOSP's WifiSettingsStore and
BluetoothManagerService):

- `wifi_on`: 0 disabled, 1 enabled, 2 enabled while in airplane mode (the user
  turned it back on), 3 disabled by airplane mode (restored when it ends);
- `bluetooth_on`: 0 off, 1 on, 2 off because of airplane mode (restored after);
- `airplane_mode_on`: 0 or 1.

`settings put` stays a raw write of the table, as on a phone.
"""

from __future__ import annotations

from antrap_gym.device.sim.storage.settings import SettingsStore

WIFI_DISABLED, WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE, WIFI_DISABLED_AIRPLANE_ON = (
    "0", "1", "2", "3")
BT_OFF, BT_ON, BT_ON_AIRPLANE = "0", "1", "2"


def airplane_on(s: SettingsStore) -> bool:
    return s.get("global", "airplane_mode_on") == "1"


def wifi_on(s: SettingsStore) -> bool:
    return s.get("global", "wifi_on") in (WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE)


def bluetooth_on(s: SettingsStore) -> bool:
    return s.get("global", "bluetooth_on") == BT_ON


def set_wifi(s: SettingsStore, on: bool) -> None:
    if not on:
        s.put("global", "wifi_on", WIFI_DISABLED)
    else:
        s.put("global", "wifi_on", WIFI_ENABLED_AIRPLANE_OVERRIDE if airplane_on(s) else WIFI_ENABLED)


def set_bluetooth(s: SettingsStore, on: bool) -> None:
    s.put("global", "bluetooth_on", BT_ON if on else BT_OFF)


def set_airplane(s: SettingsStore, on: bool) -> None:
    if on == airplane_on(s):
        return
    s.put("global", "airplane_mode_on", "1" if on else "0")
    wifi, bt = s.get("global", "wifi_on"), s.get("global", "bluetooth_on")
    if on:
        if wifi == WIFI_ENABLED:
            s.put("global", "wifi_on", WIFI_DISABLED_AIRPLANE_ON)
        if bt == BT_ON:
            s.put("global", "bluetooth_on", BT_ON_AIRPLANE)
    else:
        if wifi in (WIFI_ENABLED_AIRPLANE_OVERRIDE, WIFI_DISABLED_AIRPLANE_ON):
            s.put("global", "wifi_on", WIFI_ENABLED)
        if bt == BT_ON_AIRPLANE:
            s.put("global", "bluetooth_on", BT_ON)
