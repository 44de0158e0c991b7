"""Reference templates for the system (Settings, the clipboard): AndroidWorld's System*
tasks, its TurnOffWifiAndTurnOnBluetooth composite, SystemCopyToClipboard and
MarkorCreateNoteFromClipboard, and AnTrap's system toggles, under their class names,
with their goal wording, parameters and complexity (budget 10 x complexity).

Each reads the state its reference reads (`settings get`, `cmd uimode night`, `dumpsys
nfc`, Clipper's `clipper.get`). Set-up goes through the route that takes effect on a
real phone (`svc`, `cmd connectivity|uimode|location`), where AnTrap's `settings put` plus
an AIRPLANE_MODE broadcast would not: the shell may not send that broadcast.

*Verify rows start in the goal state. Their reference check passes with no action at
all (an AndroidWorld issue calls this a defect), which the template contract refuses,
so ours also asks that the page showing the state is in front when the agent stops:
the agent has to look, then finish without undoing it. The reference's own check is the
template's `reference_check` (graded by `--grading reference`).
"""

from __future__ import annotations

import dataclasses
import string
from functools import partial

from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.apps.settings import DISPLAY, HOME, Toggle
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import (
    AllOf,
    ElementShows,
    Eq,
    FileContent,
    Holds,
    MeanOf,
    ScreenShows,
    SettingEquals,
    SettingIn,
)
from antrap_gym.tasks.checks.settings import SettingNear
from antrap_gym.tasks.checks.system import ClipboardMatches, NfcIs, NightModeIs
from antrap_gym.tasks.recipes import Shell
from antrap_gym.tasks.steps import LongPress, SetChecked, SetSlider, Tap, Target, TypeText
from antrap_gym.tasks.template import template

aw = partial(template, apps=(st.PKG,), source="AndroidWorld", kind="action", complexity=1.0)
antrap = partial(template, apps=(st.PKG,), source="AnTrap", kind="action", complexity=1.0)

# --- the switches, and where Settings shows them -------------------------------------------------

WIFI = Toggle("global", "wifi_on", "svc wifi {on}", "Wi-Fi", screen=st.INTERNET,
              path=(("Network & internet", HOME), ("Internet", st.NETWORK)), on_values=("1", "2"))
BLUETOOTH = Toggle("global", "bluetooth_on", "svc bluetooth {on}", "Use Bluetooth",
                   screen=st.BLUETOOTH, path=(("Connected devices", HOME),
                                              ("Connection preferences", st.CONNECTED),
                                              ("Bluetooth", st.CONN_PREFS)))
AIRPLANE = Toggle("global", "airplane_mode_on", "cmd connectivity airplane-mode {on}",
                  "Airplane mode", screen=st.NETWORK, path=(("Network & internet", HOME),))
DARK = Toggle("secure", "ui_night_mode", "cmd uimode night {on}", "Dark theme", screen=DISPLAY,
              path=(("Display", HOME),), on_values=("2",), command_words=("yes", "no"))
ROTATE = Toggle("system", "accelerometer_rotation", "settings put system accelerometer_rotation {on}",
                "Auto-rotate screen", screen=DISPLAY, path=(("Display", HOME),),
                command_words=("1", "0"))
LOCATION = Toggle("secure", "location_mode", "cmd location set-location-enabled {on}",
                  "Use location", screen=st.LOCATION, path=(("Location", HOME),),
                  on_values=("1", "2", "3"), command_words=("true", "false"))
ADAPTIVE = Toggle("system", "screen_brightness_mode",
                  "settings put system screen_brightness_mode {on}", "Adaptive brightness",
                  screen=DISPLAY, path=(("Display", HOME),), command_words=("1", "0"))
DATA = Toggle("global", "mobile_data", "svc data {on}", "Mobile data", screen=st.SIM,
              path=(("Network & internet", HOME), ("SIMs", st.NETWORK)))
NFC_PATH = (("Connected devices", HOME), ("Connection preferences", st.CONNECTED))


def _flip(toggle: Toggle, on: bool, screen: str | None = None, label: str | None = None):
    """Open the switch's page and set it."""
    return [st.open_app(), *st.walk(toggle.path),
            SetChecked(screen=screen or toggle.screen,
                       target=Target(row=label or toggle.switch, cls="Switch"), checked=on,
                       done=DONE)]


def _fixed(key: str, value: str):
    return lambda rng: {key: value}


def _on_off(on: bool):
    return _fixed("on_or_off", "on" if on else "off")


def _shown(label: str) -> ScreenShows:
    return ScreenShows(label, package=st.PKG)


def _verify_differs(page: str) -> dict[str, str]:
    """How a Verify row's check differs from the reference's (the setting alone)."""
    return {"check": f"Ours also wants Settings' {page} in front when the agent stops; the "
                     "reference reads the setting alone, which holds from set-up on (the row "
                     "starts in its goal state), so doing nothing passes it."}


#: a Verify row's set-up closes Settings, so no page of it is in front before the agent acts
CLOSE_SETTINGS = Shell(cmd=f"am force-stop {st.PKG}")


# --- AndroidWorld: brightness ----------------------------------------------------------------

BRIGHTNESS_GOAL = "Turn brightness to the {max_or_min} value."
LEVEL = {"max": "255", "min": "1"}
START = {"max": 1, "min": 255}


def _brightness(id: str, which: str, verify: bool, split: str, family: str):
    level = SettingEquals("system", "screen_brightness", LEVEL[which])
    start = LEVEL[which] if verify else str(START[which])
    # a Verify row's oracle walks the same way: at the page the state is seen to hold (and
    # it stops); were it broken on the way (a trap's mis-tap), the slider puts it back
    solution = [st.open_app(), st.tap("Display", HOME),
                SetSlider(screen=DISPLAY, target=Target(desc="Brightness level"),
                          fraction=1.0 if which == "max" else 0.0, done=DONE)]
    if verify:
        check = AllOf(level, _shown("Brightness level"))
        doc = (f"Brightness starts at {which}; the reference check (== {LEVEL[which]}) passes "
               "untouched, so ours also wants the Display page (its Brightness level slider) "
               "in front at the end.")
    else:
        check = level
        doc = f"Brightness starts at the other end; the slider's {which} end is {LEVEL[which]}."
    setup = [st.PutSetting("system", "screen_brightness", start)]
    reference = {"reference_check": level,
                 "differs": _verify_differs("Display page (its Brightness level slider)")}
    return aw(id=id, split=split, family=family, goal=BRIGHTNESS_GOAL, params=_fixed("max_or_min", which),
              setup=[CLOSE_SETTINGS, *setup] if verify else setup, check=check,
              solution=solution, doc=doc, **(reference if verify else {}))


SystemBrightnessMax = _brightness("SystemBrightnessMax", "max", False, "train", "Brightness")
SystemBrightnessMin = _brightness("SystemBrightnessMin", "min", False, "train", "Brightness")
SystemBrightnessMaxVerify = _brightness("SystemBrightnessMaxVerify", "max", True, "test",
                                        "SystemBrightnessVerify")
SystemBrightnessMinVerify = _brightness("SystemBrightnessMinVerify", "min", True, "test",
                                        "SystemBrightnessVerify")


# --- AndroidWorld: Wi-Fi and Bluetooth ---------------------------------------------------------

def _radio(id: str, goal: str, toggle: Toggle, on: bool, verify: bool, split: str, family: str,
           on_check: SettingIn | SettingEquals, off_check: SettingEquals):
    ref = on_check if on else off_check
    start = on if verify else not on
    if verify:  # the same walk: the switch is seen as wanted (or set back if a trap broke it)
        check, solution = AllOf(ref, _shown(toggle.switch)), _flip(toggle, on)
        doc = (f"{toggle.switch} is already {'on' if on else 'off'}; the reference check passes "
               f"untouched, so ours also wants the page with the {toggle.switch} switch in front "
               "at the end (look, then finish without changing it).")
    else:
        check, solution = ref, _flip(toggle, on)
        doc = f"{toggle.switch} starts {'off' if on else 'on'}."
    reference = {"reference_check": ref,
                 "differs": _verify_differs(f"page with the {toggle.switch} switch")}
    return aw(id=id, split=split, family=family, goal=goal, params=_on_off(on),
              setup=[CLOSE_SETTINGS, st.SetToggle(toggle, start)] if verify else
              [st.SetToggle(toggle, start)], check=check, solution=solution, doc=doc,
              needs_scroll=False, **(reference if verify else {}))


WIFI_GOAL, BT_GOAL = "Turn wifi {on_or_off}.", "Turn bluetooth {on_or_off}."
WIFI_ON = SettingIn("global", "wifi_on", ("1", "2"))  # 2: on while in airplane mode
WIFI_OFF = SettingEquals("global", "wifi_on", "0")
BT_ON, BT_OFF = (SettingEquals("global", "bluetooth_on", v) for v in ("1", "0"))

SystemWifiTurnOn = _radio("SystemWifiTurnOn", WIFI_GOAL, WIFI, True, False, "train", "WifiToggle",
                          WIFI_ON, WIFI_OFF)
SystemWifiTurnOff = _radio("SystemWifiTurnOff", WIFI_GOAL, WIFI, False, False, "train", "WifiToggle",
                           WIFI_ON, WIFI_OFF)
SystemWifiTurnOnVerify = _radio("SystemWifiTurnOnVerify", WIFI_GOAL, WIFI, True, True, "train",
                                "SystemWifiVerify",
                                WIFI_ON, WIFI_OFF)
SystemWifiTurnOffVerify = _radio("SystemWifiTurnOffVerify", WIFI_GOAL, WIFI, False, True, "train",
                                 "SystemWifiVerify",
                                 WIFI_ON, WIFI_OFF)
SystemBluetoothTurnOn = _radio("SystemBluetoothTurnOn", BT_GOAL, BLUETOOTH, True, False, "train",
                               "BluetoothToggle",
                               BT_ON, BT_OFF)
SystemBluetoothTurnOff = _radio("SystemBluetoothTurnOff", BT_GOAL, BLUETOOTH, False, False,
                                "train", "BluetoothToggle", BT_ON, BT_OFF)
SystemBluetoothTurnOnVerify = _radio("SystemBluetoothTurnOnVerify", BT_GOAL, BLUETOOTH, True, True,
                                     "test", "SystemBluetoothVerify", BT_ON, BT_OFF)
SystemBluetoothTurnOffVerify = _radio("SystemBluetoothTurnOffVerify", BT_GOAL, BLUETOOTH, False,
                                      True, "test", "SystemBluetoothVerify", BT_ON, BT_OFF)

def _half(toggle: Toggle, on: bool, holds) -> list:
    """A composite's part: walk to the switch and set it, every step done once `holds`."""
    done = Holds(holds)
    return [*(dataclasses.replace(s, done=done) for s in st.walk(toggle.path)),
            SetChecked(screen=toggle.screen, target=Target(row=toggle.switch, cls="Switch"),
                       checked=on, done=done)]


TurnOffWifiAndTurnOnBluetooth = aw(
    id="TurnOffWifiAndTurnOnBluetooth", kind="composite", complexity=2.0, split="test",
    goal="Turn off WiFi, then enable bluetooth", params=lambda rng: {},
    setup=[st.SetToggle(WIFI, True), st.SetToggle(BLUETOOTH, False)],
    check=MeanOf(WIFI_OFF, BT_ON),
    # each half's steps are done once that half holds, so the solver finds its way to
    # the other half from wherever it is (also after a trap moved it about)
    solution=[st.open_app(), *_half(WIFI, False, WIFI_OFF), *_half(BLUETOOTH, True, BT_ON)],
    doc="Half a point each: Wi-Fi off (wifi_on 0), Bluetooth on (bluetooth_on 1).")


# --- AndroidWorld: the clipboard --------------------------------------------------------------

CLIPBOARD_TEXTS = (
    "1234 Elm St, Springfield, IL", "Acme Corp, Suite 200", "john.doe@example.com",
    "Jane's Flower Shop", "Call me at 555-1234", "Order No: A123456", "Reservation under: Jane",
    "Discount code: SAVE20", "Membership ID: XYZ789", "Invoice #98765", "Tracking #: 1Z204E2A",
    "Transaction ID: abc123", "9876 Pine Ave, Riverside, CA", "Global Tech, Floor 3",
    "jane.smith@example.com", "Mike's Grocery Store", "Text me at 555-6789", "Order No: B654321",
    "Reservation under: Mike", "Promo code: DEAL30", "Membership ID: ABC123", "Invoice #54321",
    "Tracking #: 3H488Y2B", "Transaction ID: def456", "2554 Oak Street, Boston, MA",
    "Innovate Inc, Room 10", "alex.jordan@example.net", "Sara's Bakery", "Reach out at 555-9101",
    "Order No: C987654", "Reservation under: Sara", "Coupon code: OFF50", "Membership ID: LMN456",
    "Invoice #32198", "Tracking #: 5K672F4C", "Transaction ID: ghi789",
)
RESET = "~~~RESET~~~"  # what the reference puts on the clipboard before the agent starts
SEARCH = Target(cls="EditText")
TOOLBAR = HOME + "|menu"
_SELECTED = Holds(ScreenShows("Copy", package=st.PKG))

SystemCopyToClipboard = aw(
    id="SystemCopyToClipboard", split="test",
    goal="Copy the following text to the clipboard: {clipboard_content}",
    params=lambda rng: {"clipboard_content": str(rng.choice(CLIPBOARD_TEXTS))},
    setup=[st.SetClipboard(RESET)], check=ClipboardMatches("{clipboard_content}"),
    solution=[st.open_app(),
              TypeText(screen=HOME, target=SEARCH, text="{clipboard_content}"),
              LongPress(screen=HOME, target=SEARCH),
              # the text is selected once the toolbar offers Copy (after a long-press that
              # found it selected already, as after a trap made the solver back out)
              Tap(screen=TOOLBAR, target=Target(text="Select all"), done=_SELECTED),
              Tap(screen=TOOLBAR, target=Target(text="Copy"), done=DONE)],
    doc=("Type the text into any field (the oracle uses Settings' search), long-press it, "
         "Select all, Copy. Graded as the reference does: a fuzzy match (ratio >= 0.9) of "
         "Clipper's clipboard text, so a near miss of a character or two passes."))


def _paste_note(rng) -> dict:
    ext = ".md" if rng.random() < 0.5 else ".txt"
    chars = string.ascii_letters + string.digits
    return {"file_name": mk.one_of(rng, mk.NOTE_NAMES) + ext,
            "file_content": "".join(str(c) for c in rng.choice(list(chars), size=10))}


PASTED = mk.note_path("{file_name}")
_CREATE = mk.create_note_steps("{file_name}", "", None, None)[:4]  # + > name > OK > open

#: the editor holds the clipboard's text (pasted already: a fresh solver must not paste twice)
_IN_EDITOR = Holds(ElementShows(({"class_name": "android.widget.EditText",
                                  "text": Eq("{file_content}")},)))

MarkorCreateNoteFromClipboard = template(
    id="MarkorCreateNoteFromClipboard", apps=(mk.PKG,), source="AndroidWorld", kind="action",
    complexity=1.4, split="train",
    goal=("Create a note in Markor named {file_name}. Perform a paste operation in the note "
          "and save the note."),
    params=_paste_note,
    setup=[mk.SeedFiles({}), st.SetClipboard("{file_content}")],
    check=FileContent(PASTED, "{file_content}", fuzzy=0.9),
    solution=[mk.open_app(), *_CREATE,
              LongPress(screen=mk.DOC, target=Target(cls="EditText"),
                        requires=mk.titled("{file_name}"), done=_IN_EDITOR),
              Tap(screen=mk.DOC + "|menu", target=Target(text="Paste"), done=_IN_EDITOR),
              Tap(screen=mk.DOC, target=Target(desc="Save"), done=DONE,
                  requires=mk.titled("{file_name}"))],
    doc=("The clipboard holds a random 10-character string; the note must exist and hold it "
         "(the reference's fuzzy match, ratio >= 0.9: one wrong character of ten fails). "
         "Markor's folder starts empty, as the reference clears it."))


# --- AnTrap: more switches ------------------------------------------------------------------

#: how AnTrap sets a switch where set-up here takes another route (see the module's doc)
ANTRAP_SETS = {
    "airplane_mode_on": "settings put global airplane_mode_on plus an AIRPLANE_MODE broadcast",
    "location_mode": "settings put secure location_mode 3 / 0",
}


def _switch(id: str, goal: str, toggle: Toggle, on: bool, split: str, family: str, check,
            needs_scroll=False):
    how = ANTRAP_SETS.get(toggle.key)
    differs = {"setup": f"Set-up runs `{toggle.command_for(not on)}`, which takes effect on a "
                        f"real phone; AnTrap's runs {how}."} if how else None
    return antrap(id=id, split=split, family=family, goal=goal, params=_on_off(on),
                  setup=[st.SetToggle(toggle, not on)], check=check, solution=_flip(toggle, on),
                  needs_scroll=needs_scroll, doc=f"{toggle.switch} starts {'off' if on else 'on'}.",
                  differs=differs)


def _is(ns: str, key: str, value: str) -> SettingEquals:
    return SettingEquals(ns, key, value)


SystemAirplaneTurnOn = _switch("SystemAirplaneTurnOn", "Turn airplane mode {on_or_off}.", AIRPLANE,
                               True, "train", "AirplaneToggle", _is("global", "airplane_mode_on", "1"))
SystemAirplaneTurnOff = _switch("SystemAirplaneTurnOff", "Turn airplane mode {on_or_off}.",
                                AIRPLANE, False, "train", "AirplaneToggle",
                                _is("global", "airplane_mode_on", "0"))
SystemDarkModeTurnOn = _switch("SystemDarkModeTurnOn", "Turn dark mode {on_or_off}.", DARK, True,
                               "test", "DarkModeToggle", NightModeIs(True))
SystemDarkModeTurnOff = _switch("SystemDarkModeTurnOff", "Turn dark mode {on_or_off}.", DARK, False,
                                "test", "DarkModeToggle", NightModeIs(False))
SystemAutoRotateTurnOn = _switch("SystemAutoRotateTurnOn", "Turn auto-rotate {on_or_off}.", ROTATE,
                                 True, "train", "SystemAutoRotateToggle",
                                 _is("system", "accelerometer_rotation", "1"))
SystemAutoRotateTurnOff = _switch("SystemAutoRotateTurnOff", "Turn auto-rotate {on_or_off}.",
                                  ROTATE, False, "train", "SystemAutoRotateToggle",
                                  _is("system", "accelerometer_rotation", "0"))
LOCATION_GOAL = "Turn location services {on_or_off}."
SystemLocationTurnOn = _switch("SystemLocationTurnOn", LOCATION_GOAL, LOCATION, True, "train",
                               "LocationToggle",
                               SettingIn("secure", "location_mode", ("0", "null", ""), inside=False),
                               needs_scroll=True)
SystemLocationTurnOff = _switch("SystemLocationTurnOff", LOCATION_GOAL, LOCATION, False, "train",
                                "LocationToggle",
                                _is("secure", "location_mode", "0"), needs_scroll=True)
ADAPTIVE_GOAL = "Turn adaptive brightness {on_or_off}."
SystemAdaptiveBrightnessTurnOn = _switch("SystemAdaptiveBrightnessTurnOn", ADAPTIVE_GOAL, ADAPTIVE,
                                         True, "train", "SystemAdaptiveBrightnessToggle",
                                         _is("system", "screen_brightness_mode", "1"))
SystemAdaptiveBrightnessTurnOff = _switch("SystemAdaptiveBrightnessTurnOff", ADAPTIVE_GOAL,
                                          ADAPTIVE, False, "train", "SystemAdaptiveBrightnessToggle",
                                          _is("system", "screen_brightness_mode", "0"))
SystemMobileDataTurnOn = _switch("SystemMobileDataTurnOn", "Turn mobile data {on_or_off}.", DATA,
                                 True, "train", "SystemMobileDataToggle", _is("global", "mobile_data", "1"))
SystemMobileDataTurnOff = _switch("SystemMobileDataTurnOff", "Turn mobile data {on_or_off}.", DATA,
                                  False, "train", "SystemMobileDataToggle", _is("global", "mobile_data", "0"))


def _nfc(id: str, on: bool, split: str):
    return antrap(
        id=id, split=split, family="SystemNfcToggle", goal="Turn NFC {on_or_off}.",
        params=_on_off(on),
        setup=[st.SetNfc(not on)], check=NfcIs(on),
        solution=[st.open_app(), *st.walk(NFC_PATH),
                  SetChecked(screen=st.CONN_PREFS, target=Target(row="NFC", cls="Switch"),
                             checked=on, done=DONE)],
        doc=f"NFC starts {'off' if on else 'on'} (svc nfc); read from dumpsys nfc's mState.",
        differs={"check": "Both read global nfc_on first. Where it is unset, ours reads the "
                          "adapter's own `mState=` line of `dumpsys nfc`; AnTrap looks for "
                          "\"state=on\" anywhere in the dump, which NfcService's "
                          "`mScreenState=ON_UNLOCKED` line always holds (NFC reads as on whatever "
                          "it is; on a phone without NFC, as off). Not reproduced: there its "
                          "reading does not depend on NFC."})


SystemNfcTurnOn = _nfc("SystemNfcTurnOn", True, "test")
SystemNfcTurnOff = _nfc("SystemNfcTurnOff", False, "test")


def _timeout(id: str, mode: str, goal: str, start_ms: int, target: str, split: str):
    return antrap(
        id=id, split=split, family="ScreenTimeout", goal=goal, params=_fixed("mode", mode),
        setup=[st.PutSetting("system", "screen_off_timeout", start_ms)],
        check=SettingNear("system", "screen_off_timeout", st.TIMEOUT_MS[target], 5000, full=1,
                          unit=1),
        solution=[st.open_app(), st.tap("Display", HOME), st.tap("Screen timeout", DISPLAY),
                  Tap(screen=DISPLAY + "|Screen timeout", target=Target(text=target), done=DONE)],
        doc=f"The timeout starts at {start_ms} ms; within 5 s of {target} passes.")


SystemScreenTimeoutShort = _timeout("SystemScreenTimeoutShort", "short",
                                    "Set screen timeout to a short value of about 15 seconds.",
                                    600000, "15 seconds", "train")
SystemScreenTimeoutLong = _timeout("SystemScreenTimeoutLong", "long",
                                   "Set screen timeout to a long value of about 30 minutes.",
                                   30000, "30 minutes", "train")
