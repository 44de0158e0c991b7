"""Templates in Markor (`net.gsantner.markor`), as data: notes are files, checked through
the shell. Every set-up clears the Markor folder first (tasks/apps/markor.py); a task
that changes one note also checks that nothing else in the folder changed.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps.markor import MAIN, ROOT, note_path
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import (
    AllOf,
    AnswerIs,
    FileContent,
    FileExists,
    Holds,
    TreeUnchanged,
)
from antrap_gym.tasks.steps import Answer, Tap, Target
from antrap_gym.tasks.template import template

markor = partial(template, apps=(mk.PKG,))
NOTES = mk.SeedFiles(P("notes"))
NOTE = note_path("{name}")


def _others_intact(*paths: str) -> TreeUnchanged:
    """Nothing in the Markor folder changed but `paths` (the note the task is about)."""
    return TreeUnchanged(ROOT, ignore=paths or (NOTE,))


def _note_in_folder(rng) -> dict:
    folders = mk.pick(rng, mk.FOLDERS, 3)
    return {"name": mk.pick(rng, mk.NOTE_NAMES, 1)[0] + ".md", "folder": folders[0],
            "folders": folders, "text": mk.one_of(rng, mk.NOTE_TEXTS)}


IN_FOLDER = note_path("{name}", "{folder}")
MarkorCreateNoteInFolder = markor(
    id="MarkorCreateNoteInFolder", kind="action", split="test", complexity=2.4,
    goal="In Markor, create a note named {name} inside the folder {folder}, containing the text: {text}",
    params=_note_in_folder,
    setup=[mk.SeedFiles(F(lambda p: {f: None for f in p["folders"]}))],
    check=FileContent(IN_FOLDER, "{text}"),
    solution=[mk.open_app(),
              Tap(screen=MAIN, target=Target(text="{folder}"), done=Holds(FileExists(IN_FOLDER))),
              *mk.create_note_steps("{name}", "{text}", Holds(FileExists(IN_FOLDER)), DONE,
                                    folder="{folder}")])

# --- changing existing notes -----------------------------------------------------------------


def _long_list(rng, n: int = 24) -> dict:
    names = sorted(m + ".md" for m in mk.pick(rng, mk.NOTE_NAMES, n))
    target = names[-1 - int(rng.integers(8))]  # among the last eight: below the fold
    texts = [mk.NOTE_TEXTS[int(i) % len(mk.NOTE_TEXTS)] for i in rng.permutation(n)]
    notes = dict(zip(names, texts))
    return {"notes": notes, "name": target,
            "text": mk.one_of(rng, [t for t in mk.NOTE_TEXTS if t != notes[target]])}


MarkorEditNoteInLongList = markor(
    id="MarkorEditNoteInLongList", kind="action", split="train", complexity=2.0, needs_scroll=True,
    doc="Many notes: the one to edit sorts below the first screenful.",
    goal="In Markor, replace the entire text of the note {name} with: {text}",
    params=_long_list, setup=[NOTES],
    check=AllOf(FileContent(NOTE, "{text}"), _others_intact()),
    solution=[mk.open_app(), *mk.edit_note_steps("{name}", "{text}", DONE)])


# --- information retrieval ---------------------------------------------------------------------


MarkorNoteContentQuestion = markor(
    id="MarkorNoteContentQuestion", kind="answer", split="train", complexity=1.2,
    goal="What is written in the Markor note {name}? Answer with the note's text.",
    params=mk.seeded_notes, setup=[NOTES],
    check=AnswerIs(F(lambda p: p["notes"][p["name"]]), distractors=F(lambda p: list(p["notes"].values()))),
    solution=[mk.open_app(), Tap(screen=MAIN, target=Target(text="{name}")),
              Answer(screen=mk.DOC, text="{answer}")])


def _count(rng) -> dict:
    folders = mk.pick(rng, mk.FOLDERS, 3)
    n = int(rng.integers(2, 8))
    names = [m + ".md" for m in mk.pick(rng, mk.NOTE_NAMES, n + 3)]
    return {"folder": folders[0], "count": n, "inside": names[:n], "elsewhere": names[n:],
            "others": folders[1:], "sub": mk.pick(rng, mk.FOLDERS, 1)[0]}


def _count_files(p) -> dict:
    """The folder's notes, a sub-folder holding one more, and notes in other folders."""
    out: dict[str, str | None] = {f"{p['folder']}/{p['sub']}": None}
    for i, n in enumerate(p["inside"]):
        out[f"{p['folder']}/{n}"] = mk.NOTE_TEXTS[i % len(mk.NOTE_TEXTS)]
    out[f"{p['folder']}/{p['sub']}/{p['elsewhere'][0]}"] = "Nested note."
    for f, n in zip(p["others"], p["elsewhere"][1:]):
        out[f"{f}/{n}"] = "Another note."
    return out


MarkorCountNotesQuestion = markor(
    id="MarkorCountNotesQuestion", kind="answer", split="test", complexity=1.2,
    goal="How many notes (files, not folders) are in the Markor folder {folder}?",
    params=_count, setup=[mk.SeedFiles(F(_count_files))],
    check=AnswerIs("{count}", kind="number"),
    solution=[mk.open_app(), Tap(screen=MAIN, target=Target(text="{folder}")),
              Answer(screen=MAIN, text="{answer}")])


TEMPLATE_IDS: tuple[str, ...] = tuple(
    c.task_id() for c in (MarkorCreateNoteInFolder, MarkorEditNoteInLongList,
                          MarkorNoteContentQuestion, MarkorCountNotesQuestion))
