"""The browsing both of Files' screens share: where it is (a root, a folder in it), the
roots drawer ("Show roots"), the breadcrumb, the documents as a list or a grid, going
up with BACK, and the "New folder" dialog."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.files import model as m
from antrap_gym.device.sim.apps.files.model import RID, Doc
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.builder import SP_SMALL, BarAction
from antrap_gym.device.sim.toolkit.drawer import Drawer, DrawerItem
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import View

NEW_FOLDER = "New folder"
NEW_FOLDER_FIELD = "folder_name"
LIST_KEY = "dir_list"


def _take(ui: UI, h: int) -> tuple[int, int, int, int]:
    """The next `h` px of the window's width, laid out by hand (as a grid is)."""
    r = (ui.rect[0], ui.y, ui.rect[2], ui.y + h)
    ui.set_y(ui.y + h)
    return r


class BrowserActivity(Activity):
    """A place in a root: `root` (a key of `model.ROOTS`) and, in a folder root, the
    folder shown (`path`). Subclasses say which roots the drawer lists."""

    package = m.PKG
    #: the roots this screen's drawer offers
    drawer_roots: tuple[str, ...] = tuple(k for k, _, _ in m.ROOTS)

    def __init__(self, root: str = m.RECENT, path: str | None = None) -> None:
        super().__init__()
        self.root = root
        self.path = path if path is not None else m.FOLDER_ROOTS.get(root)
        self.grid = root in (m.RECENT, m.IMAGES, m.VIDEOS)
        self.sort = 0 if root in m.FOLDER_ROOTS else 7  # name A-Z; newest first

    # --- where it is ----------------------------------------------------------------------
    def folder(self, phone: PhoneContext) -> str | None:
        """The folder shown (the nearest one still there, if it went away), or None in a
        root of files by kind."""
        top = m.FOLDER_ROOTS.get(self.root)
        if top is None or self.path is None:
            return None
        path = self.path
        while path != top and not (m.inside(path, top) and phone.fs.isdir(path)):
            path = posixpath.dirname(path) if m.inside(path, top) else top
        self.path = path
        return path

    def location(self, phone: PhoneContext) -> str:
        """The title: the folder's name, or the root's at its top."""
        path = self.folder(phone)
        if path is None or path == m.FOLDER_ROOTS[self.root]:
            return m.root_title(phone, self.root)
        return posixpath.basename(path)

    def title(self, phone: PhoneContext) -> str:
        return self.location(phone)

    def docs(self, phone: PhoneContext) -> list[Doc]:
        path = self.folder(phone)
        docs = m.list_folder(phone.fs, path) if path is not None else m.category_docs(phone.fs, self.root)
        _, dim, desc = m.SORTS[self.sort]
        return m.sort_docs(docs, dim, desc)

    def go(self, phone: PhoneContext, root: str, path: str | None = None) -> None:
        """Show a root (at its top) or a folder in it."""
        self.root = root
        self.path = path if path is not None else m.FOLDER_ROOTS.get(root)
        self.scroll[LIST_KEY] = 0
        self.on_moved(phone)

    def on_moved(self, phone: PhoneContext) -> None:
        """The place changed (a subclass drops its selection)."""

    def open_root(self, phone: PhoneContext, root: str) -> None:
        self.grid = root in (m.RECENT, m.IMAGES, m.VIDEOS)
        self.sort = 0 if root in m.FOLDER_ROOTS else 7
        self.go(phone, root)

    def open_folder(self, phone: PhoneContext, path: str) -> None:
        self.go(phone, self.root, path)

    def on_back(self, phone: PhoneContext) -> bool:
        path = self.folder(phone)
        if path is not None and path != m.FOLDER_ROOTS[self.root]:
            self.open_folder(phone, posixpath.dirname(path))
            return True
        return False

    # --- the roots drawer ------------------------------------------------------------------
    def show_roots(self, phone: PhoneContext) -> None:
        items = []
        for key, _, icon in m.ROOTS:
            if key not in self.drawer_roots:
                continue
            items.append(DrawerItem(m.root_title(phone, key), "open_root", (key,), icon=icon,
                                    summary=m.free_space(phone) if key == m.STORAGE else "",
                                    selected=key == self.root,
                                    divider=key == m.DOWNLOADS and len(items) > 0))
        phone.open_popup(self, Drawer(items, title="Files", rid=RID + "roots_list",
                                      item_rid=RID + "item_root"))

    # --- building -------------------------------------------------------------------------
    def toolbar_nav(self, phone: PhoneContext) -> BarAction:
        return BarAction("menu", "Show roots", lambda: self.show_roots(phone))

    def breadcrumb(self, ui: UI, phone: PhoneContext) -> None:
        """The path from the root's top to the folder, each part a tap away; scrolled to
        show its end."""
        path = self.folder(phone)
        if path is None:
            return
        top = m.FOLDER_ROOTS[self.root]
        crumbs = [(m.root_title(phone, self.root), top)]
        rel = path[len(top):].strip("/")
        for part in rel.split("/") if rel else []:
            crumbs.append((part, posixpath.join(crumbs[-1][1], part)))
        r = _take(ui, ui.dp(48))
        bar = ui.mk("linear", r, rid=RID + "horizontal_breadcrumb")
        size = ui.sp(SP_SMALL + 2)
        pad, arrow = ui.dp(8), ui.dp(24)
        widths = [txt.text_width(label, size) + 2 * pad for label, _ in crumbs]
        total = sum(widths) + arrow * (len(crumbs) - 1) + ui.dp(16)
        x = r[0] + ui.dp(8) - max(0, total - (r[2] - r[0]))
        for i, ((label, where), w) in enumerate(zip(crumbs, widths, strict=True)):
            if i:
                ui.mk("image", (x, r[1] + ui.dp(12), x + arrow, r[3] - ui.dp(12)), bar,
                      icon="chevron", rid=RID + "breadcrumb_arrow")
                x += arrow
            ui.mk("text", (x, r[1] + ui.dp(4), x + w, r[3] - ui.dp(4)), bar, text=label,
                  style="row_title" if i == len(crumbs) - 1 else "summary",
                  rid=RID + "breadcrumb_text",
                  on_click=(lambda p=where: self.open_folder(phone, p)))
            x += w

    def document_list(self, ui: UI, phone: PhoneContext, docs: list[Doc], *,
                      on_click: Callable[[Doc], object], on_long_click: Callable[[Doc], object] | None,
                      selected: set[str] | frozenset = frozenset(),
                      enabled: Callable[[Doc], bool] = lambda d: True,
                      height: int | None = None) -> None:
        """The documents as rows (icon, name, date, size) or as a two-column grid."""
        if not docs:
            ui.empty("No items")
            return
        with ui.scroll(LIST_KEY, height=height, rid=RID + "dir_list"):
            if self.grid:
                self._grid(ui, phone, docs, on_click, on_long_click, selected, enabled)
            else:
                for d in docs:
                    self._row(ui, phone, d, on_click, on_long_click, d.path in selected, enabled(d))

    def _cells(self, ui: UI, parent: View, d: Doc, phone: PhoneContext, rect, is_selected: bool,
               icon_size: int, text_x: int) -> None:
        x0, y0, x1, y1 = rect
        s = icon_size
        icon = "check" if is_selected else ("folder" if d.is_dir else "file")
        iy = y0 + (y1 - y0 - s) // 2 if not self.grid else y0 + ui.dp(20)
        ix = x0 + ui.dp(16) if not self.grid else (x0 + x1 - s) // 2
        # a selected item's views are all selected (Android hands the state to children)
        ui.mk("image", (ix, iy, ix + s, iy + s), parent, icon=icon, selected=is_selected,
              rid=RID + ("icon_check" if is_selected else "icon_mime"))
        top = y0 + ui.dp(10) if not self.grid else iy + s + ui.dp(8)
        mid = (y0 + y1) // 2 if not self.grid else top + ui.dp(28)
        ui.mk("text", (text_x, top, x1 - ui.dp(16), mid + ui.dp(2)), parent, text=d.name,
              style="row_title", rid="android:id/title", selected=is_selected)
        line2 = (mid + ui.dp(2), y1 - ui.dp(10) if not self.grid else mid + ui.dp(26))
        date = m.format_date(phone, d.mtime)
        w = txt.text_width(date, ui.sp(SP_SMALL)) + ui.dp(4)
        ui.mk("text", (text_x, line2[0], text_x + w, line2[1]), parent, text=date, style="summary",
              rid=RID + "date", selected=is_selected)
        if not d.is_dir:
            sx = text_x + w + ui.dp(12)
            ui.mk("text", (sx, line2[0], x1 - ui.dp(16), line2[1]), parent,
                  text=m.format_size(d.size), style="summary", rid=RID + "size",
                  selected=is_selected)

    def _row(self, ui: UI, phone: PhoneContext, d: Doc, on_click, on_long_click, is_selected: bool,
             is_enabled: bool) -> None:
        r = _take(ui, ui.dp(72))
        if ui.culled(r):
            return
        row = ui.mk("row", r, rid=RID + "item_root", selected=is_selected, enabled=is_enabled,
                    on_click=lambda: on_click(d),
                    on_long_click=(lambda: on_long_click(d)) if on_long_click else None)
        self._cells(ui, row, d, phone, r, is_selected, ui.dp(40), r[0] + ui.dp(72))

    def _grid(self, ui: UI, phone: PhoneContext, docs: list[Doc], on_click, on_long_click, selected,
              enabled) -> None:
        gap, columns = ui.dp(8), 2
        x0, x1 = ui.rect[0], ui.rect[2]
        w = (x1 - x0 - gap * (columns + 1)) // columns
        h = ui.dp(152)
        top = ui.y
        for i, d in enumerate(docs):
            row, col = divmod(i, columns)
            tx, ty = x0 + gap + col * (w + gap), top + gap + row * (h + gap)
            rect = (tx, ty, tx + w, ty + h)
            if ui.culled(rect):
                continue
            cell = ui.mk("row", rect, rid=RID + "item_root", selected=d.path in selected,
                         enabled=enabled(d), on_click=lambda d=d: on_click(d),
                         on_long_click=(lambda d=d: on_long_click(d)) if on_long_click else None)
            self._cells(ui, cell, d, phone, rect, d.path in selected, ui.dp(56), tx + ui.dp(16))
        ui.set_y(top + gap + ((len(docs) + columns - 1) // columns) * (h + gap))

    # --- view options ---------------------------------------------------------------------
    def view_toggle(self, phone: PhoneContext) -> BarAction:
        if self.grid:
            return BarAction("view_list", "List view", lambda: self.set_grid(phone, False),
                             rid=RID + "menu_list")
        return BarAction("view_grid", "Grid view", lambda: self.set_grid(phone, True),
                         rid=RID + "menu_grid")

    def set_grid(self, phone: PhoneContext, grid: bool) -> None:
        self.grid = grid
        self.scroll[LIST_KEY] = 0

    def ask_sort(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog("Sort by", choices=[
            Choice(label, "set_sort", (i,)) for i, (label, _, _) in enumerate(m.SORTS)],
            checked=self.sort))

    def set_sort(self, phone: PhoneContext, i: int) -> None:
        self.sort = i

    # --- new folder -----------------------------------------------------------------------
    def ask_new_folder(self, phone: PhoneContext) -> None:
        self.set_field(NEW_FOLDER_FIELD, "")
        phone.open_popup(self, Dialog(NEW_FOLDER, field_name=NEW_FOLDER_FIELD, buttons=[
            Choice("Cancel", "cancel_dialog"), Choice("OK", "make_folder")]))
        self.focus = NEW_FOLDER_FIELD
        phone.wm.ime_shown = True  # the dialog brings up the keyboard

    def cancel_dialog(self, phone: PhoneContext) -> None:
        self.focus = None

    def make_folder(self, phone: PhoneContext) -> None:
        """OK: a folder of that name here (a free variant if it is taken)."""
        self.focus = None
        self.popup = None
        name = self.fields.get(NEW_FOLDER_FIELD, "")
        parent = self.folder(phone)
        if parent is None or not name.strip() or "/" in name:
            phone.toast("Failed to create folder")
            return
        path = posixpath.join(parent, m.unique_name(phone.fs, parent, name))
        phone.fs.mkdir(path, phone.now)
        self.folder_made(phone, path)

    def folder_made(self, phone: PhoneContext, path: str) -> None:
        """After New folder: stay (Files); a picker goes into it."""

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == NEW_FOLDER_FIELD and self.popup is not None:
            self.make_folder(phone)
