"""Which boot of which phone a device is: its boot id and uptime, as any Android shell tells.

A phone reached over a link (adb) can come back from an outage as another phone -- a
rebooted one, a factory-fresh emulator, a restarted `antrap sim-adbd` -- that never had
the episode's task set up. The kernel draws a new boot id (`/proc/sys/kernel/random/
boot_id`) at every boot, and its uptime (`/proc/uptime`) only grows within one boot: a
different boot id, or an uptime that went backwards (an emulator restarted from a
snapshot of the same boot), says the phone is not the one the episode began on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
UPTIME_PATH = "/proc/uptime"
#: one read, both files; world-readable on Android (the shell user may read them)
READ_COMMAND = f"cat {BOOT_ID_PATH} {UPTIME_PATH}"
#: /proc/uptime has two decimals: a reading this much lower is not rounding
UPTIME_SLACK_S = 0.02

_BOOT_ID = re.compile(r"^\s*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s*$",
                      re.MULTILINE | re.IGNORECASE)
_UPTIME = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+\d+(?:\.\d+)?\s*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Identity:
    """A phone's boot id and uptime (None: the phone did not tell)."""

    boot_id: str | None
    uptime_s: float | None

    @classmethod
    def parse(cls, text: str) -> Identity:
        """From the output of `READ_COMMAND` (either part may be missing)."""
        boot = _BOOT_ID.search(text)
        up = _UPTIME.search(text)
        return cls(boot.group(1).lower() if boot else None, float(up.group(1)) if up else None)

    @property
    def known(self) -> bool:
        return self.boot_id is not None or self.uptime_s is not None

    def differs(self, now: Identity) -> str | None:
        """Why `now` is not the same boot as this one, or None when nothing says so."""
        if self.boot_id is not None:
            if now.boot_id is None:
                return f"it no longer tells its boot id (it was {self.boot_id})"
            if now.boot_id != self.boot_id:
                return (f"its boot id changed from {self.boot_id} to {now.boot_id}: it rebooted, "
                        "or another phone answers at its address")
        if (self.uptime_s is not None and now.uptime_s is not None
                and now.uptime_s + UPTIME_SLACK_S < self.uptime_s):
            return (f"its uptime went back from {self.uptime_s:.2f} s to {now.uptime_s:.2f} s: "
                    "it rebooted, or a snapshot of it was loaded")
        return None
