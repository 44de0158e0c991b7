"""Simple Draw Pro (`com.simplemobiletools.draw.pro`) for tasks: its drawings are image
files on shared storage (Pictures by default), so set-up and checks are file commands
(tasks/apps/gallery.py's `Absent`, `test -f`); plus AndroidWorld's file-name draw and
the app's screens for solutions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.steps import OpenApp

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.simplemobiletools.draw.pro"
APP_NAME = "Simple Draw Pro"
MAIN = "com.simplemobiletools.draw.pro.activities.MainActivity"
PICTURES = "/sdcard/Pictures"
#: AndroidWorld's words and extensions for the drawing's name
WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
EXTENSIONS = (".png", ".svg", ".jpg")


def random_drawing_name(rng: np.random.Generator) -> str:
    """word_adjective_noun_modifier.ext (AndroidWorld's: a word, a random file name, an
    extension)."""
    word = WORDS[int(rng.integers(len(WORDS)))]
    return f"{word}_{mk.random_file_name(rng)}{EXTENSIONS[int(rng.integers(len(EXTENSIONS)))]}"


def state(device: Device) -> dict[str, bytes | None]:
    """What the contract compares before set-up and after tear-down: the Pictures folder."""
    return read_tree(device, PICTURES) or {}


def open_app() -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG)
