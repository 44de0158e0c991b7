"""Audio Recorder (`com.dimowner.audiorecorder`) for tasks: its records folder
(AndroidWorld's AUDIORECORDER_DATA), the name draw of its file-name task, its screens
for solutions, and what the contract compares (its permission grants; the records are
under /sdcard, which the contract reads whole).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps.grants import granted
from antrap_gym.tasks.steps import OpenApp, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.dimowner.audiorecorder"
APP_NAME = "Audio Recorder"
WELCOME = "com.dimowner.audiorecorder.app.welcome.WelcomeActivity"
MAIN = "com.dimowner.audiorecorder.app.main.MainActivity"
RECORDS_LIST = "com.dimowner.audiorecorder.app.records.RecordsActivity"
RECORDS = f"/storage/emulated/0/Android/data/{PKG}/files/Music/records"
EXT = ".m4a"
#: the words AndroidWorld's file-name task draws from
WORDS = ("interview", "meeting", "lecture", "session", "note", "conference", "webinar",
         "workshop", "seminar", "briefing", "discussion", "talk", "presentation", "training",
         "guidance", "memo", "narration", "storytelling", "journal", "diary", "debate",
         "symposium", "roundtable", "consultation", "review")
FIXED_MODS = ("backup", "copy", "final", "edited")
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"


def modified_name(rng: np.random.Generator, base: str) -> str:
    """A variant of `base` ("note.m4a") as AndroidWorld's generate_modified_file_name
    makes one: a date, four random characters or a fixed word, before or after the name,
    joined with "_"; the extension kept."""
    stem, dot, ext = base.rpartition(".")
    kind = int(rng.integers(3))
    if kind == 0:
        day = dt.date(2023, 1, 1) + dt.timedelta(days=int(rng.integers(365)))
        mod = day.strftime("%Y_%m_%d")
    elif kind == 1:
        mod = "".join(_LETTERS[int(i)] for i in rng.integers(len(_LETTERS), size=4))
    else:
        mod = FIXED_MODS[int(rng.integers(len(FIXED_MODS)))]
    name = f"{mod}_{stem}" if rng.random() < 0.5 else f"{stem}_{mod}"
    return name + dot + ext


def draw_file_name(rng: np.random.Generator) -> dict[str, str]:
    """AndroidWorld's draw: a word + .m4a, modified; the app adds .m4a to it on saving."""
    return {"file_name": modified_name(rng, WORDS[int(rng.integers(len(WORDS)))] + EXT)}


def state(device: Device) -> dict[str, Any]:
    """What the contract compares before set-up and after tear-down: the grants."""
    return {"granted": granted(device, PKG)}


# --- screens and steps -------------------------------------------------------------------------


def open_app(done: Any = None) -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG, done=done)


def tap(screen: str, desc: str | None = None, text: str | None = None, rid: str | None = None,
        done: Any = None) -> Tap:
    return Tap(screen=screen, target=Target(desc=desc, text=text, rid=rid), done=done)
