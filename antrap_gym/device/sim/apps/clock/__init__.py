"""Clock (`com.google.android.deskclock`): alarms, the time, a timer, a stopwatch.

- `store`: alarms.db (AOSP's `alarm_templates`) and the preferences that hold the
  stopwatch, the timer and the selected tab, both on the phone's clock;
- `screens`: the DeskClock activity and its tabs;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.clock.app import Clock

APP = Clock

__all__ = ["APP", "Clock"]
