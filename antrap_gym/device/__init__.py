"""Devices: the protocol every backend implements, and the backends."""

from antrap_gym.device.elements import BoundingBox, UIElement, parse_ui_xml, serialize_elements
from antrap_gym.device.protocol import (
    Device,
    DeviceError,
    DeviceLostError,
    DeviceReplacedError,
    ShellResult,
    Snapshot,
)


def make_device(spec: str = "sim", **kwargs) -> Device:
    """Build a device from a name: `sim` (the simulated phone), `adb:SERIAL`, or
    `adb:HOST:PORT/SERIAL` (a device behind a remote adb server)."""
    if spec == "sim":
        from antrap_gym.device.sim import SimDevice

        return SimDevice(**kwargs)
    if spec.startswith("adb:"):
        from antrap_gym.device.adb import AdbDevice, parse_device_name

        kwargs.pop("width", None)
        kwargs.pop("height", None)
        # options in the name (adb:SERIAL?retry_window=10) and keywords: the keyword wins
        return AdbDevice(**{**parse_device_name(spec), **kwargs})
    raise ValueError(f"unknown device {spec!r}: use sim, adb:SERIAL or adb:HOST:PORT/SERIAL")


__all__ = [
    "BoundingBox",
    "Device",
    "DeviceError",
    "DeviceLostError",
    "DeviceReplacedError",
    "ShellResult",
    "Snapshot",
    "UIElement",
    "make_device",
    "parse_ui_xml",
    "serialize_elements",
]
