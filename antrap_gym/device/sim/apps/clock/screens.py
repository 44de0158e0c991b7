"""The Clock's one activity, DeskClock, and its tabs: Alarm, Clock, Timer, Stopwatch,
Bedtime, chosen in the bottom navigation bar (each item's content-desc and its label
name the tab; the choice is remembered, as the app does).

- Alarm: the alarms (time, repeat, an on/off switch; a tap changes the time, a long
  press offers Delete), "Add alarm" opens the time picker.
- Clock: the time and date now.
- Timer: with no timer, the setup keypad: digits shift in from the right into
  `HHh MMm SSs` (content-desc "H hours, M minutes, S seconds"), Delete takes the last
  one off (a long press clears them), Start runs it. A running timer counts down on the
  phone's clock (Pause / Start, +1:00, Delete, Add timer).
- Stopwatch: Start / Pause (the round button), Lap while running, Reset while paused.

Resource ids are AOSP DeskClock's (`timer_setup_time`, `timer_setup_digit_N`,
`stopwatch_time_text`, `fab`, `left_button`, ...).
"""

from __future__ import annotations

import time as _time
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.clock import store
from antrap_gym.device.sim.apps.clock.store import PKG, AlarmsDb
from antrap_gym.device.sim.toolkit.pickers import open_time_picker
from antrap_gym.device.sim.toolkit.popups import Choice, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect

RID = PKG + ":id/"
TABS = ("Alarm", "Clock", "Timer", "Stopwatch", "Bedtime")
ALARM, CLOCK, TIMER, STOPWATCH, BEDTIME = range(5)
TAB_ICONS = ("alarm", "schedule", "timer", "stopwatch", "bedtime")
MAX_DIGITS = 6


def timer_text(digits: str) -> str:
    """The setup display for the typed digits: "00h 01m 23s" for "123"."""
    d = digits.rjust(MAX_DIGITS, "0")
    return f"{d[0:2]}h {d[2:4]}m {d[4:6]}s"


def timer_desc(digits: str) -> str:
    d = digits.rjust(MAX_DIGITS, "0")
    return f"{int(d[0:2])} hours, {int(d[2:4])} minutes, {int(d[4:6])} seconds"


def digits_ms(digits: str) -> int:
    d = digits.rjust(MAX_DIGITS, "0")
    return (int(d[0:2]) * 3600 + int(d[2:4]) * 60 + int(d[4:6])) * 1000


def countdown(ms: int) -> str:
    """A running timer: "1:02:03" or "2:03" (whole seconds, rounded up)."""
    s = (ms + 999) // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def stopwatch_text(ms: int) -> str:
    """"00:05.23": minutes, seconds, hundredths (hours in front past an hour)."""
    cs = ms // 10
    h, rest = divmod(cs, 360000)
    m, rest = divmod(rest, 6000)
    s, hund = divmod(rest, 100)
    return (f"{h}:" if h else "") + f"{m:02d}:{s:02d}.{hund:02d}"


class DeskClock(Activity):
    package = PKG
    name = "com.android.deskclock.DeskClock"

    def __init__(self) -> None:
        super().__init__()
        self.adding_timer = False  # "Add timer" asked for the keypad over a running timer
        #: a running stopwatch or timer changes what this screen shows as time goes by
        self.live = False

    def title(self, phone: PhoneContext) -> str:
        return "Clock"

    # the timer keypad's entry outlives the activity (leaving the app keeps it), as the tab
    def digits_of(self, phone: PhoneContext) -> str:
        return store.prefs(phone).get_string("timer_setup_digits", "")

    def set_digits(self, phone: PhoneContext, digits: str) -> None:
        store.prefs(phone).put("timer_setup_digits", digits)

    def tab(self, phone: PhoneContext) -> int:
        t = store.prefs(phone).values.get("selected_tab", ALARM)
        return t if isinstance(t, int) and 0 <= t < len(TABS) else ALARM

    def select(self, phone: PhoneContext, index: int) -> None:
        store.prefs(phone).put("selected_tab", index)

    # --- layout ---------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        tab = self.tab(phone)
        self.live = False
        nav_h = ui.dp(80)
        x0, y0, x1, y1 = ui.rect
        # the tab's content (its buttons at the bottom, the FAB) lies above the navigation bar
        ui.rect = (x0, y0, x1, y1 - nav_h)
        ui._bottom = y1 - nav_h
        ui.toolbar("", menu=[Choice("Settings", "noop"), Choice("Send feedback", "noop")],
                   rid=RID + "toolbar")
        {ALARM: self._alarms, CLOCK: self._clock, TIMER: self._timer, STOPWATCH: self._stopwatch,
         BEDTIME: self._bedtime}[tab](ui, phone)
        self._nav(ui, phone, (x0, y1 - nav_h, x1, y1), tab)

    def _nav(self, ui: UI, phone: PhoneContext, r: Rect, selected: int) -> None:
        bar = ui.mk("linear", r, rid=RID + "bottom_navigation")
        w = (r[2] - r[0]) // len(TABS)
        for i, label in enumerate(TABS):
            cell = (r[0] + i * w, r[1], r[0] + (i + 1) * w, r[3])
            item = ui.mk("tab", cell, bar, desc=label, selected=i == selected,
                         rid=RID + "navigation_bar_item_" + label.lower() + "_view",
                         on_click=lambda i=i: self.select(phone, i))
            cx = (cell[0] + cell[2]) // 2
            ui.mk("image", (cx - ui.dp(12), cell[1] + ui.dp(12), cx + ui.dp(12), cell[1] + ui.dp(36)),
                  item, icon=TAB_ICONS[i])
            ui.mk("text", (cell[0], cell[1] + ui.dp(40), cell[2], cell[3] - ui.dp(8)), item,
                  text=label, style="caption", rid=RID + "navigation_bar_item_large_label_view")

    def _big(self, ui: UI, text: str, rid: str, desc: str | None = None, h: float = 96) -> None:
        r = ui._take(ui.dp(h))
        ui.mk("text", (r[0] + ui.dp(16), r[1], r[2] - ui.dp(16), r[3]), text=text, desc=desc,
              style="ad_title", rid=rid)

    # --- Alarm ------------------------------------------------------------------------
    def _alarms(self, ui: UI, phone: PhoneContext) -> None:
        alarms = AlarmsDb.of(phone).all()
        with ui.scroll("alarms", rid=RID + "alarm_recycler_view"):
            for a in alarms:
                ui.row(a.time, a.label or a.repeat, rid=RID + "alarm_item",
                       on_click=lambda i=a.id, a=a: open_time_picker(
                           phone, self, a.hour, a.minutes, "alarm_time", (i,)),
                       on_long_click=lambda i=a.id, a=a: phone.open_popup(self, Menu(
                           [Choice("Delete", "delete_alarm", (i,), destructive=True)],
                           title=a.time)),
                       trailing=("switch", a.enabled,
                                 lambda i=a.id, on=a.enabled: self.enable(phone, i, not on)))
            if not alarms:
                ui.text("No alarms", style="summary")
        ui.fab("add", "Add alarm", lambda: open_time_picker(phone, self, 7, 0, "new_alarm"),
               rid=RID + "fab")

    def new_alarm(self, phone: PhoneContext, hour: int, minute: int) -> None:
        AlarmsDb.of(phone).add(hour, minute)
        phone.toast(f"Alarm set for {store.Alarm(0, hour, minute, 0, True, '').time}")

    def alarm_time(self, phone: PhoneContext, alarm_id: int, hour: int, minute: int) -> None:
        AlarmsDb.of(phone).set_time(alarm_id, hour, minute)

    def enable(self, phone: PhoneContext, alarm_id: int, on: bool) -> None:
        AlarmsDb.of(phone).set_enabled(alarm_id, on)

    def delete_alarm(self, phone: PhoneContext, alarm_id: int) -> None:
        AlarmsDb.of(phone).remove(alarm_id)
        phone.toast("Alarm deleted")

    # --- Clock --------------------------------------------------------------------------
    def _clock(self, ui: UI, phone: PhoneContext) -> None:
        t = _time.gmtime(phone.now)
        h = t.tm_hour % 12 or 12
        ui.spacer(48)
        self._big(ui, f"{h}:{t.tm_min:02d}\u202f{'AM' if t.tm_hour < 12 else 'PM'}",
                  RID + "digital_clock")
        ui.text(_time.strftime("%a, %b ", t) + str(t.tm_mday), style="title", rid=RID + "date")
        ui.fab("public", "Cities", lambda: phone.toast("No cities selected"), rid=RID + "fab")

    # --- Timer --------------------------------------------------------------------------
    def _timer(self, ui: UI, phone: PhoneContext) -> None:
        if store.timer_state(phone) == store.T_NONE or self.adding_timer:
            self._timer_setup(ui, phone)
        else:
            self._timer_running(ui, phone)

    def _timer_setup(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(24)
        digits = self.digits_of(phone)
        self._big(ui, timer_text(digits), RID + "timer_setup_time", timer_desc(digits))
        ui.spacer(16)
        keys = [("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("00", "0", "⌫")]
        x0, x1 = ui.rect[0] + ui.dp(40), ui.rect[2] - ui.dp(40)
        kw, kh = (x1 - x0) // 3, ui.dp(72)
        for row in keys:
            r = ui._take(kh)
            for c, key in enumerate(row):
                cell = (x0 + c * kw + ui.dp(6), r[1] + ui.dp(4), x0 + (c + 1) * kw - ui.dp(6),
                        r[3] - ui.dp(4))
                if key == "⌫":
                    ui.mk("icon_button", cell, icon="backspace", desc="Delete",
                          rid=RID + "timer_setup_delete", enabled=bool(digits),
                          on_click=lambda: self.delete_digit(phone),
                          on_long_click=lambda: self.clear_digits(phone))
                else:
                    ui.mk("key", cell, text=key,
                          rid=RID + ("timer_setup_digit_" + key if key != "00" else
                                     "timer_setup_digit_00"),
                          on_click=lambda k=key: self.type_digits(phone, k))
        if digits:
            ui.fab("play", "Start", lambda: self.start_timer(phone), rid=RID + "fab")
        if store.timer_state(phone) != store.T_NONE:
            ui.button("Cancel", lambda: self.cancel_add(phone), style="text", rid=RID + "cancel")

    def type_digits(self, phone: PhoneContext, key: str) -> None:
        digits = self.digits_of(phone)
        for ch in key:
            if not digits and ch == "0":
                continue  # a leading zero changes nothing
            if len(digits) < MAX_DIGITS:
                digits += ch
        self.set_digits(phone, digits)

    def delete_digit(self, phone: PhoneContext) -> None:
        self.set_digits(phone, self.digits_of(phone)[:-1])

    def clear_digits(self, phone: PhoneContext) -> None:
        self.set_digits(phone, "")

    def start_timer(self, phone: PhoneContext) -> None:
        digits = self.digits_of(phone)
        if digits:
            store.timer_start(phone, digits_ms(digits))
            self.set_digits(phone, "")
            self.adding_timer = False

    def cancel_add(self, phone: PhoneContext) -> None:
        self.adding_timer = False
        self.set_digits(phone, "")

    def _timer_running(self, ui: UI, phone: PhoneContext) -> None:
        state = store.timer_state(phone)
        left = store.timer_remaining_ms(phone)
        self.live = state == store.T_RUNNING and left > 0
        ui.spacer(24)
        ui.text("Timer", style="title", rid=RID + "timer_label")
        self._big(ui, countdown(left) if left else "Time's up", RID + "timer_time_text")
        ui.text(f"{countdown(store.timer_length_ms(phone))} timer", style="summary",
                rid=RID + "timer_total")
        r = ui._take(ui.dp(64))
        w = (r[2] - r[0]) // 2
        ui.mk("button", (r[0] + ui.dp(24), r[1] + ui.dp(8), r[0] + w - ui.dp(12), r[3] - ui.dp(8)),
              text="+1:00", desc="Add 1 minute", style="tonal", rid=RID + "reset_add",
              on_click=lambda: store.timer_add_minute(phone))
        ui.mk("icon_button", (r[2] - w + ui.dp(12), r[1], r[2] - ui.dp(24), r[3]), icon="delete",
              desc="Delete", rid=RID + "delete_timer", on_click=lambda: self.delete_timer(phone))
        ui.button("Add timer", lambda: self.add_timer(phone), style="outlined",
                  rid=RID + "timer_add_timer")
        if left == 0:
            ui.fab("stop", "Stop", lambda: self.delete_timer(phone), rid=RID + "fab")
        elif state == store.T_RUNNING:
            ui.fab("pause", "Pause", lambda: store.timer_pause(phone), rid=RID + "fab")
        else:
            ui.fab("play", "Start", lambda: store.timer_start(phone), rid=RID + "fab")

    def delete_timer(self, phone: PhoneContext) -> None:
        store.timer_delete(phone)
        self.adding_timer = False

    def add_timer(self, phone: PhoneContext) -> None:
        self.adding_timer = True
        self.set_digits(phone, "")

    # --- Stopwatch ------------------------------------------------------------------------
    def _stopwatch(self, ui: UI, phone: PhoneContext) -> None:
        state = store.stopwatch_state(phone)
        self.live = state == store.SW_RUNNING
        ui.spacer(48)
        self._big(ui, stopwatch_text(store.stopwatch_ms(phone)), RID + "stopwatch_time_text")
        laps = store.laps(phone)
        if laps:
            with ui.scroll("laps", height=ui.remaining - ui.dp(96), rid=RID + "laps_list"):
                prev = 0
                for n in range(len(laps), 0, -1):
                    total = laps[n - 1]
                    prev = laps[n - 2] if n > 1 else 0
                    ui.row(f"# {n}", stopwatch_text(total - prev),
                           trailing=("text", stopwatch_text(total)), rid=RID + "lap_number")
        y = ui.rect[3] - ui.dp(16) - ui.dp(56)
        left = (ui.rect[0] + ui.dp(40), y, ui.rect[0] + ui.dp(96), y + ui.dp(56))
        if state == store.SW_RUNNING:
            ui.mk("icon_button", left, icon="flag", desc="Lap", rid=RID + "left_button",
                  on_click=lambda: store.stopwatch_lap(phone))
        elif state == store.SW_PAUSED:
            ui.mk("icon_button", left, icon="reset", desc="Reset", rid=RID + "left_button",
                  on_click=lambda: store.stopwatch_reset(phone))
        cx = (ui.rect[0] + ui.rect[2]) // 2
        fab = (cx - ui.dp(48), y - ui.dp(12), cx + ui.dp(48), y + ui.dp(68))
        if state == store.SW_RUNNING:
            ui.mk("fab", fab, icon="pause", desc="Pause", rid=RID + "fab",
                  on_click=lambda: store.stopwatch_pause(phone))
        else:
            ui.mk("fab", fab, icon="play", desc="Start", rid=RID + "fab",
                  on_click=lambda: store.stopwatch_start(phone))
        if state == store.SW_PAUSED:
            right = (ui.rect[2] - ui.dp(96), y, ui.rect[2] - ui.dp(40), y + ui.dp(56))
            ui.mk("icon_button", right, icon="share", desc="Share", rid=RID + "right_button",
                  on_click=lambda: phone.toast("Share"))

    # --- Bedtime --------------------------------------------------------------------------
    def _bedtime(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(48)
        ui.text("Bedtime", style="title", rid=RID + "bedtime_title")
        ui.text("Set a regular bedtime and wake-up time to help you get consistent sleep.",
                style="body")
        ui.button("Get started", lambda: phone.toast("Bedtime isn't available on this device"),
                  rid=RID + "bedtime_onboarding_get_started")
