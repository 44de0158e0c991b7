"""The simulated phone: its state, its windows, snapshots; the device it is.

It puts the layers together: the apps (`apps/`) built with the toolkit, the window
manager (`wm.py`: tasks, Back, Home, pop-ups, overlays), input dispatch
(`input_dispatch.py`: touches, keys, text), the painter (`render/`). Those see the phone
only through `context.PhoneContext`; its methods of their names hand over to them.

All mutable state that matters lives in `PhoneState` (pickled) and the apps'
SQLite databases (serialized), so a snapshot is one value and restoring it is
exact. Views are derived from state and rebuilt lazily, once per revision.
The phone knows no app by name: it installs what `apps.default_apps()` lists
and makes each app's databases and providers (`App.storage`).
"""

from __future__ import annotations

import pickle
import time
import uuid
from collections import deque
from collections.abc import Callable

import numpy as np

from antrap_gym.device.elements import UIElement
from antrap_gym.device.identity import BOOT_ID_PATH, UPTIME_PATH
from antrap_gym.device.sim import input_dispatch
from antrap_gym.device.sim import system_ui as sysui
from antrap_gym.device.sim import wm as window_manager
from antrap_gym.device.sim.apps import default_apps
from antrap_gym.device.sim.apps.base import Activity, App
from antrap_gym.device.sim.context import PhoneState
from antrap_gym.device.sim.input_dispatch import MS_PER_INPUT
from antrap_gym.device.sim.render.painter import render
from antrap_gym.device.sim.storage.clipboard import Clipboard
from antrap_gym.device.sim.storage.content import ContentProvider, LegacyAuthority
from antrap_gym.device.sim.storage.files import FileSystem, Mounts
from antrap_gym.device.sim.storage.registry import StoreRegistry
from antrap_gym.device.sim.storage.settings import SettingsStore
from antrap_gym.device.sim.storage.sqlite import SqliteStore
from antrap_gym.device.sim.toolkit.builder import UI, build_popup
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.wm import LAUNCHER, Overlay, Window, WindowState

#: AndroidWorld freezes device time at 2023-10-15 15:34 UTC; our clock starts there
BOOT_EPOCH_MS = 1_697_384_040_000



#: the keyboards a fresh simulated phone has installed: Gboard and the ADBKeyboard IME
INPUT_METHODS = ("com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
                 "com.android.adbkeyboard/.AdbIME")


class Phone:
    """A Pixel-6-like Android phone in pure Python."""

    def __init__(self, width: int = 1080, height: int = 2400,
                 apps: list[type[App]] | None = None) -> None:
        self.width = int(width)
        self.height = int(height)
        self.density = 2.625 * self.width / 1080
        self.status_h = round(42 * self.density)
        self.nav_h = round(48 * self.density)
        self.apps: dict[str, type[App]] = {a.package: a for a in (apps or default_apps())}
        #: every app's databases by file path, and the content providers among them
        #: (each registry adds the stores it hands out to `_touched`: only those can have
        #: changed since the last restore, so only those are reloaded by the next one)
        self._touched: set[SqliteStore] = set()
        self.databases: dict[str, SqliteStore] = StoreRegistry(self._touched)
        self.providers: dict[str, ContentProvider | LegacyAuthority] = StoreRegistry(self._touched)
        #: the database images the last restore loaded (a reset restores the same ones)
        self._restored: dict[str, bytes] | None = None
        #: the databases as read-only files of the file system (`cat`, `adb pull`)
        self._mounts = Mounts()
        for app in self.apps.values():
            for store_cls in app.storage:
                self._add_store(store_cls())
        #: this boot of the phone (`/proc/sys/kernel/random/boot_id`, `/proc/uptime`): the
        #: kernel's, not the saved state's, so a restore keeps them, as one on a phone does
        self.boot_id = str(uuid.uuid4())
        self.booted_at = time.monotonic()
        self._mounts.add(BOOT_ID_PATH, self._boot_id_file, BOOT_EPOCH_MS // 1000)
        self._mounts.add(UPTIME_PATH, self._uptime, BOOT_EPOCH_MS // 1000)
        self.state = PhoneState(BOOT_EPOCH_MS, SettingsStore(), FileSystem(BOOT_EPOCH_MS // 1000),
                                WindowState())
        self.state.fs.mounts = self._mounts
        self.revision = 0
        self._built_rev = -1
        self._windows: list[Window] = []
        self._built_act: Activity | None = None  # the activity the app window was built for
        self._elements: list[UIElement] | None = None
        self._relayout = False
        self._releases: dict[object, Callable[[], None]] = {}  # see `on_state_dropped`
        self.shell_log: deque[str] = deque(maxlen=10000)
        #: system properties that differ from `DEFAULT_PROPS` on this phone (`getprop`
        #: and the About screen read both); read-only to the shell, as `setprop` is refused
        self.prop_overrides: dict[str, str] = {}
        #: installed input methods (`ime list -a -s`); remove ADBKeyboard to model a stock phone
        self.input_methods: list[str] = list(INPUT_METHODS)
        self.frame_cache: tuple | None = None
        #: frame buffers the painter reuses once no observation holds them (painter.render)
        self.frame_pool: list = []
        self._bar_cache: dict[str, object] = {}
        for app in self.apps.values():
            app.install(self)
        launcher = self.apps.get(LAUNCHER)
        if launcher is not None:
            self.wm.tasks[LAUNCHER] = [launcher.main()]

    # --- state access ----------------------------------------------------------
    @property
    def wm(self) -> WindowState:
        return self.state.wm

    @property
    def settings(self) -> SettingsStore:
        return self.state.settings

    @property
    def fs(self) -> FileSystem:
        return self.state.fs

    @property
    def clipboard(self) -> Clipboard:
        return self.state.clipboard

    @property
    def clock_ms(self) -> int:
        return self.state.clock_ms

    @property
    def now(self) -> int:
        """Device time in whole seconds since the epoch."""
        return self.state.clock_ms // 1000

    @property
    def dark(self) -> bool:
        return self.settings.get("secure", "ui_night_mode") == "2"

    @property
    def ime_shown(self) -> bool:
        act = self.wm.top_activity()
        return self.wm.ime_shown and act is not None and act.focus is not None

    def changed(self) -> None:
        self.revision += 1

    def request_relayout(self) -> None:
        self._relayout = True

    def _add_store(self, store: SqliteStore) -> None:
        if store.path in self.databases:
            raise ValueError(f"two apps declare the database {store.path}")
        self.databases[store.path] = store
        self._mounts.add(store.path, store.dump, BOOT_EPOCH_MS // 1000)
        if isinstance(store, ContentProvider) and store.authority:
            for authority in (store.authority, *store.legacy):
                if authority in self.providers:
                    raise ValueError(f"two apps declare the provider {authority}")
            self.providers[store.authority] = store
            for authority, paths in store.legacy.items():
                self.providers[authority] = LegacyAuthority(store, authority, paths)

    def _boot_id_file(self) -> bytes:
        return f"{self.boot_id}\n".encode()

    def _uptime(self) -> bytes:
        """`/proc/uptime`: seconds since this boot, then the cores' idle seconds."""
        up = time.monotonic() - self.booted_at
        return f"{up:.2f} {up * 7.5:.2f}\n".encode()

    # --- snapshots ---------------------------------------------------------------
    def snapshot(self) -> tuple[bytes, dict[str, bytes]]:
        """(the pickled `PhoneState`, every database's file bytes by path)."""
        return (
            pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL),
            {path: db.dump() for path, db in dict.items(self.databases)},
        )

    def restore(self, snap: tuple[bytes, dict[str, bytes]]) -> None:
        """Become the phone `snap` was taken of. Restoring the images the last restore
        loaded (every reset does) reloads only the stores handed out since then."""
        blob, dbs = snap
        self._drop_state()
        self.state = pickle.loads(blob)
        self.state.fs.mounts = self._mounts
        if dbs is self._restored:
            for store in self._touched:
                store.load(dbs[store.path])
        else:
            for path, data in dbs.items():
                dict.__getitem__(self.databases, path).load(data)
            self._restored = dbs
        self._touched.clear()
        self.changed()

    def on_state_dropped(self, key: object, release: Callable[[], None]) -> None:
        """Have `release()` called once when the state goes (a restore replaces it): what
        the state's objects hold outside it (a page's JavaScript context) is handed back at
        once, not when the garbage collector gets to the old state's reference cycles."""
        self._releases[key] = release

    def _drop_state(self) -> None:
        releases, self._releases = self._releases, {}
        for release in releases.values():
            release()

    # --- geometry -------------------------------------------------------------
    @property
    def screen_rect(self) -> tuple[int, int, int, int]:
        return (0, 0, self.width, self.height)

    def content_rect(self) -> tuple[int, int, int, int]:
        """Between the status bar and the navigation bar."""
        return (0, self.status_h, self.width, self.height - self.nav_h)

    def app_rect(self) -> tuple[int, int, int, int]:
        """The app window: the content area less the keyboard when it is up."""
        x0, y0, x1, y1 = self.content_rect()
        if self.ime_shown:
            y1 -= sysui.keyboard_height(self)
        return (x0, y0, x1, y1)

    # --- windows ---------------------------------------------------------------
    def windows(self) -> list[Window]:
        if self._built_rev != self.revision:
            for _ in range(3):
                self._relayout = False
                wins = self._build_windows()
                if not self._relayout:
                    break
            self._windows = wins
            self._elements = None
            self._built_rev = self.revision
        return self._windows

    def _build_windows(self) -> list[Window]:
        wm = self.wm
        if wm.top not in wm.tasks or not wm.tasks[wm.top]:
            wm.top = LAUNCHER
        act = wm.top_activity()
        self._built_act = act
        wins: list[Window] = []
        if act is not None:
            ui = UI(self, act, self.app_rect(), act.package)
            act.build(ui, self)
            wins.append(Window("app", ui.finish(), act.package, True))
            if act.popup is not None:
                # a popup another package shows over the app (the permission prompt) is its
                pkg = getattr(act.popup, "package", None) or act.package
                root = build_popup(self, act, act.popup, self.content_rect(), pkg)
                wins.append(Window("popup", root, pkg, True))
        if wm.recents_open:
            wins.append(Window("recents", sysui.build_recents(self, self.content_rect()),
                               LAUNCHER, True))
        elif self.ime_shown:
            wins.append(self._keyboard())
        for i, ov in enumerate(wm.overlays):
            root = sysui.build_overlay(self, ov, i, self.content_rect(), self.content_rect())
            wins.append(Window("overlay", root, ov.package, True))
        wins.append(self._status_bar())
        wins.append(self._nav_bar())
        return wins

    def _status_bar(self) -> Window:
        """Rebuilt only when what it shows changes (the minute, radio icons)."""
        s = self.settings
        key = (self.clock_ms // 60000, s.get("global", "airplane_mode_on"),
               s.get("global", "wifi_on"), s.get("global", "bluetooth_on"),
               s.get("system", "status_bar_show_battery_percent"), s.get("system", "time_12_24"))
        if self._bar_cache.get("status_key") != key:
            root = sysui.build_status_bar(self, (0, 0, self.width, self.status_h))
            self._bar_cache["status_key"] = key
            self._bar_cache["status"] = Window("status_bar", root, sysui.SYSTEM_UI, False)
        return self._bar_cache["status"]

    def _keyboard(self) -> Window:
        """The soft keyboard never changes: build it once."""
        if "ime" not in self._bar_cache:
            x0, _, x1, y1 = self.content_rect()
            r = (x0, y1 - sysui.keyboard_height(self), x1, y1)
            self._bar_cache["ime"] = Window("ime", sysui.build_keyboard(self, r), sysui.IME_PACKAGE,
                                            False)
        return self._bar_cache["ime"]

    def _nav_bar(self) -> Window:
        if "nav" not in self._bar_cache:
            root = sysui.build_nav_bar(self, (0, self.height - self.nav_h, self.width, self.height))
            self._bar_cache["nav"] = Window("nav_bar", root, sysui.SYSTEM_UI, False)
        return self._bar_cache["nav"]

    def windows_built_for(self, act: Activity) -> list[Window] | None:
        """The windows as last built, if they were built for `act` (else None)."""
        return self._windows if self._built_act is act else None

    def focused_window(self) -> Window:
        wins = self.windows()
        for w in reversed(wins):
            if w.focusable:
                return w
        return wins[0]

    def ui_elements(self) -> list[UIElement]:
        """The focused window's meaningful nodes, document order (cached per revision)."""
        win = self.focused_window()
        if self._elements is None:
            pkg = win.package
            out = []
            stack = [win.root]
            while stack:  # pre-order walk, inlined: this runs on every state change
                v = stack.pop()
                c = v.clip
                if c[2] > c[0] and c[3] > c[1] and (
                        v.text or v.desc or v.clickable or v.long_clickable or v.editable
                        or v.scrollable or v.checkable or v.kind == "menu"):
                    out.append(v.to_element(pkg))
                if v.children:
                    stack.extend(reversed(v.children))
            self._elements = out
        return self._elements

    def focused_component(self) -> tuple[str, str]:
        """(package, activity) as `dumpsys window` reports the focused window."""
        win = self.focused_window()
        act = self.wm.top_activity()
        if win.name in ("app", "popup") and act is not None:
            shown = getattr(act.popup, "component", None) if win.name == "popup" else None
            pkg, _, cls = (shown or act.component).partition("/")
            return pkg, cls
        if win.name == "recents":
            return LAUNCHER, "com.android.quickstep.RecentsActivity"
        return win.package, ""

    # --- clock ------------------------------------------------------------------
    def advance(self, ms: int = MS_PER_INPUT) -> None:
        st = self.state
        before = st.clock_ms // 60000
        st.clock_ms += int(ms)
        dirty = st.clock_ms // 60000 != before
        toast = st.wm.toast
        if toast is not None and st.clock_ms >= toast[1]:
            st.wm.toast = None
            dirty = True
        act = st.wm.top_activity()
        if act is not None and getattr(act, "live", False):
            dirty = True  # it shows time going by (a running stopwatch): build it again
        for ov in st.wm.overlays:
            if ov.countdown > 0:
                ov.countdown -= 1
                dirty = True
        if dirty:
            self.changed()

    # --- input: touches, keys and text (input_dispatch.py) --------------------------------
    def tap(self, x: float, y: float) -> bool:
        return input_dispatch.tap(self, x, y)

    def long_press(self, x: float, y: float) -> bool:
        return input_dispatch.long_press(self, x, y)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> bool:
        return input_dispatch.swipe(self, x1, y1, x2, y2, duration_ms)

    def key(self, code: int) -> bool:
        return input_dispatch.key(self, code)

    def key_combination(self, codes: list[int]) -> bool:
        return input_dispatch.key_combination(self, codes)

    def input_text(self, text: str) -> bool:
        return input_dispatch.input_text(self, text)

    def ime_key(self, key: str) -> None:
        input_dispatch.ime_key(self, key)

    def scroll_state(self, act: Activity, key: str, delta: int, max_off: int) -> bool:
        old = act.scroll.get(key, 0)
        new = max(0, min(max_off, old + int(delta)))
        act.scroll[key] = new
        return new != old

    # --- navigation, pop-ups, toasts, overlays: the window manager's (wm.py) ----------------
    def press_back(self, tick: bool = True) -> bool:
        return window_manager.press_back(self, tick)

    def press_home(self, tick: bool = True) -> bool:
        return window_manager.press_home(self, tick)

    def press_recents(self, tick: bool = True) -> bool:
        return window_manager.press_recents(self, tick)

    def launch(self, package: str, activity: str | None = None) -> str | None:
        return window_manager.launch(self, package, activity)

    def switch_to(self, package: str) -> None:
        window_manager.switch_to(self, package)

    def dismiss_recent(self, package: str) -> bool:
        return window_manager.dismiss_recent(self, package)

    def clear_recents(self) -> None:
        window_manager.clear_recents(self)

    def force_stop(self, package: str) -> bool:
        return window_manager.force_stop(self, package)

    def start_activity(self, act: Activity) -> None:
        window_manager.start_activity(self, act)

    def finish_activity(self, act: Activity) -> None:
        window_manager.finish_activity(self, act)

    def open_popup(self, act: Activity, popup: Dialog | Menu) -> None:
        window_manager.open_popup(self, act, popup)

    def close_popup(self, act: Activity) -> None:
        window_manager.close_popup(self, act)

    def choose(self, act: Activity, choice: Choice) -> None:
        window_manager.choose(self, act, choice)

    def toast(self, text: str) -> None:
        window_manager.toast(self, text)

    def show_overlay(self, overlay: Overlay) -> None:
        window_manager.show_overlay(self, overlay)

    def overlay_pressed(self, index: int, button: int) -> None:
        window_manager.overlay_pressed(self, index, button)

    def remove_overlay(self, index: int, result: str) -> None:
        window_manager.remove_overlay(self, index, result)

    # --- rendering ------------------------------------------------------------------
    def screenshot(self) -> np.ndarray:
        return render(self)
