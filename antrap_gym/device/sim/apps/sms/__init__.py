"""Simple SMS Messenger: conversations and compose over the telephony provider (content://sms)
(`com.simplemobiletools.smsmessenger`).

- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.sms.app import SimpleSms

APP = SimpleSms

__all__ = ["APP", "SimpleSms"]
