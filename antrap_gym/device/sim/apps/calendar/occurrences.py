"""When an event happens: the days a (possibly repeating) event falls on, as the app's
views show it. Repetition follows what Simple Calendar Pro stores: `repeat_interval`
in seconds (a multiple of a day or a week; 2592001 monthly, 31536000 yearly), a
weekly `repeat_rule` bitmask (Mon=1 .. Sun=64; 0 means the start's weekday), and
`repeat_limit` (0: forever, else the last start, epoch seconds).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.calendar.store import DAY, MONTH, WEEK, YEAR

if TYPE_CHECKING:
    from antrap_gym.device.sim.apps.calendar.store import Event


def to_dt(ts: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(ts), tz=dt.UTC)


def day_start(d: dt.date) -> int:
    return int(dt.datetime(d.year, d.month, d.day, tzinfo=dt.UTC).timestamp())


def _repeats_on(e: Event, d: dt.date) -> bool:
    start = to_dt(e.start_ts).date()
    if d < start:
        return False
    gap = (d - start).days
    iv = e.repeat_interval
    if iv == MONTH:
        return d.day == start.day
    if iv == YEAR:
        return (d.month, d.day) == (start.month, start.day)
    if iv % WEEK == 0:
        rule = e.repeat_rule or (1 << (start.isoweekday() - 1))
        weeks = (gap + start.weekday() - d.weekday()) // 7
        return bool(rule & (1 << (d.isoweekday() - 1))) and weeks % (iv // WEEK) == 0
    if iv % DAY == 0:
        return gap % (iv // DAY) == 0
    return gap == 0


def occurs_on(e: Event, d: dt.date) -> bool:
    """Whether the event (or one of its repetitions) overlaps day `d`."""
    if e.repeat_interval <= 0:
        first, last = to_dt(e.start_ts).date(), to_dt(max(e.start_ts, e.end_ts - 1)).date()
        return first <= d <= last
    return _repeats_on(e, d)


def _order(d: dt.date, hits: list[Event]) -> list[Event]:
    return sorted(hits, key=lambda e: (to_dt(e.start_ts).time() if e.repeat_interval
                                        else to_dt(max(e.start_ts, day_start(d))).time(), e.id))


def on_day(events: list[Event], d: dt.date) -> list[Event]:
    """The events on day `d`, by start time of day."""
    return _order(d, [e for e in events if occurs_on(e, d)])


_EPOCH = dt.date(1970, 1, 1).toordinal()


def by_day(events: list[Event], first: dt.date, days: int) -> dict[dt.date, list[Event]]:
    """`on_day` for every day of [first, first + days) at once (the month and list views):
    a one-off event goes straight to the days it spans (UTC days by integer division);
    only repeating events are tested day by day."""
    lo = first.toordinal() - _EPOCH
    hi = lo + days
    buckets: dict[int, list[Event]] = {}
    repeating = []
    for e in events:
        if e.repeat_interval > 0:
            repeating.append(e)
            continue
        a, b = e.start_ts // DAY, max(e.start_ts, e.end_ts - 1) // DAY
        for k in range(max(a, lo), min(b, hi - 1) + 1):
            buckets.setdefault(k, []).append(e)
    out = {}
    for k in range(lo, hi):
        d = dt.date.fromordinal(k + _EPOCH)
        hits = buckets.get(k, []) + [e for e in repeating if _repeats_on(e, d)]
        out[d] = _order(d, hits) if len(hits) > 1 else hits
    return out
