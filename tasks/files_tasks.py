"""Reference templates for Files (DocumentsUI): AndroidWorld's (task_evals/single/files.py)
and AnTrap's (files_extras*.py), under their class names and complexity, with the
reference draws (the 12 storage folders and their fixed file names, random new names
keeping the extension) from our own pools (tasks/apps/files.py).

Set-up clears shared storage as the references do (every file deleted, folders kept)
and writes the task's files ("seed content"); the checks read existence through the
shell (`test -f`, `test -d`, `test -e`), as the references list the folder. Families
that differ only in their folders are declared from tables.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import files as fl
from antrap_gym.tasks.apps.files import SEED, folder_path
from antrap_gym.tasks.binding import DONE, F
from antrap_gym.tasks.checks import Absent, AllOf, DirExists, FileExists, Holds
from antrap_gym.tasks.steps import Step
from antrap_gym.tasks.template import template

aw = partial(template, apps=(fl.PKG,), source="AndroidWorld")
antrap = partial(template, apps=(fl.PKG,), source="AnTrap")
_WHERE = "the phone's internal storage"
_EXISTENCE = ("The check is the reference's: existence through the shell, nothing else "
              "compared.")


# === AndroidWorld ==================================================================================


def _move_params(rng) -> dict:
    """AndroidWorld's draw: two different folders, a name from the destination's pool,
    noise from the source's."""
    source, destination = fl.two_folders(rng)
    name = fl.one_of(rng, fl.EMULATOR_DIRECTORIES[destination])
    return {"file_name": name, "source_folder": source, "destination_folder": destination,
            "noise": fl.noise(rng, source, name)}


def _files_in(folder_key: str, name_key: str, noise_key: str | None = None):
    """The seeded files: the task's one and the noise, in one folder (param keys)."""
    def files(p: dict) -> dict:
        folder = p[folder_key]
        out = {f"{folder}/{p[name_key]}": SEED}
        for n in p.get(noise_key, []) if noise_key else []:
            out[f"{folder}/{n}"] = SEED
        return out
    return files


def _seed(files=None, folders=(), absent=()) -> fl.SeedStorage:
    """SeedStorage of the files, folders and absent paths (each a value or a function of
    the parameters)."""
    return fl.SeedStorage(F(files) if files else None, F(folders) if callable(folders) else folders,
                          F(absent) if callable(absent) else absent)


SOURCE_FILE = folder_path("{source_folder}", "{file_name}")
DEST_FILE = folder_path("{destination_folder}", "{file_name}")


def _transfer(verb: str, button: str, src: str = "{source_folder}", dst: str = "{destination_folder}"
              ) -> list[Step]:
    """Open the source folder, select the file, Copy to / Move to, pick the destination."""
    return [fl.open_app(DONE), *fl.to_folder(src, DONE), fl.select("{file_name}", src, DONE),
            *fl.selection_menu("{file_name}", f"{verb} to\u2026", DONE),
            *fl.pick_destination((dst,), button, DONE)]


FilesMoveFile = aw(
    id="FilesMoveFile", kind="action", split="train", family="FilesMoveFile", complexity=2,
    doc="AndroidWorld's: the file (a name from the destination folder's pool) and 1-4 noise "
        "files in the source folder; the check: not in the source, in the destination. "
        + _EXISTENCE,
    goal="Move the file {file_name} from the {source_folder} folder to the {destination_folder} "
         f"folder of {_WHERE}.",
    params=_move_params,
    setup=[_seed(_files_in("source_folder", "file_name", "noise"),
                 lambda p: (p["source_folder"], p["destination_folder"]))],
    check=AllOf(Absent(SOURCE_FILE), FileExists(DEST_FILE)),
    solution=_transfer("Move", "Move"))


def _delete_params(rng) -> dict:
    """AndroidWorld's draw: a folder, a random name with the extension of its files,
    noise from its pool."""
    folder = fl.one_of(rng, fl.FOLDERS)
    name = fl.random_name(rng, fl.extension(fl.EMULATOR_DIRECTORIES[folder][0]))
    return {"file_name": name, "subfolder": folder, "noise": fl.noise(rng, folder, name)}


FilesDeleteFile = aw(
    id="FilesDeleteFile", kind="action", split="test", complexity=2.2,
    doc="AndroidWorld's: the file (a random name with the folder's file type) and 1-4 noise "
        "files in the folder; the check: the file is gone. " + _EXISTENCE,
    goal="Delete the file {file_name} in the {subfolder} folder of " + _WHERE + ".",
    params=_delete_params,
    setup=[_seed(_files_in("subfolder", "file_name", "noise"))],
    check=Absent(folder_path("{subfolder}", "{file_name}")),
    solution=[fl.open_app(DONE), *fl.to_folder("{subfolder}", DONE),
              *fl.delete("{file_name}", "{subfolder}", 'Delete "{file_name}"?', DONE)])


# === AnTrap: files_extras ==========================================================================


def _copy_params(rng) -> dict:
    source, destination = fl.two_folders(rng)
    return {"file_name": fl.one_of(rng, fl.EMULATOR_DIRECTORIES[source]),
            "source_folder": source, "destination_folder": destination}


FilesCopyFile = antrap(
    id="FilesCopyFile", kind="action", split="train", family="FilesCopy", complexity=2.2,
    doc="AnTrap's: the file (from the source folder's pool) in the source; the check: it is "
        "in both folders. " + _EXISTENCE,
    goal="Using the Files app, copy {file_name} from {source_folder} to {destination_folder}, "
         "so that the file is in both folders.",
    params=_copy_params,
    setup=[_seed(_files_in("source_folder", "file_name"),
                 lambda p: (p["source_folder"], p["destination_folder"]))],
    check=AllOf(FileExists(SOURCE_FILE), FileExists(DEST_FILE)),
    solution=_transfer("Copy", "Copy"))


def _rename_params(rng, folder: str | None = None) -> dict:
    folder = folder or fl.one_of(rng, fl.FOLDERS)
    original = fl.one_of(rng, fl.EMULATOR_DIRECTORIES[folder])
    return {"folder": folder, "original_name": original,
            "new_name": fl.random_name(rng, fl.extension(original))}


RENAME_CHECK = AllOf(Absent(folder_path("{folder}", "{original_name}")),
                     FileExists(folder_path("{folder}", "{new_name}")))
RENAME_SETUP = [_seed(_files_in("folder", "original_name"))]
RENAME_SOLUTION = [fl.open_app(DONE), *fl.to_folder("{folder}", DONE),
                   *fl.rename("{original_name}", "{folder}", "{new_name}", DONE)]

FilesRenameFile = antrap(
    id="FilesRenameFile", kind="action", split="test", family="FilesRename", complexity=1.8,
    doc="AnTrap's: a file of the folder's pool; the new name is random with its extension; "
        "the check: the old name gone, the new one in the same folder. " + _EXISTENCE,
    goal="Using the Files app, go to {folder} and rename the file {original_name} to "
         "{new_name}, keeping it in the same folder.",
    params=_rename_params, setup=RENAME_SETUP, check=RENAME_CHECK, solution=RENAME_SOLUTION)


def _folder_name(rng) -> dict:
    return {"folder_name": fl.random_name(rng)}


def _create_solution(name: str) -> list[Step]:
    return [fl.open_app(DONE), *fl.to_storage(DONE), *fl.new_folder(name, fl.AT_STORAGE_TOP, DONE)]


FilesCreateFolder = antrap(
    id="FilesCreateFolder", kind="action", split="train", family="FilesCreateFolder",
    complexity=1.4,
    doc="AnTrap's: a random folder name (none there at set-up); the check: a folder of that "
        "name at the top of shared storage (the reference accepts any entry of that name).",
    goal="Using the Files app, create a new folder named {folder_name} at the top level of "
         + _WHERE + ".",
    params=_folder_name, setup=[_seed(absent=lambda p: (p["folder_name"],))],
    check=DirExists(folder_path("{folder_name}")), solution=_create_solution("{folder_name}"))

FilesDeleteEmptyFolder = antrap(
    id="FilesDeleteEmptyFolder", kind="action", split="test", complexity=1.6,
    doc="AnTrap's: an empty folder of a random name at the top of shared storage; the "
        "check: it is gone. " + _EXISTENCE,
    goal="Using the Files app, delete the empty folder named {folder_name} from the top level "
         "of " + _WHERE + ".",
    params=_folder_name, setup=[_seed(folders=lambda p: (p["folder_name"],))],
    check=Absent(folder_path("{folder_name}")),
    solution=[fl.open_app(DONE), *fl.to_storage(DONE),
              *fl.delete("{folder_name}", None, 'Delete folder "{folder_name}" and its contents?',
                         DONE)])


def _move_to_new_params(rng, folder: str | None = None) -> dict:
    folder = folder or fl.one_of(rng, fl.FOLDERS)
    return {"source_folder": folder, "file_name": fl.one_of(rng, fl.EMULATOR_DIRECTORIES[folder]),
            "new_folder_name": fl.random_name(rng)}


NEW_DIR = folder_path("{source_folder}", "{new_folder_name}")
MOVE_TO_NEW_CHECK = AllOf(DirExists(NEW_DIR), Absent(SOURCE_FILE),
                          FileExists(folder_path("{source_folder}", "{new_folder_name}", "{file_name}")))
MOVE_TO_NEW_SETUP = [_seed(_files_in("source_folder", "file_name"),
                           absent=lambda p: (f"{p['source_folder']}/{p['new_folder_name']}",))]
_MADE = Holds(DirExists(NEW_DIR))
MOVE_TO_NEW_SOLUTION = [
    fl.open_app(DONE), *fl.to_folder("{source_folder}", DONE),
    *fl.new_folder("{new_folder_name}", fl.titled("{source_folder}"), _MADE),
    fl.select("{file_name}", "{source_folder}", DONE, also=fl.item("{new_folder_name}")),
    *fl.selection_menu("{file_name}", "Move to\u2026", DONE),
    *fl.pick_destination(("{source_folder}", "{new_folder_name}"), "Move", DONE)]

FilesMoveFileToNewFolder = antrap(
    id="FilesMoveFileToNewFolder", kind="action", split="train", family="FilesMoveToNewFolder",
    complexity=2.4,
    doc="AnTrap's: a file of the folder's pool; the check: the new folder is in the source, "
        "the file no longer directly in the source but in the new folder. " + _EXISTENCE,
    goal="Using the Files app, go into {source_folder}, create a folder named "
         "{new_folder_name} there, and move the file {file_name} from {source_folder} into "
         "that new folder.",
    params=_move_to_new_params, setup=MOVE_TO_NEW_SETUP, check=MOVE_TO_NEW_CHECK,
    solution=MOVE_TO_NEW_SOLUTION)


# === AnTrap: files_extras_f (families from tables) ==================================================

#: (id, source folder, destination folder)
COPIES = (("FilesCopyDocToDownload", "Documents", "Download"),
          ("FilesCopyPicToDcim", "Pictures", "DCIM"),
          ("FilesCopyMusicToAlarms", "Music", "Alarms"),
          ("FilesCopyAudioToMusic", "Audiobooks", "Music"),
          ("FilesCopyMovieToDcim", "Movies", "DCIM"))
for _id, _src, _dst in COPIES:
    globals()[_id] = antrap(  # a module attribute, so the class pickles by name
        id=_id, kind="action", split="train", family="FilesCopy", complexity=2.2,
        doc=f"AnTrap's: a file of the {_src} pool in {_src}; the check: it is in {_src} and in "
            f"{_dst}. " + _EXISTENCE,
        goal=f"Using the Files app, copy {{file_name}} from {_src} to {_dst}, keeping the "
             f"original in {_src}.",
        params=lambda rng, s=_src: {"file_name": fl.one_of(rng, fl.EMULATOR_DIRECTORIES[s]),
                                    "source_folder": s},
        setup=[_seed(_files_in("source_folder", "file_name"), (_src, _dst))],
        check=AllOf(FileExists(folder_path(_src, "{file_name}")),
                    FileExists(folder_path(_dst, "{file_name}"))),
        solution=_transfer("Copy", "Copy", _src, _dst))

#: (id, folder, split)
RENAMES = (("FilesRenameInDocuments", "Documents"), ("FilesRenameInDownload", "Download"),
           ("FilesRenameInDcim", "DCIM"), ("FilesRenameInMusic", "Music"))
for _id, _folder in RENAMES:
    globals()[_id] = antrap(
        id=_id, kind="action", split="test", family="FilesRename", complexity=1.8,
        doc=f"AnTrap's: a file of the {_folder} pool, a random new name with its extension; the "
            "check: the old name gone, the new one there. " + _EXISTENCE,
        goal=f"Using the Files app, open the {_folder} folder and rename {{original_name}} to "
             "{new_name}.",
        params=partial(_rename_params, folder=_folder), setup=RENAME_SETUP, check=RENAME_CHECK,
        solution=RENAME_SOLUTION)

#: (id, folder name, split)
CREATES = (("FilesCreateProjectsFolder", "Projects"),
           ("FilesCreateArchiveFolder", "Archive"),
           ("FilesCreate2024Folder", "2024_backup"))
for _id, _name in CREATES:
    globals()[_id] = antrap(
        id=_id, kind="action", split="train", family="FilesCreateFolder", complexity=1.4,
        doc=f"AnTrap's: no {_name} at the top of shared storage at set-up; the check: a folder "
            "of that name there (the reference accepts any entry of that name).",
        goal=f"Using the Files app, create a folder named {_name} at the top level of {_WHERE}.",
        params=lambda rng: {}, setup=[_seed(absent=(_name,))],
        check=DirExists(folder_path(_name)), solution=_create_solution(_name))

#: (id, folder, split)
MOVES_TO_NEW = (("FilesMoveToNewInMusic", "Music"),
                ("FilesMoveToNewInPictures", "Pictures"),
                ("FilesMoveToNewInDocuments", "Documents"))
for _id, _folder in MOVES_TO_NEW:
    globals()[_id] = antrap(
        id=_id, kind="action", split="train", family="FilesMoveToNewFolder", complexity=2.4,
        doc=f"AnTrap's: a file of the {_folder} pool and a random folder name; the check: the "
            f"new folder in {_folder}, the file moved into it. " + _EXISTENCE,
        goal=f"Using the Files app, create a folder named {{new_folder_name}} inside {_folder} "
             f"and move {{file_name}} from {_folder} into it.",
        params=partial(_move_to_new_params, folder=_folder), setup=MOVE_TO_NEW_SETUP,
        check=MOVE_TO_NEW_CHECK, solution=MOVE_TO_NEW_SOLUTION)
