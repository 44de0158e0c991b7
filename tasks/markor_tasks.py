"""Tasks in Markor (`net.gsantner.markor`): notes are files, checked with the shell.

Every set-up first clears `/sdcard/Documents/Markor` and force-stops the app,
then seeds notes with `printf '%s' ... > file` in one shell call, so templates
are independent of each other and of whatever an agent left behind.
"""

from __future__ import annotations

import posixpath
from typing import ClassVar

import numpy as np

from antrap_gym.tasks.base import Task, answer_matches
from antrap_gym.tasks.registry import register
from antrap_gym.tasks.steps import Answer, LongPress, OpenApp, Step, Tap, Target, TypeText

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


def q(s: str) -> str:
    return Task.q(s)


def note_path(name: str, folder: str = "") -> str:
    return posixpath.join(ROOT, folder, name) if folder else posixpath.join(ROOT, name)


def pick(rng: np.random.Generator, pool: tuple[str, ...], k: int) -> list[str]:
    """k distinct items of pool, in a seeded order."""
    return [pool[int(i)] for i in rng.permutation(len(pool))[:k]]


def read_file(device, path: str) -> str | None:
    """A file's text through `cat`, or None when it is not a regular file."""
    if device.shell(f"test -f {q(path)}").exit_code != 0:
        return None
    res = device.shell(f"cat {q(path)}")
    return res.stdout if res.exit_code == 0 else None


def is_file(device, path: str) -> bool:
    return device.shell(f"test -f {q(path)}").exit_code == 0


def is_dir(device, path: str) -> bool:
    return device.shell(f"test -d {q(path)}").exit_code == 0


def lines_of(text: str) -> list[str]:
    """Non-blank lines, stripped: typing adds a trailing newline, spacing varies."""
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def open_markor() -> OpenApp:
    return OpenApp(app="Markor", package=PKG)


class MarkorTask(Task):
    """Shared set-up: a clean Markor folder holding `files` (path -> text, None = folder)."""

    apps = (PKG,)

    def files(self) -> dict[str, str | None]:
        """Paths relative to the Markor root; a None value is a folder."""
        return {}

    def setup(self, device) -> None:
        cmds = [f"am force-stop {PKG}", f"rm -rf {q(ROOT)}", f"mkdir -p {q(ROOT)}"]
        for rel, text in self.files().items():
            path = note_path(rel)
            if text is None:
                cmds.append(f"mkdir -p {q(path)}")
            else:
                cmds.append(f"mkdir -p {q(posixpath.dirname(path))}")
                cmds.append(f"printf '%s' {q(text)} > {q(path)}")
        self.sh(device, " && ".join(cmds))

    def teardown(self, device) -> None:
        device.shell(f"am force-stop {PKG}; rm -rf {q(ROOT)}; mkdir -p {q(ROOT)}")

    def check(self, device) -> bool:
        return bool(self.is_successful(device))


# --- creating -----------------------------------------------------------------------------


def titled(text: str) -> Target:
    """The app bar showing `text`: which folder or note is open."""
    return Target(rid="toolbar_title", text=text)


def menu_for(name: str) -> Target:
    """A long-press menu headed with `name` (not a neighbour's menu)."""
    return Target(rid="title", text=name)


def create_note_steps(name: str, text: str, done_file, done_all,
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


@register
class MarkorCreateNote(MarkorTask):
    template = "Create a new note in Markor named {name} with the text: {text}"
    complexity = 2.0

    @classmethod
    def generate_params(cls, rng):
        names = pick(rng, NOTE_NAMES, 3)
        return {"name": names[0] + ".md", "text": str(NOTE_TEXTS[int(rng.integers(len(NOTE_TEXTS)))]),
                "others": [n + ".md" for n in names[1:]]}

    def files(self):
        return {n: "Old note." for n in self.params["others"]}

    def is_successful(self, device, answer=None) -> float:
        text = read_file(device, note_path(self.params["name"]))
        return float(text is not None and text.strip() == self.params["text"].strip())

    def solution(self):
        name = self.params["name"]
        return [open_markor(), *create_note_steps(
            name, self.params["text"], lambda dev: is_file(dev, note_path(name)), self.check)]


@register
class MarkorCreateNoteInFolder(MarkorTask):
    template = ("In Markor, create a note named {name} inside the folder {folder}, "
                "containing the text: {text}")
    complexity = 2.4

    @classmethod
    def generate_params(cls, rng):
        folders = pick(rng, FOLDERS, 3)
        return {"name": pick(rng, NOTE_NAMES, 1)[0] + ".md", "folder": folders[0],
                "folders": folders, "text": str(NOTE_TEXTS[int(rng.integers(len(NOTE_TEXTS)))])}

    def files(self):
        return {f: None for f in self.params["folders"]}

    def _path(self) -> str:
        return note_path(self.params["name"], self.params["folder"])

    def is_successful(self, device, answer=None) -> float:
        text = read_file(device, self._path())
        return float(text is not None and text.strip() == self.params["text"].strip())

    def solution(self):
        path = self._path()
        return [open_markor(),
                Tap(screen=MAIN, target=Target(text=self.params["folder"]),
                    done=lambda dev: is_file(dev, path)),
                *create_note_steps(self.params["name"], self.params["text"],
                                   lambda dev: is_file(dev, path), self.check,
                                   folder=self.params["folder"])]


@register
class MarkorCreateFolder(MarkorTask):
    template = "In Markor, create a new folder named {folder}."
    complexity = 1.4

    @classmethod
    def generate_params(cls, rng):
        return {"folder": pick(rng, FOLDERS, 1)[0], "note": pick(rng, NOTE_NAMES, 1)[0] + ".md"}

    def files(self):
        return {self.params["note"]: "Nothing to see here."}

    def is_successful(self, device, answer=None) -> float:
        return float(is_dir(device, note_path(self.params["folder"])))

    def solution(self):
        return [open_markor(),
                Tap(screen=MAIN, target=Target(desc=FAB), done=self.check),
                Tap(screen=MAIN + "|New file", target=Target(text="Folder"), done=self.check),
                TypeText(screen=MAIN + "|New folder", target=Target(cls="EditText"),
                         text=self.params["folder"], done=self.check),
                Tap(screen=MAIN + "|New folder", target=Target(text="OK"), done=self.check)]


# --- changing existing notes -------------------------------------------------------------


class SeededNotesTask(MarkorTask):
    """A few notes with distinct texts at the root; `target` is one of them."""

    n_notes: ClassVar[int] = 5

    @classmethod
    def generate_params(cls, rng):
        names = [n + ".md" for n in pick(rng, NOTE_NAMES, cls.n_notes)]
        texts = pick(rng, NOTE_TEXTS, cls.n_notes)
        return {"notes": dict(zip(names, texts)), "name": names[int(rng.integers(len(names)))]}

    def files(self):
        return dict(self.params["notes"])

    def others_intact(self, device) -> bool:
        return all((read_file(device, note_path(n)) or "").strip() == t.strip()
                   for n, t in self.params["notes"].items() if n != self.params["name"])


@register
class MarkorDeleteNote(SeededNotesTask):
    template = "Delete the note {name} in Markor."
    complexity = 1.4

    def is_successful(self, device, answer=None) -> float:
        gone = device.shell(f"test -e {q(note_path(self.params['name']))}").exit_code != 0
        return float(gone and self.others_intact(device))

    def solution(self):
        name = self.params["name"]
        return [open_markor(),
                LongPress(screen=MAIN, target=Target(text=name)),
                Tap(screen=MENU, target=Target(text="Delete"), requires=menu_for(name)),
                Tap(screen=f"{MAIN}|Delete {name}?", target=Target(text="Delete"), done=self.check)]


@register
class MarkorRenameNote(SeededNotesTask):
    template = "Rename the Markor note {name} to {new_name}."
    complexity = 1.6

    @classmethod
    def generate_params(cls, rng):
        p = super().generate_params(rng)
        free = [n for n in NOTE_NAMES if n + ".md" not in p["notes"]]
        p["new_name"] = free[int(rng.integers(len(free)))] + ".md"
        return p

    def is_successful(self, device, answer=None) -> float:
        text = read_file(device, note_path(self.params["new_name"]))
        old_gone = device.shell(f"test -e {q(note_path(self.params['name']))}").exit_code != 0
        want = self.params["notes"][self.params["name"]]
        return float(text is not None and text.strip() == want.strip() and old_gone
                     and self.others_intact(device))

    def solution(self):
        return [open_markor(),
                LongPress(screen=MAIN, target=Target(text=self.params["name"])),
                Tap(screen=MENU, target=Target(text="Rename"), requires=menu_for(self.params["name"])),
                TypeText(screen=MAIN + "|Rename", target=Target(cls="EditText"),
                         text=self.params["new_name"], done=self.check),
                Tap(screen=MAIN + "|Rename", target=Target(text="OK"), done=self.check)]


@register
class MarkorAppendToNote(SeededNotesTask):
    template = "In Markor, add a new line with the text \"{line}\" at the end of the note {name}."
    complexity = 1.6

    @classmethod
    def generate_params(cls, rng):
        p = super().generate_params(rng)
        p["line"] = str(EXTRA_LINES[int(rng.integers(len(EXTRA_LINES)))])
        return p

    def _want(self) -> str:
        return self.params["notes"][self.params["name"]] + "\n" + self.params["line"]

    def is_successful(self, device, answer=None) -> float:
        text = read_file(device, note_path(self.params["name"]))
        return float(text is not None and lines_of(text) == lines_of(self._want())
                     and self.others_intact(device))

    def solution(self):
        return [open_markor(),
                Tap(screen=MAIN, target=Target(text=self.params["name"])),
                TypeText(screen=DOC, target=Target(cls="EditText"), text=self._want(),
                         requires=titled(self.params["name"])),
                Tap(screen=DOC, target=Target(desc="Save"), done=self.check,
                    requires=titled(self.params["name"]))]


@register
class MarkorMoveNote(SeededNotesTask):
    template = "In Markor, move the note {name} into the folder {folder}."
    complexity = 1.6
    n_notes = 4

    @classmethod
    def generate_params(cls, rng):
        p = super().generate_params(rng)
        p["folders"] = pick(rng, FOLDERS, 3)
        p["folder"] = p["folders"][int(rng.integers(3))]
        return p

    def files(self):
        return {**{f: None for f in self.params["folders"]}, **self.params["notes"]}

    def is_successful(self, device, answer=None) -> float:
        name = self.params["name"]
        text = read_file(device, note_path(name, self.params["folder"]))
        old_gone = device.shell(f"test -e {q(note_path(name))}").exit_code != 0
        return float(text is not None and text.strip() == self.params["notes"][name].strip()
                     and old_gone and self.others_intact(device))

    def solution(self):
        name = self.params["name"]
        return [open_markor(),
                LongPress(screen=MAIN, target=Target(text=name)),
                Tap(screen=MENU, target=Target(text="Move to…"), requires=menu_for(name)),
                Tap(screen=f"{MAIN}|Move {name} to", target=Target(text=self.params["folder"]),
                    done=self.check)]


@register
class MarkorEditNoteInLongList(MarkorTask):
    """Many notes: the one to edit sorts below the first screenful."""

    template = "In Markor, replace the entire text of the note {name} with: {text}"
    complexity = 2.0
    needs_scroll = True
    n_notes: ClassVar[int] = 24

    @classmethod
    def generate_params(cls, rng):
        names = sorted(n + ".md" for n in pick(rng, NOTE_NAMES, cls.n_notes))
        target = names[-1 - int(rng.integers(8))]  # among the last eight: below the fold
        texts = [NOTE_TEXTS[int(i) % len(NOTE_TEXTS)] for i in rng.permutation(cls.n_notes)]
        notes = dict(zip(names, texts))
        new = [t for t in NOTE_TEXTS if t != notes[target]]
        return {"notes": notes, "name": target, "text": new[int(rng.integers(len(new)))]}

    def files(self):
        return dict(self.params["notes"])

    def is_successful(self, device, answer=None) -> float:
        text = read_file(device, note_path(self.params["name"]))
        return float(text is not None and text.strip() == self.params["text"].strip())

    def solution(self):
        return [open_markor(),
                Tap(screen=MAIN, target=Target(text=self.params["name"])),
                TypeText(screen=DOC, target=Target(cls="EditText"), text=self.params["text"],
                         requires=titled(self.params["name"])),
                Tap(screen=DOC, target=Target(desc="Save"), done=self.check,
                    requires=titled(self.params["name"]))]


# --- information retrieval -------------------------------------------------------------------


@register
class MarkorNoteContentQuestion(SeededNotesTask):
    template = "What is written in the Markor note {name}? Answer with the note's text."
    complexity = 1.2
    answer_task = True

    def distractors(self) -> list[str]:
        return [t for n, t in self.params["notes"].items() if n != self.params["name"]]

    def is_successful(self, device, answer=None) -> float:
        text = self.params["notes"][self.params["name"]]
        return float(answer_matches(answer, text, self.answer_kind, self.distractors()))

    def solution(self):
        return [open_markor(), Tap(screen=MAIN, target=Target(text=self.params["name"])),
                Answer(screen=DOC, text=self.params["notes"][self.params["name"]])]


@register
class MarkorCountNotesQuestion(MarkorTask):
    template = "How many notes (files, not folders) are in the Markor folder {folder}?"
    complexity = 1.2
    answer_task = True
    answer_kind = "number"

    @classmethod
    def generate_params(cls, rng):
        folders = pick(rng, FOLDERS, 3)
        n = int(rng.integers(2, 8))
        names = [m + ".md" for m in pick(rng, NOTE_NAMES, n + 3)]
        sub = pick(rng, FOLDERS, 1)[0]
        return {"folder": folders[0], "count": n, "inside": names[:n], "elsewhere": names[n:],
                "others": folders[1:], "sub": sub}

    def files(self):
        p = self.params
        out: dict[str, str | None] = {f"{p['folder']}/{p['sub']}": None}
        for i, n in enumerate(p["inside"]):
            out[f"{p['folder']}/{n}"] = NOTE_TEXTS[i % len(NOTE_TEXTS)]
        out[f"{p['folder']}/{p['sub']}/{p['elsewhere'][0]}"] = "Nested note."
        for f, n in zip(p["others"], p["elsewhere"][1:]):
            out[f"{f}/{n}"] = "Another note."
        return out

    def is_successful(self, device, answer=None) -> float:
        return float(answer_matches(answer, str(self.params["count"]), self.answer_kind))

    def solution(self):
        return [open_markor(), Tap(screen=MAIN, target=Target(text=self.params["folder"])),
                Answer(screen=MAIN, text=str(self.params["count"]))]


TEMPLATE_IDS: tuple[str, ...] = tuple(
    c.task_id() for c in (MarkorCreateNote, MarkorCreateNoteInFolder, MarkorCreateFolder,
                          MarkorDeleteNote, MarkorRenameNote, MarkorAppendToNote, MarkorMoveNote,
                          MarkorEditNoteInLongList, MarkorNoteContentQuestion,
                          MarkorCountNotesQuestion))

