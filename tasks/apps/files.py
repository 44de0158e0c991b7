"""Files (`com.google.android.documentsui`) for tasks: the documents are files on shared
storage. Set-up clears it as AndroidWorld does (`find /sdcard -mindepth 1 -type f
-delete`: every file goes, folders stay), then makes the task's folders and files
("seed content", AnTrap's) through the shell; tear-down puts back the tree that was
there. Plus the folders' file-name pools, the draws, and the app's screens for
solutions.
"""

from __future__ import annotations

import dataclasses
import posixpath
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps.gallery import write_file_commands
from antrap_gym.tasks.checks.files import read_tree
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import LongPress, OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.google.android.documentsui"
APP_NAME = "Files"
FILES = "com.android.documentsui.files.FilesActivity"
PICK = "com.android.documentsui.picker.PickActivity"
ROOT = "/sdcard"
SEED = "seed content"
#: characters per shell call when the tree is written back (well under a real adb line)
CHUNK = 48_000

#: AndroidWorld's EMULATOR_DIRECTORIES shape: the 12 top-level folders of shared storage,
#: each with its fixed candidate file names (our own names, the folder's usual types)
EMULATOR_DIRECTORIES: dict[str, tuple[str, ...]] = {
    "Alarms": ("morning_chime.mp3", "wake_up_bells.mp3", "sunrise_melody.mp3", "gentle_rise.mp3",
               "rooster_call.mp3", "early_bird.mp3", "classic_beeps.mp3", "forest_dawn.mp3",
               "ocean_waves_alarm.mp3"),
    "Audiobooks": ("the_quiet_harbor_ch01.mp3", "the_quiet_harbor_ch02.mp3",
                   "letters_from_lisbon.mp3", "a_short_history_of_tea.mp3",
                   "mountain_roads_part1.mp3", "mountain_roads_part2.mp3",
                   "the_clockmakers_daughter.mp3", "stories_for_the_train.mp3",
                   "deep_space_logbook.mp3"),
    "DCIM": ("IMG_20231001_081502.jpg", "IMG_20231003_174233.jpg", "IMG_20231005_120915.jpg",
             "IMG_20231007_193040.jpg", "IMG_20231009_070311.jpg", "IMG_20231010_162728.jpg",
             "IMG_20231012_095544.jpg", "IMG_20231013_211907.jpg", "PXL_20231014_153322.jpg"),
    "Documents": ("quarterly_report.pdf", "meeting_agenda.docx", "travel_itinerary.pdf",
                  "lease_agreement.pdf", "thesis_draft.docx", "project_proposal.docx",
                  "reading_list.txt", "tax_receipts_2022.pdf", "recipe_ideas.txt"),
    "Download": ("invoice_10293.pdf", "holiday_photo.jpg", "setup_guide.pdf",
                 "wallpaper_mountains.png", "podcast_episode_12.mp3", "archive_backup.zip",
                 "boarding_pass.pdf", "menu_bistro.pdf"),
    "Movies": ("birthday_party.mp4", "beach_trip_2023.mp4", "cooking_tutorial.mp4",
               "graduation_day.mp4", "city_timelapse.mp4", "skate_session.mp4", "concert_clip.mp4",
               "drone_flight.mp4"),
    "Music": ("summer_breeze.mp3", "midnight_drive.mp3", "coffee_shop_jazz.mp3",
              "rainy_day_blues.mp3", "electric_dreams.mp3", "acoustic_sunset.mp3", "city_lights.mp3",
              "old_town_waltz.mp3"),
    "Notifications": ("ping.ogg", "chirp.ogg", "soft_bell.ogg", "pop_up.ogg", "glass_tap.ogg",
                      "bubble.ogg", "knock_knock.ogg", "twinkle.ogg"),
    "Pictures": ("screenshot_home.png", "family_portrait.jpg", "sunset_pier.jpg", "cat_on_sofa.jpg",
                 "mountain_view.jpg", "birthday_cake.jpg", "receipt_scan.png", "garden_flowers.jpg"),
    "Podcasts": ("tech_talk_ep41.mp3", "history_hour_ep07.mp3", "daily_news_1015.mp3",
                 "science_weekly_ep88.mp3", "true_crime_ep12.mp3", "cooking_show_ep3.mp3",
                 "language_lessons_ep20.mp3", "startup_stories_ep5.mp3"),
    "Recordings": ("voice_memo_001.m4a", "lecture_notes.m4a", "interview_draft.m4a",
                   "band_practice.m4a", "grocery_reminder.m4a", "call_summary.m4a",
                   "idea_for_app.m4a", "bird_song.m4a"),
    "Ringtones": ("classic_phone.ogg", "marimba_loop.ogg", "retro_tone.ogg", "upbeat_ring.ogg",
                  "calm_harp.ogg", "digital_pulse.ogg", "jazzy_call.ogg", "steel_drums.ogg"),
}
FOLDERS = tuple(EMULATOR_DIRECTORIES)


def folder_path(*parts: str) -> str:
    return posixpath.join(ROOT, *parts)


# --- seeded parameters ------------------------------------------------------------------------


def one_of(rng: np.random.Generator, pool) -> str:
    return str(pool[int(rng.integers(len(pool)))])


def two_folders(rng: np.random.Generator) -> tuple[str, str]:
    """A source folder and a different destination folder."""
    source = one_of(rng, FOLDERS)
    return source, one_of(rng, [f for f in FOLDERS if f != source])


def extension(name: str) -> str:
    return posixpath.splitext(name)[1]


def random_name(rng: np.random.Generator, ext: str = "") -> str:
    """A random file name (adjective_noun_modifier, AndroidWorld's shape) with `ext`."""
    return mk.random_file_name(rng) + ext


def noise(rng: np.random.Generator, folder: str, avoid: str, lo: int = 1, hi: int = 4) -> list[str]:
    """lo..hi other names from the folder's pool (AndroidWorld's noise files)."""
    pool = [n for n in EMULATOR_DIRECTORIES[folder] if n != avoid]
    k = int(rng.integers(lo, hi + 1))
    return [pool[int(i)] for i in rng.permutation(len(pool))[:k]]


# --- the shell side ------------------------------------------------------------------------------


def _run(device: Device, cmds: list[str]) -> None:
    """Commands joined with && in as few shell calls as keep each under CHUNK."""
    batch: list[str] = []
    size = 0
    for c in cmds:
        if batch and size + len(c) > CHUNK:
            sh(device, " && ".join(batch))
            batch, size = [], 0
        batch.append(c)
        size += len(c) + 4
    if batch:
        sh(device, " && ".join(batch))


@dataclasses.dataclass
class SeedStorage(Recipe):
    """Shared storage cleared as AndroidWorld clears it (every file deleted, folders
    kept), the paths in `absent` removed (what the task will make), then `folders`
    (relative to /sdcard) made and `files` (relative path -> text) written. Files is
    force-stopped first, so it opens afresh. Tear-down puts back the whole tree that
    was there before."""

    files: Any = None
    folders: Any = ()
    absent: Any = ()

    def save(self, device: Device) -> Any:
        return read_tree(device, ROOT) or {}

    def run(self, device: Device) -> None:
        cmds = [f"am force-stop {PKG}", f"find {ROOT} -mindepth 1 -type f -delete"]
        cmds += [f"rm -rf {q(folder_path(p))}" for p in self.absent or ()]
        made = sorted({*(self.folders or ()), *(posixpath.dirname(p) for p in dict(self.files or {}))})
        cmds += [f"mkdir -p {q(folder_path(d))}" for d in made if d]
        cmds += [f"printf '%s' {q(text)} > {q(folder_path(p))}" for p, text in dict(self.files or {}).items()]
        _run(device, cmds)

    def restore(self, device: Device, saved: Any) -> None:
        now = read_tree(device, ROOT) or {}
        cmds = [f"am force-stop {PKG}", f"find {ROOT} -mindepth 1 -type f -delete"]
        gone = sorted(p for p, v in now.items() if v is None and p not in saved)
        cmds += [f"rm -rf {q(p)}" for p in gone if posixpath.dirname(p) not in gone]
        cmds += [f"mkdir -p {q(p)}" for p, v in sorted(saved.items()) if v is None]
        for p, data in sorted(saved.items()):
            if data is not None:
                cmds += write_file_commands(p, data) if data else [f"touch {q(p)}"]
        _run(device, cmds)


def state(device: Device) -> dict:
    """Files keeps no data of its own: its documents are /sdcard, which the contract
    compares whole."""
    return {}


# --- solution steps ------------------------------------------------------------------------------


def open_app(done: Any = None) -> OpenApp:
    return OpenApp(app=APP_NAME, package=PKG, done=done)


def titled(text: str) -> Target:
    """The app bar showing `text`: which folder is open (or how many are selected)."""
    return Target(rid="toolbar_title", text=text)


def item(name: str) -> Target:
    """A document or folder in the list, by its name."""
    return Target(rid="title", text=name)


#: the storage root in the roots drawer: the one that says how much space is free
STORAGE_ROOT = Target(rid="summary", text="free", contains=True)
#: browsing, not selecting: the drawer's button shows (a selection's bar has Done instead)
BROWSING = Target(desc="Show roots")
#: the storage root's own listing, browsing: it holds the Download folder
AT_STORAGE_TOP = (item("Download"), BROWSING)
ONE_SELECTED = titled("1 selected")
MORE = Target(desc="More options")


def to_storage(done: Any = None) -> list[Step]:
    """From any Files screen: Show roots > the storage root."""
    return [Tap(screen=FILES, target=BROWSING, requires=BROWSING, done=done),
            Tap(screen=FILES + "|menu", target=STORAGE_ROOT, done=done)]


def to_folder(folder: str, done: Any = None) -> list[Step]:
    """From any Files screen to a top-level folder of the storage root."""
    return [*to_storage(done),
            Tap(screen=FILES, target=item(folder), requires=AT_STORAGE_TOP, done=done)]


def select(name: str, folder: str, done: Any = None, also: Target | None = None) -> Step:
    """Long-press a document of `folder` (whose name the app bar shows), once `also`
    shows too when given (a folder made for it)."""
    requires = titled(folder) if also is None else (titled(folder), also)
    return LongPress(screen=FILES, target=item(name), requires=requires, done=done)


def chosen(name: str) -> tuple[Target, Target]:
    """`name` is the one document selected."""
    return ONE_SELECTED, Target(rid="title", text=name, selected=True)


def selection_menu(name: str, entry: str, done: Any = None) -> list[Step]:
    """With `name` the one document selected: More options > `entry`."""
    return [Tap(screen=FILES, target=MORE, requires=chosen(name), done=done),
            Tap(screen=FILES + "|menu", target=Target(text=entry), done=done)]


def pick_destination(path: tuple[str, ...], button: str, done: Any) -> list[Step]:
    """In the Copy to / Move to picker (it opens where the documents are): the storage
    root (its breadcrumb's first part), down the folders of `path`, then Copy or Move."""
    steps: list[Step] = [Tap(screen=PICK, target=Target(rid="breadcrumb_text"), done=done)]
    for i, f in enumerate(path):
        steps.append(Tap(screen=PICK, target=item(f), done=done,
                         requires=AT_STORAGE_TOP if i == 0 else titled(path[i - 1])))
    steps.append(Tap(screen=PICK, target=Target(text=button), requires=titled(path[-1]), done=done))
    return steps


def new_folder(name: str, requires: Target | tuple[Target, ...], done: Any) -> list[Step]:
    """More options > New folder > the name > OK, where `requires` shows."""
    return [Tap(screen=FILES, target=MORE, requires=requires, done=done),
            Tap(screen=FILES + "|menu", target=Target(text="New folder"), done=done),
            TypeText(screen=FILES + "|New folder", target=Target(cls="EditText"), text=name, done=done),
            Tap(screen=FILES + "|New folder", target=Target(text="OK"), done=done)]


def rename(name: str, folder: str, new: str, done: Any) -> list[Step]:
    return [select(name, folder, done), *selection_menu(name, "Rename", done),
            TypeText(screen=FILES + "|Rename", target=Target(cls="EditText"), text=new, done=done),
            Tap(screen=FILES + "|Rename", target=Target(text="OK"), done=done)]


def delete(name: str, folder: str | None, message: str, done: Any) -> list[Step]:
    """Long-press > Delete > OK on the confirmation (it names the document). `folder`
    None: a folder at the storage root."""
    first = (select(name, folder, done) if folder is not None else
             LongPress(screen=FILES, target=item(name), requires=AT_STORAGE_TOP, done=done))
    return [first,
            Tap(screen=FILES, target=Target(desc="Delete"), requires=chosen(name), done=done),
            Tap(screen=FILES, target=Target(text="OK"), requires=Target(text=message), done=done)]
