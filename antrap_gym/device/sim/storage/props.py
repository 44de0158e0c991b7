"""System properties (`getprop`): what a Pixel 6 on Android 13 reports.

A phone may override some (`Phone.prop_overrides`: sim-adbd's serial, a test's
build number); `getprop` and the Settings app's About screen both read
`prop()`, so a task that reads the Android version or the build number through
`getprop` finds what the screen shows, on the simulated phone as on a real
one. `setprop` is refused, as for the shell user.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

DEFAULT_PROPS: dict[str, str] = {
    "ro.product.model": "Pixel 6",
    "ro.product.manufacturer": "Google",
    "ro.product.brand": "google",
    "ro.product.name": "oriole",
    "ro.product.device": "oriole",
    "ro.build.version.release": "13",
    "ro.build.version.sdk": "33",
    "ro.build.id": "TQ3A.230805.001",
    "ro.build.display.id": "TQ3A.230805.001",
    "ro.build.type": "user",
    "ro.build.fingerprint": "google/oriole/oriole:13/TQ3A.230805.001/10316531:user/release-keys",
    "ro.product.cpu.abi": "arm64-v8a",
    "ro.serialno": "SIMPHONE0001",
    "ro.sf.lcd_density": "420",
    "persist.sys.timezone": "UTC",
    "persist.sys.locale": "en-US",
    "sys.boot_completed": "1",
    "ro.kernel.qemu": "0",
    "ro.antrap.simulated": "1",
}


def prop(phone: PhoneContext, key: str, default: str = "") -> str:
    """One property as `getprop KEY` reports it on this phone."""
    overrides = getattr(phone, "prop_overrides", None) or {}
    return overrides.get(key, DEFAULT_PROPS.get(key, default))
