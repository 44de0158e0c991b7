"""Reference templates for Markor: AndroidWorld's (task_evals/single/markor.py) and
AnTrap's (markor_extras*.py), under their class names, goal wording and complexity, so a
result here lines up with their tables. Parameters follow the reference draws (random
file names with .md/.txt, one random sentence of seed text) from our own pools.

The reference checks compare file text fuzzily (difflib ratio >= 0.9, casefolded). Where
that would pass the note as set up, a draw keeps only texts for which it does not; where
no text can (a one-character wrap, a one-word replacement) the check is exact, and the
template's doc says so. Families differing in a constant are declared from tables.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps.markor import MAIN, ROOT, note_path, titled
from antrap_gym.tasks.binding import DONE, F
from antrap_gym.tasks.checks import (
    Absent,
    AllOf,
    DirExists,
    FileContent,
    FileExists,
    Holds,
    TreeUnchanged,
)
from antrap_gym.tasks.checks.files import FileTimesUnchanged
from antrap_gym.tasks.steps import LongPress, Step, Tap, Target, TypeText
from antrap_gym.tasks.template import DataTask, template

FUZZY = 0.9
aw = partial(template, apps=(mk.PKG,), source="AndroidWorld")
antrap = partial(template, apps=(mk.PKG,), source="AnTrap")
FILE = note_path("{file_name}")
ORIGINAL = note_path("{original_name}")
RENAMED = note_path("{new_name}")


def _content(path: str, want: str, exact: bool) -> FileContent:
    return FileContent(path, want) if exact else FileContent(path, want, fuzzy=FUZZY)


def _seed(files: Callable[[dict], dict], times: Callable[[dict], dict] | None = None) -> mk.SeedFiles:
    return mk.SeedFiles(F(files), F(times) if times else None)


def _edit(name: str = "{file_name}", want: str = "{want}") -> list[Step]:
    return [mk.open_app(), *mk.edit_note_steps(name, want, DONE)]


def _rename_then_edit(want: str | None) -> list[Step]:
    """Long-press > Rename > OK, then (when the text changes too) open, type, Save."""
    gone = Holds(Absent(ORIGINAL))
    steps: list[Step] = [
        mk.open_app(),
        LongPress(screen=MAIN, target=Target(text="{original_name}"), done=gone),
        Tap(screen=mk.MENU, target=Target(text="Rename"), requires=mk.menu_for("{original_name}"),
            done=gone),
        TypeText(screen=MAIN + "|Rename", target=Target(cls="EditText"), text="{new_name}",
                 done=gone),
        Tap(screen=MAIN + "|Rename", target=Target(text="OK"), done=DONE if want is None else gone)]
    if want is not None:
        steps += mk.edit_note_steps("{new_name}", want, DONE)
    return steps


def _pool_for(want_of: Callable[[str], str], before_of: Callable[[str], str] = lambda s: s
              ) -> tuple[tuple[str, ...], bool]:
    """The sentences for which the fuzzy reference check fails on the untouched note, and
    whether the check must be exact instead (no sentence qualifies)."""
    pool = tuple(s for s in mk.SENTENCES if mk.untouched_fails(before_of(s), want_of(s), FUZZY))
    return (pool, False) if pool else (mk.SENTENCES, True)


#: how an exact check differs from AnTrap's fuzzy one (`differs["check"]`)
EXACT = ("Ours compares the note's text exactly (carriage returns dropped, the ends "
         "stripped); AnTrap's check_file_content compares it fuzzily (difflib ratio >= 0.9, "
         "case ignored), which passes the note as set up for most or all texts: the note's "
         "own text is most of the text wanted.")
#: how a draw kept clear of the fuzzy check's blind spot differs (`differs["draw"]`)
KEPT_CLEAR = ("The draw refuses texts for which the untouched note already passes the "
              "fuzzy check (difflib ratio >= 0.9); the reference draws from every sentence.")


def _exact_or_fuzzy(path: str, want: str, exact: bool) -> dict[str, Any]:
    """The declaration's check, and where it is exact, the reference's fuzzy one."""
    if not exact:
        return {"check": _content(path, want, False), "differs": {"draw": KEPT_CLEAR}}
    return {"check": _content(path, want, True), "reference_check": _content(path, want, False),
            "differs": {"check": EXACT}}


def _weak(exact: bool, what: str) -> str:
    if exact:
        return (f" AnTrap's fuzzy check (0.9) passes the untouched note for every text ({what});"
                " ours is exact.")
    return (f" AnTrap's fuzzy check (0.9) passes the untouched note for long texts ({what});"
            " the draw keeps only texts for which it does not.")


# === AndroidWorld ===========================================================================


def _create_note(rng) -> dict:
    name = mk.random_note_name(rng)
    return {"file_name": name, "text": mk.sentence(rng), "noise": mk.noise_notes(rng)}


MarkorCreateNote = aw(
    id="MarkorCreateNote", kind="action", split="train", complexity=1.6,
    doc="A new note with a given text (fuzzy 0.9, as the reference); noise notes around it.",
    goal="Create a new note in Markor named {file_name} with the following text: {text}",
    params=_create_note, setup=[_seed(lambda p: p["noise"])],
    check=_content(FILE, "{text}", exact=False),
    solution=[mk.open_app(),
              *mk.create_note_steps("{file_name}", "{text}", Holds(FileExists(FILE)), DONE)])


def _folder(rng) -> dict:
    m, d = int(rng.integers(1, 13)), int(rng.integers(1, 29))
    h, mi, s = (int(x) for x in rng.integers(0, [24, 60, 60]))
    return {"folder_name": f"folder_2023{m:02d}{d:02d}_{h:02d}{mi:02d}{s:02d}",
            "noise": mk.noise_notes(rng)}


MarkorCreateFolder = aw(
    id="MarkorCreateFolder", kind="action", split="train", complexity=1.0,
    doc="folder_ + a timestamp (the reference takes the host clock; ours a seeded one).",
    differs={"draw": "The folder name's timestamp is drawn from the seed; the reference takes "
                     "the host's clock."},
    goal="Create a new folder in Markor named {folder_name}.",
    params=_folder, setup=[_seed(lambda p: p["noise"])],
    check=DirExists(note_path("{folder_name}")),
    solution=[mk.open_app(),
              Tap(screen=MAIN, target=Target(desc=mk.FAB), done=DONE),
              Tap(screen=MAIN + "|New file", target=Target(text="Folder"), done=DONE),
              TypeText(screen=MAIN + "|New folder", target=Target(cls="EditText"),
                       text="{folder_name}", done=DONE),
              Tap(screen=MAIN + "|New folder", target=Target(text="OK"), done=DONE)])


def _delete_steps(name: str, path: str, done: Any) -> list[Step]:
    gone = Holds(Absent(path))
    return [LongPress(screen=MAIN, target=Target(text=name), done=gone),
            Tap(screen=mk.MENU, target=Target(text="Delete"), requires=mk.menu_for(name), done=gone),
            Tap(screen=MAIN + f"|Delete {name}?", target=Target(text="Delete"), done=done)]


def _delete_note(rng) -> dict:
    name = mk.random_file_name(rng)
    return {"file_name": name, "text": mk.sentence(rng), "noise": mk.noise_notes(rng)}


MarkorDeleteNote = aw(
    id="MarkorDeleteNote", kind="action", split="train", complexity=1.0,
    doc="The named note (no extension, as the reference draws it) is gone. Weak, as the"
        " reference: deleting every note passes too.",
    goal="Delete the note in Markor named {file_name}.",
    params=_delete_note, setup=[_seed(lambda p: {**p["noise"], p["file_name"]: p["text"]})],
    check=Absent(FILE),
    solution=[mk.open_app(), *_delete_steps("{file_name}", FILE, DONE)])


def _newest(rng) -> dict:
    """2..6 notes, each made after the clock moved -500..500 minutes (the reference's
    advance_system_time); redrawn until one is strictly newest."""
    while True:
        n = int(rng.integers(2, 7))
        names = [mk.random_note_name(rng) for _ in range(n)]
        offsets = [0]
        for _ in range(n - 1):
            offsets.append(offsets[-1] + int(rng.integers(-500, 501)))
        if len(set(names)) == n and offsets.count(max(offsets)) == 1:
            break
    notes = {nm: mk.sentence(rng) for nm in names}
    times = {nm: mk.device_time(o) for nm, o in zip(names, offsets)}
    return {"notes": notes, "times": times, "newest": names[offsets.index(max(offsets))]}


NEWEST = note_path("{newest}")
MarkorDeleteNewestNote = aw(
    id="MarkorDeleteNewestNote", kind="action", split="test", complexity=1.0,
    doc="Notes with shifted modification times (touch -d); the newest is gone and every other"
        " note unchanged. The reference compares names and change times; ours names and bytes.",
    goal="Delete the newest note in Markor.",
    params=_newest, setup=[_seed(lambda p: p["notes"], lambda p: p["times"])],
    check=AllOf(Absent(NEWEST), TreeUnchanged(ROOT, ignore=(NEWEST,))),
    reference_check=AllOf(Absent(NEWEST), FileTimesUnchanged(ROOT, ignore=(NEWEST,))),
    differs={"check": "Ours wants every other file and folder under the Markor folder "
                      "byte for byte as set up; the reference compares the names and times "
                      "of the files directly in it (`ls`), so a note saved again unchanged "
                      "fails there and passes here, and a change inside a subfolder passes "
                      "there. The reference check here reads modification times (`stat`); "
                      "AndroidWorld's `ls -ll -au` shows access times on toybox."},
    solution=[mk.open_app(), *_delete_steps("{newest}", NEWEST, DONE)])


def _delete_all_steps(ns: dict) -> list[Step]:
    """Long-press a note > Select, then Select all > Delete (the reference's fast way)."""
    selecting = Target(rid="toolbar_title", text="selected", contains=True)
    any_note = Target(cls="LinearLayout")  # the first row, whichever notes are left
    return [mk.open_app(),
            LongPress(screen=MAIN, target=any_note, done=DONE),
            Tap(screen=mk.MENU, target=Target(text="Select"), done=DONE),
            Tap(screen=MAIN, target=Target(desc="Select all"), requires=selecting, done=DONE),
            Tap(screen=MAIN, target=Target(desc="Delete"), requires=selecting, done=DONE),
            Tap(screen=MAIN + "|Delete selected items?", target=Target(text="Delete"), done=DONE)]


MarkorDeleteAllNotes = aw(
    id="MarkorDeleteAllNotes", kind="action", split="train", complexity=1.4,
    doc="2..6 notes; the Markor folder ends empty.",
    goal="Delete all my notes in Markor.",
    params=lambda rng: {"noise": mk.noise_notes(rng)}, setup=[_seed(lambda p: p["noise"])],
    check=mk.FolderEmpty(), solution=_delete_all_steps)


def _move(rng) -> dict:
    src, dst = mk.pick(rng, mk.SUBFOLDERS, 2)
    name = mk.random_note_name(rng)
    return {"file_name": name, "source_folder": src, "destination_folder": dst,
            "content": mk.sentence(rng), "noise": mk.noise_notes(rng, lo=1, hi=3)}


def _move_files(p: dict) -> dict:
    out: dict[str, str | None] = {p["destination_folder"]: None}
    for i, (n, t) in enumerate(p["noise"].items()):
        out[f"{p['source_folder'] if i % 2 else p['destination_folder']}/{n}"] = t
    out[f"{p['source_folder']}/{p['file_name']}"] = p["content"]
    return out


MOVE_SRC = note_path("{file_name}", "{source_folder}")
MOVE_DST = note_path("{file_name}", "{destination_folder}")
MarkorMoveNote = aw(
    id="MarkorMoveNote", kind="action", split="test", complexity=1.4,
    doc="Absent from the source folder, present in the destination (content not checked, as"
        " the reference).",
    goal="In Markor, move the note {file_name} from {source_folder} to {destination_folder}.",
    params=_move, setup=[_seed(_move_files)],
    check=AllOf(Absent(MOVE_SRC), FileExists(MOVE_DST)),
    solution=[mk.open_app(),
              Tap(screen=MAIN, target=Target(text="{source_folder}"), done=DONE),
              LongPress(screen=MAIN, target=Target(text="{file_name}"),
                        requires=titled("{source_folder}")),
              Tap(screen=mk.MENU, target=Target(text="Move to…"),
                  requires=mk.menu_for("{file_name}")),
              Tap(screen=MAIN + "|Move {file_name} to", target=Target(text="{destination_folder}"),
                  done=DONE)])

_EDIT_GOALS = {
    "header": "Edit {file_name} in Markor. Add to the top of the note {header}",
    "footer": "Edit {file_name} in Markor. Add to the bottom of the note {footer}",
    "replace": "Edit {file_name} in Markor. Replace the text with {replace_text}",
}


class _EditNoteTask(DataTask):
    """MarkorEditNote's goal depends on its edit type (the reference's template property)."""

    @property
    def goal(self) -> str:
        return _EDIT_GOALS[self.params["edit_type"]].format(**self.params)


def _edit_note(rng) -> dict:
    name = "note_" + mk.random_string(rng, 5) + mk.one_of(rng, mk.EXTENSIONS)
    kind = mk.one_of(rng, tuple(_EDIT_GOALS))
    p: dict[str, Any] = {"file_name": name, "edit_type": kind,
                         "original_content": mk.sentence(rng)}
    if kind == "replace":
        p["replace_text"] = "\n".join(mk.sentence(rng) for _ in range(3))
    else:
        p[kind] = mk.sentence(rng, lambda s: s != p["original_content"])
    p["noise"] = mk.noise_notes(rng)
    return p


def _edited(p: dict) -> dict:
    o, kind = p["original_content"], p["edit_type"]
    return {"want": {"header": lambda: p["header"] + "\n" + o,
                     "footer": lambda: o + "\n" + p["footer"],
                     "replace": lambda: p["replace_text"]}[kind]()}


MarkorEditNote = aw(
    id="MarkorEditNote", kind="action", split="train", family="MarkorEditNote", complexity=1.2,
    base=_EditNoteTask,
    doc="Header, footer or replacement text (fuzzy 0.9, as the reference; a header or footer"
        " sentence is long enough that the untouched note fails).",
    goal=_EDIT_GOALS["replace"],
    params=_edit_note, derived=_edited,
    setup=[_seed(lambda p: {**p["noise"], p["file_name"]: p["original_content"]})],
    check=_content(FILE, "{want}", exact=False), solution=_edit())


def _change_content(rng) -> dict:
    orig = mk.random_note_name(rng)
    return {"original_name": orig, "new_name": mk.random_note_name(rng, avoid=[orig]),
            "updated_content": mk.random_string(rng, 20),
            "original_content": mk.random_string(rng, 20), "noise": mk.noise_notes(rng)}


_RENAMED_NOTE = (Absent(ORIGINAL), FileExists(RENAMED))
MarkorChangeNoteContent = aw(
    id="MarkorChangeNoteContent", kind="action", split="test", family="MarkorEditContent", complexity=1.2,
    doc="Old name gone, new name there holding the new text (fuzzy 0.9, as the reference).",
    goal='Update the content of {original_name} to "{updated_content}" in Markor'
         " and change its name to {new_name}.",
    params=_change_content,
    setup=[_seed(lambda p: {**p["noise"], p["original_name"]: p["original_content"]})],
    check=AllOf(*_RENAMED_NOTE, _content(RENAMED, "{updated_content}", exact=False)),
    solution=_rename_then_edit("{updated_content}"))


def _add_header(rng) -> dict:
    orig = mk.random_note_name(rng)
    return {"original_name": orig, "original_content": mk.sentence(rng),
            "new_name": mk.random_note_name(rng, avoid=[orig]),
            "header": mk.random_string(rng, 20), "noise": mk.noise_notes(rng)}


MarkorAddNoteHeader = aw(
    id="MarkorAddNoteHeader", kind="action", split="test", family="MarkorEditContent", complexity=1.2,
    doc="Header, a blank line, the old text, under the new name (exact, as the reference).",
    goal='Update the Markor note {original_name} by adding the following text, along with a'
         ' new blank line before the existing content: "{header}", and rename it to {new_name}.',
    params=_add_header, derived=lambda p: {"want": p["header"] + "\n\n" + p["original_content"]},
    setup=[_seed(lambda p: {**p["noise"], p["original_name"]: p["original_content"]})],
    check=AllOf(*_RENAMED_NOTE, _content(RENAMED, "{want}", exact=True)),
    solution=_rename_then_edit("{want}"))


def _merge(rng) -> dict:
    names: list[str] = []
    while len(names) < 3:
        names.append(mk.random_note_name(rng, avoid=names))
    p: dict[str, Any] = {f"file{i + 1}_name": n for i, n in enumerate(names)}
    p["new_file_name"] = mk.random_string(rng, 8) + ".md"
    for i in range(3):
        p[f"file{i + 1}_content"] = mk.random_string(rng, 20)
    return p


MERGED = note_path("{new_file_name}")
MarkorMergeNotes = aw(
    id="MarkorMergeNotes", kind="action", split="test", complexity=7.8,
    doc="The three texts joined by blank lines in a new note (fuzzy 0.9 plus the reference's"
        " 5-line layout check). The reference's new name has no extension, which Markor's new-file"
        " dialog would add; ours ends in .md.",
    goal="Merge the contents of Markor notes {file1_name}, {file2_name} and {file3_name} (in the"
         " same order) into a new Markor note named {new_file_name} and save it. Add a new line"
         " between the content of each note.",
    params=_merge,
    derived=lambda p: {"merged": "\n\n".join(p[f"file{i}_content"] for i in (1, 2, 3))},
    setup=[_seed(lambda p: {p[f"file{i}_name"]: p[f"file{i}_content"] for i in (1, 2, 3)})],
    check=AllOf(_content(MERGED, "{merged}", exact=False), mk.BlankLinesBetween(MERGED)),
    differs={"draw": "The new note's name ends in .md; the reference's has no extension "
                     "(Markor's new-file dialog would add one)."},
    solution=[mk.open_app(), *mk.create_note_steps("{new_file_name}", "{merged}",
                                                   Holds(FileExists(MERGED)), DONE)])


# === AnTrap: one seeded note, one edit ===========================================================

_ONE_NOTE = _seed(lambda p: {p["file_name"]: p["original_content"]})


def _edit_template(id: str, goal: str, want_of: Callable[[dict], str], draw_rest,
                   complexity: float = 1.1, doc: str = "",
                   content_key: str = "original_content",
                   setup_of: Callable[[dict], str] | None = None,
                   aliases: tuple[str, ...] = ()) -> type[DataTask]:
    """An AnTrap line-edit template (one family, on the test side): a note `file_name`
    seeded with `setup_of(p)` (its
    `content_key` by default), checked against `want_of(p)`; `draw_rest(rng, keep)` draws
    the rest, using `keep(p) -> bool` to refuse a draw the untouched note already passes."""
    before_of = setup_of or (lambda p: p[content_key])

    def keep(p: dict) -> bool:
        return mk.untouched_fails(before_of(p), want_of(p), FUZZY)

    def params(rng) -> dict:
        name = mk.random_note_name(rng)
        return {"file_name": name, **draw_rest(rng, keep)}

    return antrap(id=id, kind="action", split="test", family="MarkorLineEdit",
                  complexity=complexity, doc=doc, goal=goal,
                  params=params, derived=lambda p: {"want": want_of(p)}, aliases=aliases,
                  setup=[_seed(lambda p: {p["file_name"]: before_of(p)})],
                  check=_content(FILE, "{want}", exact=False), solution=_edit(),
                  differs={"draw": KEPT_CLEAR})


def _lines(*keys: str) -> Callable[[dict], str]:
    return lambda p: "\n".join(p[k] for k in keys)


def _redraw(rng, keep, draw) -> dict:
    while True:
        p = draw(rng)
        if keep(p):
            return p


MarkorRenameNote = antrap(
    id="MarkorRenameNote", kind="action", split="train", complexity=1.2,
    doc="Old name gone, new one there with the same text (fuzzy 0.9, as the reference).",
    goal="Open Markor, rename the note {original_name} to {new_name}. Do not change its text"
         " content.",
    params=lambda rng: (lambda o: {"original_name": o,
                                   "new_name": mk.random_note_name(rng, avoid=[o]),
                                   "content": mk.sentence(rng)})(mk.random_note_name(rng)),
    setup=[_seed(lambda p: {p["original_name"]: p["content"]})],
    check=AllOf(*_RENAMED_NOTE, _content(RENAMED, "{content}", exact=False)),
    solution=_rename_then_edit(None))

MarkorAppendLine = _edit_template(
    "MarkorAppendLine",
    'Open the Markor note {file_name} and append the line "{line_to_append}" to the end of the'
    " file. Save the note.",
    _lines("original_content", "line_to_append"),
    lambda rng, keep: _redraw(rng, keep, lambda r: {"original_content": mk.sentence(r),
                                                    "line_to_append": mk.sentence(r)}),
    doc="The line after the text (fuzzy 0.9, as the reference).",
    aliases=("MarkorAppendToNote",))  # ours, the same task under another name

MarkorPrependLine = _edit_template(
    "MarkorPrependLine",
    'Open the Markor note {file_name} and add the line "{line_to_prepend}" as a new first line at'
    " the top. Save the note.",
    _lines("line_to_prepend", "original_content"),
    lambda rng, keep: _redraw(rng, keep, lambda r: {"original_content": mk.sentence(r),
                                                    "line_to_prepend": mk.sentence(r)}),
    doc="The line before the text (fuzzy 0.9, as the reference).")

_DATES = ("2025-05-13", "2025-06-20", "2025-07-04", "2025-08-15", "2025-09-30", "2025-10-31",
          "2025-11-22", "2025-12-25")
MarkorAddTimestamp = _edit_template(
    "MarkorAddTimestamp",
    'Open the Markor note {file_name} and append the timestamp "Date: {timestamp}" as a new last'
    " line. Save the note.",
    lambda p: p["original_content"] + "\nDate: " + p["timestamp"],
    lambda rng, keep: _redraw(rng, keep, lambda r: {"original_content": mk.sentence(r),
                                                    "timestamp": mk.one_of(r, _DATES)}),
    doc="A Date: line after the text (fuzzy 0.9, as the reference).")

MarkorRemoveLastLine = _edit_template(
    "MarkorRemoveLastLine",
    "Open the Markor note {file_name}, which contains three lines. Delete the last line so only"
    " the first two lines remain. Save the note.",
    _lines("line1", "line2"),
    lambda rng, keep: _redraw(rng, keep, lambda r: {f"line{i}": mk.sentence(r) for i in (1, 2, 3)}),
    complexity=1.2, setup_of=_lines("line1", "line2", "line3"),
    doc="Fuzzy 0.9 as the reference, which passes the untouched note when the third line is"
        " short next to the first two; the draw refuses those.")

MarkorInsertMiddleLine = _edit_template(
    "MarkorInsertMiddleLine",
    'Open the Markor note {file_name}, which contains two lines. Insert the line "{middle_line}"'
    " between them so the file ends up with three lines in order. Save the note.",
    _lines("line1", "middle_line", "line2"),
    lambda rng, keep: _redraw(rng, keep, lambda r: {"line1": mk.sentence(r), "line2": mk.sentence(r),
                                                    "middle_line": mk.sentence(r)}),
    complexity=1.3, setup_of=_lines("line1", "line2"),
    doc="Fuzzy 0.9 as the reference, which passes the untouched note when the new line is short"
        " next to the other two; the draw refuses those.")


def _sentence_family(id: str, goal: str, want_of: Callable[[str], str], family: str, doc: str,
                     complexity: float = 1.1, content_of: Callable[[str], str] = lambda s: s,
                     extra: dict | None = None) -> type[DataTask]:
    """A template whose one parameter besides the name is the note text (a sentence, maybe
    with a prefix): fuzzy over the sentences the untouched note fails, else exact."""
    pool, exact = _pool_for(lambda s: want_of(content_of(s)), content_of)

    def params(rng) -> dict:
        return {"file_name": mk.random_note_name(rng),
                "original_content": content_of(mk.one_of(rng, pool)), **(extra or {})}

    cls = antrap(id=id, kind="action", split=_FAMILY_SPLIT[family], family=family,
                 complexity=complexity, goal=goal,
                 doc=doc + _weak(exact, "the note's own text is most of the expected one"),
                 params=params, derived=lambda p: {"want": want_of(p["original_content"])},
                 setup=[_ONE_NOTE], solution=_edit(), **_exact_or_fuzzy(FILE, "{want}", exact))
    globals()[id] = cls  # a module attribute, so the class pickles by name
    return cls


#: the split of each family of sentence templates (a family is on one side)
_FAMILY_SPLIT = {"MarkorWrap": "train", "MarkorReplace": "train", "MarkorPrependHeader": "train"}
#: (name, opening, closing, how the goal describes it, how the goal shows it)
_WRAPS = (
    ("Brackets", "[", "]", "square brackets", "[original content]"),
    ("Parens", "(", ")", "parentheses", "`(`original content`(`"),
    ("Angles", "<", ">", "angle brackets", "`<`original content`<`"),
    ("DoubleQ", '"', '"', "double quotes", '`"`original content`"`'),
    ("Backticks", "`", "`", "backticks", "```original content```"),
    ("Stars", "*", "*", "single asterisks", "`*`original content`*`"),
    ("DoubleStars", "**", "**", "double asterisks", "`**`original content`**`"),
    ("Underscores", "_", "_", "underscores", "`_`original content`_`"),
    ("Hash", "#", "#", "hash characters", "`#`original content`#`"),
    ("Tildes", "~", "~", "tildes", "`~`original content`~`"),
    ("Pipes", "|", "|", "pipes", "`|`original content`|`"),
)
for _name, _open, _close, _what, _shown in _WRAPS:
    _sentence_family(
        f"MarkorWrapIn{_name}",
        f"Open the Markor note {{file_name}}. Wrap the entire note content in {_what} so it reads"
        f" {_shown}. Save the note.",
        lambda s, o=_open, c=_close: o + s.strip() + c, "MarkorWrap",
        f"The note's text between {_open} and {_close}."
        + (" The goal shows the opening symbol on both sides (AnTrap's wording, kept)."
           if _shown.endswith(f"`{_open}`") and _open != _close else ""))

#: (name, old word, new word)
_REPLACES = (("HotCold", "hot", "cold"), ("LightDark", "light", "dark"),
             ("NorthSouth", "north", "south"), ("WinSummer", "winter", "summer"),
             ("UpDown", "up", "down"), ("LeftRight", "left", "right"),
             ("CatDog", "cat", "dog"), ("BlackWhite", "black", "white"),
             ("MonTue", "monday", "tuesday"), ("YesNo", "yes", "no"))


def _with_word(word: str, lead: str) -> Callable[[str], str]:
    """The reference's seed text: the sentence, led by a phrase holding `word` if it lacks it."""
    return lambda s: s if word in s.lower() else f"The {word} {lead} is here. {s}"


for _name, _old, _new in _REPLACES:
    _sentence_family(
        f"MarkorReplace{_name}",
        f'Open the Markor note {{file_name}}. Replace every occurrence of the word "{_old}" with'
        f' "{_new}" and save the note.',
        lambda s, a=_old, b=_new: s.replace(a, b), "MarkorReplace",
        f"Every {_old!r} (as a substring, case-sensitive, as the reference) becomes {_new!r}.",
        complexity=1.3, content_of=_with_word(_old, "thing"))

_PAIRS = (("quick", "slow"), ("happy", "glad"), ("big", "large"), ("small", "tiny"),
          ("start", "begin"), ("end", "finish"), ("open", "launch"), ("close", "shut"))


def _replace_word(rng) -> dict:
    old, new = _PAIRS[int(rng.integers(len(_PAIRS)))]
    return {"file_name": mk.random_note_name(rng), "old_word": old, "new_word": new,
            "original_content": _with_word(old, "fox")(mk.sentence(rng))}


MarkorReplaceWord = antrap(
    id="MarkorReplaceWord", kind="action", split="train", family="MarkorReplace", complexity=1.3,
    doc="One of eight word pairs, replaced as a case-sensitive substring (as the reference)."
        + _weak(True, "a one-word change"),
    goal='Open the Markor note {file_name}. Replace every occurrence of the word "{old_word}" with'
         ' "{new_word}" and save the note.',
    params=_replace_word,
    derived=lambda p: {"want": p["original_content"].replace(p["old_word"], p["new_word"])},
    setup=[_ONE_NOTE], solution=_edit(), **_exact_or_fuzzy(FILE, "{want}", exact=True))

#: (name, the first line, how the goal quotes it)
_PREPENDS = (("TodoHeader", "# TODO", '"# TODO"'),
             ("DoneHeader", "# DONE", '"# DONE"'),
             ("DraftTag", "DRAFT", '"DRAFT"'),
             ("AuthorLine", "Author: anonymous", '"Author: anonymous"'),
             ("Divider", "---", '"---" (a Markdown horizontal rule)'))
for _name, _line, _quoted in _PREPENDS:
    _sentence_family(
        f"MarkorPrepend{_name}",
        f"Open the Markor note {{file_name}}. Add the line {_quoted} as a new first line at the"
        " top of the note. Save the note.",
        lambda s, first=_line: first + "\n" + s, "MarkorPrependHeader",
        f"{_line!r} as a new first line.")


TEMPLATE_IDS: tuple[str, ...] = tuple(
    n for n, v in globals().items()
    if isinstance(v, type) and issubclass(v, DataTask) and v.__module__ == __name__
    and n.startswith("Markor"))
