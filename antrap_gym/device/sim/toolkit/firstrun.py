"""First-run screens: what an app shows the first time it starts after it is installed or
its data is cleared (`pm clear`), and nothing of once it is through them.

What the app has been through is kept where the app keeps it: a flag in its preferences
file (`pm clear` empties it) and the runtime permissions it holds (`pm clear` revokes them;
`pm grant` gives one without a prompt). A factory phone is the phone AndroidWorld's set-up
leaves, every app past its first run (`App.install` marks it so); a task that clears an
app's data must take it through again, through the shell, as AndroidWorld's set-up does.

- `Slides`: an intro activity of pages (AppIntro's: a title, a text, dots; an arrow button
  whose content-desc is "NEXT", "DONE" on the last page), which sets its preference when
  done; BACK on its first page leaves it undone.
- `page`: a full-window page of the main activity with its buttons (an offer to skip).
- `ask_once`: the runtime permission prompt (`toolkit.permission`), raised until the app
  holds the permission or the user answered it once.
- `AllFilesAccess`: Android's "All files access" settings page for the app, which an app
  that manages files opens on its first start: the switch "Allow access to manage all
  files" grants MANAGE_EXTERNAL_STORAGE; BACK returns to the app.

An activity that uses `ask_once` or `AllFilesAccess` mixes in `FirstRun` (the answers come
back to it by name, as a dialog's choices do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.toolkit.permission import PermissionPrompt

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.storage.prefs import SharedPreferences
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect

MANAGE_EXTERNAL_STORAGE = "android.permission.MANAGE_EXTERNAL_STORAGE"
SETTINGS = "com.android.settings"
ALL_FILES_TITLE = "All files access"
ALL_FILES_SWITCH = "Allow access to manage all files"
ALL_FILES_TEXT = ("Allow this app to read, modify and delete all files on this device or any "
                  "connected storage volumes. If granted, app may access files without your "
                  "explicit knowledge.")


def prefs(phone: PhoneContext, path: str) -> SharedPreferences:
    return phone.databases[path]  # type: ignore[return-value]


def done(phone: PhoneContext, path: str, key: str) -> bool:
    """Whether the app's preferences at `path` record the first-run step `key` as done."""
    return prefs(phone, path).get_bool(key, False)


def mark(phone: PhoneContext, path: str, *keys: str) -> None:
    """Record first-run steps as done (an app's `install`: the factory phone is past them)."""
    p = prefs(phone, path)
    for key in keys:
        p.put(key, True)


class FirstRun:
    """Mixed into an activity that raises first-run prompts: where their answers land."""

    def first_run_answered(self, phone: PhoneContext, path: str, key: str, granted: bool = False) -> None:
        mark(phone, path, key)
        phone.changed()


def ask_once(phone: PhoneContext, act: Activity, path: str, key: str, app: str, what: str,
             permission: str, one_time: bool = False) -> bool:
    """Show the prompt for `permission` over `act` unless the app holds it or the prompt
    was answered before (`key` in its preferences at `path`); whether one shows now."""
    if isinstance(act.popup, PermissionPrompt) and act.popup.permission == permission:
        return True
    if phone.state.permissions.holds(act.package, permission) or done(phone, path, key):
        return False
    if act.popup is None:
        act.popup = PermissionPrompt(app, what, permission, "first_run_answered",  # type: ignore[assignment]
                                     (path, key), one_time)
    return True


def page(ui: UI, title: str, text: str, buttons: list[tuple[str, Callable[[], Any]]],
         icon: str = "person") -> None:
    """A first-run page filling the window: a picture, the headline, a line of text, and
    its buttons along the bottom (the last one filled, the others as text)."""
    x0, y0, x1, y1 = ui.rect
    d = ui.dp
    cx = (x0 + x1) // 2
    ui.mk("image", (cx - d(48), y0 + d(96), cx + d(48), y0 + d(192)), icon=icon)
    ui.set_y(y0 + d(224))
    ui.mk("text", (x0 + d(24), ui.y, x1 - d(24), ui.y + d(72)), text=title,
          style="dialog_title_center")
    ui.set_y(ui.y + d(80))
    if text:
        ui.text(text, pad=24)
    ui.set_y(y1 - d(72))
    ui.button_bar([(label, cb, "filled" if i == len(buttons) - 1 else "text")
                   for i, (label, cb) in enumerate(buttons)])


@dataclass(frozen=True)
class Slide:
    title: str
    text: str = ""


class Slides(Activity):
    """An intro activity (AppIntro): `SLIDES` one after another; DONE on the last records
    `KEY` as true in the preferences at `PREFS` and finishes."""

    SLIDES: ClassVar[tuple[Slide, ...]] = ()
    PREFS: ClassVar[str] = ""
    KEY: ClassVar[str] = ""

    def __init__(self) -> None:
        super().__init__()
        self.slide = 0

    def title(self, phone: PhoneContext) -> str:
        return "Intro"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        x0, y0, x1, y1 = ui.rect
        d = ui.dp
        s = self.SLIDES[self.slide]
        page = ui.mk("card", ui.rect, style="intro")
        ui.mk("text", (x0 + d(24), y0 + d(288), x1 - d(24), y0 + d(340)), page, text=s.title,
              style="intro_title")
        if s.text:
            ui.mk("text", (x0 + d(32), y0 + d(348), x1 - d(32), y0 + d(548)), page, text=s.text,
                  style="intro_text")
        bar = y1 - d(64)
        n = len(self.SLIDES)
        for i in range(n):
            cx = (x0 + x1) // 2 + (2 * i - n + 1) * d(8)
            ui.mk("card", (cx - d(4), bar + d(28), cx + d(4), bar + d(36)), page,
                  style="dot_on" if i == self.slide else "dot")
        if self.slide < n - 1:
            ui.mk("icon_button", (x1 - d(64), bar + d(8), x1 - d(16), bar + d(56)), page,
                  icon="chevron", desc="NEXT", style="on_color", rid=f"{self.package}:id/next",
                  on_click=lambda: self._next(phone))
        else:
            ui.mk("button", (x1 - d(112), bar + d(8), x1 - d(16), bar + d(56)), page, text="DONE",
                  style="on_color", rid=f"{self.package}:id/done", on_click=lambda: self._done(phone))

    def _next(self, phone: PhoneContext) -> None:
        self.slide += 1
        phone.changed()

    def _done(self, phone: PhoneContext) -> None:
        mark(phone, self.PREFS, self.KEY)
        phone.finish_activity(self)

    def on_back(self, phone: PhoneContext) -> bool:
        if self.slide > 0:
            self.slide -= 1
            phone.changed()
            return True
        return False


def start_slides(phone: PhoneContext, act: Activity, slides: type[Slides]) -> bool:
    """Start `slides` over `act` unless it was done; whether it was started (the caller
    stops building: the intro is what shows)."""
    if done(phone, slides.PREFS, slides.KEY):
        return False
    phone.start_activity(slides())
    phone.request_relayout()
    return True


@dataclass(slots=True)
class AllFilesAccess:
    """Android's "All files access" page for the app in front, shown over it: the app's
    name, the switch, the explanation. BACK returns to the app, which hears of it as
    `act.<action>(phone, *args, granted)`."""

    app: str
    version: str
    action: str
    args: tuple = ()
    title: str = ALL_FILES_TITLE
    cancelable: bool = False
    package: ClassVar[str] = SETTINGS
    component: ClassVar[str] = f"{SETTINGS}/com.android.settings.Settings$AppManageExternalStorageActivity"

    def build_card(self, ui: UI, screen: Rect) -> None:
        _all_files(ui, self, screen)

    def on_back(self, phone: PhoneContext, act: Activity) -> None:
        act.popup = None
        granted = phone.state.permissions.holds(act.package, MANAGE_EXTERNAL_STORAGE)
        getattr(act, self.action)(phone, *self.args, granted)
        phone.changed()


def _all_files(ui: UI, p: AllFilesAccess, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    assert act is not None
    ui.mk("card", screen, style="page")
    ui._x0, ui._x1 = screen[0], screen[2]
    ui.set_y(screen[1])
    ui.toolbar(ALL_FILES_TITLE, back=lambda: p.on_back(phone, act))
    ui.row(p.app, p.version, avatar=p.app)
    on = phone.state.permissions.holds(act.package, MANAGE_EXTERNAL_STORAGE)

    def toggle() -> None:
        perms = phone.state.permissions
        (perms.revoke if on else perms.grant)(act.package, MANAGE_EXTERNAL_STORAGE)
        phone.changed()

    ui.switch_row(ALL_FILES_SWITCH, on, toggle, rid="android:id/switch_widget")
    ui.text(ALL_FILES_TEXT)
