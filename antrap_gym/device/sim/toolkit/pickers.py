"""Material date and time pickers, as popups any app opens over its activity.

A picker is plain data like `Dialog` (it lives in the activity's `popup`, so an open
picker pickles with the state) and names its result *action*: a method of the
activity, called as `activity.<action>(phone, *args, year, month, day)` for a date
and `activity.<action>(phone, *args, hour, minute)` for a time when the user taps OK.

- `DatePicker`: title "Select date", the chosen date's year and the date as a headline
  (as Android's DatePickerDialog heads its calendar), the shown month
  with "Previous month" / "Next month" arrows, a 7-column grid of days (each one's
  content-desc the full date, "15 October 2023"), Cancel / OK.
- `TimePicker`: the keyboard-input mode, title "Enter time", two numeric fields (hour
  0-23 and minute 0-59, 24-hour clock) bound to `activity.fields`, Cancel / OK; OK with
  a value out of range shows "Enter a valid time" and keeps the picker open. (Material's
  clock-dial picker, which opens on the dial, is `timepicker.ClockPicker`.)

Open them with `open_date_picker` / `open_time_picker`.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from antrap_gym.device.sim.toolkit.card import ALERT_TITLE, split

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect

DATE_TITLE = "Select date"
TIME_TITLE = "Enter time"
#: the time picker's fields in `activity.fields`
HOUR_FIELD, MINUTE_FIELD = "picker_hour", "picker_minute"
WEEKDAY_LETTERS = ("S", "M", "T", "W", "T", "F", "S")  # the grid starts on Sunday


@lru_cache(maxsize=4096)
def day_desc(year: int, month: int, day: int) -> str:
    """A day cell's content-desc: "15 October 2023" (memoised: `calendar.month_name`
    formats a date on every lookup, and a month grid asks 42 times a build)."""
    return f"{day} {calendar.month_name[month]} {year}"


@dataclass(slots=True)
class DatePicker:
    year: int
    month: int
    day: int
    action: str
    args: tuple = ()
    #: the month on screen, (year, month)
    shown: tuple[int, int] = (0, 0)
    title: str = DATE_TITLE
    cancelable: bool = True

    def __post_init__(self) -> None:
        if self.shown == (0, 0):
            self.shown = (self.year, self.month)

    def build_card(self, ui: UI, screen: Rect) -> None:
        _date_card(ui, self, screen)


@dataclass(slots=True)
class TimePicker:
    hour: int
    minute: int
    action: str
    args: tuple = ()
    title: str = TIME_TITLE
    error: str = ""
    cancelable: bool = True

    def build_card(self, ui: UI, screen: Rect) -> None:
        _time_card(ui, self, screen)


def open_date_picker(phone: PhoneContext, act: Screen, year: int, month: int, day: int,
                     action: str, args: tuple = ()) -> None:
    phone.open_popup(act, DatePicker(year, month, day, action, args))  # type: ignore[arg-type]


def open_time_picker(phone: PhoneContext, act: Screen, hour: int, minute: int, action: str,
                     args: tuple = ()) -> None:
    act.fields[HOUR_FIELD] = f"{hour:02d}"
    act.fields[MINUTE_FIELD] = f"{minute:02d}"
    act.focus = None
    phone.open_popup(act, TimePicker(hour, minute, action, args))  # type: ignore[arg-type]


# --- the cards ----------------------------------------------------------------------------------


def _card(ui: UI, screen: Rect, h: int) -> tuple[int, int, int]:
    """Place a dialog card of height h centred on the screen; returns x0, x1, y0."""
    x0, x1 = screen[0] + ui.dp(24), screen[2] - ui.dp(24)
    y0 = screen[1] + max(0, (screen[3] - screen[1] - h) // 2)
    card = ui.mk("dialog", (x0, y0, x1, y0 + h))
    ui._parent = card
    ui._x0, ui._x1 = x0, x1
    ui.set_y(y0 + ui.dp(16))
    ui.mk("text", (x0 + ui.dp(24), ui.y, x1 - ui.dp(24), ui.y + ui.dp(24)), text=_title(ui),
          style="caption", rid=ALERT_TITLE)
    ui.set_y(ui.y + ui.dp(28))
    return x0, x1, y0


def _title(ui: UI) -> str:
    popup = getattr(ui.activity, "popup", None)
    return getattr(popup, "title", "")


def _buttons(ui: UI, ok) -> None:
    phone, act = ui.phone, ui.activity
    ui.button_bar([("Cancel", lambda: phone.close_popup(act), "text"), ("OK", ok, "text")])


def _date_card(ui: UI, p: DatePicker, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    cell = ui.dp(44)
    x0, x1, _ = _card(ui, screen, ui.dp(16 + 28 + 24 + 56 + 48 + 32) + 6 * cell + ui.dp(64 + 16))
    chosen = dt.date(p.year, p.month, p.day)
    ui.mk("text", (x0 + ui.dp(24), ui.y, x1 - ui.dp(24), ui.y + ui.dp(24)), text=str(p.year),
          style="summary", rid="android:id/date_picker_header_year")
    ui.set_y(ui.y + ui.dp(24))
    ui.mk("text", (x0 + ui.dp(24), ui.y, x1 - ui.dp(24), ui.y + ui.dp(48)),
          text=chosen.strftime("%a, %b ") + str(chosen.day), style="title",
          rid="android:id/date_picker_header_date")
    ui.set_y(ui.y + ui.dp(56))
    sy, sm = p.shown
    r = (x0, ui.y, x1, ui.y + ui.dp(48))
    ui.mk("text", (x0 + ui.dp(24), r[1], x1 - ui.dp(112), r[3]),
          text=f"{calendar.month_name[sm]} {sy}", style="row_title", rid="android:id/month_name")

    def shift(delta: int) -> None:
        y, m = divmod(sy * 12 + sm - 1 + delta, 12)
        p.shown = (y, m + 1)
        phone.changed()

    s = ui.dp(48)
    ui.mk("icon_button", (x1 - ui.dp(16) - 2 * s, r[1], x1 - ui.dp(16) - s, r[3]),
          desc="Previous month", icon="arrow_back", rid="android:id/prev",
          on_click=lambda: shift(-1))
    ui.mk("icon_button", (x1 - ui.dp(16) - s, r[1], x1 - ui.dp(16), r[3]),
          desc="Next month", icon="chevron", rid="android:id/next", on_click=lambda: shift(1))
    ui.set_y(r[3])
    grid = (x0 + ui.dp(12), ui.y, x1 - ui.dp(12), ui.y + ui.dp(32))
    for letter, c in zip(WEEKDAY_LETTERS, split(grid, 7, 0)):
        ui.mk("day", c, text=letter, style="weekday")
    ui.set_y(grid[3])
    lead = (dt.date(sy, sm, 1).weekday() + 1) % 7  # Sunday first
    days = calendar.monthrange(sy, sm)[1]
    for week in range(6):
        row = (grid[0], ui.y + week * cell, grid[2], ui.y + (week + 1) * cell)
        for col, c in enumerate(split(row, 7, 0)):
            d = week * 7 + col - lead + 1
            if 1 <= d <= days:
                on = (sy, sm, d) == (p.year, p.month, p.day)
                ui.mk("day", c, text=str(d), desc=day_desc(sy, sm, d), selected=on,
                      checkable=True, checked=on, on_click=lambda d=d: _pick_day(phone, p, sy, sm, d))
    ui.set_y(ui.y + 6 * cell + ui.dp(8))

    def ok() -> None:
        act.popup = None
        getattr(act, p.action)(phone, *p.args, p.year, p.month, p.day)
        phone.changed()

    _buttons(ui, ok)


def _pick_day(phone: PhoneContext, p: DatePicker, year: int, month: int, day: int) -> None:
    p.year, p.month, p.day = year, month, day
    phone.changed()


def _time_card(ui: UI, p: TimePicker, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    x0, x1, _ = _card(ui, screen, ui.dp(16 + 28 + 88 + 32 + 64 + 16))
    r = (x0 + ui.dp(8), ui.y, x1 - ui.dp(8), ui.y + ui.dp(88))
    left, right = split(r, 2, ui.dp(8))
    for (field, hint, rid), cell in zip(
            ((HOUR_FIELD, "Hour", "android:id/input_hour"),
             (MINUTE_FIELD, "Minute", "android:id/input_minute")), (left, right)):
        ui._x0, ui._x1 = cell[0], cell[2]
        ui.set_y(r[1])
        ui.edit(field, hint, label=hint, rid=rid)
    ui._x0, ui._x1 = x0, x1
    ui.set_y(r[3])
    ui.mk("text", (x0 + ui.dp(24), ui.y, x1 - ui.dp(24), ui.y + ui.dp(32)),
          text=p.error or "24-hour clock", style="caption", rid="android:id/input_error"
          if p.error else None)
    ui.set_y(ui.y + ui.dp(32))

    def ok() -> None:
        h, m = _number(act.fields.get(HOUR_FIELD, "")), _number(act.fields.get(MINUTE_FIELD, ""))
        if h is None or m is None or not (0 <= h <= 23 and 0 <= m <= 59):
            p.error = "Enter a valid time"
            phone.changed()
            return
        act.popup = None
        act.focus = None
        phone.wm.ime_shown = False
        getattr(act, p.action)(phone, *p.args, h, m)
        phone.changed()

    _buttons(ui, ok)


def _number(s: str) -> int | None:
    s = s.strip()
    return int(s) if s.isdigit() and len(s) <= 2 else None
