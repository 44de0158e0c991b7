"""The simulated phone: state, windows, input dispatch, navigation, snapshots.

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
from antrap_gym.device.sim import ime
from antrap_gym.device.sim import system_ui as sysui
from antrap_gym.device.sim.apps import default_apps
from antrap_gym.device.sim.apps.base import Activity, App
from antrap_gym.device.sim.context import PhoneState
from antrap_gym.device.sim.keycodes import KEYNAMES
from antrap_gym.device.sim.render.painter import render
from antrap_gym.device.sim.storage.clipboard import Clipboard
from antrap_gym.device.sim.storage.content import ContentProvider, LegacyAuthority
from antrap_gym.device.sim.storage.files import FileSystem, Mounts
from antrap_gym.device.sim.storage.registry import StoreRegistry
from antrap_gym.device.sim.storage.settings import STREAM_MUSIC, STREAMS, SettingsStore
from antrap_gym.device.sim.storage.sqlite import SqliteStore
from antrap_gym.device.sim.toolkit import textmenu
from antrap_gym.device.sim.toolkit.builder import SP_BODY, UI, build_popup
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.toolkit.views import View, hit_test
from antrap_gym.device.sim.wm import LAUNCHER, Overlay, OverlayEvent, Window, WindowState

#: AndroidWorld freezes device time at 2023-10-15 15:34 UTC; our clock starts there
BOOT_EPOCH_MS = 1_697_384_040_000
MS_PER_INPUT = 1000
TOAST_MS = 3500
LONG_PRESS_MS = 500

#: KEYCODE_CUT/COPY/PASTE do what the text toolbar's items do
CLIPBOARD_KEYS = {"CUT": textmenu.CUT, "COPY": textmenu.COPY, "PASTE": textmenu.PASTE}


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

    # --- touch input -----------------------------------------------------------
    def _window_at(self, x: float, y: float) -> Window | None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        for w in reversed(self.windows()):
            if w.name in ("overlay", "popup", "recents") or w.root.contains(x, y):
                return w
        return None

    def tap(self, x: float, y: float) -> bool:
        self.advance()
        win = self._window_at(x, y)
        if win is None:
            return False
        v = hit_test(win.root, x, y, "click")
        if v is None:
            return self._touch_outside(win)
        return self._click(v, x, y)

    def _touch_outside(self, win: Window) -> bool:
        """A touch on a popup's scrim cancels it; on an overlay it is swallowed."""
        if win.name == "popup" and win.root.children and win.root.children[0].on_click:
            win.root.children[0].on_click()
            self.changed()
            return True
        return False

    def _click(self, v: View, x: float, y: float) -> bool:
        if not v.enabled:
            return False
        if v.editable:
            self._focus_edit(v, x, y)
        elif v.on_drag is not None:
            v.on_drag(int(x), int(x))
        elif v.on_gesture is not None:
            v.on_gesture(int(x), int(y), int(x), int(y))
        elif v.on_click is not None:
            v.on_click()
        else:
            return False
        self.changed()
        return True

    def _focus_edit(self, v: View, x: float, y: float) -> None:
        act = self.wm.top_activity()
        if act is None or v.field is None:
            return
        value = act.fields.get(v.field, "")
        d = self.density
        pad = round((48 if v.style == "search" else 16) * d)
        cur = ime.cursor_at(value, v.rect, x, y, round(SP_BODY * d), pad, round(12 * d),
                            bool(v.value[0]))
        ime.focus(act, v.field, cur)
        self.wm.ime_shown = True

    def long_press(self, x: float, y: float) -> bool:
        self.advance()
        win = self._window_at(x, y)
        if win is None:
            return False
        v = hit_test(win.root, x, y, "long")
        if v is None:
            return self._touch_outside(win)
        if not v.enabled:
            return False
        if v.on_long_click is not None:
            v.on_long_click()
            self.changed()
            return True
        # Android performs a click on release when nothing consumed the long press
        return self._click(v, x, y)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> bool:
        dx, dy = x2 - x1, y2 - y1
        if abs(dx) < 8 * self.density and abs(dy) < 8 * self.density:
            if duration_ms >= LONG_PRESS_MS:
                return self.long_press(x1, y1)
            return self.tap(x1, y1)
        self.advance(MS_PER_INPUT + max(0, int(duration_ms)))
        win = self._window_at(x1, y1)
        if win is None:
            return False
        v = hit_test(win.root, x1, y1, "gesture")
        if v is not None and v.enabled and v.on_gesture(int(x1), int(y1), int(x2), int(y2)):
            self.changed()
            return True
        horizontal = abs(dx) > abs(dy)
        if horizontal:
            v = hit_test(win.root, x1, y1, "drag")
            if v is not None and v.enabled:
                v.on_drag(int(x1), int(x2))
                self.changed()
                return True
        v = hit_test(win.root, x1, y1, "scroll_h" if horizontal else "scroll_v")
        if v is not None and v.on_scroll(int(x1 - x2) if horizontal else int(y1 - y2)):
            self.changed()
            return True
        v = hit_test(win.root, x1, y1, "swipe")
        if v is not None:
            direction = ("left" if dx < 0 else "right") if horizontal else ("up" if dy < 0 else "down")
            if v.on_swipe(direction):
                self.changed()
                return True
        return False

    def scroll_state(self, act: Activity, key: str, delta: int, max_off: int) -> bool:
        old = act.scroll.get(key, 0)
        new = max(0, min(max_off, old + int(delta)))
        act.scroll[key] = new
        return new != old

    # --- keys and text -----------------------------------------------------------
    def key(self, code: int) -> bool:
        """A key event; returns whether anything happened."""
        self.advance()
        name = KEYNAMES.get(code)
        if name is None:
            return False
        if name == "BACK":
            return self.press_back(tick=False)
        if name == "HOME":
            return self.press_home(tick=False)
        if name == "APP_SWITCH":
            return self.press_recents(tick=False)
        if name in ("VOLUME_UP", "VOLUME_DOWN"):
            _, key, lo, hi = STREAMS[STREAM_MUSIC]
            v = self.settings.get_int("system", key, 5)
            v = min(hi, v + 1) if name == "VOLUME_UP" else max(lo, v - 1)
            self.settings.put("system", key, str(v))
            self.changed()
            return True
        act = self._typing_target()
        if act is None:
            return False
        handled = False
        if name in CLIPBOARD_KEYS:  # as the toolbar's item, on the focused field
            under = act.popup if isinstance(act.popup, Dialog) else None
            textmenu.apply(self, act, CLIPBOARD_KEYS[name], act.focus or "", under)
            return True
        if name == "ENTER":
            handled = self._enter(act)
        elif name == "DEL":
            handled = ime.delete_back(act)
        elif name == "FORWARD_DEL":
            handled = ime.delete_forward(act)
        elif name in ("DPAD_LEFT", "DPAD_RIGHT", "DPAD_UP", "DPAD_DOWN", "MOVE_HOME", "MOVE_END"):
            handled = ime.move(act, name.split("_", 1)[1].lower())
        elif name == "SPACE":
            handled = ime.insert(act, " ")
        elif name in ("COMMA", "PERIOD"):
            handled = ime.insert(act, "," if name == "COMMA" else ".")
        elif len(name) == 1:
            handled = ime.insert(act, name.lower())
        if handled:
            if name not in ("ENTER",) and act.focus is not None:
                act.on_text_changed(self, act.focus)
            self.changed()
        return handled

    def key_combination(self, codes: list[int]) -> bool:
        self.advance()
        names = {KEYNAMES.get(c) for c in codes}
        act = self._typing_target()
        if act is not None and names & {"CTRL_LEFT", "CTRL_RIGHT"} and "A" in names:
            ime.select_all(act)
            self.changed()
            return True
        return False

    def _typing_target(self) -> Activity | None:
        """The activity whose focused field receives keys, if input can reach it."""
        if self.wm.overlays or self.wm.recents_open:
            return None
        act = self.wm.top_activity()
        if act is None or act.focus is None:
            return None
        return act

    def _enter(self, act: Activity) -> bool:
        field = act.focus
        if field is None:
            return False
        if self._field_is_multiline(act, field):
            return ime.insert(act, "\n")
        act.on_submit(self, field)
        return True

    def _field_is_multiline(self, act: Activity, field: str) -> bool:
        # a field is multi-line or not by its screen's layout, not by its text: the
        # windows last built for this activity tell without a rebuild when they show it
        found = _multiline_in(self._windows, field) if self._built_act is act else None
        if found is None:
            found = _multiline_in(self.windows(), field)
        return bool(found)

    def input_text(self, text: str) -> bool:
        """`input text`: the characters as typed keys, a newline being the Enter key (as in
        Android's virtual key map and AndroidWorld's typing): a new line in a multi-line
        field, the IME action in a single-line one, which takes no newline."""
        self.advance()
        ok = False
        multiline: tuple[Activity, str, bool] | None = None  # the last field looked up
        while True:
            act = self._typing_target()
            if act is None or act.focus is None:
                return ok
            field = act.focus
            head, newline, rest = text, "", ""
            if "\n" in text:
                if multiline is None or multiline[:2] != (act, field):
                    multiline = (act, field, self._field_is_multiline(act, field))
                if not multiline[2]:
                    head, newline, rest = text.partition("\n")
            if head and ime.insert(act, head):
                act.on_text_changed(self, field)
                ok = True
                self.changed()
            if not newline:
                return ok
            self._enter(act)
            ok = True
            self.changed()
            text = rest

    def ime_key(self, key: str) -> None:
        """A tap on the soft keyboard."""
        act = self._typing_target()
        if act is None:
            return
        if key == "⌫":
            ime.delete_back(act)
        elif key == "⏎":
            self._enter(act)
            return
        else:
            ime.insert(act, key)
        if act.focus is not None:
            act.on_text_changed(self, act.focus)

    # --- navigation --------------------------------------------------------------
    def press_back(self, tick: bool = True) -> bool:
        if tick:
            self.advance()
        wm = self.wm
        self.changed()
        if wm.overlays:
            ov = wm.overlays[-1]
            if ov.back_dismisses:
                self.remove_overlay(len(wm.overlays) - 1, "back")
                return True
            return False
        if wm.recents_open:
            wm.recents_open = False
            return True
        if self.ime_shown:
            wm.ime_shown = False
            return True
        act = wm.top_activity()
        if act is None:
            return False
        if act.popup is not None:
            back = getattr(act.popup, "on_back", None)  # a popup that answers BACK itself
            if back is not None:
                back(self, act)
            else:
                act.popup = None
            return True
        if act.on_back(self):
            return True
        if wm.top == LAUNCHER:
            return False
        self.finish_activity(act)
        return True

    def press_home(self, tick: bool = True) -> bool:
        if tick:
            self.advance()
        self.go_home()
        return True

    def press_recents(self, tick: bool = True) -> bool:
        if tick:
            self.advance()
        wm = self.wm
        if not wm.recents_open:
            self._pause_top()
        wm.recents_open = not wm.recents_open
        wm.ime_shown = False
        self.changed()
        return True

    def _pause_top(self) -> None:
        """Tell the activity in front that it is leaving the foreground."""
        act = self.wm.top_activity()
        if act is not None and self.wm.top != LAUNCHER:
            act.on_pause(self)

    def go_home(self) -> None:
        self._pause_top()
        wm = self.wm
        wm.recents_open = False
        wm.ime_shown = False
        wm.top = LAUNCHER
        launcher = self.apps.get(LAUNCHER)
        if launcher is not None:
            wm.tasks[LAUNCHER] = [launcher.main()]
        self.changed()

    def launch(self, package: str, activity: str | None = None) -> str | None:
        """Start an app (or one of its activities); returns an error message or None."""
        app = self.apps.get(package)
        if app is None:
            return f"unable to resolve Intent for package {package}"
        wm = self.wm
        wm.recents_open = False
        wm.ime_shown = False
        if package == LAUNCHER:
            self.go_home()
            return None
        cls = app.main if activity is None else app.activity_named(activity)
        if cls is None:
            return f"Activity class {{{package}/{activity}}} does not exist."
        if wm.top != package:
            self._pause_top()
        stack = wm.tasks.get(package)
        if stack and (cls is app.main or any(type(a) is cls for a in stack)):
            # bring the existing task forward, as a launcher tap does
            if activity is not None and cls is not app.main:
                while type(stack[-1]) is not cls:
                    stack.pop().on_finish(self)
        elif stack and activity is not None:
            stack.append(cls())
        else:
            wm.tasks[package] = [cls()]
        wm.bring_to_front(package)
        self.changed()
        return None

    def switch_to(self, package: str) -> None:
        """Bring a recent task to the front (a tap on its card in recents)."""
        wm = self.wm
        wm.recents_open = False
        wm.ime_shown = False
        if wm.tasks.get(package):
            if wm.top != package:
                self._pause_top()
            wm.bring_to_front(package)
        else:
            self.launch(package)
        self.changed()

    def dismiss_recent(self, package: str) -> bool:
        wm = self.wm
        if package in wm.recents:
            wm.recents.remove(package)
        wm.tasks.pop(package, None)
        self.changed()
        return True

    def clear_recents(self) -> None:
        wm = self.wm
        for pkg in list(wm.recents):
            wm.tasks.pop(pkg, None)
        wm.recents.clear()
        self.go_home()

    def force_stop(self, package: str) -> bool:
        wm = self.wm
        had = wm.tasks.pop(package, None) is not None
        if package in wm.recents:
            wm.recents.remove(package)
        if wm.top == package:
            self.go_home()
        self.changed()
        return had

    def start_activity(self, act: Activity) -> None:
        """Push an activity onto its app's task and show it."""
        wm = self.wm
        wm.ime_shown = False
        wm.tasks.setdefault(act.package, []).append(act)
        wm.bring_to_front(act.package)
        self.changed()

    def finish_activity(self, act: Activity) -> None:
        wm = self.wm
        stack = wm.tasks.get(act.package, [])
        if act in stack:
            stack.remove(act)
            act.on_finish(self)
        wm.ime_shown = False
        if not stack:
            wm.tasks.pop(act.package, None)
            if wm.top == act.package:
                wm.top = LAUNCHER
                launcher = self.apps.get(LAUNCHER)
                if launcher is not None:
                    wm.tasks[LAUNCHER] = [launcher.main()]
        self.changed()

    # --- popups, toasts, overlays ----------------------------------------------------
    def open_popup(self, act: Activity, popup: Dialog | Menu) -> None:
        act.popup = popup
        self.wm.ime_shown = False
        self.changed()

    def close_popup(self, act: Activity) -> None:
        act.popup = None
        self.changed()

    def choose(self, act: Activity, choice: Choice) -> None:
        act.popup = None
        getattr(act, choice.action)(self, *choice.args)
        self.changed()

    def toast(self, text: str) -> None:
        self.wm.toast = (text, self.clock_ms + TOAST_MS)
        self.changed()

    def show_overlay(self, overlay: Overlay) -> None:
        self.wm.overlays.append(overlay)
        self.wm.ime_shown = False
        self.changed()

    def overlay_pressed(self, index: int, button: int) -> None:
        ov = self.wm.overlays[index]
        self.remove_overlay(index, ov.buttons[button].result)

    def remove_overlay(self, index: int, result: str) -> None:
        """Take overlay `index` off the screen, logged as closed with `result`."""
        ov = self.wm.overlays.pop(index)
        self.wm.overlay_log.append(OverlayEvent(ov.ident, result, self.clock_ms))
        self.changed()

    # --- rendering ------------------------------------------------------------------
    def screenshot(self) -> np.ndarray:
        return render(self)


def _multiline_in(windows: list[Window], field: str) -> bool | None:
    """Whether the app or pop-up windows show `field` multi-line (None: not shown)."""
    for w in windows:
        if w.name in ("app", "popup"):
            for v in w.root.walk():
                if v.editable and v.field == field:
                    return bool(v.value[0])
    return None
