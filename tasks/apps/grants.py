"""Runtime permission grants over the shell, for the adapters of apps that ask for them:
read from `dumpsys package PKG` ("runtime permissions:" lines), changed with `pm grant`
/ `pm revoke`, reset with `pm clear`."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.recipes import Recipe, q, sh

if TYPE_CHECKING:
    from antrap_gym.device import Device

_GRANT = re.compile(r"^\s+([\w.]+): granted=(true|false)", re.M)


def granted(device: Device, package: str) -> tuple[str, ...]:
    """The runtime permissions `package` holds, sorted."""
    out = device.shell(f"dumpsys package {q(package)}").stdout
    block = out.split("runtime permissions:", 1)[-1] if "runtime permissions:" in out else ""
    return tuple(sorted(p for p, on in _GRANT.findall(block) if on == "true"))


@dataclasses.dataclass
class ClearApp(Recipe):
    """`pm clear PKG`: the app stopped, its data and its permission grants as a fresh
    install has them (its first start asks again). Tear-down clears it once more and
    grants back what it held; its data beyond that is the adapter's to restore."""

    package: str

    def save(self, device: Device) -> Any:
        return granted(device, self.package)

    def run(self, device: Device) -> None:
        sh(device, f"pm clear {q(self.package)}")

    def restore(self, device: Device, saved: Any) -> None:
        device.shell(f"pm clear {q(self.package)}")
        for perm in saved:
            device.shell(f"pm grant {q(self.package)} {q(perm)}")
