"""The Files app (DocumentsUI) on the simulated phone.

Screens are driven through the device as a user would (taps, long presses, typing,
the element list); what they change is read back through the shell (`ls`, `test`,
`cat`) and `pull`, as a task on a real phone reads it. Opening a web page from Files
uses whatever installed app declares it views text/html: here a small viewer
installed only in these tests.
"""

from __future__ import annotations

import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps import Activity, App, default_apps
from antrap_gym.device.sim.intents import Intent, IntentFilter, local_path
from antrap_gym.tasks.apps import files as fl
from tests.screen import find, long_press, tap, texts

PKG = "com.google.android.documentsui"
FILES = f"{PKG}/com.android.documentsui.files.FilesActivity"
SEED = "seed content"


# --- helpers ------------------------------------------------------------------------------------


def names(dev: SimDevice) -> list[str]:
    """The documents listed, in order."""
    return [e.text for e in dev.ui_elements() if (e.resource_name or "") == "android:id/title"]


def title(dev: SimDevice) -> str:
    return find(dev, rid="toolbar_title").text


def activity(dev: SimDevice) -> str:
    return dev.foreground()[1].rsplit(".", 1)[-1]


def exists(dev: SimDevice, path: str, kind: str = "e") -> bool:
    return dev.shell(f"test -{kind} '{path}'").exit_code == 0


def ls(dev: SimDevice, path: str) -> list[str]:
    res = dev.shell(f"ls '{path}'")
    assert res.exit_code == 0, res.stderr
    return res.stdout.splitlines()


def put(dev: SimDevice, *paths: str, text: str = SEED) -> None:
    for p in paths:
        assert dev.shell(f"mkdir -p \"$(dirname '{p}')\" && printf '%s' '{text}' > '{p}'").exit_code == 0


def open_files(dev: SimDevice) -> None:
    assert dev.shell(f"am start -n {FILES}").exit_code == 0


def to_storage(dev: SimDevice) -> None:
    tap(dev, desc="Show roots")
    tap(dev, text="Pixel 6")


def to_folder(dev: SimDevice, *parts: str) -> None:
    to_storage(dev)
    for p in parts:
        tap(dev, text=p, rid="title")


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    put(d, "/sdcard/Music/summer_breeze.mp3", "/sdcard/Music/city_lights.mp3",
        "/sdcard/Pictures/cat_on_sofa.jpg", "/sdcard/Download/boarding_pass.pdf")
    open_files(d)
    return d


# --- roots, folders, the breadcrumb -------------------------------------------------------------


def test_it_opens_on_recent_and_the_drawer_lists_the_roots(dev):
    assert activity(dev) == "FilesActivity" and title(dev) == "Recent"
    assert set(names(dev)) == {"summer_breeze.mp3", "city_lights.mp3", "cat_on_sofa.jpg",
                               "boarding_pass.pdf"}
    tap(dev, desc="Show roots")
    shown = texts(dev)
    for root in ("Recent", "Images", "Videos", "Audio", "Documents", "Downloads", "Pixel 6"):
        assert root in shown, shown
    assert any(t.endswith(" free") for t in shown)  # the storage root's summary
    assert dev.key("BACK").exit_code == 0 and find(dev, text="Downloads") is None  # BACK closes it


def test_roots_of_files_by_kind_and_downloads(dev):
    tap(dev, desc="Show roots")
    tap(dev, text="Images")
    assert names(dev) == ["cat_on_sofa.jpg"]
    tap(dev, desc="Show roots")
    tap(dev, text="Audio")
    assert sorted(names(dev)) == ["city_lights.mp3", "summer_breeze.mp3"]
    tap(dev, desc="Show roots")
    tap(dev, text="Downloads")
    assert title(dev) == "Downloads" and names(dev) == ["boarding_pass.pdf"]


def test_storage_root_folders_and_breadcrumb_navigation(dev):
    to_storage(dev)
    shown = names(dev)
    for folder in ("Alarms", "DCIM", "Documents", "Download", "Music"):
        assert folder in shown
    tap(dev, text="Music", rid="title")
    assert title(dev) == "Music" and names(dev) == ["city_lights.mp3", "summer_breeze.mp3"]
    crumbs = [e.text for e in dev.ui_elements() if (e.resource_name or "").endswith("breadcrumb_text")]
    assert crumbs == ["Pixel 6", "Music"]
    tap(dev, text="Pixel 6", rid="breadcrumb_text")
    assert title(dev) == "Pixel 6"
    tap(dev, text="Music", rid="title")
    dev.key("BACK")  # up one folder
    assert title(dev) == "Pixel 6"


def test_a_file_the_shell_pushes_shows_at_once(dev):
    to_folder(dev, "Music")
    put(dev, "/sdcard/Music/new_song.mp3")
    assert "new_song.mp3" in names(dev)
    row = find(dev, text="new_song.mp3")
    assert row is not None and find(dev, text="12 B", rid="size") is not None


# --- selection ------------------------------------------------------------------------------------


def test_long_press_selects_then_taps_add_and_back_clears(dev):
    to_folder(dev, "Music")
    long_press(dev, "city_lights.mp3", rid="title")
    assert title(dev) == "1 selected" and find(dev, desc="Done") is not None
    picked = find(dev, text="city_lights.mp3", rid="title")
    assert picked.is_selected and not find(dev, text="summer_breeze.mp3").is_selected
    tap(dev, text="summer_breeze.mp3")  # in selection mode a tap adds
    assert title(dev) == "2 selected"
    dev.key("BACK")
    assert title(dev) == "Music" and not any(e.is_selected for e in dev.ui_elements() if e.text)


def test_select_all_from_the_overflow(dev):
    to_folder(dev, "Music")
    tap(dev, desc="More options")
    tap(dev, text="Select all")
    assert title(dev) == "2 selected"


# --- copy and move -------------------------------------------------------------------------------


def _copy_or_move(dev, name: str, item: str, dest: str, button: str) -> None:
    long_press(dev, name, rid="title")
    tap(dev, desc="More options")
    tap(dev, text=item)
    assert activity(dev) == "PickActivity"
    tap(dev, rid="breadcrumb_text")  # the storage root
    tap(dev, text=dest, rid="title")
    tap(dev, text=button)


def test_copy_to_another_folder_keeps_the_original(dev):
    to_folder(dev, "Music")
    _copy_or_move(dev, "city_lights.mp3", "Copy to\u2026", "Alarms", "Copy")
    assert activity(dev) == "FilesActivity" and title(dev) == "Music"
    assert exists(dev, "/sdcard/Music/city_lights.mp3", "f")
    assert exists(dev, "/sdcard/Alarms/city_lights.mp3", "f")
    assert dev.pull("/sdcard/Alarms/city_lights.mp3") == SEED.encode()
    assert dev.phone.wm.toast is not None and dev.phone.wm.toast[0] == "Copying 1 file."


def test_copy_into_a_folder_that_has_the_name_makes_a_numbered_copy(dev):
    put(dev, "/sdcard/Alarms/city_lights.mp3", text="older")
    to_folder(dev, "Music")
    _copy_or_move(dev, "city_lights.mp3", "Copy to\u2026", "Alarms", "Copy")
    assert ls(dev, "/sdcard/Alarms") == ["city_lights (1).mp3", "city_lights.mp3"]
    assert dev.pull("/sdcard/Alarms/city_lights.mp3") == b"older"


def test_move_takes_it_out_of_the_source_and_the_picker_will_not_move_in_place(dev):
    to_folder(dev, "Music")
    long_press(dev, "city_lights.mp3", rid="title")
    tap(dev, desc="More options")
    tap(dev, text="Move to\u2026")
    assert title(dev) == "Music" and not find(dev, text="Move").is_enabled  # its own folder
    tap(dev, rid="breadcrumb_text")
    tap(dev, text="Alarms", rid="title")
    assert find(dev, text="Move").is_enabled
    tap(dev, text="Move")
    assert not exists(dev, "/sdcard/Music/city_lights.mp3")
    assert exists(dev, "/sdcard/Alarms/city_lights.mp3", "f")
    assert names(dev) == ["summer_breeze.mp3"]


def test_the_picker_cancels_and_makes_a_folder_to_drop_into(dev):
    to_folder(dev, "Music")
    long_press(dev, "city_lights.mp3", rid="title")
    tap(dev, desc="More options")
    tap(dev, text="Move to\u2026")
    tap(dev, desc="More options")
    tap(dev, text="New folder")
    dev.type_text("best_of")
    tap(dev, text="OK")
    assert title(dev) == "best_of"  # the picker goes into the folder it made
    tap(dev, text="Move")
    assert exists(dev, "/sdcard/Music/best_of/city_lights.mp3", "f")
    long_press(dev, "summer_breeze.mp3", rid="title")
    tap(dev, desc="More options")
    tap(dev, text="Copy to\u2026")
    tap(dev, text="Cancel")
    assert activity(dev) == "FilesActivity" and ls(dev, "/sdcard/Music") == ["best_of", "summer_breeze.mp3"]


# --- rename, delete, new folder --------------------------------------------------------------------


def test_rename_comes_with_the_name_selected_and_refuses_a_taken_name(dev):
    to_folder(dev, "Music")
    long_press(dev, "city_lights.mp3", rid="title")
    tap(dev, desc="More options")
    tap(dev, text="Rename")
    field = find(dev, rid="edit")
    assert field.text == "city_lights.mp3" and dev.phone.wm.top_activity().selection_all
    dev.type_text("summer_breeze.mp3")  # typing replaces the selected name
    tap(dev, text="OK")
    assert find(dev, text="A file with this name already exists.") is not None  # still open
    assert exists(dev, "/sdcard/Music/city_lights.mp3", "f")
    dev.clear_text()
    dev.type_text("night_drive.mp3\n")  # Enter renames too
    assert sorted(ls(dev, "/sdcard/Music")) == ["night_drive.mp3", "summer_breeze.mp3"]
    assert title(dev) == "Music"


def test_delete_asks_first_and_cancel_keeps_the_file(dev):
    to_folder(dev, "Music")
    long_press(dev, "city_lights.mp3", rid="title")
    tap(dev, desc="Delete")
    assert find(dev, text='Delete "city_lights.mp3"?') is not None
    tap(dev, text="Cancel")
    assert exists(dev, "/sdcard/Music/city_lights.mp3", "f")
    tap(dev, desc="Delete")
    tap(dev, text="OK")
    assert ls(dev, "/sdcard/Music") == ["summer_breeze.mp3"]


def test_deleting_a_folder_names_its_contents(dev):
    to_storage(dev)
    long_press(dev, "Music", rid="title")
    tap(dev, desc="Delete")
    assert find(dev, text='Delete folder "Music" and its contents?') is not None
    tap(dev, text="OK")
    assert not exists(dev, "/sdcard/Music")


def test_new_folder_from_the_overflow(dev):
    to_storage(dev)
    tap(dev, desc="More options")
    tap(dev, text="New folder")
    assert find(dev, rid="alertTitle").text == "New folder"
    dev.type_text("Projects")
    tap(dev, text="OK")
    assert exists(dev, "/sdcard/Projects", "d") and "Projects" in ls(dev, "/sdcard")
    tap(dev, desc="More options")
    tap(dev, text="New folder")
    dev.type_text("Projects\n")  # a taken name gets a free variant
    assert exists(dev, "/sdcard/Projects (1)", "d")


# --- sort, list and grid ----------------------------------------------------------------------------


def test_sort_by_size_and_name_keeps_folders_first(dev):
    put(dev, "/sdcard/Music/big.mp3", text="x" * 500)
    put(dev, "/sdcard/Music/Live/a.mp3")
    to_folder(dev, "Music")
    assert names(dev) == ["Live", "big.mp3", "city_lights.mp3", "summer_breeze.mp3"]
    tap(dev, desc="More options")
    tap(dev, text="Sort by")
    tap(dev, text="Size (largest first)")
    assert names(dev)[:2] == ["Live", "big.mp3"]
    tap(dev, desc="More options")
    tap(dev, text="Sort by")
    tap(dev, text="Name (Z to A)")
    assert names(dev) == ["Live", "summer_breeze.mp3", "city_lights.mp3", "big.mp3"]


def test_grid_view_shows_the_same_documents(dev):
    to_folder(dev, "Music")
    listed = names(dev)
    tap(dev, desc="Grid view")
    assert find(dev, desc="List view") is not None and names(dev) == listed
    rows = [e for e in dev.ui_elements() if (e.resource_name or "").endswith("item_root")]
    assert rows[0].center[1] == rows[1].center[1]  # side by side


# --- opening a document: the apps that view its type ---------------------------------------------------


class PageActivity(Activity):
    name = ".PageActivity"

    def __init__(self) -> None:
        super().__init__()
        self.uri = ""

    def on_intent(self, phone, intent: Intent) -> None:
        self.uri = intent.data

    def build(self, ui, phone) -> None:
        ui.toolbar("Page")
        path = local_path(self.uri)
        ui.text(phone.fs.read_text(path) if path and phone.fs.isfile(path) else "no page")


class PageViewer(App):
    package = "org.example.pageviewer"
    label = "Page Viewer"
    main = PageActivity
    intent_filters = (IntentFilter(mime_types=("text/html",), schemes=("content", "file")),)


class TextActivity(PageActivity):
    name = ".TextActivity"


class TextViewer(App):
    package = "org.example.textviewer"
    label = "Text Viewer"
    main = TextActivity
    intent_filters = (IntentFilter(mime_types=("text/*",)),)


PageActivity.package = PageViewer.package
TextActivity.package = TextViewer.package


HTML = Intent(data="content://com.android.externalstorage.documents/document/primary%3Ax.html",
              mime="text/html")


def html_device(*viewers: type[App]) -> SimDevice:
    """A phone whose only apps that view web pages are `viewers` (an installed browser
    is left out, so each test says which viewers there are)."""
    others = [a for a in default_apps() if not any(f.matches(HTML) for f in a.intent_filters)]
    d = SimDevice(apps=[*others, *viewers])
    put(d, "/sdcard/Download/task.html", text="<p>hello</p>")
    open_files(d)
    tap(d, desc="Show roots")
    tap(d, text="Downloads")
    return d


def test_a_web_page_opens_in_the_app_that_views_html():
    d = html_device(PageViewer)
    tap(d, text="task.html")
    assert d.foreground()[0] == PageViewer.package
    assert "<p>hello</p>" in texts(d)  # read through the document URI Files handed over
    assert d.phone.wm.top_activity().uri.startswith("content://com.android.externalstorage.documents/")


def test_open_with_offers_the_chooser_even_for_one_app():
    d = html_device(PageViewer)
    long_press(d, "task.html", rid="title")
    tap(d, desc="More options")
    tap(d, text="Open with")
    assert "Open with" in texts(d) and "Page Viewer" in texts(d)
    tap(d, text="Page Viewer")
    assert d.foreground()[0] == PageViewer.package and "<p>hello</p>" in texts(d)


def test_several_viewers_are_offered_and_none_says_it_cannot_open():
    d = html_device(PageViewer, TextViewer)
    tap(d, text="task.html")
    # Android's chooser (the system's window over Files) lists both
    assert {"Open with", "Page Viewer", "Text Viewer"} <= set(texts(d))
    assert d.foreground()[0] not in (PageViewer.package, TextViewer.package)
    tap(d, text="Text Viewer")
    assert d.foreground()[0] == TextViewer.package
    bare = html_device()  # no app views text/html
    tap(bare, text="task.html")
    assert bare.foreground()[0] == PKG and bare.phone.wm.toast[0] == "Can\u2019t open file"


# --- the tasks' set-up ---------------------------------------------------------------------------------


def test_setup_clears_files_keeps_folders_and_teardown_puts_the_tree_back(dev):
    put(dev, "/sdcard/Documents/Markor/note.md", "/sdcard/Old/keep/me.txt")
    before = dev.shell("find /sdcard").stdout
    recipe = fl.SeedStorage({"Music/x.mp3": SEED}, ("Alarms",), ("Projects",))
    recipe.apply(dev)
    assert dev.shell("find /sdcard -type f").stdout.split() == ["/sdcard/Music/x.mp3"]
    assert exists(dev, "/sdcard/Old/keep", "d")  # folders stay, as AndroidWorld clears storage
    recipe.undo(dev)
    assert dev.shell("find /sdcard").stdout == before
    assert dev.pull("/sdcard/Documents/Markor/note.md") == SEED.encode()


def test_search_finds_names_in_the_folder_and_below(dev):
    put(dev, "/sdcard/Music/Live/city_lights_live.mp3")
    to_folder(dev, "Music")
    tap(dev, desc="Search")
    assert find(dev, rid="search_src_text").hint_text == "Search files"
    dev.type_text("CITY")
    assert sorted(names(dev)) == ["city_lights.mp3", "city_lights_live.mp3"]
    dev.key("BACK")  # the keyboard
    dev.key("BACK")  # the search
    assert title(dev) == "Music" and names(dev) == ["Live", "city_lights.mp3", "summer_breeze.mp3"]
