"""Phone (`com.google.android.dialer`): tabs and a dial pad, with no telephony behind them.

- `screens`: the dialer activity; `app`: the `App` the phone installs (`APP`)."""

from antrap_gym.device.sim.apps.dialer.app import Dialer

APP = Dialer

__all__ = ["APP", "Dialer"]
