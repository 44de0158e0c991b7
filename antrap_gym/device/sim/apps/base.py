"""What an app is to the simulated phone: a package with activities, storage and intents.

An app is one Python package under `apps/` (screens, storage, providers, its
`App` class) registered once in `apps/__init__.py`. An activity keeps only
plain, picklable UI state (scroll offsets, field values, cursor, an open
dialog); persistent data lives in the phone's storage: system-wide (settings,
files under /sdcard) or the app's own databases and providers (`App.storage`).
`build` turns state into views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from antrap_gym.device.sim.intents import Intent, IntentFilter, deliver
from antrap_gym.device.sim.storage.sqlite import SqliteStore
from antrap_gym.device.sim.toolkit import textmenu
from antrap_gym.device.sim.toolkit.popups import Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI


class Activity:
    """One screen of an app; its instance lives on the app's back stack."""

    package: ClassVar[str] = ""
    #: component name as `am start -n` and `dumpsys window` show it, e.g. ".Settings"
    name: ClassVar[str] = ""

    def __init__(self) -> None:
        self.scroll: dict[str, int] = {}
        self.fields: dict[str, str] = {}
        self.cursors: dict[str, int] = {}
        self.focus: str | None = None
        self.selection_all = False  # select-all in the focused field (CTRL+A)
        self.popup: Dialog | Menu | None = None

    @property
    def component(self) -> str:
        n = self.name
        return self.package + "/" + (self.package + n if n.startswith(".") else n)

    def build(self, ui: UI, phone: PhoneContext) -> None:
        raise NotImplementedError

    def title(self, phone: PhoneContext) -> str:
        """A short label for recents and logs."""
        return type(self).__name__

    # --- hooks --------------------------------------------------------------
    def noop(self, phone: PhoneContext) -> None:
        """A dialog's Cancel (or any button that only closes it)."""

    def on_back(self, phone: PhoneContext) -> bool:
        """Handle BACK inside the activity; return False to let it finish."""
        return False

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        """The IME's action key (Enter) on a single-line field."""

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        """A field's text changed (search-as-you-type and the like)."""

    def on_finish(self, phone: PhoneContext) -> None:
        """The activity leaves the back stack (save drafts, etc.)."""

    def on_pause(self, phone: PhoneContext) -> None:
        """The activity stops being in front (HOME, another app, recents): save drafts."""

    def on_intent(self, phone: PhoneContext, intent: Intent) -> None:
        """An intent with data (a VIEW of a file or a URL) started or reached this
        activity (`App.intent_filters`, `am start -d`)."""

    def open_with(self, phone: PhoneContext, package: str, activity: str, action: str, data: str,
                  mime: str) -> None:
        """An app picked in the "Open with" chooser shown over this activity."""
        deliver(phone, package, Intent(action, data, mime), activity or None)

    def text_toolbar(self, phone: PhoneContext, what: str, field: str, under: Dialog | None = None,
                     anchor: tuple[int, int] = (0, 0)) -> None:
        """An item of an edit field's floating toolbar (Cut, Copy, Paste, Select all)."""
        textmenu.apply(phone, self, what, field, under, anchor)

    # --- helpers for subclasses ------------------------------------------
    def set_field(self, field: str, value: str) -> None:
        self.fields[field] = value
        self.cursors[field] = len(value)


class App:
    """An installed package: its launcher entry, activities, intents and storage."""

    package: ClassVar[str] = ""
    #: the versionName `dumpsys package` would report
    version: ClassVar[str] = ""
    # --- the launcher entry ---------------------------------------------------------
    label: ClassVar[str] = ""
    #: the round icon's colour, and what it shows (the label's first letter when empty)
    icon_color: ClassVar[tuple[int, int, int]] = (90, 90, 90)
    icon_glyph: ClassVar[str] = ""
    #: shown in the launcher's app drawer
    launchable: ClassVar[bool] = True
    #: its place among the icons pinned to the home screen (lower first, eight shown);
    #: None: in the app drawer only
    home_position: ClassVar[int | None] = None
    # --- activities and intents -------------------------------------------------------
    main: ClassVar[type[Activity]]
    #: every activity `am start -n` can name, keyed by component short name
    activities: ClassVar[tuple[type[Activity], ...]] = ()
    #: intent actions `am start -a` resolves to this app: action -> activity name
    #: (None: the main activity)
    intents: ClassVar[Mapping[str, str | None]] = {}
    #: the intents with data its activities take (a VIEW of text/html, of http URLs):
    #: `am start -a ACTION -d URI -t TYPE` and Files' taps resolve through them
    intent_filters: ClassVar[tuple[IntentFilter, ...]] = ()
    # --- storage ------------------------------------------------------------------------
    #: the app's databases (`SqliteStore`; a `ContentProvider` is one that also answers
    #: `content://`): the phone makes one of each and serves it at its `path`
    storage: ClassVar[tuple[type[SqliteStore], ...]] = ()
    #: the runtime permissions it may ask for (`pm grant`, `dumpsys package`)
    permissions: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        """Create the app's default files/data on a fresh phone."""

    @classmethod
    def clear_data(cls, phone: PhoneContext) -> None:
        """`pm clear`: the databases under the app's own data folder
        (`/data/data/<package>/`) back to a fresh install's."""
        prefix = f"/data/data/{cls.package}/"
        for path, store in phone.databases.items():
            if path.startswith(prefix):
                store.reset()

    @classmethod
    def activity_named(cls, name: str) -> type[Activity] | None:
        full = name if not name.startswith(".") else cls.package + name
        for act in (cls.main, *cls.activities):
            act_full = act.name if not act.name.startswith(".") else cls.package + act.name
            if full == act_full or name == act.name:
                return act
        return None
