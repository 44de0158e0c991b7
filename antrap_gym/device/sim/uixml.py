"""`uiautomator dump` XML for the simulated phone's focused window."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.elements import XML_HEADER, node_attrs
from antrap_gym.device.sim.toolkit.views import View

if TYPE_CHECKING:
    from antrap_gym.device.sim.phone import Phone


def dump_xml(phone: Phone) -> str:
    """The whole focused window hierarchy, nested, as uiautomator writes it."""
    win = phone.focused_window()
    parts = [XML_HEADER, '<hierarchy rotation="0">']
    _node(win.root, 0, win.package, parts)
    parts.append("</hierarchy>")
    return "".join(parts)


def _node(v: View, index: int, package: str, parts: list[str]) -> None:
    el = v.to_element(package)
    kids = [c for c in v.children if c.clip[2] > c.clip[0] and c.clip[3] > c.clip[1]]
    if not kids:
        parts.append(f"<node {node_attrs(el, index)} />")
        return
    parts.append(f"<node {node_attrs(el, index)}>")
    for i, c in enumerate(kids):
        _node(c, i, package, parts)
    parts.append("</node>")
