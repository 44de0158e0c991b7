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

from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.checks.files import normalize_text, read_file, read_tree
from antrap_gym.tasks.checks.match import fuzzy_ratio
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

# --- the reference templates' pools (AndroidWorld's shapes, our own words) -----------------

#: one-sentence note texts, 13..59 characters like AndroidWorld's 40 RANDOM_SENTENCES; kept
#: clear of the replace templates' words so a replacement is only where a draw put it
SENTENCES = (
    "Tea is ready.", "Feed the fish.", "Buy new socks.", "Rain is coming.", "Water the ferns.",
    "Go to bed early.", "Bring an umbrella.", "Call grandma soon.", "The sky is so blue.",
    "Fix the squeaky door.", "Pay the rent by Friday.", "Meet Sam at the library.",
    "Walk the dog after lunch.", "The train leaves at nine.", "Read two chapters tonight.",
    "Buy oat milk and rye bread.", "Return the borrowed ladder.", "Bake a lemon cake for Sunday.",
    "Renew the passport this month.", "Drink more water during the day.",
    "Practice piano for half an hour.", "Try the new ramen place downtown.",
    "Plant tulip bulbs along the fence.", "Ask the mechanic about the brakes.",
    "Write a thank-you card to Aunt Rosa.", "Book seats for the Saturday concert.",
    "Clean the windows in the living room.", "Learn ten new Italian words every day.",
    "The museum is free on the first Sunday.", "Repaint the garden bench in dark green.",
    "Check the tire pressure before the trip.", "Compare prices for a new washing machine.",
    "Organize the spice rack by flavor and color.", "Jogging three times a week keeps me fit.",
    "Save ten percent of every paycheck for travel.", "The bakery on Elm Street sells rye bread.",
    "Finish the quarterly report and share it with Dana.",
    "Pack warm socks, gloves and a wool hat for the hike.",
    "Remember to water the tomatoes twice a week in July.",
    "Order a birthday gift for Leo and wrap it in blue paper.",
)
#: random file names are adjective_noun_modifier (AndroidWorld's generate_random_file_name shape)
_ADJECTIVES = ("sunny", "quiet", "brave", "golden", "silver", "rapid", "gentle", "crimson",
               "lucky", "misty", "bold", "humble")
_NOUNS = ("river", "garden", "falcon", "meadow", "harbor", "canyon", "lantern", "orchard",
          "comet", "forest", "pebble", "summit")
_MODIFIERS = ("notes", "plan", "draft", "log", "ideas", "summary", "list", "final", "v2",
              "backup")
#: noise notes (AndroidWorld's _NOTE_TITLES shape: 20 everyday Markdown titles)
NOISE_TITLES = (
    "weekly_grocery_run.md", "team_sync_minutes.md", "goals_for_2024.md", "books_to_read.md",
    "paper_summary_draft.md", "summer_trip_ideas.md", "kitchen_remodel_budget.md",
    "may_training_plan.md", "gift_ideas_for_dad.md", "sourdough_recipe.md",
    "saturday_chores.md", "phone_plan_comparison.md", "sketchbook_prompts.md",
    "rust_learning_path.md", "lisbon_trip_journal.md", "side_project_ideas.md",
    "client_call_schedule.md", "quotes_i_like.md", "balcony_garden_layout.md",
    "talk_outline_october.md",
)
#: MarkorMoveNote's ten sub-folders (the reference's names: they are the parameter values)
SUBFOLDERS = ("BookNotes", "CodeSnippets", "DailyNotes", "FitnessPlans", "MeetingMinutes",
              "PersonalJournal", "RecipeCollections", "StudyGuides", "TravelItineraries",
              "WorkProjects")
EXTENSIONS = (".md", ".txt")
_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


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


def random_file_name(rng: np.random.Generator) -> str:
    """adjective_noun_modifier, no extension."""
    return "_".join(one_of(rng, pool) for pool in (_ADJECTIVES, _NOUNS, _MODIFIERS))


def random_note_name(rng: np.random.Generator, avoid: tuple[str, ...] | list[str] = ()) -> str:
    """A random file name with .md or .txt, not one of `avoid`."""
    while True:
        name = random_file_name(rng) + one_of(rng, EXTENSIONS)
        if name not in avoid:
            return name


def random_string(rng: np.random.Generator, n: int) -> str:
    return "".join(_ALNUM[int(i)] for i in rng.integers(len(_ALNUM), size=n))


def sentence(rng: np.random.Generator, keep=None) -> str:
    """A random sentence (one for which `keep(s)` holds, when given)."""
    pool = [s for s in SENTENCES if keep is None or keep(s)]
    return one_of(rng, pool)


def untouched_fails(before: str, want: str, threshold: float = 0.9) -> bool:
    """The reference's fuzzy check does not already pass on the note as set up."""
    return fuzzy_ratio(normalize_text(before), normalize_text(want)) < threshold


def noise_notes(rng: np.random.Generator, avoid: tuple[str, ...] | list[str] = (),
                lo: int = 2, hi: int = 6) -> dict[str, str]:
    """lo..hi notes from NOISE_TITLES, each holding a random sentence."""
    titles = [t for t in NOISE_TITLES if t not in avoid]
    n = int(rng.integers(lo, hi + 1))
    return {t: sentence(rng) for t in pick(rng, tuple(titles), n)}


def device_time(offset_minutes: int) -> str:
    """The device clock (2023-10-15 15:34 UTC) shifted, as `touch -d` takes it."""
    base = np.datetime64("2023-10-15T15:34:00") + np.timedelta64(int(offset_minutes), "m")
    return str(base).replace("T", " ")


# --- the shell side ------------------------------------------------------------------------------


def note_path(name: str, folder: str = "") -> str:
    return posixpath.join(ROOT, folder, name) if folder else posixpath.join(ROOT, name)


def _write_tree(device: Device, files: dict[str, Any], times: dict[str, str] | None = None) -> None:
    """Force-stop Markor, empty its folder and write `files` (path relative to the Markor
    folder -> text or bytes; None makes a folder), then give the paths in `times` their
    modification time (`touch -d`), all in one shell call."""
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
    for rel, when in (times or {}).items():
        cmds.append(f"touch -d {q(when)} {q(note_path(rel))}")
    sh(device, " && ".join(cmds))


@dataclasses.dataclass
class SeedFiles(Recipe):
    """The Markor folder holds exactly `files` (relative path -> text, None for a
    folder); tear-down puts back what the folder held before."""

    files: Any
    #: relative path -> modification time ("YYYY-MM-DD hh:mm:ss", device clock)
    times: Any = None

    def save(self, device: Device) -> Any:
        return read_tree(device, ROOT) or {}

    def run(self, device: Device) -> None:
        _write_tree(device, dict(self.files or {}), dict(self.times or {}))

    def restore(self, device: Device, saved: Any) -> None:
        _write_tree(device, dict(sorted(saved.items())))


def state(device: Device) -> dict[str, bytes | None]:
    """What the contract compares before set-up and after tear-down: the Markor tree."""
    return read_tree(device, ROOT) or {}


@dataclasses.dataclass
class FolderEmpty(Check):
    """Nothing (no note, no folder) is left in the Markor folder: AndroidWorld's
    "file list is empty" for MarkorDeleteAllNotes."""

    path: str = ROOT

    def score(self, device: Device, answer: str | None) -> float:
        res = device.shell(f"ls -A {q(self.path)}")
        return float(res.exit_code == 0 and not res.stdout.strip())


@dataclasses.dataclass
class BlankLinesBetween(Check):
    """The note has `pieces` non-empty lines with one blank line between each two
    (AndroidWorld's MarkorMergeNotes layout check: 5 lines, the 2nd and 4th empty)."""

    path: str
    pieces: int = 3

    def score(self, device: Device, answer: str | None) -> float:
        got = read_file(device, self.path)
        if got is None:
            return 0.0
        lines = normalize_text(got).split("\n")
        want = 2 * self.pieces - 1
        return float(len(lines) == want and all(bool(ln) == (i % 2 == 0)
                                                for i, ln in enumerate(lines)))


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
