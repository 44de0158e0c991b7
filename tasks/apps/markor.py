"""Markor (`net.gsantner.markor`) for tasks: notes are files under /sdcard, seeded with
the shell (`printf '%s' ... > file`, one call for a whole folder tree) after clearing
the Markor folder and force-stopping the app, so templates are independent of each
other and of whatever an agent left behind; plus the app's screens for solutions.
"""

from __future__ import annotations

import base64
import dataclasses
import posixpath
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "net.gsantner.markor"
ROOT = "/sdcard/Documents/Markor"
MAIN = ".activity.MainActivity"
DOC = ".activity.DocumentActivity"
FAB = "Create a new file or folder"
#: a long-press menu open over the list (the oracle re-opens it after a disruption)
MENU = MAIN + "|menu"

NOTE_NAMES = (
    "grocery_list", "meeting_notes", "travel_plans", "book_ideas", "workout_log", "recipes",
    "birthday_gifts", "project_todo", "reading_list", "weekend_plans", "budget_2023",
    "garden_notes", "packing_list", "movie_watchlist", "daily_journal", "study_plan",
    "car_maintenance", "home_repairs", "podcast_notes", "gift_ideas", "conference_talks",
    "band_rehearsal", "language_practice", "wine_tasting", "yoga_routine", "bike_route",
    "passwords_hint", "interview_prep", "cleaning_schedule", "party_playlist",
)
NOTE_TEXTS = (
    "Buy milk, eggs and sourdough bread.",
    "Call the dentist on Monday at 10am.",
    "Flight to Lisbon leaves at 7:45 from gate B12.",
    "Ask Priya about the quarterly report draft.",
    "Run 5 km on Tuesday and Thursday mornings.",
    "Water the tomatoes every other evening.",
    "Renew the car insurance before November 3.",
    "Pick up the dry cleaning on Friday.",
    "Book a table for four at Luigi's on Saturday.",
    "Finish chapter 7 of The Left Hand of Darkness.",
    "Pay the electricity bill of 84 dollars.",
    "Send the slides to Marco by Wednesday noon.",
    "Replace the kitchen light bulb with a warm LED.",
    "Practice Spanish verbs for 20 minutes a day.",
    "Bring sunscreen, towels and a beach umbrella.",
    "The wifi password for the cabin is pinecone42.",
)
EXTRA_LINES = (
    "Remember to back up the laptop.",
    "Check the oil level too.",
    "Also buy coffee filters.",
    "Confirm the hotel booking.",
    "Add Nadia to the invite list.",
    "Print the boarding passes.",
    "Order new running shoes.",
    "Update the shared calendar.",
)
FOLDERS = ("Work", "Personal", "Recipes", "Travel", "Archive", "Ideas", "School", "Projects",
           "Health", "Finance")


# --- seeded parameters ------------------------------------------------------------------------


def pick(rng: np.random.Generator, pool: tuple[str, ...], k: int) -> list[str]:
    """k distinct items of pool, in a seeded order."""
    return [pool[int(i)] for i in rng.permutation(len(pool))[:k]]


def seeded_notes(rng: np.random.Generator, n: int = 5) -> dict[str, Any]:
    """n notes with distinct texts at the root, one of them the target:
    {notes: {name: text}, name}."""
    names = [m + ".md" for m in pick(rng, NOTE_NAMES, n)]
    texts = pick(rng, NOTE_TEXTS, n)
    return {"notes": dict(zip(names, texts)), "name": names[int(rng.integers(len(names)))]}


def one_of(rng: np.random.Generator, pool: tuple[str, ...] | list[str]) -> str:
    return str(pool[int(rng.integers(len(pool)))])


# --- the shell side ------------------------------------------------------------------------------


def note_path(name: str, folder: str = "") -> str:
    return posixpath.join(ROOT, folder, name) if folder else posixpath.join(ROOT, name)


def _write_tree(device: Device, files: dict[str, Any]) -> None:
    """Force-stop Markor, empty its folder and write `files` (path relative to the Markor
    folder -> text or bytes; None makes a folder), all in one shell call."""
    cmds = [f"am force-stop {PKG}", f"rm -rf {q(ROOT)}", f"mkdir -p {q(ROOT)}"]
    for rel, text in files.items():
        path = note_path(rel) if not rel.startswith("/") else rel
        if text is None:
            cmds.append(f"mkdir -p {q(path)}")
            continue
        cmds.append(f"mkdir -p {q(posixpath.dirname(path))}")
        if isinstance(text, bytes):
            cmds.append(f"echo {q(base64.b64encode(text).decode())} | base64 -d > {q(path)}")
        else:
            cmds.append(f"printf '%s' {q(text)} > {q(path)}")
    sh(device, " && ".join(cmds))


@dataclasses.dataclass
class SeedFiles(Recipe):
    """The Markor folder holds exactly `files` (relative path -> text, None for a
    folder); tear-down puts back what the folder held before."""

    files: Any

    def save(self, device: Device) -> Any:
        return read_tree(device, ROOT) or {}

    def run(self, device: Device) -> None:
        _write_tree(device, dict(self.files or {}))

    def restore(self, device: Device, saved: Any) -> None:
        _write_tree(device, dict(sorted(saved.items())))


def state(device: Device) -> dict[str, bytes | None]:
    """What the contract compares before set-up and after tear-down: the Markor tree."""
    return read_tree(device, ROOT) or {}


# --- solution steps ------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Markor", package=PKG)


def titled(text: str) -> Target:
    """The app bar showing `text`: which folder or note is open."""
    return Target(rid="toolbar_title", text=text)


def menu_for(name: str) -> Target:
    """A long-press menu headed with `name` (not a neighbour's menu)."""
    return Target(rid="title", text=name)


def create_note_steps(name: str, text: str, done_file: Any, done_all: Any,
                      folder: str = "Markor") -> list[Step]:
    """From the folder the note goes in: + > name > OK > (editor) type > Save."""
    here = titled(folder)
    return [
        Tap(screen=MAIN, target=Target(desc=FAB), done=done_file, requires=here),
        TypeText(screen=MAIN + "|New file", target=Target(cls="EditText"), text=name,
                 done=done_file),
        Tap(screen=MAIN + "|New file", target=Target(text="OK"), done=done_file),
        Tap(screen=MAIN, target=Target(text=name), requires=here),
        TypeText(screen=DOC, target=Target(cls="EditText"), text=text, requires=titled(name)),
        Tap(screen=DOC, target=Target(desc="Save"), done=done_all, requires=titled(name)),
    ]


def edit_note_steps(name: str, text: str, done: Any) -> list[Step]:
    """Open the note from the list, make its text `text`, Save."""
    return [Tap(screen=MAIN, target=Target(text=name)),
            TypeText(screen=DOC, target=Target(cls="EditText"), text=text, requires=titled(name)),
            Tap(screen=DOC, target=Target(desc="Save"), done=done, requires=titled(name))]
