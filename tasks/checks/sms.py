"""Sent text messages, read from the telephony provider (`content query --uri
content://sms/sent`) as AndroidWorld's sms_validators read them."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from antrap_gym.tasks.checks.base import Check, NotPrepared
from antrap_gym.tasks.checks.match import fuzzy_ratio
from antrap_gym.tasks.checks.provider import query

if TYPE_CHECKING:
    from antrap_gym.device import Device

SENT_URI = "content://sms/sent"
_COLUMNS = ["_id", "address", "date", "body"]


def bare_number(address: str) -> str:
    """The address with spaces and dashes removed, as the reference compares numbers."""
    return address.replace("-", "").replace(" ", "")


def sent_messages(device: Device) -> list[dict[str, str]]:
    """The sent box, newest first (SmsProvider's order)."""
    return query(device, SENT_URI, _COLUMNS)


def _device_ms(device: Device) -> int:
    res = device.shell("date +%s")
    return int(res.stdout.strip()) * 1000 if res.exit_code == 0 and res.stdout.strip().isdigit() else 0


@dataclasses.dataclass
class SmsSent(Check):
    """A message to `number` (spaces and dashes aside, else exactly) whose body matches
    `message` (difflib ratio >= `fuzzy`, casefolded), dated within the last `minutes` of
    the device clock, while `package` (when given) is in front: AndroidWorld's
    SimpleSMSSendSms.is_successful."""

    number: str
    message: str
    minutes: int = 5
    fuzzy: float = 0.9
    package: str | None = "com.simplemobiletools.smsmessenger"

    def score(self, device: Device, answer: str | None) -> float:
        if self.package is not None and device.foreground()[0] != self.package:
            return 0.0
        now, want = _device_ms(device), bare_number(self.number)
        for m in sent_messages(device):
            if (bare_number(m["address"]) == want and fuzzy_ratio(m["body"], self.message) >= self.fuzzy
                    and m["date"].lstrip("-").isdigit()
                    and now - int(m["date"]) <= self.minutes * 60_000):
                return 1.0
        return 0.0


@dataclasses.dataclass
class SmsResent(Check):
    """Exactly one message more in the sent box than after set-up, and the newest has the
    address (spaces and dashes aside) and body (fuzzy) of the oldest one sent before:
    AndroidWorld's SimpleSmsResend.is_successful."""

    fuzzy: float = 0.9
    before: list[dict[str, str]] | None = dataclasses.field(default=None, init=False, repr=False,
                                                            compare=False)

    def prepare(self, device: Device) -> None:
        self.before = sent_messages(device)

    def score(self, device: Device, answer: str | None) -> float:
        if self.before is None:
            raise NotPrepared("SmsResent needs the sent box as set up")
        after = sent_messages(device)
        if not self.before or len(after) != len(self.before) + 1:
            return 0.0
        new, old = after[0], self.before[-1]
        return float(bare_number(new["address"]) == bare_number(old["address"])
                     and fuzzy_ratio(new["body"], old["body"]) >= self.fuzzy)
