"""Helpers for the Chrome and web engine tests: push a page, open it in Chrome (through
the first-run screens), find, tap and read elements as a user would."""

from __future__ import annotations

import shlex

from antrap_gym.device.sim import SimDevice

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


def find(dev: SimDevice, text: str | None = None, desc: str | None = None, rid: str | None = None,
         cls: str | None = None):
    for e in dev.ui_elements():
        if text is not None and e.text != text:
            continue
        if desc is not None and e.content_description != desc:
            continue
        if rid is not None and e.resource_name != rid:
            continue
        if cls is not None and not (e.class_name or "").endswith(cls):
            continue
        return e
    return None


def center(e) -> tuple[int, int]:
    b = e.bbox_pixels
    return (b.x_min + b.x_max) // 2, (b.y_min + b.y_max) // 2


def tap(dev: SimDevice, **kw) -> None:
    e = find(dev, **kw)
    assert e is not None, f"no element {kw}: {texts(dev)}"
    dev.tap(*center(e))


def texts(dev: SimDevice) -> list[str]:
    return [e.text for e in dev.ui_elements() if e.text]
