"""Set-up recipes the media players' templates share, through the shell a phone has.

- `SeedFolder`: a folder on shared storage holds the given files (songs, videos), pushed
  as base64 in pieces (`gallery.write_file_commands`); with `exclusive` nothing else is
  left in it (AndroidWorld clears the folder first). Tear-down puts back what was there,
  and removes the folder when set-up made it.
- `ClearTables`: tables of an app's database emptied with `sqlite3` (AndroidWorld's
  delete_all_rows_from_table); tear-down puts the rows back, read beforehand as the
  INSERT statements that restore them.

Both force-stop the app first, as AndroidWorld closes an app before changing its data.
"""

from __future__ import annotations

import dataclasses
import posixpath
from typing import TYPE_CHECKING, Any

from antrap_gym.device.protocol import DeviceFileError
from antrap_gym.tasks.apps.gallery import CHUNK, write_file_commands
from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh

if TYPE_CHECKING:
    from antrap_gym.device import Device


def run_batched(device: Device, cmds: list[str]) -> None:
    """Run commands joined with && in as few shell calls as keep each line short."""
    batch: list[str] = []
    size = 0
    for c in cmds:
        if batch and size + len(c) > CHUNK + 4096:
            sh(device, " && ".join(batch))
            batch, size = [], 0
        batch.append(c)
        size += len(c) + 4
    if batch:
        sh(device, " && ".join(batch))


def _tree_commands(root: str, tree: dict[str, bytes | None]) -> list[str]:
    """Commands that make `tree` (read_tree's shape) again under an existing `root`."""
    cmds = [f"mkdir -p {q(p)}" for p, data in sorted(tree.items()) if data is None]
    for p, data in sorted(tree.items()):
        if data is not None:
            cmds += write_file_commands(p, data)
    return cmds


@dataclasses.dataclass
class SeedFolder(Recipe):
    """`folder` holds `files` (name -> bytes); with `exclusive`, nothing else."""

    folder: str
    files: Any
    exclusive: bool = True
    #: the app to force-stop first
    stop: str = ""

    def _files(self) -> dict[str, bytes]:
        return {str(k): bytes(v) for k, v in dict(self.files or {}).items()}

    def save(self, device: Device) -> Any:
        existed = device.shell(f"test -d {q(self.folder)}").exit_code == 0
        if self.exclusive:
            return {"existed": existed, "tree": read_tree(device, self.folder) or {}}
        before: dict[str, bytes | None] = {}
        for name in self._files():
            try:
                before[name] = device.pull(posixpath.join(self.folder, name))
            except DeviceFileError:
                before[name] = None
        return {"existed": existed, "files": before}

    def run(self, device: Device) -> None:
        cmds = [f"am force-stop {q(self.stop)}"] if self.stop else []
        if self.exclusive:
            cmds.append(f"rm -rf {q(self.folder)}")
        cmds.append(f"mkdir -p {q(self.folder)}")
        first: dict[bytes, str] = {}  # the same file twice is pushed once, then copied
        for name, data in self._files().items():
            path = posixpath.join(self.folder, name)
            if data in first:
                cmds.append(f"cp {q(first[data])} {q(path)}")
            else:
                first[data] = path
                cmds += write_file_commands(path, data)
        run_batched(device, cmds)

    def restore(self, device: Device, saved: Any) -> None:
        cmds = [f"am force-stop {q(self.stop)}"] if self.stop else []
        if not saved["existed"]:
            cmds.append(f"rm -rf {q(self.folder)}")
        elif self.exclusive:
            cmds += [f"rm -rf {q(self.folder)}", f"mkdir -p {q(self.folder)}"]
            cmds += _tree_commands(self.folder, saved["tree"])
        else:
            for name, data in saved["files"].items():
                path = posixpath.join(self.folder, name)
                cmds += [f"rm -f {q(path)}"] if data is None else write_file_commands(path, data)
        run_batched(device, cmds)


def dump_sql(tables: dict[str, tuple[str, ...]]) -> str:
    """One SELECT printing, per row of each table, the INSERT that puts it back."""
    sels = [f"SELECT 'INSERT INTO {t} VALUES(' || "
            + " || ',' || ".join(f"quote({c})" for c in cols) + f" || ');' FROM {t}"
            for t, cols in tables.items()]
    return " UNION ALL ".join(sels) + ";"


def dump(device: Device, db: str, tables: dict[str, tuple[str, ...]]) -> str:
    """The tables' rows as the INSERT statements that restore them."""
    return sh(device, f"sqlite3 {q(db)} {q(dump_sql(tables))}")


@dataclasses.dataclass
class ClearTables(Recipe):
    """The tables of the database at `db` are empty (`tables`: name -> its columns, in
    order); tear-down puts their rows back."""

    db: str
    tables: Any = dataclasses.field(metadata={"literal": True})
    stop: str = ""

    def _wipe(self) -> str:
        return "".join(f"DELETE FROM {t};" for t in self.tables)

    def save(self, device: Device) -> Any:
        return dump(device, self.db, self.tables)

    def run(self, device: Device) -> None:
        stop = f"am force-stop {q(self.stop)} && " if self.stop else ""
        sh(device, f"{stop}sqlite3 {q(self.db)} {q(self._wipe())}")

    def restore(self, device: Device, saved: Any) -> None:
        stop = f"am force-stop {q(self.stop)} && " if self.stop else ""
        sh(device, f"{stop}sqlite3 {q(self.db)} {q(self._wipe() + str(saved or ''))}")
