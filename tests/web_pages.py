"""Helpers for the Chrome and web engine tests: push a page, open it in Chrome (through
the first-run screens); `tests.screen` finds, taps and reads its elements."""

from __future__ import annotations

import shlex

from antrap_gym.device.sim import SimDevice
from tests.screen import find, tap

URL = "file:///sdcard/Download/task.html"
MAIN = "com.android.chrome/com.google.android.apps.chrome.Main"


def push(dev: SimDevice, html: str, path: str = "/sdcard/Download/task.html") -> None:
    res = dev.shell(f"mkdir -p /sdcard/Download && printf '%s' {shlex.quote(html)} > {path}")
    assert res.exit_code == 0, res.stderr


def finish_first_run(dev: SimDevice) -> None:
    for label in ("Use without an account", "No thanks", "Allow"):
        if find(dev, text=label) is not None:
            tap(dev, text=label)


def open_page(html: str, dev: SimDevice | None = None) -> SimDevice:
    dev = dev or SimDevice()
    push(dev, html)
    res = dev.shell(f"am start -n {MAIN} -d {URL}")
    assert res.exit_code == 0, res.stderr
    finish_first_run(dev)
    return dev


def center(e) -> tuple[int, int]:
    b = e.bbox_pixels
    return (b.x_min + b.x_max) // 2, (b.y_min + b.y_max) // 2
