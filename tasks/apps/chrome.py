"""Chrome (`com.android.chrome`) for the browser tasks: their set-up as the reference's
(shared storage cleared, Chrome's data cleared so its first-run screens show, the
notification permission granted, the task page written to Download/task.html), the
check's parts, and the way to the page for solutions (Files > Downloads > task.html >
Chrome's first run), everything over the shell.

Tear-down puts the storage tree back (Files' recipe) and Chrome's permission grants; its
data stays cleared, as no shell command writes Chrome's preferences back on a phone.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from antrap_gym.tasks.apps import files as fl
from antrap_gym.tasks.apps.gallery import write_file_commands
from antrap_gym.tasks.apps.grants import ClearApp, granted
from antrap_gym.tasks.browser_pages import page_html
from antrap_gym.tasks.checks import AllOf, Either, ElementShows, Holds, InForeground
from antrap_gym.tasks.checks.base import Check
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.android.chrome"
APP_NAME = "Chrome"
TABBED = "org.chromium.chrome.browser.ChromeTabbedActivity"
FIRST_RUN = "org.chromium.chrome.browser.firstrun.FirstRunActivity"
POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"
FOLDER = "Download"
PAGE_NAME = "task.html"
PAGE_PATH = f"{fl.ROOT}/{FOLDER}/{PAGE_NAME}"
SUCCESS = "Success!"
#: Android's "Open with" chooser (several apps take an HTML file)
CHOOSER = "com.android.internal.app.ResolverActivity|Open with"
NOTIFY_TITLE = "Allow Chrome to send you notifications?"
#: the first first-run screen's way on (each screen is told by what it shows: one activity)
WELCOME = Target(text="Use without an account")

#: the reference's check: Chrome in front and an element whose text is exactly `Success!`
#: (any element, as AndroidWorld reads the accessibility tree; not a description)
PAGE_WON = AllOf(InForeground(PKG), ElementShows(({"text": SUCCESS},)))


@dataclasses.dataclass
class PushPage(Recipe):
    """The page `name` with `seed` filled in, written to Download/task.html in base64
    pieces (`echo ... | base64 -d`, as a phone's shell takes it). What was there goes
    back with the storage tree (Files' recipe, applied before this one)."""

    name: Any = ""
    seed: Any = 0

    def run(self, device: Device) -> None:
        data = page_html(str(self.name), int(self.seed)).encode("utf-8")
        for cmd in write_file_commands(PAGE_PATH, data):
            sh(device, cmd)


@dataclasses.dataclass
class Grant(Recipe):
    """`pm grant PKG PERMISSION`; tear-down leaves grants to `ClearApp`, which restores
    the ones held before."""

    package: str = PKG
    permission: str = POST_NOTIFICATIONS

    def run(self, device: Device) -> None:
        sh(device, f"pm grant {q(self.package)} {q(self.permission)}")


def setup(name: str) -> list[Recipe]:
    """The reference's set-up of every browser task, for page `name`."""
    return [fl.SeedStorage(), ClearApp(PKG), Grant(), PushPage(name, "{browser_task_seed}")]


def state(device: Device) -> tuple[str, ...]:
    """What the contract compares before set-up and after tear-down: Chrome's runtime
    permission grants (its pages and tabs live only while it runs)."""
    return granted(device, PKG)


# --- where the page is, for solutions --------------------------------------------------------


@dataclasses.dataclass
class HasTask(Check):
    """Chrome (or `package`) has a task in `dumpsys activity activities`: it is running
    and holds the tab it opened (a BACK out of a page it was handed closes it)."""

    package: str = PKG

    def score(self, device: Device, answer: str | None) -> float:
        out = device.shell("dumpsys activity activities").stdout
        return float(any(self.package in line for line in out.splitlines() if "Task{" in line))


@dataclasses.dataclass
class NoTask(HasTask):
    def score(self, device: Device, answer: str | None) -> float:
        return 1.0 - super().score(device, answer)


@dataclasses.dataclass
class PastFirstRun(Check):
    """Chrome's tabs are in front with no first-run screen or prompt over them."""

    def score(self, device: Device, answer: str | None) -> float:
        if device.foreground() != (PKG, TABBED):
            return 0.0
        return float(all(el.text != NOTIFY_TITLE for el in device.ui_elements()))


#: Chrome holds the task page (it was opened from Files and not closed since)
CHROME_OPEN = Holds(HasTask())
#: the first run is behind: its steps are done
FIRST_RUN_DONE = Holds(PastFirstRun())
#: Files lists task.html on the screen now (Recent or Downloads)
LISTED = Holds(ElementShows(({"text": PAGE_NAME, "resource_id": "android:id/title"},)))


def to_page() -> list[Step]:
    """From wherever the phone is to the task page in Chrome: Files, its Downloads root
    (skipped when the first screen lists task.html already), task.html, Chrome in the
    chooser if one asks, Chrome's first-run screens. The OpenApp of Chrome says Chrome
    holds the page from then on: sent home, the oracle goes back to Chrome; with
    Chrome closed (a BACK out of the page), back to Files for the file."""
    return [fl.open_app(done=CHROME_OPEN),
            Tap(screen=fl.FILES, target=fl.BROWSING, requires=fl.BROWSING, done=Either(CHROME_OPEN, LISTED)),
            Tap(screen=fl.FILES + "|menu", target=Target(rid="title", text="Downloads"),
                done=Either(CHROME_OPEN, LISTED)),
            Tap(screen=fl.FILES, target=fl.item(PAGE_NAME), done=CHROME_OPEN),
            Tap(screen=CHOOSER, target=Target(text=APP_NAME), done=CHROME_OPEN),
            OpenApp(app=APP_NAME, package=PKG, done=Holds(NoTask())),
            Tap(screen=FIRST_RUN, target=WELCOME, requires=WELCOME, done=FIRST_RUN_DONE),
            Tap(screen=FIRST_RUN, target=Target(text="No thanks"), requires=Target(text="Turn on sync?"),
                done=FIRST_RUN_DONE),
            Tap(screen=f"{TABBED}|{NOTIFY_TITLE}", target=Target(text="Allow"), done=FIRST_RUN_DONE)]


def on_page(steps: list[Step]) -> list[Step]:
    """A page plan's steps (tasks/browser_pages/plans.py) as steps in Chrome's tab, which
    a BACK would close (the page's state with it): stay on it."""
    return [dataclasses.replace(s, screen=TABBED, stay=True) for s in steps]
