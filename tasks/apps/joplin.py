"""Joplin's task adapter: its package, screens, seeded data, recipes and readers."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "net.cozic.joplin"


def state(device: Device) -> dict:
    """What the contract compares before set-up and after tear-down."""
    return {}
