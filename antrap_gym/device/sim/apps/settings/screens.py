"""Settings' screens, laid out as on a Pixel with Android 13.

Every switch and slider reads and writes the settings key a real phone uses,
so `settings get ...` checks written for the simulated phone hold on a device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.storage import radios
from antrap_gym.device.sim.storage.props import prop
from antrap_gym.device.sim.storage.settings import (
    BRIGHTNESS_MAX,
    BRIGHTNESS_MIN,
    SCREEN_TIMEOUTS_MS,
    STREAMS,
)
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.android.settings"

#: About-phone rows read from system properties, as Settings reads them
ABOUT_PROPS = {
    "Model": "ro.product.model",
    "Android version": "ro.build.version.release",
    "Build number": "ro.build.display.id",
}
ABOUT = {
    "Baseband version": "g5123b-116954-230511-B-10112789",
    "Kernel version": "5.10.157-android13-4",
    "IP address": "10.0.2.16",
    "Wi-Fi MAC address": "02:00:00:44:55:66",
    "Phone number": "+1 650-555-6789",
}
WIFI_NETWORKS = ("AndroidWifi", "Guest-5G", "HomeNet", "Cafe Free WiFi")
FONT_SCALES = {"Small": "0.85", "Default": "1.0", "Large": "1.15", "Largest": "1.3"}


class SettingsActivity(Activity):
    """Base for Settings screens: a toolbar with Up, then a scrolling list."""

    package = PKG
    title_text: ClassVar[str] = "Settings"

    def title(self, phone: PhoneContext) -> str:
        return self.title_text

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.title_text, back=True, rid="com.android.settings:id/action_bar")
        with ui.scroll("list", rid="com.android.settings:id/recycler_view"):
            self.rows(ui, phone)

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        raise NotImplementedError

    # helpers -----------------------------------------------------------------
    @staticmethod
    def toggle(phone: PhoneContext, ns: str, key: str, on: str = "1", off: str = "0") -> None:
        cur = phone.settings.get(ns, key)
        phone.settings.put(ns, key, off if cur == on else on)

    def switch(self, ui: UI, phone: PhoneContext, title: str, ns: str, key: str, summary: str | None = None,
               on: str = "1", off: str = "0") -> None:
        checked = phone.settings.get(ns, key) == on
        ui.switch_row(title, checked, lambda: self.toggle(phone, ns, key, on, off), summary)

    @staticmethod
    def radio_switch(ui: UI, phone: PhoneContext, title: str, is_on, set_on,
                     summary: str | None = None) -> None:
        """A radio's switch: shows and sets it the way the system service persists it."""
        s = phone.settings
        checked = bool(is_on(s))
        ui.switch_row(title, checked, lambda: set_on(s, not checked), summary)

    def go(self, phone: PhoneContext, cls: type[Activity]):
        return lambda: phone.start_activity(cls())


# --- top level -------------------------------------------------------------------


class SettingsHome(SettingsActivity):
    name = ".Settings"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(16)
        ui.text("Settings", style="title", pad=24)
        ui.search("search", "Search settings", rid="com.android.settings:id/search_action_bar")
        query = self.fields.get("search", "").strip().lower()
        with ui.scroll("list", rid="com.android.settings:id/recycler_view"):
            shown = 0
            for title, summary, icon, cls in HOME_ROWS:
                if query and query not in title.lower() and query not in summary.lower():
                    continue
                ui.row(title, summary, icon=icon, on_click=self.go(phone, cls))
                shown += 1
            if not shown:
                ui.text("No results", style="summary")

    def on_back(self, phone: PhoneContext) -> bool:
        if self.fields.get("search"):
            self.set_field("search", "")
            self.focus = None
            return True
        return False


class NetworkActivity(SettingsActivity):
    name = ".Settings$NetworkDashboardActivity"
    title_text = "Network & internet"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        s = phone.settings
        ui.row("Internet", "AndroidWifi" if radios.wifi_on(s) else "Off", icon="wifi",
               on_click=self.go(phone, InternetActivity))
        ui.row("SIMs", "T-Mobile", icon="sim", on_click=self.go(phone, SimActivity))
        self.radio_switch(ui, phone, "Airplane mode", radios.airplane_on, radios.set_airplane)


class InternetActivity(SettingsActivity):
    name = ".Settings$NetworkProviderSettingsActivity"
    title_text = "Internet"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.radio_switch(ui, phone, "Wi-Fi", radios.wifi_on, radios.set_wifi)
        if not radios.wifi_on(phone.settings):
            ui.text("To see available networks, turn Wi-Fi on.", style="summary")
            return
        for i, net in enumerate(WIFI_NETWORKS):
            ui.row(net, "Connected" if i == 0 else "Saved" if i == 2 else None, icon="wifi",
                   on_click=lambda n=net: phone.toast(f"{n}: Connected" if n == WIFI_NETWORKS[0]
                                                      else f"Can't connect to {n}"))


class SimActivity(SettingsActivity):
    name = ".Settings$MobileNetworkActivity"
    title_text = "T-Mobile"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.switch(ui, phone, "Mobile data", "global", "mobile_data", "Access data using mobile network")
        self.switch(ui, phone, "Roaming", "global", "data_roaming", "Connect to data services when roaming")


class ConnectedDevicesActivity(SettingsActivity):
    name = ".Settings$ConnectedDeviceDashboardActivity"
    title_text = "Connected devices"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        ui.header("Other devices")
        ui.row("Connection preferences", "Bluetooth, Android Auto, NFC", icon="bluetooth",
               on_click=self.go(phone, ConnectionPrefsActivity))


class ConnectionPrefsActivity(SettingsActivity):
    name = ".Settings$AdvancedConnectedDeviceActivity"
    title_text = "Connection preferences"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        on = radios.bluetooth_on(phone.settings)
        ui.row("Bluetooth", "On" if on else "Off", icon="bluetooth",
               on_click=self.go(phone, BluetoothActivity))
        state = phone.state  # NfcService's own state (`svc nfc`, `dumpsys nfc`)
        ui.switch_row("NFC", state.nfc_on, lambda: self._set_nfc(phone, not state.nfc_on),
                      "Allow use of NFC")

    @staticmethod
    def _set_nfc(phone: PhoneContext, on: bool) -> None:
        phone.state.nfc_on = on
        phone.changed()


class BluetoothActivity(SettingsActivity):
    name = ".Settings$BluetoothDashboardActivity"
    title_text = "Bluetooth"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.radio_switch(ui, phone, "Use Bluetooth", radios.bluetooth_on, radios.set_bluetooth)
        ui.row("Device name", phone.settings.get("global", "device_name") or "Pixel 6")


class AppsActivity(SettingsActivity):
    name = ".Settings$ManageApplicationsActivity"
    title_text = "Apps"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        ui.header("All apps")
        for app in sorted((a for a in phone.apps.values() if a.launchable),
                          key=lambda a: a.label.lower()):
            ui.row(app.label, app.package, icon="app",
                   on_click=lambda p=app.package: phone.start_activity(AppInfoActivity(p)))


class AppInfoActivity(SettingsActivity):
    name = ".applications.InstalledAppDetails"
    title_text = "App info"

    def __init__(self, target: str = "") -> None:
        super().__init__()
        self.target = target

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        app = phone.apps.get(self.target)
        if app is None:
            ui.empty("App not installed")
            return
        ui.text(app.label, style="title", pad=24)
        ui.text(f"version {getattr(app, 'version', '1.0')}", style="summary", pad=24)
        running = self.target in phone.wm.tasks
        ui.button_bar([("Open", lambda: phone.launch(self.target), "tonal"),
                       ("Force stop", lambda: self._ask_stop(phone), "tonal")])
        ui.row("Notifications", "On")
        ui.row("Storage & cache", f"{len(app.package) * 1.3:.1f} MB used in internal storage")
        if not running:
            ui.text("App is not running", style="caption", pad=24)

    def _ask_stop(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog(
            "Force stop?", "If you force stop an app, it may misbehave.",
            [Choice("Cancel", "noop"), Choice("OK", "do_stop")]))

    def do_stop(self, phone: PhoneContext) -> None:
        phone.force_stop(self.target)
        phone.toast("App stopped")


class BatteryActivity(SettingsActivity):
    name = ".Settings$PowerUsageSummaryActivity"
    title_text = "Battery"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        ui.text("87%", style="title", pad=24)
        ui.text("About 1 day, 3 hr left", style="summary", pad=24)
        self.switch(ui, phone, "Battery Saver", "global", "low_power", "Extend battery life")
        self.switch(ui, phone, "Battery percentage", "system", "status_bar_show_battery_percent",
                    "Show battery percentage in status bar")


class SoundActivity(SettingsActivity):
    name = ".Settings$SoundSettingsActivity"
    title_text = "Sound & vibration"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        s = phone.settings
        for label, stream in (("Media volume", 3), ("Call volume", 0),
                              ("Ring & notification volume", 2), ("Alarm volume", 4)):
            _name, key, lo, hi = STREAMS[stream]
            value = s.get_int("system", key, hi // 2)
            ui.slider(label, value, lo, hi, lambda v, k=key: s.put("system", k, str(int(v))),
                      value_text=f"{value} of {hi}")
        ui.row("Do Not Disturb", "On" if s.get("global", "zen_mode") == "1" else "Off",
               on_click=self.go(phone, DndActivity))
        self.switch(ui, phone, "Vibrate for calls", "system", "vibrate_when_ringing")
        self.switch(ui, phone, "Touch sounds", "system", "sound_effects_enabled")


class DndActivity(SettingsActivity):
    name = ".Settings$ZenModeSettingsActivity"
    title_text = "Do Not Disturb"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.switch(ui, phone, "Do Not Disturb", "global", "zen_mode",
                    "Only get notified by important people and apps")


class DisplayActivity(SettingsActivity):
    name = ".Settings$DisplaySettingsActivity"
    title_text = "Display"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        s = phone.settings
        level = s.get_int("system", "screen_brightness", 102)
        pct = round(100 * level / BRIGHTNESS_MAX)
        ui.header("Brightness")
        # the left end is the lowest level the display takes, 1: the slider never writes 0
        ui.slider("Brightness level", level, 0, BRIGHTNESS_MAX,
                  lambda v: s.put("system", "screen_brightness", str(max(BRIGHTNESS_MIN, int(v)))),
                  value_text=f"{pct}%", rid="com.android.settings:id/brightness_slider")
        self.switch(ui, phone, "Adaptive brightness", "system", "screen_brightness_mode",
                    "Optimize brightness for available light")
        ui.header("Lock display")
        timeout = s.get_int("system", "screen_off_timeout", 30000)
        label = next((k for k, v in SCREEN_TIMEOUTS_MS.items() if v == timeout), f"{timeout} ms")
        ui.row("Screen timeout", f"After {label} of inactivity",
               on_click=lambda: self._timeout_dialog(phone))
        ui.header("Appearance")
        self.switch(ui, phone, "Dark theme", "secure", "ui_night_mode",
                    "Use a dark background", on="2", off="1")
        ui.header("Other display controls")
        self.switch(ui, phone, "Auto-rotate screen", "system", "accelerometer_rotation")

    def _timeout_dialog(self, phone: PhoneContext) -> None:
        cur = phone.settings.get_int("system", "screen_off_timeout", 30000)
        labels = list(SCREEN_TIMEOUTS_MS)
        phone.open_popup(self, Dialog(
            "Screen timeout",
            choices=[Choice(label, "set_timeout", (SCREEN_TIMEOUTS_MS[label],)) for label in labels],
            checked=next((i for i, k in enumerate(labels) if SCREEN_TIMEOUTS_MS[k] == cur), -1),
            buttons=[Choice("Cancel", "noop")]))

    def set_timeout(self, phone: PhoneContext, ms: int) -> None:
        phone.settings.put("system", "screen_off_timeout", str(ms))


class StorageActivity(SettingsActivity):
    name = ".Settings$StorageDashboardActivity"
    title_text = "Storage"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        used = sum(len(f.data) for f in phone.fs.files.values())
        ui.text(f"{used / 1024:.1f} kB used of internal storage (user files)", style="title", pad=24)
        counts: dict[str, int] = {}
        for path in phone.fs.files:
            top = path.split("/")[2] if path.startswith("/sdcard/") and path.count("/") > 2 else "Other"
            counts[top] = counts.get(top, 0) + 1
        for folder in sorted(counts):
            n = counts[folder]
            ui.row(folder, f"{n} file" + ("" if n == 1 else "s"))


class LocationActivity(SettingsActivity):
    name = ".Settings$LocationSettingsActivity"
    title_text = "Location"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.switch(ui, phone, "Use location", "secure", "location_mode", on="3", off="0")


class SecurityActivity(SettingsActivity):
    name = ".Settings$SecurityDashboardActivity"
    title_text = "Security & privacy"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        ui.row("Screen lock", "None")
        self.switch(ui, phone, "Show passwords", "system", "show_password",
                    "Display characters briefly as you type")


class AccessibilityActivity(SettingsActivity):
    name = ".Settings$AccessibilitySettingsActivity"
    title_text = "Accessibility"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        scale = phone.settings.get("system", "font_scale") or "1.0"
        label = next((k for k, v in FONT_SCALES.items() if float(v) == float(scale)), scale)
        ui.row("Font size", label, on_click=lambda: phone.open_popup(self, Dialog(
            "Font size",
            choices=[Choice(k, "set_font", (v,)) for k, v in FONT_SCALES.items()],
            checked=list(FONT_SCALES).index(label) if label in FONT_SCALES else -1,
            buttons=[Choice("Cancel", "noop")])))
        self.switch(ui, phone, "Color inversion", "secure", "accessibility_display_inversion_enabled")
        self.switch(ui, phone, "Remove animations", "global", "animator_duration_scale",
                    on="0", off="1")

    def set_font(self, phone: PhoneContext, value: str) -> None:
        phone.settings.put("system", "font_scale", value)


class NotificationsActivity(SettingsActivity):
    name = ".Settings$ConfigureNotificationSettingsActivity"
    title_text = "Notifications"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.switch(ui, phone, "Notification history", "secure", "notification_history_enabled",
                    "Show recent and snoozed notifications")
        self.switch(ui, phone, "Hide silent notifications in status bar", "secure",
                    "status_bar_show_silent_notifications", on="0", off="1")


class SystemActivity(SettingsActivity):
    name = ".Settings$SystemDashboardActivity"
    title_text = "System"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        ui.row("Languages", "English (United States)")
        ui.row("Date & time", "GMT+00:00 Coordinated Universal Time",
               on_click=self.go(phone, DateTimeActivity))


class DateTimeActivity(SettingsActivity):
    name = ".Settings$DateTimeSettingsActivity"
    title_text = "Date & time"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        self.switch(ui, phone, "Set time automatically", "global", "auto_time")
        self.switch(ui, phone, "Set time zone automatically", "global", "auto_time_zone")
        self.switch(ui, phone, "Use 24-hour format", "system", "time_12_24", on="24", off="12")


class AboutActivity(SettingsActivity):
    name = ".Settings$MyDeviceInfoActivity"
    title_text = "About phone"

    def rows(self, ui: UI, phone: PhoneContext) -> None:
        name = phone.settings.get("global", "device_name") or "Pixel 6"
        ui.row("Device name", name, on_click=lambda: self._rename(phone),
               rid="com.android.settings:id/device_name")
        for key, name in ABOUT_PROPS.items():
            ui.row(key, prop(phone, name))
        for key, value in ABOUT.items():
            ui.row(key, value)

    def _rename(self, phone: PhoneContext) -> None:
        self.set_field("device_name", phone.settings.get("global", "device_name") or "")
        phone.open_popup(self, Dialog("Device name", field_name="device_name",
                                      buttons=[Choice("Cancel", "noop"), Choice("OK", "rename")]))

    def rename(self, phone: PhoneContext) -> None:
        value = self.fields.get("device_name", "").strip()
        if value:
            phone.settings.put("global", "device_name", value)
        self.focus = None

    def noop(self, phone: PhoneContext) -> None:
        self.focus = None

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == "device_name" and self.popup is not None:
            self.popup = None
            self.rename(phone)


HOME_ROWS: tuple[tuple[str, str, str, type[Activity]], ...] = (
    ("Network & internet", "Mobile, Wi-Fi, hotspot", "wifi", NetworkActivity),
    ("Connected devices", "Bluetooth, pairing", "bluetooth", ConnectedDevicesActivity),
    ("Apps", "Recent apps, default apps", "apps", AppsActivity),
    ("Notifications", "Notification history, conversations", "bell", NotificationsActivity),
    ("Battery", "87%", "battery", BatteryActivity),
    ("Storage", "User files", "storage", StorageActivity),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", "sound", SoundActivity),
    ("Display", "Dark theme, font size, brightness", "display", DisplayActivity),
    ("Accessibility", "Display, interaction, audio", "a11y", AccessibilityActivity),
    ("Security & privacy", "App security, device lock", "shield", SecurityActivity),
    ("Location", "Apps have access to location", "location", LocationActivity),
    ("System", "Languages, time, backup", "system", SystemActivity),
    ("About phone", "Pixel 6", "info", AboutActivity),
)

