"""Settings as the phone installs it: its screens and the `android.settings.*` intents.

It owns no storage: what it shows and changes is system-wide (the settings
provider, radios, system properties, in `storage/`).
"""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.settings.screens import (
    PKG,
    AboutActivity,
    AccessibilityActivity,
    AppInfoActivity,
    AppsActivity,
    BatteryActivity,
    BluetoothActivity,
    ConnectedDevicesActivity,
    ConnectionPrefsActivity,
    DateTimeActivity,
    DisplayActivity,
    DndActivity,
    InternetActivity,
    LocationActivity,
    NetworkActivity,
    NotificationsActivity,
    SecurityActivity,
    SettingsHome,
    SimActivity,
    SoundActivity,
    StorageActivity,
    SystemActivity,
)


class Settings(App):
    package = PKG
    label = "Settings"
    version = "13"
    icon_color = (96, 125, 139)
    home_position = 2
    main = SettingsHome
    activities = (
        NetworkActivity, InternetActivity, SimActivity, ConnectedDevicesActivity,
        ConnectionPrefsActivity, BluetoothActivity, AppsActivity, AppInfoActivity, BatteryActivity,
        SoundActivity, DndActivity, DisplayActivity, StorageActivity, LocationActivity,
        SecurityActivity, AccessibilityActivity, NotificationsActivity, SystemActivity,
        DateTimeActivity, AboutActivity,
    )
    intents = {
        "android.settings.SETTINGS": None,
        "android.settings.WIFI_SETTINGS": ".Settings$NetworkProviderSettingsActivity",
        "android.settings.BLUETOOTH_SETTINGS": ".Settings$BluetoothDashboardActivity",
        "android.settings.DISPLAY_SETTINGS": ".Settings$DisplaySettingsActivity",
        "android.settings.SOUND_SETTINGS": ".Settings$SoundSettingsActivity",
        "android.settings.AIRPLANE_MODE_SETTINGS": ".Settings$NetworkDashboardActivity",
        "android.settings.DEVICE_INFO_SETTINGS": ".Settings$MyDeviceInfoActivity",
        "android.settings.LOCATION_SOURCE_SETTINGS": ".Settings$LocationSettingsActivity",
    }
