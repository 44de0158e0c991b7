"""The Clock app on the simulated phone, and its tasks.

Screens are driven through the device's public interface (taps, the element list);
alarms are read back from alarms.db through `sqlite3` and `pull`, the window in front
through `dumpsys window`, as the tasks read them.
"""

from __future__ import annotations

import sqlite3
import tempfile

import numpy as np

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import TEMPLATES
from antrap_gym.tasks.apps import clock as ck
from tests.screen import find, need, tap

PKG = "com.google.android.deskclock"
DB = f"/data/data/{PKG}/databases/alarms.db"


def shown(dev, rid: str) -> str:
    return need(dev, rid=rid).text


def opened(tab: str | None = None) -> SimDevice:
    dev = SimDevice()
    assert dev.launch(PKG).ok
    if tab:
        tap(dev, desc=tab)
    return dev


def alarms(dev) -> list[tuple]:
    out = dev.shell(f"sqlite3 {DB} 'SELECT hour, minutes, enabled FROM alarm_templates ORDER BY _id'")
    return [tuple(int(x) for x in line.split("|")) for line in out.stdout.split()]


# --- the app ---------------------------------------------------------------------------------


def test_it_opens_on_the_alarm_tab_with_the_two_alarms_a_fresh_install_has():
    dev = opened()
    assert dev.foreground() == (PKG, "com.android.deskclock.DeskClock")
    texts = [e.text for e in dev.ui_elements()]
    assert "8:30\u202fAM" in texts and "9:00\u202fAM" in texts
    assert alarms(dev) == [(8, 30, 0), (9, 0, 0)]
    # every tab is a navigation item (content-desc) with its label
    for label in ("Alarm", "Clock", "Timer", "Stopwatch", "Bedtime"):
        n = sum(1 for e in dev.ui_elements() if label in (e.text, e.content_description))
        assert n == 2, label


def test_an_alarm_is_added_with_the_time_picker_switched_and_deleted():
    dev = opened()
    tap(dev, desc="Add alarm")
    for rid, value in (("input_hour", "6"), ("input_minute", "45")):
        tap(dev, rid=rid)
        dev.clear_text()
        dev.type_text(value)
    tap(dev, text="OK")
    assert alarms(dev) == [(8, 30, 0), (9, 0, 0), (6, 45, 1)]
    row = find(dev, text="6:45\u202fAM")
    switch = next(e for e in dev.ui_elements() if e.class_name.endswith("Switch")
                  and abs(e.center[1] - row.center[1]) < 60)
    dev.tap(*switch.center)
    assert alarms(dev)[-1] == (6, 45, 0)
    dev.long_press(*row.center)
    tap(dev, text="Delete")
    assert alarms(dev) == [(8, 30, 0), (9, 0, 0)]
    # the database pulled opens with sqlite3 as one pulled from a phone
    with tempfile.NamedTemporaryFile(suffix=".db") as f:
        f.write(dev.pull(DB))
        f.flush()
        rows = sqlite3.connect(f.name).execute("SELECT hour FROM alarm_templates").fetchall()
    assert rows == [(8,), (9,)]


def test_timer_digits_shift_in_from_the_right_and_delete_takes_the_last_off():
    dev = opened("Timer")
    assert shown(dev, "timer_setup_time") == "00h 00m 00s"
    assert find(dev, desc="Start") is None  # no Start before a digit
    for d in "0", "1", "2", "3":  # a leading zero is ignored
        tap(dev, rid="timer_setup_digit_" + d)
    assert shown(dev, "timer_setup_time") == "00h 01m 23s"
    assert find(dev, rid="timer_setup_time").content_description == "0 hours, 1 minutes, 23 seconds"
    tap(dev, desc="Delete")
    assert shown(dev, "timer_setup_time") == "00h 00m 12s"
    for d in "345678":  # six digits at most
        tap(dev, rid="timer_setup_digit_" + d)
    assert shown(dev, "timer_setup_time") == "12h 34m 56s"
    e = find(dev, desc="Delete")
    dev.long_press(*e.center)
    assert shown(dev, "timer_setup_time") == "00h 00m 00s"


def test_a_started_timer_counts_down_on_the_phone_clock():
    dev = opened("Timer")
    for d in "130":  # 1 minute 30 seconds
        tap(dev, rid="timer_setup_digit_" + d)
    tap(dev, desc="Start")
    assert find(dev, rid="timer_setup_time") is None  # the entry gives way to the countdown
    first = shown(dev, "timer_time_text")
    assert first in ("1:30", "1:29")
    dev.wait(10)
    later = shown(dev, "timer_time_text")
    assert later != first and later.startswith("1:")
    tap(dev, desc="Pause")
    paused = shown(dev, "timer_time_text")
    dev.wait(5)
    assert shown(dev, "timer_time_text") == paused
    tap(dev, desc="Delete")
    assert shown(dev, "timer_setup_time") == "00h 00m 00s"


def test_stopwatch_start_lap_pause_reset():
    dev = opened("Stopwatch")
    assert shown(dev, "stopwatch_time_text") == "00:00.00"
    tap(dev, desc="Start")
    assert find(dev, desc="Pause") and find(dev, desc="Lap")
    dev.wait(3)
    running = shown(dev, "stopwatch_time_text")
    assert running != "00:00.00"
    tap(dev, desc="Lap")
    assert find(dev, text="# 1") is not None
    tap(dev, desc="Pause")
    assert find(dev, desc="Start") and find(dev, desc="Reset") and not find(dev, desc="Lap")
    paused = shown(dev, "stopwatch_time_text")
    dev.wait(5)
    assert shown(dev, "stopwatch_time_text") == paused
    tap(dev, desc="Reset")
    assert shown(dev, "stopwatch_time_text") == "00:00.00"


def test_the_tab_is_remembered_and_pm_clear_resets_tab_stopwatch_and_alarms():
    dev = opened("Stopwatch")
    tap(dev, desc="Start")
    dev.shell(f"sqlite3 {DB} 'DELETE FROM alarm_templates'")
    dev.shell(f"am force-stop {PKG}")
    dev.launch(PKG)
    assert find(dev, desc="Pause") is not None  # still on the Stopwatch tab, still running
    assert dev.shell(f"pm clear {PKG}").stdout.strip() == "Success"
    dev.launch(PKG)
    assert find(dev, text="8:30\u202fAM") is not None  # on the Alarm tab again
    assert alarms(dev) == [(8, 30, 0), (9, 0, 0)]
    tap(dev, desc="Stopwatch")
    assert find(dev, desc="Start") and shown(dev, "stopwatch_time_text") == "00:00.00"


# --- the tasks --------------------------------------------------------------------------------


def make(tid: str, seed: int = 0):
    cls = TEMPLATES[tid]
    return cls(cls.generate_params(np.random.default_rng(seed)))


def test_timer_entry_passes_on_the_entered_value_and_not_once_started():
    task = make("ClockTimerEntry", 3)
    dev = SimDevice()
    task.setup(dev)
    p = task.params
    dev.launch(PKG)
    tap(dev, desc="Timer")
    for d in f"{p['hours']:02d}{p['minutes']:02d}{p['seconds']:02d}".lstrip("0"):
        tap(dev, rid="timer_setup_digit_" + d)
    assert task.is_successful(dev) == 1.0
    dev.key("HOME")
    assert task.is_successful(dev) == 0.0  # the Clock must be in front
    dev.launch(PKG)
    tap(dev, desc="Start")
    assert task.is_successful(dev) == 0.0


def test_paused_verify_wants_the_stopwatch_where_the_reference_takes_a_paused_timer():
    task = make("ClockStopWatchPausedVerify")
    dev = SimDevice()
    task.setup(dev)
    assert task.is_successful(dev) == 0.0  # set-up closes the Clock
    dev.launch(PKG)
    tap(dev, desc="Timer")
    tap(dev, rid="timer_setup_digit_5")
    assert task.reference_check(dev) == 1.0  # a Start button and two Stopwatch labels
    assert task.is_successful(dev) == 0.0
    tap(dev, desc="Stopwatch")
    assert task.is_successful(dev) == 1.0
    tap(dev, desc="Start")
    assert task.is_successful(dev) == 0.0


def test_stopwatch_running_passes_once_started_only():
    task = make("ClockStopWatchRunning")
    dev = SimDevice()
    task.setup(dev)
    dev.launch(PKG)
    tap(dev, desc="Stopwatch")
    assert task.is_successful(dev) == 0.0
    tap(dev, desc="Start")
    assert task.is_successful(dev) == 1.0


def test_setup_clears_the_clock_and_teardown_puts_the_alarms_back():
    dev = opened()
    tap(dev, desc="Add alarm")
    tap(dev, text="OK")
    before = ck.state(dev)
    assert len(before) == 3
    task = make("ClockStopWatchRunning")
    task.setup(dev)
    assert len(ck.state(dev)) == 2 and dev.foreground()[0] != PKG
    task.teardown(dev)
    assert ck.state(dev) == before
