"""Simple Calendar Pro's screens: the main screen's month, day and event-list views
(one activity, switched with "Change view"), search, and the event editor.

- MainActivity: month view by default (a grid of days, each cell with its events'
  titles; the arrows page months, "Go to today" returns); a tap on a day opens that
  day's list; "Change view" offers Day view / Month view / Simple event list; the
  search icon filters every event by title, location and description; the FAB
  "New event" opens the editor.
- EventActivity: title, location, description, start and end date and time (the
  toolkit's date picker, and Material's clock-dial time picker), repetition (a list
  dialog); "Save" writes events.db, "Delete" asks first.

Times show as the app shows them: "07:35 PM" ("hh:mm a"), or "19:35" when the system
clock is on 24 hours (`settings system time_12_24`), which the time picker follows too.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.calendar import firstrun
from antrap_gym.device.sim.apps.calendar.occurrences import by_day, day_start, on_day, to_dt
from antrap_gym.device.sim.apps.calendar.store import REPEATS, WEEK, EventsDatabase
from antrap_gym.device.sim.toolkit.builder import BarAction
from antrap_gym.device.sim.toolkit.card import split
from antrap_gym.device.sim.toolkit.firstrun import FirstRun
from antrap_gym.device.sim.toolkit.forms import UnsavedChangesGuard
from antrap_gym.device.sim.toolkit.pickers import day_desc, open_date_picker
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog
from antrap_gym.device.sim.toolkit.timepicker import open_clock_picker

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.calendar.store import Event
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.simplemobiletools.calendar.pro"
RID = PKG + ":id/"
VIEWS = (("Day view", "day"), ("Month view", "month"), ("Simple event list", "list"))
WEEKDAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")


def uses_24h(phone: PhoneContext) -> bool:
    """The app's clock follows the system's 12/24-hour choice."""
    return phone.settings.get("system", "time_12_24") == "24"


def hhmm(ts: int, h24: bool = False) -> str:
    """A time as the app shows it: "07:35 PM", or "19:35" on a 24-hour clock."""
    return to_dt(ts).strftime("%H:%M" if h24 else "%I:%M %p")


def long_date(d: dt.date) -> str:
    return f"{d.strftime('%a')}, {calendar.month_name[d.month]} {d.day} {d.year}"


def span(e: Event, h24: bool = False) -> str:
    return f"{hhmm(e.start_ts, h24)} - {hhmm(e.end_ts, h24)}"


class CalendarActivity(Activity):
    package = PKG


class MainActivity(FirstRun, CalendarActivity):
    name = ".activities.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.view = "month"
        self.month: tuple[int, int] = (0, 0)   # the month shown (0: today's)
        self.day: tuple[int, int, int] = (0, 0, 0)
        self.from_month = False   # the day view was opened from a month cell
        self.searching = False

    def title(self, phone: PhoneContext) -> str:
        return "Simple Calendar Pro"

    def _today(self, phone: PhoneContext) -> dt.date:
        return to_dt(phone.now).date()

    def _shown_month(self, phone: PhoneContext) -> tuple[int, int]:
        if self.month == (0, 0):
            t = self._today(phone)
            self.month = (t.year, t.month)
        return self.month

    def _shown_day(self, phone: PhoneContext) -> dt.date:
        if self.day == (0, 0, 0):
            t = self._today(phone)
            self.day = (t.year, t.month, t.day)
        return dt.date(*self.day)

    # --- building ------------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        firstrun.first_run(phone, self)
        db = EventsDatabase.of(phone)
        events = db.cached("all", db.all)  # shared and read-only: the screens only read it
        if self.searching:
            self._build_search(ui, phone, events)
        else:
            ui.toolbar("Simple Calendar Pro", actions=[
                BarAction("search", "Search", lambda: self._search(phone), rid=RID + "search"),
                BarAction("today", "Go to today", lambda: self._go_today(phone),
                          rid=RID + "go_to_today"),
                BarAction("calendar", "Change view", lambda: self._change_view(phone),
                          rid=RID + "change_view")])
            {"month": self._build_month, "day": self._build_day,
             "list": self._build_list}[self.view](ui, phone, events)
        ui.fab("add", "New event", lambda: self._new_event(phone), rid=RID + "calendar_fab")

    def _arrows(self, ui: UI, label: str, what: str, on_shift) -> None:
        r = ui._take(ui.dp(48))
        s = ui.dp(48)
        ui.mk("icon_button", (r[0] + ui.dp(8), r[1], r[0] + ui.dp(8) + s, r[3]),
              desc=f"Previous {what}", icon="arrow_back", rid=RID + "top_left_arrow",
              on_click=lambda: on_shift(-1))
        ui.mk("text", (r[0] + ui.dp(64), r[1], r[2] - ui.dp(64), r[3]), text=label,
              style="row_title", rid=RID + "top_value")
        ui.mk("icon_button", (r[2] - ui.dp(8) - s, r[1], r[2] - ui.dp(8), r[3]),
              desc=f"Next {what}", icon="chevron", rid=RID + "top_right_arrow",
              on_click=lambda: on_shift(1))

    def _build_month(self, ui: UI, phone: PhoneContext, events: list[Event]) -> None:
        y, m = self._shown_month(phone)
        self._arrows(ui, f"{calendar.month_name[m]} {y}", "month",
                     lambda k: self._shift_month(phone, k))
        head = ui._take(ui.dp(28))
        for name, c in zip(WEEKDAYS, split(head, 7, 0)):
            ui.mk("day", c, text=name[0], style="weekday")
        top, bottom = ui.y, ui.rect[3] - ui.dp(8)
        cell_h = (bottom - top) // 6
        first = dt.date(y, m, 1)
        start = first - dt.timedelta(days=(first.weekday() + 1) % 7)
        today = self._today(phone)
        line = ui.dp(16)
        fits = max(0, (cell_h - ui.dp(24)) // line)
        cells = _month_cells(phone, events, start, fits)
        for week in range(6):
            row = (ui.rect[0], top + week * cell_h, ui.rect[2], top + (week + 1) * cell_h)
            for c, (d, label, desc, titles) in zip(split(row, 7, 0), cells[week * 7:week * 7 + 7],
                                                    strict=True):
                cell = ui.mk("day", c, text=label, desc=desc, style="month", checked=d == today,
                             on_click=lambda d=d: self._open_day(phone, d, True))
                ty = c[1] + ui.dp(22)
                for title in titles:
                    ui.mk("text", (c[0] + ui.dp(2), ty, c[2] - ui.dp(2), ty + line), cell,
                          text=title, style="caption")
                    ty += line
        ui.set_y(bottom)

    def _build_day(self, ui: UI, phone: PhoneContext, events: list[Event]) -> None:
        d = self._shown_day(phone)
        self._arrows(ui, f"{calendar.month_name[d.month]} {d.day} ({d.strftime('%a')})", "day",
                     lambda k: self._shift_day(phone, k))
        todays = EventsDatabase.of(phone).cached(("on_day", d), lambda: on_day(events, d))
        if not todays:
            ui.empty("No events on this day")
            return
        with ui.scroll("day", rid=RID + "day_events"):
            for e in todays:
                ui.row(e.title, f"{span(e, uses_24h(phone))}  {e.description}".strip(),
                       on_click=lambda i=e.id: phone.start_activity(EventActivity(i)))

    def _build_list(self, ui: UI, phone: PhoneContext, events: list[Event]) -> None:
        y, m = self._shown_month(phone)
        first = dt.date(y, m, 1)
        ny, nm = divmod(y * 12 + m, 12)
        end = dt.date(ny, nm + 1, 1) + dt.timedelta(days=31)
        days = [first + dt.timedelta(days=i) for i in range((end - first).days)]
        self._arrows(ui, f"{calendar.month_name[m]} {y}", "month",
                     lambda k: self._shift_month(phone, k))
        every = _by_day(phone, events, first, len(days))
        shown = [(d, every[d]) for d in days]
        shown = [(d, es) for d, es in shown if es]
        if not shown:
            ui.empty("No upcoming events")
            return
        with ui.scroll("list", rid=RID + "calendar_events_list"):
            for d, es in shown:
                ui.header(long_date(d))
                for e in es:
                    ui.row(e.title, f"{span(e, uses_24h(phone))}  {e.location}".strip(),
                           on_click=lambda i=e.id: phone.start_activity(EventActivity(i)))

    def _build_search(self, ui: UI, phone: PhoneContext, events: list[Event]) -> None:
        ui.toolbar("Search", back=lambda: self._end_search(phone))
        ui.search("search", "Search…", rid=RID + "search_query")
        query = self.fields.get("search", "").strip().casefold()
        if not query:
            ui.empty("Type something to search")
            return
        hits = [e for e in events
                if query in f"{e.title}\n{e.location}\n{e.description}".casefold()]
        if not hits:
            ui.empty("No items found")
            return
        with ui.scroll("search", rid=RID + "search_results_list"):
            for e in hits:
                ui.row(e.title, f"{long_date(to_dt(e.start_ts).date())}  {span(e, uses_24h(phone))}",
                       on_click=lambda i=e.id: phone.start_activity(EventActivity(i)))

    # --- actions --------------------------------------------------------------------------
    def _shift_month(self, phone: PhoneContext, k: int) -> None:
        y, m = self._shown_month(phone)
        ny, nm = divmod(y * 12 + m - 1 + k, 12)
        self.month = (ny, nm + 1)
        self.scroll.pop("list", None)
        phone.changed()

    def _shift_day(self, phone: PhoneContext, k: int) -> None:
        d = self._shown_day(phone) + dt.timedelta(days=k)
        self.day = (d.year, d.month, d.day)
        self.scroll.pop("day", None)
        phone.changed()

    def _open_day(self, phone: PhoneContext, d: dt.date, from_month: bool) -> None:
        self.view, self.day, self.from_month = "day", (d.year, d.month, d.day), from_month
        self.scroll.pop("day", None)
        phone.changed()

    def _go_today(self, phone: PhoneContext) -> None:
        t = self._today(phone)
        self.month, self.day = (t.year, t.month), (t.year, t.month, t.day)
        self.scroll.clear()
        phone.changed()

    def _change_view(self, phone: PhoneContext) -> None:
        keys = [k for _, k in VIEWS]
        phone.open_popup(self, Dialog("Change view", choices=[
            Choice(label, "set_view", (key,)) for label, key in VIEWS],
            checked=keys.index(self.view)))

    def set_view(self, phone: PhoneContext, key: str) -> None:
        self.view, self.from_month = key, False
        if key == "day":
            self.day = (0, 0, 0)
        phone.changed()

    def _search(self, phone: PhoneContext) -> None:
        self.searching = True
        self.set_field("search", "")
        self.focus = "search"
        phone.wm.ime_shown = True
        phone.changed()

    def _end_search(self, phone: PhoneContext) -> None:
        self.searching = False
        self.focus = None
        phone.wm.ime_shown = False
        phone.changed()

    def _new_event(self, phone: PhoneContext) -> None:
        d = self._shown_day(phone) if self.view == "day" else None
        phone.start_activity(EventActivity(None, (d.year, d.month, d.day) if d else None))

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        self.scroll.pop("search", None)

    def on_back(self, phone: PhoneContext) -> bool:
        if self.searching:
            self._end_search(phone)
            return True
        if self.view == "day" and self.from_month:
            self.view, self.from_month = "month", False
            phone.changed()
            return True
        return False


class EventActivity(UnsavedChangesGuard, CalendarActivity):
    """The event editor: a new event (event_id None, on `day` or today) or an existing one."""

    name = ".activities.EventActivity"
    unsaved_title = "Save changes before closing?"
    unsaved_message = ""
    unsaved_buttons = (("Discard", "discard"), ("Save", "save_and_close"))

    def __init__(self, event_id: int | None = None,
                 day: tuple[int, int, int] | None = None) -> None:
        super().__init__()
        self.event_id = event_id
        self.day = day
        self.loaded = False
        self.start_ts = self.end_ts = 0
        self.repeat_interval = self.repeat_rule = 0
        #: the form as it was opened (leaving a changed form asks to save first)
        self.opened: tuple = ()

    def title(self, phone: PhoneContext) -> str:
        return "Edit event" if self.event_id else "New event"

    def _form(self) -> tuple:
        return (tuple(self.fields.get(k, "") for k in ("title", "location", "description")),
                self.start_ts, self.end_ts, self.repeat_interval)

    def dirty(self, phone: PhoneContext) -> bool:
        """BACK (or Up) on a changed form asks, as the app does, whether to save it first."""
        return self.loaded and self._form() != self.opened

    def save_and_close(self, phone: PhoneContext) -> None:
        self._save(phone)

    def _up(self, phone: PhoneContext) -> None:
        self.close(phone)

    def _load(self, phone: PhoneContext) -> None:
        self.loaded = True
        e = EventsDatabase.of(phone).get(self.event_id) if self.event_id else None
        if e is not None:
            for k in ("title", "location", "description"):
                self.set_field(k, getattr(e, k))
            self.start_ts, self.end_ts = e.start_ts, e.end_ts
            self.repeat_interval, self.repeat_rule = e.repeat_interval, e.repeat_rule
        else:
            self.event_id = None
            now = phone.now
            start = (now // 3600 + 1) * 3600   # the next whole hour
            if self.day is not None:
                start = day_start(dt.date(*self.day)) + (start % 86400)
            self.start_ts, self.end_ts = start, start + 3600
        self.opened = self._form()

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if not self.loaded:
            self._load(phone)
        actions = [BarAction("check", "Save", lambda: self._save(phone), rid=RID + "save")]
        if self.event_id:
            actions.insert(0, BarAction("delete", "Delete", lambda: self._ask_delete(phone),
                                        rid=RID + "delete"))
        ui.toolbar("Edit event" if self.event_id else "New event", back=lambda: self._up(phone),
                   actions=actions)
        ui.edit("title", "Title", rid=RID + "event_title")
        ui.edit("location", "Location", rid=RID + "event_location")
        ui.edit("description", "Description", rid=RID + "event_description")
        ui.divider()
        ui.spacer(8)
        for label, ts, which in (("Start", self.start_ts, "start"), ("End", self.end_ts, "end")):
            ui.text(label, style="caption")
            r = ui._take(ui.dp(48))
            left, right = split((r[0] + ui.dp(16), r[1], r[2] - ui.dp(16), r[3]), 2, ui.dp(16))
            d = to_dt(ts)
            ui.mk("text", left, text=long_date(d.date()), style="row_title",
                  rid=RID + f"event_{which}_date",
                  on_click=lambda w=which, d=d: open_date_picker(
                      phone, self, d.year, d.month, d.day, "set_date", (w,)))
            h24 = uses_24h(phone)
            ui.mk("text", right, text=hhmm(ts, h24), style="row_title",
                  rid=RID + f"event_{which}_time",
                  on_click=lambda w=which, d=d, h24=h24: open_clock_picker(
                      phone, self, d.hour, d.minute, "set_time", (w,), h24=h24))
        ui.divider()
        label = next((lbl for lbl, iv in REPEATS if iv == self.repeat_interval),
                     f"Every {self.repeat_interval // 86400} days")
        r = ui._take(ui.dp(56))   # as in the app: the repetition is one text view showing it
        ui.mk("text", (r[0] + ui.dp(16), r[1], r[2] - ui.dp(16), r[3]), text=label,
              style="row_title", rid=RID + "event_repetition",
              on_click=lambda: self._ask_repeat(phone))

    # --- pickers' results ----------------------------------------------------------------------
    def set_date(self, phone: PhoneContext, which: str, year: int, month: int, day: int) -> None:
        old = self.start_ts if which == "start" else self.end_ts
        new = day_start(dt.date(year, month, day)) + old % 86400
        self._set(which, new)

    def set_time(self, phone: PhoneContext, which: str, hour: int, minute: int) -> None:
        old = self.start_ts if which == "start" else self.end_ts
        self._set(which, old - old % 86400 + hour * 3600 + minute * 60)

    def _set(self, which: str, ts: int) -> None:
        if which == "start":   # the app keeps the length when the start moves
            self.end_ts += ts - self.start_ts
            self.start_ts = ts
        else:
            self.end_ts = ts

    def _ask_repeat(self, phone: PhoneContext) -> None:
        ivs = [iv for _, iv in REPEATS]
        phone.open_popup(self, Dialog("Repeat", choices=[
            Choice(lbl, "set_repeat", (iv,)) for lbl, iv in REPEATS],
            checked=ivs.index(self.repeat_interval) if self.repeat_interval in ivs else -1))

    def set_repeat(self, phone: PhoneContext, interval: int) -> None:
        self.repeat_interval = interval
        if interval == 0 or (interval % WEEK != 0 and interval < 28 * 86400):
            self.repeat_rule = 0
        elif interval % WEEK == 0:
            self.repeat_rule = 1 << (to_dt(self.start_ts).isoweekday() - 1)
        else:   # monthly, yearly: on the same day
            self.repeat_rule = 1

    # --- save, delete --------------------------------------------------------------------------
    def _save(self, phone: PhoneContext) -> None:
        title = self.fields.get("title", "").strip()
        if not title:
            phone.toast("Title cannot be empty")
            return
        if self.end_ts < self.start_ts:
            phone.toast("The end date cannot be before the start date")
            return
        if self.repeat_interval and self.repeat_interval % WEEK == 0:
            self.repeat_rule = 1 << (to_dt(self.start_ts).isoweekday() - 1)
        values = {"start_ts": self.start_ts, "end_ts": self.end_ts, "title": title,
                  "location": self.fields.get("location", "").strip(),
                  "description": self.fields.get("description", "").strip(),
                  "repeat_interval": self.repeat_interval, "repeat_rule": self.repeat_rule}
        db = EventsDatabase.of(phone)
        if self.event_id:
            db.update(self.event_id, values, phone.now)
            phone.toast("Event updated successfully")
        else:
            db.add(values, phone.now)
            phone.toast("Event added successfully")
        phone.finish_activity(self)

    def _ask_delete(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog("Delete event", "Are you sure you want to delete this event?",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "do_delete", destructive=True)]))

    def do_delete(self, phone: PhoneContext) -> None:
        if self.event_id:
            EventsDatabase.of(phone).remove(self.event_id)
        phone.toast("Event deleted")
        phone.finish_activity(self)


def _by_day(phone: PhoneContext, events: list[Event], first: dt.date, days: int) -> dict:
    """`by_day` of every event, remembered until the events table changes (the month grid
    is rebuilt on every step the calendar is on screen)."""
    return EventsDatabase.of(phone).cached(("by_day", first, days),
                                           lambda: by_day(events, first, days))


def _month_cells(phone: PhoneContext, events: list[Event], start: dt.date, fits: int) -> list[tuple]:
    """The month grid's 42 cells from `start`: (date, label, content-desc, the titles that
    fit), remembered until the events table changes."""
    def cells() -> list[tuple]:
        days = _by_day(phone, events, start, 42)
        out = []
        for k in range(42):
            d = start + dt.timedelta(days=k)
            out.append((d, str(d.day), day_desc(d.year, d.month, d.day),
                        tuple(e.title for e in days[d][:fits])))
        return out
    return EventsDatabase.of(phone).cached(("month", start, fits), cells)
