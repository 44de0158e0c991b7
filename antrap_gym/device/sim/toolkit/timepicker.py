"""Material's time picker (MaterialTimePicker) as a popup any app opens over its activity.

Clock mode, titled "Select time": the time as two chips (hour, minute; a tap on one
chooses what the dial sets), the AM/PM toggle on a 12-hour clock, and a round dial. On the
dial the hours are labels "12", "1" .. "11" (content-desc "7 o'clock"); a 24-hour clock has
"00", "1" .. "11" on an outer ring and "12" .. "23" on an inner one ("13 hours"). A touch
or a drag anywhere on the dial picks the value at its angle (and, on a 24-hour clock, its
ring); once an hour is picked the dial turns to minutes, labelled "00", "05" .. "55" ("35
minutes"): a tap picks the nearest five minutes, a drag any minute. The keyboard button
("Switch to text input mode for the time input.") turns the picker into two fields, titled
"Enter time"; the clock button turns it back. Cancel closes it; OK calls
`activity.<action>(phone, *args, hour, minute)`, the hour 0-23.

A picker is plain data (it lives in the activity's `popup`, so an open one pickles with
the state); the dial's geometry is `Dial`, pure arithmetic the tests and the painter share.
Open one with `open_clock_picker`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from antrap_gym.device.sim.toolkit.card import ALERT_TITLE

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect, View

CLOCK_TITLE, KEYBOARD_TITLE = "Select time", "Enter time"
TO_KEYBOARD = "Switch to text input mode for the time input."
TO_CLOCK = "Switch to clock mode for the time input."
#: the keyboard mode's fields in `activity.fields`
HOUR_FIELD, MINUTE_FIELD = "material_hour", "material_minute"
INVALID = "Enter a valid time"
#: Material's view ids (in the app's own package, as the library's resources are)
IDS = {"hour": "material_hour_tv", "minute": "material_minute_tv",
       "am": "material_clock_period_am_button", "pm": "material_clock_period_pm_button",
       "face": "material_clock_face", "mode": "material_timepicker_mode_button",
       "cancel": "material_timepicker_cancel_button", "ok": "material_timepicker_ok_button",
       "hour_input": "material_hour_text_input", "minute_input": "material_minute_text_input"}


def hour_label(hour: int, h24: bool) -> str:
    """The dial's label for an hour (0-23): "12", "1" .. "11" on a 12-hour clock; "00",
    "1" .. "23" on a 24-hour one."""
    if h24:
        return "00" if hour == 0 else str(hour)
    return str(hour % 12 or 12)


def hour_desc(text: str, h24: bool) -> str:
    return f"{text} hours" if h24 else f"{text} o'clock"


def minute_label(minute: int) -> str:
    return f"{minute:02d}"


def minute_desc(text: str) -> str:
    return f"{text} minutes"


@dataclass(frozen=True, slots=True)
class Dial:
    """The dial's geometry in pixels: its centre, the radius of the labels' ring (and of
    the inner ring a 24-hour clock's afternoon hours take)."""

    cx: int
    cy: int
    outer: int
    inner: int

    @staticmethod
    def angle(dx: float, dy: float) -> float:
        """Degrees clockwise from 12 o'clock of the point (dx, dy) from the centre."""
        return math.degrees(math.atan2(dx, -dy)) % 360

    def spot(self, index: int, of: int = 12, inner: bool = False) -> tuple[int, int]:
        """Where label `index` of `of` around the ring sits (index 0 at the top)."""
        a = math.radians(index * 360 / of)
        r = self.inner if inner else self.outer
        return round(self.cx + r * math.sin(a)), round(self.cy - r * math.cos(a))

    def on_inner(self, x: float, y: float) -> bool:
        return math.hypot(x - self.cx, y - self.cy) < (self.inner + self.outer) / 2

    def hour_at(self, x: float, y: float, hour: int, h24: bool) -> int:
        """The hour (0-23) a touch at (x, y) picks; on a 12-hour clock the period of
        `hour` (the current one) is kept."""
        index = round(self.angle(x - self.cx, y - self.cy) / 30) % 12
        if h24:
            return index + 12 if self.on_inner(x, y) else index
        return index + (12 if hour >= 12 else 0)

    def minute_at(self, x: float, y: float, dragged: bool) -> int:
        """A drag picks the minute under its end; a tap the nearest five minutes."""
        a = self.angle(x - self.cx, y - self.cy)
        return round(a / 6) % 60 if dragged else (round(a / 30) % 12) * 5


@dataclass(slots=True)
class ClockPicker:
    hour: int
    minute: int
    action: str
    args: tuple = ()
    h24: bool = False
    #: the text input mode (else the clock)
    keyboard: bool = False
    #: the dial sets the minutes (else the hours)
    minutes: bool = False
    error: str = ""
    cancelable: bool = True

    @property
    def title(self) -> str:
        return KEYBOARD_TITLE if self.keyboard else CLOCK_TITLE

    @property
    def shown_hour(self) -> int:
        return self.hour if self.h24 else self.hour % 12 or 12

    def build_card(self, ui: UI, screen: Rect) -> None:
        (_keyboard_card if self.keyboard else _clock_card)(ui, self, screen)


def open_clock_picker(phone: PhoneContext, act: Screen, hour: int, minute: int, action: str,
                      args: tuple = (), h24: bool = False) -> None:
    """Open the picker on `hour`:`minute` (0-23, 0-59) in clock mode, the dial on hours."""
    act.focus = None
    phone.open_popup(act, ClockPicker(hour, minute, action, args, h24))  # type: ignore[arg-type]


# --- the cards ----------------------------------------------------------------------------------


def _card(ui: UI, screen: Rect, h: int) -> tuple[int, int, int]:
    """A dialog card of height h centred on the screen, with the title; x0, x1, y0."""
    x0, x1 = screen[0] + ui.dp(24), screen[2] - ui.dp(24)
    y0 = screen[1] + max(0, (screen[3] - screen[1] - h) // 2)
    card = ui.mk("dialog", (x0, y0, x1, y0 + h))
    ui._parent = card
    ui._x0, ui._x1 = x0, x1
    popup = ui.activity.popup if ui.activity is not None else None
    ui.mk("text", (x0 + ui.dp(24), y0 + ui.dp(24), x1 - ui.dp(24), y0 + ui.dp(44)),
          text=getattr(popup, "title", ""), style="caption", rid=ALERT_TITLE)
    return x0, x1, y0


def _rid(ui: UI, key: str) -> str:
    return f"{ui.package}:id/{IDS[key]}"


def _period(ui: UI, p: ClockPicker, x: int, y: int) -> None:
    """The AM/PM toggle: two stacked buttons, the period in force checked."""
    phone = ui.phone
    w, h = ui.dp(52), ui.dp(40)
    for i, (label, pm) in enumerate((("AM", False), ("PM", True))):
        on = (p.hour >= 12) == pm
        ui.mk("button", (x, y + i * h, x + w, y + (i + 1) * h), text=label,
              style="tonal" if on else "outlined", checkable=True, checked=on,
              rid=_rid(ui, "pm" if pm else "am"),
              on_click=lambda pm=pm: _set_period(phone, p, pm))


def _set_period(phone: PhoneContext, p: ClockPicker, pm: bool) -> None:
    if (p.hour >= 12) != pm:
        p.hour = (p.hour + 12) % 24
    phone.changed()


def _bottom(ui: UI, p: ClockPicker, y: int, x0: int, x1: int) -> None:
    """The mode button at the left; Cancel and OK at the right."""
    phone, act = ui.phone, ui.activity
    s = ui.dp(48)
    ui.mk("icon_button", (x0 + ui.dp(12), y + ui.dp(4), x0 + ui.dp(12) + s, y + ui.dp(4) + s),
          icon="schedule" if p.keyboard else "keyboard", desc=TO_CLOCK if p.keyboard else TO_KEYBOARD,
          rid=_rid(ui, "mode"), on_click=lambda: _switch_mode(phone, act, p))
    ui._x0, ui._x1 = x0, x1
    ui.set_y(y)
    cancel, ok = ui.button_bar([("Cancel", lambda: phone.close_popup(act), "text"),
                                ("OK", lambda: _ok(phone, act, p), "text")])
    cancel.rid, ok.rid = _rid(ui, "cancel"), _rid(ui, "ok")


def _clock_card(ui: UI, p: ClockPicker, screen: Rect) -> None:
    phone = ui.phone
    dp = ui.dp
    x0, x1, y0 = _card(ui, screen, dp(24 + 20 + 20 + 80 + 36 + 256 + 24 + 56 + 8))
    cx = (x0 + x1) // 2
    # the time: hour chip, colon, minute chip (and the period toggle on a 12-hour clock)
    row_w = dp(96 + 24 + 96) + (0 if p.h24 else dp(12 + 52))
    left, top = cx - row_w // 2, y0 + dp(64)
    hour_text, minute_text = f"{p.shown_hour:02d}", f"{p.minute:02d}"
    for key, x, text, desc, on in (
            ("hour", left, hour_text, hour_desc(str(p.shown_hour), p.h24), not p.minutes),
            ("minute", left + dp(120), minute_text, minute_desc(str(p.minute)), p.minutes)):
        ui.mk("chip", (x, top, x + dp(96), top + dp(80)), text=text, desc=desc, style="display",
              checkable=True, checked=on, rid=_rid(ui, key),
              on_click=lambda m=key == "minute": _select(phone, p, m))
    ui.mk("text", (left + dp(96), top, left + dp(120), top + dp(80)), text=":", style="display")
    if not p.h24:
        _period(ui, p, left + dp(96 + 24 + 96 + 12), top)
    # the dial
    d = dp(256)
    fy = top + dp(80 + 36)
    face_rect = (cx - d // 2, fy, cx + d // 2, fy + d)
    dial = Dial(cx, fy + d // 2, dp(100), dp(64))
    face = ui.mk("clock_face", face_rect, rid=_rid(ui, "face"))
    face.on_gesture = lambda ax, ay, bx, by: _touch(phone, p, dial, ax, ay, bx, by)
    _labels(ui, p, face, dial)
    _bottom(ui, p, fy + d + dp(24), x0, x1)


def _labels(ui: UI, p: ClockPicker, face: View, dial: Dial) -> None:
    """The dial's labels (TextViews with their content-desc), the chosen one selected, and
    the hand towards it (the face's value: centre, hand's end, selector radius)."""
    if p.minutes:
        rings = [[(i, minute_label(5 * i), minute_desc(minute_label(5 * i)), 5 * i, False)
                  for i in range(12)]]
        hand = (p.minute / 60 * 12, False)
        chosen = p.minute
    else:
        rings = [[(i, hour_label(i, p.h24), hour_desc(hour_label(i, p.h24), p.h24), i, False)
                  for i in range(12)]]
        if p.h24:
            rings.append([(i, str(i + 12), hour_desc(str(i + 12), True), i + 12, True)
                          for i in range(12)])
            chosen = p.hour
        else:
            chosen = p.hour % 12
        hand = (p.hour % 12, p.h24 and p.hour >= 12)
    for ring in rings:
        for i, text, desc, value, inner in ring:
            x, y = dial.spot(i, inner=inner)
            half = ui.dp(16 if inner else 20)
            on = value == chosen
            ui.mk("day", (x - half, y - half, x + half, y + half), face, text=text, desc=desc,
                  selected=on, cls="android.widget.TextView")
    a = math.radians(hand[0] * 30)
    r = dial.inner if hand[1] else dial.outer
    face.value = (dial.cx, dial.cy, round(dial.cx + r * math.sin(a)), round(dial.cy - r * math.cos(a)),
                  ui.dp(24 if not hand[1] else 18))


def _touch(phone: PhoneContext, p: ClockPicker, dial: Dial, x0: int, y0: int, x1: int, y1: int) -> bool:
    """A tap (x0, y0 == x1, y1) or a drag on the dial, which takes the value where it ends."""
    if math.hypot(x1 - dial.cx, y1 - dial.cy) < phone.density * 8:
        return False  # the very centre has no angle
    if p.minutes:
        p.minute = dial.minute_at(x1, y1, dragged=(x0, y0) != (x1, y1))
    else:
        p.hour = dial.hour_at(x1, y1, p.hour, p.h24)
        p.minutes = True  # the dial turns to minutes once the hour is chosen
    phone.changed()
    return True


def _select(phone: PhoneContext, p: ClockPicker, minutes: bool) -> None:
    p.minutes = minutes
    phone.changed()


def _keyboard_card(ui: UI, p: ClockPicker, screen: Rect) -> None:
    dp = ui.dp
    x0, x1, y0 = _card(ui, screen, dp(24 + 20 + 20 + 96 + 24 + 24 + 56 + 8))
    top = y0 + dp(64)
    left = x0 + dp(24)
    for key, field, label, x in (("hour_input", HOUR_FIELD, "Hour", left),
                                 ("minute_input", MINUTE_FIELD, "Minute", left + dp(120))):
        ui._x0, ui._x1 = x - dp(16), x + dp(96 + 16)
        ui.set_y(top - dp(4))
        ui.edit(field, "", rid=_rid(ui, key))
        ui.mk("text", (x, top + dp(64), x + dp(96), top + dp(84)), text=label, style="caption")
    ui.mk("text", (left + dp(96), top, left + dp(120), top + dp(56)), text=":", style="display")
    if not p.h24:
        _period(ui, p, left + dp(96 + 24 + 96 + 12), top - dp(12))
    err = top + dp(96)
    if p.error:
        ui.mk("text", (x0 + dp(24), err, x1 - dp(24), err + dp(24)), text=p.error,
              style="caption", rid="android:id/input_error")
    _bottom(ui, p, err + dp(24), x0, x1)


def _number(s: str) -> int | None:
    s = s.strip()
    return int(s) if s.isdigit() and len(s) <= 2 else None


def _typed(act: Screen, p: ClockPicker) -> tuple[int, int] | None:
    """The keyboard mode's fields as (hour 0-23, minute), None when not a time."""
    h, m = _number(act.fields.get(HOUR_FIELD, "")), _number(act.fields.get(MINUTE_FIELD, ""))
    if h is None or m is None or not 0 <= m <= 59:
        return None
    if p.h24:
        return (h, m) if 0 <= h <= 23 else None
    if not 1 <= h <= 12:
        return None
    return h % 12 + (12 if p.hour >= 12 else 0), m


def _switch_mode(phone: PhoneContext, act: Screen, p: ClockPicker) -> None:
    if p.keyboard:
        typed = _typed(act, p)
        if typed is not None:
            p.hour, p.minute = typed
        act.focus = None
        phone.wm.ime_shown = False
    else:
        act.set_field(HOUR_FIELD, f"{p.shown_hour:02d}")
        act.set_field(MINUTE_FIELD, f"{p.minute:02d}")
    p.keyboard, p.error = not p.keyboard, ""
    phone.changed()


def _ok(phone: PhoneContext, act: Screen, p: ClockPicker) -> None:
    if p.keyboard:
        typed = _typed(act, p)
        if typed is None:
            p.error = INVALID
            phone.changed()
            return
        p.hour, p.minute = typed
    act.popup = None
    act.focus = None
    phone.wm.ime_shown = False
    getattr(act, p.action)(phone, *p.args, p.hour, p.minute)
    phone.changed()
