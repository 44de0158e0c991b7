"""Chrome's browser screen: the first-run screens, the toolbar (omnibox, tab count,
menu), the page, the tab switcher and Chrome's own pages.

One activity, as Chrome's ChromeTabbedActivity; while the first run is not done it
shows the first-run screens and `dumpsys window` names FirstRunActivity, as on a
phone whose Chrome data was cleared. The page is laid out by the web engine
(`sim/web`) and its views are this screen's content; taps, typing, swipes and the
select and range controls reach the page's scripts through `Page.act`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from antrap_gym.device.sim import ime
from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.chrome import tabs as tb
from antrap_gym.device.sim.intents import Intent
from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.web import present
from antrap_gym.device.sim.web.page import DPR

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.android.chrome"
RID = PKG + ":id/"
TABBED = "org.chromium.chrome.browser.ChromeTabbedActivity"
FIRST_RUN = "org.chromium.chrome.browser.firstrun.FirstRunActivity"
OMNIBOX = "omnibox"
MENU_DESC = "Customize and control Google Chrome"
TABS_DESC = "Switch or close tabs"
NOTIFY_TITLE = "Allow Chrome to send you notifications?"


class ChromePrefs(SharedPreferences):
    path = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"


def prefs(phone: PhoneContext) -> SharedPreferences:
    store = phone.databases[ChromePrefs.path]
    assert isinstance(store, SharedPreferences)
    return store


class ChromeTabbedActivity(Activity):
    package = PKG
    name = TABBED

    def __init__(self) -> None:
        super().__init__()
        self.tabs: list[tb.Tab] = []
        self.current = -1
        self.mode = "page"  # page | switcher | omnibox
        self.pending: list[str] = []  # URLs that came in during the first run
        self.serial = 0
        #: the first-run screens are showing (FirstRunActivity is in front)
        self.first_run = False
        self._frame: present.Frame | None = None

    def __getstate__(self) -> dict:
        st = dict(self.__dict__)
        st["_frame"] = None
        return st

    # --- what dumpsys shows ------------------------------------------------------------
    @property
    def component(self) -> str:
        return f"{PKG}/{FIRST_RUN if self.first_run else TABBED}"

    def title(self, phone: PhoneContext) -> str:
        e = self.entry
        return e.title if e is not None else "Chrome"

    # --- state ----------------------------------------------------------------------------
    @property
    def tab(self) -> tb.Tab | None:
        return self.tabs[self.current] if 0 <= self.current < len(self.tabs) else None

    @property
    def entry(self) -> tb.Entry | None:
        t = self.tab
        return t.entry if t is not None else None

    def _first_run_step(self, phone: PhoneContext) -> str:
        p = prefs(phone)
        if not p.get_bool("first_run_flow", False):
            return "welcome"
        if not p.get_bool("first_run_sync", False):
            return "sync"
        return ""

    def _next_serial(self) -> int:
        self.serial += 1
        return self.serial

    def open_url(self, phone: PhoneContext, url: str, new_tab: bool = False) -> None:
        """Load `url` in the current tab (a new one when asked or when there is none)."""
        url = url.strip()
        if not url:
            return
        self._leave_page_focus(phone)
        entry = tb.load(phone, url, self._next_serial())
        if new_tab or self.tab is None:
            self.tabs.append(tb.Tab())
            self.current = len(self.tabs) - 1
        tab = self.tab
        assert tab is not None
        tab.push(entry)
        self.mode = "page"
        phone.changed()

    def on_intent(self, phone: PhoneContext, intent: Intent) -> None:
        if not intent.data:
            return
        if self._first_run_step(phone):
            self.pending.append(intent.data)
        else:
            self.open_url(phone, intent.data, new_tab=True)

    # --- building --------------------------------------------------------------------------
    def build(self, ui: UI, phone: PhoneContext) -> None:
        self._frame = None
        step = self._first_run_step(phone)
        self.first_run = bool(step)
        if step:
            self._build_first_run(ui, phone, step)
            return
        if not self.tabs:
            self.tabs.append(tb.Tab())
            self.current = 0
            self.tabs[0].push(tb.Entry(tb.NTP, self._next_serial()))
        if self.focus == OMNIBOX and self.mode == "page":  # the omnibox was tapped
            self._edit_omnibox(phone)
        elif self.focus != OMNIBOX and self.mode != "omnibox":
            # at rest its field is empty (the view shows the URL): a tap that focuses it
            # and text typed at once replace the URL, as Chrome's select-all on focus does
            self.set_field(OMNIBOX, "")
        if self.mode == "switcher":
            self._build_switcher(ui, phone)
            return
        self._build_toolbar(ui, phone)
        e = self.entry
        x0, x1 = ui.rect[0], ui.rect[2]
        rect = (x0, ui.y, x1, ui.rect[3])
        if e is None or e.url == tb.NTP:
            self._build_ntp(ui, phone)
        elif e.error:
            self._build_error(ui, phone, e)
        elif e.page is not None:
            self._build_page(ui, phone, e, rect)

    def _build_toolbar(self, ui: UI, phone: PhoneContext) -> None:
        h = ui.dp(56)
        r = (ui.rect[0], ui.y, ui.rect[2], ui.y + h)
        ui.set_y(r[3])
        bar = ui.mk("toolbar", r, rid=RID + "toolbar")
        icon = ui.dp(48)
        cy0 = r[1] + (h - icon) // 2
        right = r[2] - ui.dp(4)
        ui.mk("icon_button", (right - icon, cy0, right, cy0 + icon), bar, desc=MENU_DESC,
              icon="more_vert", rid=RID + "menu_button",
              on_click=lambda: self._open_menu(phone, (right - icon // 2, r[3])))
        right -= icon
        count = str(len(self.tabs)) if len(self.tabs) < 100 else ":D"
        ui.mk("button", (right - icon, cy0, right, cy0 + icon), bar, text=count, desc=TABS_DESC,
              style="outlined", rid=RID + "tab_switcher_button",
              on_click=lambda: self._show_switcher(phone))
        right -= icon + ui.dp(4)
        box = (r[0] + ui.dp(12), r[1] + ui.dp(8), right, r[3] - ui.dp(8))
        if self.mode == "omnibox":
            value = self.fields.get(OMNIBOX, "")
            v = ui.mk("edit", box, bar, text=value, hint="Search or type web address",
                      rid=RID + "url_bar", style="search")
            v.editable = v.focusable = v.clickable = v.long_clickable = True
            v.field = OMNIBOX
            v.focused = self.focus == OMNIBOX and phone.ime_shown
            v.value = (False, self.cursors.get(OMNIBOX, len(value)) if v.focused else None)
            return
        e = self.entry
        url = "" if e is None or e.url == tb.NTP else e.url
        # at rest it shows the page's URL, or the hint when there is none
        self._omnibox_view(ui.mk("edit", box, bar, text=url or None,
                                 hint=None if url else "Search or type web address",
                                 rid=RID + "url_bar", style="search"))

    @staticmethod
    def _omnibox_view(v) -> None:
        """The omnibox at rest (an EditText, as in Chrome): a tap focuses it, and the
        next build turns it into the editing omnibox with its URL selected."""
        v.editable = v.focusable = v.clickable = v.long_clickable = True
        v.field = OMNIBOX
        v.value = (False, None)

    def _build_page(self, ui: UI, phone: PhoneContext, e: tb.Entry, rect) -> None:
        page = e.page
        assert page is not None
        prefix = f"{e.serial}:"
        scroll = {k[len(prefix):]: v for k, v in self.scroll.items() if k.startswith(prefix)}
        phone.on_state_dropped(("page", id(page)), page.release)
        try:
            layout = page.layout(phone.width / DPR)
            self._sync_fields(e, layout)
            frame = present.present(layout, rect, DPR * phone.width / 1080, scroll,
                                    _Host(self, phone, e), self.fields, self.focus,
                                    phone.wm.ime_shown, page.canvases, PKG)
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError):
            # what the engine cannot lay out is Chrome's crashed tab, never the phone's crash
            ui.spacer(48)
            ui.text("Aw, Snap!", style="title", rid=RID + "sad_tab_title")
            ui.text("Something went wrong while displaying this webpage.")
            ui.button("Reload", lambda: self.reload(phone))
            return
        ui.root.children.append(frame.root)
        frame.root.package = PKG
        self._frame = frame

    def _sync_fields(self, e: tb.Entry, layout) -> None:
        """Text fields show the page's values: what a script set overrides what is there."""
        if layout.root is None:
            return
        stack = [layout.root]
        while stack:
            b = stack.pop()
            if b.tag in ("input", "textarea") and "value" in b.props:
                key = _field_key(e, b.nid)
                js = str(b.props["value"])
                cur = self.fields.get(key)
                if cur != js and not (b.type == "number" and js == "" and cur is not None):
                    self.fields[key] = js
                    self.cursors[key] = min(self.cursors.get(key, len(js)), len(js))
            stack.extend(k for k in b.kids if not hasattr(k, "lines"))

    def _build_ntp(self, ui: UI, phone: PhoneContext) -> None:
        ui.spacer(96)
        ui.text("Google", style="title", pad=16)
        r = ui._take(ui.dp(56))
        box = (r[0] + ui.dp(24), r[1], r[2] - ui.dp(24), r[3])
        self._omnibox_view(ui.mk("edit", box, text=None, hint="Search or type URL",
                                 rid=RID + "search_box_text", style="search"))

    def _build_error(self, ui: UI, phone: PhoneContext, e: tb.Entry) -> None:
        ui.spacer(48)
        if e.error == "unreachable":
            host = urlsplit(e.url).hostname or e.url
            ui.text(tb.UNREACHABLE, style="title", rid=RID + "error_title")
            ui.text(f"{host} is unreachable: this device is not connected to the internet.")
            ui.text("ERR_INTERNET_DISCONNECTED", style="small")
        else:
            ui.text(tb.NO_FILE, style="title", rid=RID + "error_title")
            ui.text(f"It may have been moved, edited, or deleted. {e.url}")
            ui.text("ERR_FILE_NOT_FOUND", style="small")
        ui.button("Reload", lambda: self.reload(phone))

    def _build_switcher(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(f"{len(self.tabs)} tab" + ("s" if len(self.tabs) != 1 else ""),
                   back=lambda: self._close_switcher(phone),
                   actions=[("add", "New tab", lambda: self.new_tab(phone))])
        with ui.scroll("switcher"):
            for i, t in enumerate(self.tabs):
                e = t.entry
                title = e.title if e is not None else "New tab"
                url = "" if e is None or e.url == tb.NTP else e.url
                r = ui._take(ui.dp(72))
                if ui.culled(r):
                    continue
                row = ui.mk("row", r, rid=RID + "tab_grid_card", selected=i == self.current,
                            on_click=lambda i=i: self._switch_to(phone, i))
                s48 = ui.dp(48)
                cy = r[1] + (r[3] - r[1] - s48) // 2
                ui.mk("text", (r[0] + ui.dp(16), r[1] + ui.dp(10), r[2] - ui.dp(72), r[1] + ui.dp(38)),
                      row, text=title, style="row_title", rid=RID + "tab_title")
                if url:
                    ui.mk("text", (r[0] + ui.dp(16), r[1] + ui.dp(38), r[2] - ui.dp(72), r[3] - ui.dp(8)),
                          row, text=url, style="summary")
                ui.mk("icon_button", (r[2] - ui.dp(8) - s48, cy, r[2] - ui.dp(8), cy + s48), row,
                      icon="close", desc=f"Close {title} tab", rid=RID + "action_button",
                      on_click=lambda i=i: self.close_tab(phone, i))

    def _build_first_run(self, ui: UI, phone: PhoneContext, step: str) -> None:
        ui.spacer(72)
        if step == "welcome":
            ui.text("Welcome to Chrome", style="title", rid=RID + "title")
            ui.text("Browse with the features of your Google Account, or use Chrome without one.")
            ui.spacer(24)
            ui.button("Use without an account", lambda: self.fre_welcome(phone), style="filled",
                      rid=RID + "signin_fre_dismiss_button")
            ui.text("By continuing, you agree to the Google Terms of Service and the Chrome and "
                    "ChromeOS Additional Terms of Service.", style="small")
        else:
            ui.text("Turn on sync?", style="title", rid=RID + "title")
            ui.text("Sync your bookmarks, passwords, history and more on all your devices.")
            ui.spacer(24)
            ui.button_bar([("No thanks", lambda: self.fre_sync(phone), "text"),
                           ("Yes, I\u2019m in", lambda: self.fre_sync(phone), "filled")])

    # --- first run ----------------------------------------------------------------------------
    def fre_welcome(self, phone: PhoneContext) -> None:
        prefs(phone).put("first_run_flow", True)
        phone.changed()

    def fre_sync(self, phone: PhoneContext) -> None:
        prefs(phone).put("first_run_sync", True)
        for url in self.pending:
            self.open_url(phone, url, new_tab=True)
        self.pending.clear()
        held = phone.state.permissions.holds(PKG, POST_NOTIFICATIONS)
        if not held and not prefs(phone).get_bool("notification_permission_asked", False):
            phone.open_popup(self, Dialog(NOTIFY_TITLE, buttons=[
                Choice("Allow", "notifications", (True,)),
                Choice("Don\u2019t allow", "notifications", (False,))], cancelable=False))
        phone.changed()

    def notifications(self, phone: PhoneContext, allow: bool) -> None:
        p = prefs(phone)
        p.put("notification_permission_asked", True)
        p.put("notifications_allowed", bool(allow))
        if allow:
            phone.state.permissions.grant(PKG, POST_NOTIFICATIONS)
        phone.changed()

    # --- toolbar actions ------------------------------------------------------------------------
    def _edit_omnibox(self, phone: PhoneContext) -> None:
        if self.focus != OMNIBOX:
            self._leave_page_focus(phone)
        e = self.entry
        self.mode = "omnibox"
        self.set_field(OMNIBOX, "" if e is None or e.url == tb.NTP else e.url)
        ime.focus(self, OMNIBOX)
        self.selection_all = bool(self.fields[OMNIBOX])
        phone.wm.ime_shown = True

    def _open_menu(self, phone: PhoneContext, anchor: tuple[int, int]) -> None:
        items = [Choice("New tab", "new_tab")]
        t = self.tab
        if t is not None and t.index + 1 < len(t.entries):
            items.insert(0, Choice("Forward", "forward"))
        e = self.entry
        if e is not None and e.url != tb.NTP:
            items.append(Choice("Reload", "reload"))
        items.append(Choice("Close all tabs", "close_all"))
        phone.open_popup(self, Menu(items, anchor))

    def _show_switcher(self, phone: PhoneContext) -> None:
        self._leave_page_focus(phone)
        self.mode = "switcher"
        phone.changed()

    def _close_switcher(self, phone: PhoneContext) -> None:
        self.mode = "page"
        phone.changed()

    def _switch_to(self, phone: PhoneContext, i: int) -> None:
        self.current = i
        self.mode = "page"
        phone.changed()

    def new_tab(self, phone: PhoneContext) -> None:
        self.open_url(phone, tb.NTP, new_tab=True)

    def close_tab(self, phone: PhoneContext, i: int) -> None:
        if 0 <= i < len(self.tabs):
            del self.tabs[i]
            if self.current >= len(self.tabs) or self.current > i:
                self.current = max(0, self.current - 1)
        if not self.tabs:
            self.mode = "page"
        phone.changed()

    def close_all(self, phone: PhoneContext) -> None:
        self.tabs.clear()
        self.current = -1
        self.mode = "page"
        phone.changed()

    def forward(self, phone: PhoneContext) -> None:
        t = self.tab
        if t is not None and t.index + 1 < len(t.entries):
            t.index += 1
            phone.changed()

    def reload(self, phone: PhoneContext) -> None:
        t, e = self.tab, self.entry
        if t is None or e is None:
            return
        t.entries[t.index] = tb.load(phone, e.url, self._next_serial())
        phone.changed()

    # --- keys -----------------------------------------------------------------------------------
    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == OMNIBOX:
            url = tb.normalize_url(self.fields.get(OMNIBOX, ""))
            self.set_field(OMNIBOX, "")
            self.focus = None
            phone.wm.ime_shown = False
            self.mode = "page"
            if url:
                self.open_url(phone, url)
            phone.changed()
            return
        page, nid = self._web_field(field)
        if page is not None:
            page.act("key", nid, "Enter")
            self._after_action(phone, page)

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        if field == OMNIBOX:
            self.mode = "omnibox" if self.mode == "page" else self.mode
            return
        page, nid = self._web_field(field)
        if page is not None:
            page.act("input", nid, self.fields.get(field, ""))
            phone.changed()

    def on_back(self, phone: PhoneContext) -> bool:
        if self.mode in ("omnibox", "switcher"):
            self.mode = "page"
            self.focus = None
            self.set_field(OMNIBOX, "")
            return True
        t = self.tab
        if t is not None and t.index > 0:
            self._leave_page_focus(phone)
            t.index -= 1
            return True
        return False

    # --- the page's side ------------------------------------------------------------------------
    def _web_field(self, field: str | None) -> tuple[Any, int]:
        e = self.entry
        if field is None or e is None or e.page is None or not field.startswith(f"web{e.serial}:"):
            return None, 0
        return e.page, int(field.split(":", 1)[1])

    def _leave_page_focus(self, phone: PhoneContext) -> None:
        """A text field of the page loses focus: its change event, the keyboard down."""
        page, nid = self._web_field(self.focus)
        if page is not None:
            page.act("commit", nid)
            self.focus = None
            phone.wm.ime_shown = False

    def _after_action(self, phone: PhoneContext, page) -> None:
        """Focus follows the page: a text field a script or a label focused takes the
        keyboard; anything else focused takes it away."""
        e = self.entry
        if e is None:
            return
        layout = page.layout(phone.width / DPR)
        focus = layout.focus
        key = _field_key(e, focus) if focus else None
        if key is not None and _is_text_field(layout, focus):
            if self.focus != key:
                self.fields.setdefault(key, "")
                ime.focus(self, key)
                phone.wm.ime_shown = True
        elif self.focus is not None and self.focus.startswith("web"):
            self.focus = None
            phone.wm.ime_shown = False
        phone.changed()

    def web_select(self, phone: PhoneContext, serial: int, nid: int, index: int) -> None:
        e = self.entry
        if e is not None and e.serial == serial and e.page is not None:
            e.page.act("select", nid, int(index))
            self._after_action(phone, e.page)


def _field_key(e: tb.Entry, nid: int) -> str:
    return f"web{e.serial}:{nid}"


def _is_text_field(layout, nid: int) -> bool:
    stack = [layout.root] if layout.root is not None else []
    while stack:
        b = stack.pop()
        if b.nid == nid:
            return b.tag == "textarea" or (b.tag == "input" and b.type in present.TEXT_INPUTS)
        stack.extend(k for k in b.kids if not hasattr(k, "lines"))
    return False


class _Host:
    """The page's callbacks into the tab (present.Host)."""

    def __init__(self, act: ChromeTabbedActivity, phone: PhoneContext, entry: tb.Entry) -> None:
        self.act, self.phone, self.entry = act, phone, entry

    def _page(self):
        e = self.act.entry
        return e.page if e is self.entry else None

    def field_key(self, nid: int) -> str:
        return _field_key(self.entry, nid)

    def tap(self, nid: int, x: float, y: float) -> None:
        page = self._page()
        if page is None:
            return
        focused, _ = self.act._web_field(self.act.focus)
        if focused is page:
            page.act("commit", int(self.act.focus.split(":", 1)[1]))  # type: ignore[union-attr]
        page.act("tap", nid, round(x, 2), round(y, 2))
        self.act._after_action(self.phone, page)

    def pointer_stroke(self, nid: int, points: list[tuple[float, float]]) -> None:
        page = self._page()
        if page is not None:
            page.act("stroke", nid, json.dumps(points))
            self.act._after_action(self.phone, page)

    def open_select(self, nid: int, options: list[str], index: int) -> None:
        page = self._page()
        if page is None:
            return
        page.act("tap", nid, 0.0, 0.0)
        self.act._after_action(self.phone, page)
        serial = self.entry.serial
        self.phone.open_popup(self.act, Dialog("", choices=[
            Choice(o, "web_select", (serial, nid, i)) for i, o in enumerate(options)], checked=index))

    def set_range(self, nid: int, value: float) -> None:
        page = self._page()
        if page is not None:
            page.act("range", nid, float(value), True)
            self.act._after_action(self.phone, page)

    def scroll(self, key: str, delta: int, max_off: int) -> bool:
        return self.phone.scroll_state(self.act, f"{self.entry.serial}:{key}", delta, max_off)


__all__ = ["FIRST_RUN", "PKG", "TABBED", "ChromePrefs", "ChromeTabbedActivity", "prefs"]
