from __future__ import annotations

import gymnasium as gym
import pytest

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.device.sim import SimDevice
from tests.adb_server import adb_server


@pytest.fixture(scope="module")
def adb(tmp_path_factory):
    """A private adb server (the stock binary) for this module's tests."""
    yield from adb_server(tmp_path_factory)


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


@pytest.fixture
def text_env():
    env = gym.make("antrap/AndroidSim-Text-v0")
    yield env
    env.close()


@pytest.fixture
def shot_env():
    env = gym.make("antrap/AndroidSim-v0")
    yield env
    env.close()


def find(dev, text=None, desc=None, cls=None):
    """The first element with this text / description / class suffix."""
    for el in dev.ui_elements():
        if text is not None and el.text != text:
            continue
        if desc is not None and el.content_description != desc:
            continue
        if cls is not None and not (el.class_name or "").endswith(cls):
            continue
        return el
    raise AssertionError(f"no element text={text!r} desc={desc!r} cls={cls!r} on screen: "
                         f"{[e.label for e in dev.ui_elements()]}")


def tap_on(dev, **kw) -> None:
    x, y = find(dev, **kw).center
    dev.tap(x, y)
