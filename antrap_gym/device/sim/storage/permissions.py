"""Runtime permissions: which dangerous permissions each app holds.

Android keeps the grants in the permission controller's own state, not in the app's
data; `pm grant` / `pm revoke` change them, `pm clear` resets an app's to none (its
next start asks again) and `dumpsys package PKG` lists them under "runtime
permissions". An app declares the ones it may ask for (`App.permissions`) and asks
with the toolkit's prompt (`toolkit/permission.py`). Plain data: it lives in the
phone's saved state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CAMERA = "android.permission.CAMERA"
RECORD_AUDIO = "android.permission.RECORD_AUDIO"
FINE_LOCATION = "android.permission.ACCESS_FINE_LOCATION"
COARSE_LOCATION = "android.permission.ACCESS_COARSE_LOCATION"
POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"


@dataclass(slots=True)
class RuntimePermissions:
    """package -> the runtime permissions granted to it, in the order they were granted
    (an insertion-ordered dict, not a set: a set's order follows the process's string
    hashing, so a restored phone pickled differently from the phone it was saved from)."""

    granted: dict[str, dict[str, None]] = field(default_factory=dict)

    def holds(self, package: str, permission: str) -> bool:
        return permission in self.granted.get(package, ())

    def grant(self, package: str, permission: str) -> None:
        self.granted.setdefault(package, {})[permission] = None

    def revoke(self, package: str, permission: str) -> None:
        self.granted.get(package, {}).pop(permission, None)

    def reset(self, package: str) -> None:
        """`pm clear`: the app holds none of them again."""
        self.granted.pop(package, None)

    def dump(self, package: str, requested: tuple[str, ...]) -> str:
        """The "runtime permissions:" block of `dumpsys package`, one line each."""
        lines = ["    runtime permissions:"]
        for perm in requested:
            lines.append(f"      {perm}: granted={str(self.holds(package, perm)).lower()}, "
                         "flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]")
        return "\n".join(lines) + "\n"
