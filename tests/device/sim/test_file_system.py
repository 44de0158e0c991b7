"""The simulated phone's file system keeps an index of each folder's entries, so that
`find` and `ls` do not scan every path of the phone for each folder. Whatever is done to
it -- files written, copied, removed and moved, folders made and removed whole, stores
mounted -- a listing must be what a scan of every path gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from antrap_gym.device.sim.storage.files import FileSystem, FsError

NAMES = ("a", "b", "c.txt")
paths = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda p: "/sdcard/" + "/".join(p))
ops = st.lists(st.tuples(st.sampled_from(("write", "mkdir", "mkdir -p", "rm", "rm -r", "mv", "cp", "mount")),
                         paths, st.sampled_from(NAMES)), min_size=1, max_size=40)


def scan(fs: FileSystem, folder: str) -> list[str]:
    """The folder's entries found the slow way: every path the phone has."""
    prefix = folder.rstrip("/") + "/"
    every = (*fs.dirs, *fs.files, *fs.mounts.dirs, *fs.mounts.files)
    return sorted({q[len(prefix):] for q in every
                   if q.startswith(prefix) and q != prefix and "/" not in q[len(prefix):]})


def apply(fs: FileSystem, op: str, path: str, name: str) -> None:
    try:
        if op == "write":
            fs.write(path, b"x", 0)
        elif op.startswith("mkdir"):
            fs.mkdir(path, 0, parents=op.endswith("-p"))
        elif op.startswith("rm"):
            fs.remove(path, recursive=op.endswith("-r"))
        elif op == "mv":
            fs.move(path, "/sdcard/" + name, 0)
        elif op == "cp":
            fs.copy(path, "/sdcard/" + name, 0)
        else:
            fs.mounts.add(f"/data/data/org.example/{name}", lambda: b"", 0)
    except FsError:
        pass  # refused: nothing changed


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(ops=ops)
def test_a_listing_is_what_a_scan_of_every_path_gives(ops):
    fs = FileSystem()
    fs.listdir("/sdcard")  # the index exists from the start, so every change must keep it
    for op, path, name in ops:
        apply(fs, op, path, name)
        for folder in ("/", "/sdcard", "/data/data", "/data/data/org.example",
                       *(p for p in fs.dirs if p.startswith("/sdcard/"))):
            if fs.isdir(folder):
                assert fs.listdir(folder) == scan(fs, folder), (op, path, name, folder)


def test_a_restored_file_system_lists_what_it_holds():
    import pickle

    fs = FileSystem()
    fs.write("/sdcard/a.txt", b"x", 0)
    assert fs.listdir("/sdcard").count("a.txt") == 1
    back = pickle.loads(pickle.dumps(fs))
    back.write("/sdcard/b.txt", b"y", 0)
    assert "b.txt" in back.listdir("/sdcard") and "b.txt" not in fs.listdir("/sdcard")
