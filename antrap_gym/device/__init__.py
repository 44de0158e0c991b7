"""Devices: the protocol every backend implements, and the backends."""

from antrap_gym.device.elements import BoundingBox, UIElement, parse_ui_xml, serialize_elements
from antrap_gym.device.protocol import (
    Device,
    DeviceError,
    DeviceLostError,
    ShellResult,
    Snapshot,
)


def make_device(spec: str = "sim", **kwargs) -> Device:
    """Build a device from a name: `sim` (the simulated phone)."""
    if spec == "sim":
        from antrap_gym.device.sim import SimDevice

        return SimDevice(**kwargs)
    raise ValueError(f"unknown device {spec!r} (expected 'sim')")


__all__ = [
    "BoundingBox",
    "Device",
    "DeviceError",
    "DeviceLostError",
    "ShellResult",
    "Snapshot",
    "UIElement",
    "make_device",
    "parse_ui_xml",
    "serialize_elements",
]
