"""The contract between the simulated phone and what runs on it.

`PhoneContext` is what an app, the toolkit, the IME, intents and the system UI may use
of the phone (`phone.Phone` is the one implementation); `Screen` is what the phone and
the toolkit need of an activity (`apps.base.Activity` is the one kind there is);
`PhoneState` is the phone's saved state, which a snapshot pickles, and `WindowState`
the window manager's part of it (its behaviour is `wm.py`'s). Nothing here
imports the phone or the apps, so everything that uses them can sit below the phone:
the phone is built from the apps and the toolkit, never the other way round.
`tests/device/sim/test_sim_layers.py` holds the apps, the toolkit and the system UI to
these members.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from antrap_gym.device.overlay import Overlay, OverlayEvent
from antrap_gym.device.sim.storage.clipboard import Clipboard
from antrap_gym.device.sim.storage.content import ContentProvider, LegacyAuthority
from antrap_gym.device.sim.storage.files import FileSystem
from antrap_gym.device.sim.storage.permissions import RuntimePermissions
from antrap_gym.device.sim.storage.settings import SettingsStore
from antrap_gym.device.sim.storage.sqlite import SqliteStore
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.toolkit.views import View

# --- the window manager's state ------------------------------------------------------------
LAUNCHER = "com.google.android.apps.nexuslauncher"

#: what a back stack holds (an activity)
S = TypeVar("S")


class Window(NamedTuple):
    name: str  # app | popup | recents | ime | overlay | status_bar | nav_bar
    root: View
    package: str
    focusable: bool  # may own the accessibility focus (its tree is the dump)


@dataclass(slots=True)
class WindowState(Generic[S]):
    tasks: dict[str, list[S]] = field(default_factory=dict)
    recents: list[str] = field(default_factory=list)  # most recent first, launcher excluded
    top: str = LAUNCHER
    recents_open: bool = False
    overlays: list[Overlay] = field(default_factory=list)
    overlay_log: list[OverlayEvent] = field(default_factory=list)
    toast: tuple[str, int] | None = None  # (text, expires at clock ms)
    ime_shown: bool = False

    def top_activity(self) -> S | None:
        stack = self.tasks.get(self.top)
        return stack[-1] if stack else None

    def bring_to_front(self, package: str) -> None:
        self.top = package
        if package != LAUNCHER:
            if package in self.recents:
                self.recents.remove(package)
            self.recents.insert(0, package)


# --- the contract --------------------------------------------------------------------------
class Screen(Protocol):
    """An activity as the phone, the IME and the toolkit see it: its name, the UI state
    it keeps (plain and picklable) and the hooks they call."""

    package: ClassVar[str]
    name: ClassVar[str]
    scroll: dict[str, int]
    fields: dict[str, str]
    cursors: dict[str, int]
    focus: str | None
    selection_all: bool
    popup: Dialog | Menu | None

    @property
    def component(self) -> str: ...

    def set_field(self, field: str, value: str) -> None: ...

    def title(self, phone: PhoneContext) -> str: ...

    def noop(self, phone: PhoneContext) -> None: ...

    def on_back(self, phone: PhoneContext) -> bool: ...

    def on_submit(self, phone: PhoneContext, field: str) -> None: ...

    def on_text_changed(self, phone: PhoneContext, field: str) -> None: ...

    def on_finish(self, phone: PhoneContext) -> None: ...

    def on_pause(self, phone: PhoneContext) -> None: ...

    def text_toolbar(self, phone: PhoneContext, what: str, field: str,
                     under: Dialog | None = None, anchor: tuple[int, int] = (0, 0)) -> None: ...


@dataclass(slots=True)
class PhoneState:
    """Everything a snapshot saves but the databases (which save themselves)."""

    clock_ms: int
    settings: SettingsStore
    fs: FileSystem
    wm: WindowState[Screen]
    clipboard: Clipboard = field(default_factory=Clipboard)
    nfc_on: bool = True  # NfcService keeps it in its own preferences, not in settings
    #: the apps' runtime permission grants (`pm grant`, the permission prompt)
    permissions: RuntimePermissions = field(default_factory=RuntimePermissions)


class PhoneContext(Protocol):
    """What the apps, the toolkit, the IME, intents and the system UI may use of the phone."""

    # --- the device ---------------------------------------------------------------------------
    width: int
    height: int
    density: float
    #: package -> the installed app's `App` class (apps/base.py)
    apps: dict[str, Any]
    #: system properties that differ from the defaults (`getprop`, the About screen)
    prop_overrides: dict[str, str]
    # --- storage ------------------------------------------------------------------------------
    state: PhoneState
    databases: dict[str, SqliteStore]
    providers: dict[str, ContentProvider | LegacyAuthority]

    @property
    def wm(self) -> WindowState[Screen]: ...

    @property
    def settings(self) -> SettingsStore: ...

    @property
    def fs(self) -> FileSystem: ...

    @property
    def clipboard(self) -> Clipboard: ...

    @property
    def clock_ms(self) -> int: ...

    @property
    def now(self) -> int: ...

    @property
    def ime_shown(self) -> bool: ...

    def on_state_dropped(self, key: object, release: Callable[[], None]) -> None: ...

    # --- views --------------------------------------------------------------------------------
    def changed(self) -> None: ...

    def request_relayout(self) -> None: ...

    def content_rect(self) -> tuple[int, int, int, int]: ...

    def windows(self) -> list[Window]: ...

    def scroll_state(self, act: Screen, key: str, delta: int, max_off: int) -> bool: ...

    # --- activities, pop-ups and tasks ------------------------------------------------------------
    def launch(self, package: str, activity: str | None = None) -> str | None: ...

    def start_activity(self, act: Screen) -> None: ...

    def finish_activity(self, act: Screen) -> None: ...

    def open_popup(self, act: Screen, popup: Dialog | Menu) -> None: ...

    def close_popup(self, act: Screen) -> None: ...

    def choose(self, act: Screen, choice: Choice) -> None: ...

    def toast(self, text: str) -> None: ...

    def force_stop(self, package: str) -> bool: ...

    # --- the system UI's buttons ----------------------------------------------------------------
    def press_back(self, tick: bool = True) -> bool: ...

    def press_home(self, tick: bool = True) -> bool: ...

    def press_recents(self, tick: bool = True) -> bool: ...

    def switch_to(self, package: str) -> None: ...

    def dismiss_recent(self, package: str) -> bool: ...

    def clear_recents(self) -> None: ...

    def ime_key(self, key: str) -> None: ...

    def overlay_pressed(self, index: int, button: int) -> None: ...
