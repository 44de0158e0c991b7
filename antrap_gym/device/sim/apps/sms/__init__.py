"""Simple SMS Messenger (`com.simplemobiletools.smsmessenger`) and the SMS provider it shows.

- `screens`: the conversation list, a new conversation, a thread;
- `provider`: `content://sms` over the telephony provider's `mmssms.db` (AOSP's tables);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.sms.app import SimpleSms
from antrap_gym.device.sim.apps.sms.provider import Message, SmsProvider, Thread

APP = SimpleSms

__all__ = ["APP", "Message", "SimpleSms", "SmsProvider", "Thread"]
