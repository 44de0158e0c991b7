"""Templates in Settings (`com.android.settings`), as data, checked through `settings get`.

Set-up changes state the way that takes effect on a real phone (tasks/apps/settings.py).
Values shown on the About screen are read with `getprop`, so the expected answer is
the phone's own.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.apps.settings import ABOUT, DISPLAY, HOME, SOUND, Toggle
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import AnswerIs, SettingEquals, SettingIn, SettingNear, ShellValue
from antrap_gym.tasks.steps import Answer, SetChecked, SetSlider, Tap, Target, TypeText
from antrap_gym.tasks.template import template

settings = partial(template, apps=(st.PKG,))


def toggle(id: str, goal: str, split: str, toggle: Toggle, complexity: float = 1.0,
           needs_scroll: bool = False, family: str = ""):
    """Turn one switch on or off; it starts in the opposite state."""
    return settings(
        id=id, kind="action", split=split, family=family, complexity=complexity,
        needs_scroll=needs_scroll,
        goal=goal, params=lambda rng: {"state": "on" if rng.random() < 0.5 else "off"},
        derived=lambda p: {"on": p["state"] == "on", "start_on": p["state"] == "off"},
        setup=[st.SetToggle(toggle, P("start_on"))],
        check=SettingIn(toggle.namespace, toggle.key, toggle.on_values, inside=P("on")),
        solution=[st.open_app(), *st.walk(toggle.path),
                  SetChecked(screen=toggle.screen, target=Target(row=toggle.switch, cls="Switch"),
                             checked=P("on"), done=DONE)],
        toggle=toggle)


SettingsWifiToggle = toggle(
    "SettingsWifiToggle", "Turn Wi-Fi {state}.", "train", Toggle(
        "global", "wifi_on", "svc wifi {on}", "Wi-Fi", screen=st.INTERNET,
        path=(("Network & internet", HOME), ("Internet", st.NETWORK)),
        # 2: turned back on in airplane mode; 3: off because of it
        on_values=("1", "2")), family="WifiToggle")

SettingsBluetoothToggle = toggle(
    "SettingsBluetoothToggle", "Turn Bluetooth {state}.", "train", Toggle(
        "global", "bluetooth_on", "svc bluetooth {on}", "Use Bluetooth", screen=st.BLUETOOTH,
        path=(("Connected devices", HOME), ("Connection preferences", st.CONNECTED),
              ("Bluetooth", st.CONN_PREFS))),  # bluetooth_on 2: off because of airplane mode
    family="BluetoothToggle")

SettingsAirplaneMode = toggle(
    "SettingsAirplaneMode", "Turn airplane mode {state}.", "train", Toggle(
        "global", "airplane_mode_on", "cmd connectivity airplane-mode {on}", "Airplane mode",
        screen=st.NETWORK, path=(("Network & internet", HOME),)), family="AirplaneToggle")

SettingsDarkTheme = toggle(
    "SettingsDarkTheme", "Turn dark theme {state}.", "test", Toggle(
        "secure", "ui_night_mode", "cmd uimode night {on}", "Dark theme", screen=DISPLAY,
        path=(("Display", HOME),), on_values=("2",),  # UiModeManager: 1 no, 2 yes, 0 auto
        command_words=("yes", "no")), family="DarkModeToggle")

SettingsLocationToggle = toggle(
    "SettingsLocationToggle", "Turn location {state}.", "train", Toggle(
        "secure", "location_mode", "cmd location set-location-enabled {on}", "Use location",
        screen=st.LOCATION, path=(("Location", HOME),),
        on_values=("1", "2", "3"), command_words=("true", "false")),  # anything but OFF
    complexity=1.2, needs_scroll=True, family="LocationToggle")

SettingsBatterySaver = toggle(
    "SettingsBatterySaver", "Turn Battery Saver {state}.", "train", Toggle(
        "global", "low_power", "cmd power set-mode {on}", "Battery Saver", screen=st.BATTERY,
        path=(("Battery", HOME),), command_words=("1", "0")), family="SettingsBatterySaver")

Settings24HourFormat = toggle(
    "Settings24HourFormat", "Turn {state} the 24-hour time format.", "train", Toggle(
        "system", "time_12_24", "settings put system time_12_24 {on}",  # the clock observes it
        "Use 24-hour format", screen=st.DATETIME, path=(("System", HOME), ("Date & time", st.SYSTEM)),
        on_values=("24",), command_words=("24", "12")),
    complexity=1.4, needs_scroll=True)


SettingsBrightness = settings(
    id="SettingsBrightness", kind="action", split="train", family="Brightness", complexity=1.2,
    goal="Set the screen brightness level to {percent}%.",
    params=lambda rng: {"percent": int(rng.choice([0, 10, 25, 50, 75, 90, 100]))},
    setup=[st.PutSetting("system", "screen_brightness",  # far from the target
                         F(lambda p: 204 if p["percent"] <= 50 else 26))],
    check=SettingNear("system", "screen_brightness", P("percent"), tolerance=3),
    solution=[st.open_app(), st.tap("Display", HOME),
              SetSlider(screen=DISPLAY, target=Target(desc="Brightness level"),
                        fraction=F(lambda p: p["percent"] / 100), done=DONE)])

SettingsRingVolume = settings(
    id="SettingsRingVolume", kind="action", split="test", complexity=1.2,
    goal="Set the ring & notification volume to {level} (of 7).",
    params=lambda rng: {"level": int(rng.integers(0, 8))},
    # through AudioService (a `settings put` would not move a real phone's volume)
    setup=[st.ServiceSetting(f"cmd media_session volume --stream {st.STREAM_RING} --set {{value}}",
                             "system", st.RING_KEY, F(lambda p: 7 - p["level"] if p["level"] != 3 else 6))],
    check=SettingEquals("system", st.RING_KEY, "{level}"),
    solution=[st.open_app(), st.tap("Sound & vibration", HOME),
              SetSlider(screen=SOUND, target=Target(desc="Ring & notification volume"),
                        fraction=F(lambda p: p["level"] / 7), done=DONE)])

SettingsScreenTimeout = settings(
    id="SettingsScreenTimeout", kind="action", split="train", family="ScreenTimeout", complexity=1.5,
    goal="Set the screen timeout to {duration}.",
    params=lambda rng: {"duration": str(rng.choice([t for t in st.TIMEOUTS if t != "30 seconds"]))},
    setup=[st.PutSetting("system", "screen_off_timeout", 30000)],
    check=SettingEquals("system", "screen_off_timeout", F(lambda p: st.TIMEOUT_MS[p["duration"]])),
    solution=[st.open_app(), st.tap("Display", HOME), st.tap("Screen timeout", DISPLAY),
              Tap(screen=DISPLAY + "|Screen timeout", target=Target(text="{duration}"), done=DONE)])

SettingsRenameDevice = settings(
    id="SettingsRenameDevice", kind="action", split="test", complexity=2.0, needs_scroll=True,
    goal="Rename this phone to \"{name}\".",
    params=lambda rng: {"name": str(rng.choice(st.DEVICE_NAMES))},
    setup=[st.PutSetting("global", "device_name", "Pixel 6")],
    check=SettingEquals("global", "device_name", "{name}"),
    solution=[st.open_app(), st.tap("About phone", HOME), st.tap("Device name", ABOUT),
              TypeText(screen=ABOUT + "|Device name", target=Target(cls="EditText"), text="{name}",
                       done=DONE),
              Tap(screen=ABOUT + "|Device name", target=Target(text="OK"), done=DONE)])


# --- information retrieval: read a value off a Settings screen ---------------------------------

question = partial(settings, kind="answer", complexity=1.2)
ANSWER = Answer(text="{answer}")
ABOUT_PHONE = [st.open_app(), st.tap("About phone", HOME), ANSWER]

SettingsAndroidVersion = question(
    id="SettingsAndroidVersion", split="train", family="SettingsAndroidVersion", needs_scroll=True,
    goal="What Android version is this phone running? Answer with the version number.",
    params=lambda rng: {},  # the phone's own version: 13 == 13.0; 8.1.0 == 8.1
    check=AnswerIs(ShellValue("getprop ro.build.version.release"), kind="number"),
    solution=ABOUT_PHONE)

SettingsBuildNumber = question(
    id="SettingsBuildNumber", split="test", family="SettingsBuildNumber", needs_scroll=True,
    goal="What is this phone's build number?",
    params=lambda rng: {},
    check=AnswerIs(ShellValue("getprop ro.build.display.id")),
    solution=ABOUT_PHONE)

SettingsDeviceNameQuestion = question(
    id="SettingsDeviceNameQuestion", split="train", needs_scroll=True,
    goal="What is this phone's device name, as shown in Settings?",
    params=lambda rng: {"name": str(rng.choice(st.DEVICE_NAMES))},
    setup=[st.PutSetting("global", "device_name", "{name}")],
    check=AnswerIs("{name}", distractors=(*st.DEVICE_NAMES, "Pixel 6")),
    solution=ABOUT_PHONE)

SettingsTimeoutQuestion = question(
    id="SettingsTimeoutQuestion", split="train", complexity=1.0,
    goal="How long is the screen timeout set to?",
    params=lambda rng: {"duration": str(rng.choice(st.TIMEOUTS))},
    setup=[st.PutSetting("system", "screen_off_timeout", F(lambda p: st.TIMEOUT_MS[p["duration"]]))],
    check=AnswerIs("{duration}", kind="duration"),  # "1 minute" == "60 seconds"
    solution=[st.open_app(), st.tap("Display", HOME), ANSWER])
