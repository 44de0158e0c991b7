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
    Absent,
    AllOf,
    AnswerIs,
    DirExists,
    FileContent,
    FileExists,
    Holds,
    TreeUnchanged,
)
from antrap_gym.tasks.steps import Answer, LongPress, Tap, Target, TypeText
from antrap_gym.tasks.template import template

markor = partial(template, apps=(mk.PKG,))
NOTES = mk.SeedFiles(P("notes"))
NOTE = note_path("{name}")


def _others_intact(*paths: str) -> TreeUnchanged:
    """Nothing in the Markor folder changed but `paths` (the note the task is about)."""
    return TreeUnchanged(ROOT, ignore=paths or (NOTE,))


def _new_note(rng) -> dict:
    names = mk.pick(rng, mk.NOTE_NAMES, 3)
    return {"name": names[0] + ".md", "text": mk.one_of(rng, mk.NOTE_TEXTS),
            "others": [n + ".md" for n in names[1:]]}


MarkorCreateNote = markor(
    id="MarkorCreateNote", kind="action", split="train", complexity=2.0,
    goal="Create a new note in Markor named {name} with the text: {text}",
    params=_new_note,
    setup=[mk.SeedFiles(F(lambda p: {n: "Old note." for n in p["others"]}))],
    check=FileContent(NOTE, "{text}"),
    solution=[mk.open_app(), *mk.create_note_steps("{name}", "{text}", Holds(FileExists(NOTE)), DONE)])


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

NEW_FOLDER = (MAIN + "|New file", MAIN + "|New folder")
MarkorCreateFolder = markor(
    id="MarkorCreateFolder", kind="action", split="train", complexity=1.4,
    goal="In Markor, create a new folder named {folder}.",
    params=lambda rng: {"folder": mk.pick(rng, mk.FOLDERS, 1)[0],
                        "note": mk.pick(rng, mk.NOTE_NAMES, 1)[0] + ".md"},
    setup=[mk.SeedFiles(F(lambda p: {p["note"]: "Nothing to see here."}))],
    check=DirExists(note_path("{folder}")),
    solution=[mk.open_app(),
              Tap(screen=MAIN, target=Target(desc=mk.FAB), done=DONE),
              Tap(screen=NEW_FOLDER[0], target=Target(text="Folder"), done=DONE),
              TypeText(screen=NEW_FOLDER[1], target=Target(cls="EditText"), text="{folder}", done=DONE),
              Tap(screen=NEW_FOLDER[1], target=Target(text="OK"), done=DONE)])


# --- changing existing notes -----------------------------------------------------------------


MarkorDeleteNote = markor(
    id="MarkorDeleteNote", kind="action", split="train", complexity=1.4,
    goal="Delete the note {name} in Markor.",
    params=mk.seeded_notes, setup=[NOTES],
    check=AllOf(Absent(NOTE), _others_intact()),
    solution=[mk.open_app(), LongPress(screen=MAIN, target=Target(text="{name}")),
              Tap(screen=mk.MENU, target=Target(text="Delete"), requires=mk.menu_for("{name}")),
              Tap(screen=MAIN + "|Delete {name}?", target=Target(text="Delete"), done=DONE)])


def _rename(rng) -> dict:
    p = mk.seeded_notes(rng)
    free = [n for n in mk.NOTE_NAMES if n + ".md" not in p["notes"]]
    return {**p, "new_name": mk.one_of(rng, free) + ".md"}


RENAMED = note_path("{new_name}")
MarkorRenameNote = markor(
    id="MarkorRenameNote", kind="action", split="train", complexity=1.6,
    goal="Rename the Markor note {name} to {new_name}.",
    params=_rename, setup=[NOTES], derived=lambda p: {"content": p["notes"][p["name"]]},
    check=AllOf(FileContent(RENAMED, "{content}"), Absent(NOTE), _others_intact(NOTE, RENAMED)),
    solution=[mk.open_app(), LongPress(screen=MAIN, target=Target(text="{name}")),
              Tap(screen=mk.MENU, target=Target(text="Rename"), requires=mk.menu_for("{name}")),
              TypeText(screen=MAIN + "|Rename", target=Target(cls="EditText"), text="{new_name}",
                       done=DONE),
              Tap(screen=MAIN + "|Rename", target=Target(text="OK"), done=DONE)])

MarkorAppendToNote = markor(
    id="MarkorAppendToNote", kind="action", split="train", complexity=1.6,
    goal="In Markor, add a new line with the text \"{line}\" at the end of the note {name}.",
    params=lambda rng: {**mk.seeded_notes(rng), "line": mk.one_of(rng, mk.EXTRA_LINES)},
    setup=[NOTES], derived=lambda p: {"want": p["notes"][p["name"]] + "\n" + p["line"]},
    check=AllOf(FileContent(NOTE, "{want}", lines=True), _others_intact()),
    solution=[mk.open_app(), *mk.edit_note_steps("{name}", "{want}", DONE)])


def _move(rng) -> dict:
    p = mk.seeded_notes(rng, 4)
    folders = mk.pick(rng, mk.FOLDERS, 3)
    return {**p, "folders": folders, "folder": folders[int(rng.integers(3))]}


MOVED = note_path("{name}", "{folder}")
MarkorMoveNote = markor(
    id="MarkorMoveNote", kind="action", split="test", complexity=1.6,
    goal="In Markor, move the note {name} into the folder {folder}.",
    params=_move, derived=lambda p: {"content": p["notes"][p["name"]]},
    setup=[mk.SeedFiles(F(lambda p: {**{f: None for f in p["folders"]}, **p["notes"]}))],
    check=AllOf(FileContent(MOVED, "{content}"), Absent(NOTE), _others_intact(NOTE, MOVED)),
    solution=[mk.open_app(), LongPress(screen=MAIN, target=Target(text="{name}")),
              Tap(screen=mk.MENU, target=Target(text="Move to…"), requires=mk.menu_for("{name}")),
              Tap(screen=MAIN + "|Move {name} to", target=Target(text="{folder}"), done=DONE)])


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
    c.task_id() for c in (MarkorCreateNote, MarkorCreateNoteInFolder, MarkorCreateFolder,
                          MarkorDeleteNote, MarkorRenameNote, MarkorAppendToNote, MarkorMoveNote,
                          MarkorEditNoteInLongList, MarkorNoteContentQuestion,
                          MarkorCountNotesQuestion))
