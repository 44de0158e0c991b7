"""The Phone (dialer) app on the simulated phone: it opens from the launcher under its
label, shows its tabs and a dial pad, and is what OpenAppTaskEval's "dialer" means."""

from __future__ import annotations

import numpy as np

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks import TEMPLATES
from tests.screen import find

PKG = "com.google.android.dialer"


def test_it_opens_with_its_tabs_and_dials_digits():
    dev = SimDevice()
    assert dev.app_packages()["phone"] == PKG
    dev.launch(PKG)
    assert dev.foreground() == (PKG, "com.google.android.dialer.extensions.GoogleDialtactsActivity")
    dev.tap(*find(dev, text="Contacts").center)
    assert find(dev, text="You have no contacts on this device") is not None
    dev.tap(*find(dev, desc="key pad").center)
    for key in "555":
        dev.tap(*next(e for e in dev.ui_elements() if e.text == key
                      and e.resource_name.endswith("dialpad_key_number")).center)
    assert any(e.text == "555" for e in dev.ui_elements())
    dev.tap(*find(dev, desc="backspace").center)
    assert any(e.text == "55" for e in dev.ui_elements())
    dev.key("BACK")
    assert find(dev, desc="key pad") is not None


def test_open_app_dialer_passes_with_the_phone_app_in_front():
    cls = TEMPLATES["OpenAppTaskEval"]
    seed = next(s for s in range(50)
                if cls.generate_params(np.random.default_rng(s))["app_name"] == "dialer")
    task = cls(cls.generate_params(np.random.default_rng(seed)))
    dev = SimDevice()
    dev.launch(PKG)
    task.setup(dev)
    assert task.is_successful(dev) == 0.0  # set-up stopped it
    dev.launch(PKG)
    assert task.is_successful(dev) == 1.0
