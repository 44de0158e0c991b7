"""The destination picker "Copy to…" and "Move to…" open (DocumentsUI's PickActivity):
browse the writable roots to a folder, then Copy or Move puts the documents there."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.files import model as m
from antrap_gym.device.sim.apps.files.browser import NEW_FOLDER, BrowserActivity
from antrap_gym.device.sim.apps.files.model import RID, Doc
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.builder import SP_SMALL
from antrap_gym.device.sim.toolkit.popups import Choice

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


class PickActivity(BrowserActivity):
    name = "com.android.documentsui.picker.PickActivity"
    COPY, MOVE = "copy", "move"
    drawer_roots = (m.DOWNLOADS, m.STORAGE)

    def __init__(self, mode: str = COPY, sources: list[str] | None = None, root: str = m.STORAGE,
                 path: str | None = None) -> None:
        super().__init__(root, path)
        self.mode = mode
        self.sources = list(sources or [])
        self.grid = False

    def open_root(self, phone: PhoneContext, root: str) -> None:
        super().open_root(phone, root)
        self.grid = False

    def can_drop(self, phone: PhoneContext) -> bool:
        """Not into a folder being moved or copied itself, nor (moving) where they are."""
        here = self.folder(phone)
        if here is None or not self.sources:
            return False
        if any(m.inside(here, s) for s in self.sources):
            return False
        return not (self.mode == self.MOVE and all(posixpath.dirname(s) == here for s in self.sources))

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.location(phone), nav=self.toolbar_nav(phone),
                   menu=[Choice(NEW_FOLDER, "ask_new_folder"), Choice("Sort by", "ask_sort")],
                   rid=RID + "toolbar")
        self.breadcrumb(ui, phone)
        bar_h = ui.dp(72)
        self.document_list(ui, phone, self.docs(phone), on_click=lambda d: self.tap_doc(phone, d),
                           on_long_click=None, enabled=lambda d: d.is_dir,
                           height=max(0, ui.remaining - bar_h))
        self._buttons(ui, phone, bar_h)

    def _buttons(self, ui: UI, phone: PhoneContext, bar_h: int) -> None:
        """Cancel, and Copy / Move: the folder shown is the destination."""
        x0, _, x1, y1 = ui.rect
        r = (x0, y1 - bar_h, x1, y1)
        bar = ui.mk("linear", r)
        size = ui.sp(SP_SMALL)
        label = "Copy" if self.mode == self.COPY else "Move"
        right = r[2] - ui.dp(16)
        for text, style, rid, cb, enabled in (
                (label, "filled", "android:id/button1", lambda: self.drop(phone), self.can_drop(phone)),
                ("Cancel", "outlined", "android:id/button2", lambda: phone.finish_activity(self), True)):
            w = txt.text_width(text, size) + ui.dp(48)
            ui.mk("button", (right - w, r[1] + ui.dp(12), right, r[3] - ui.dp(12)), bar, text=text,
                  style=style, rid=rid, on_click=cb, enabled=enabled)
            right -= w + ui.dp(8)

    def tap_doc(self, phone: PhoneContext, d: Doc) -> None:
        if d.is_dir:
            self.open_folder(phone, d.path)

    def folder_made(self, phone: PhoneContext, path: str) -> None:
        self.open_folder(phone, path)

    def drop(self, phone: PhoneContext) -> None:
        """Copy or move the documents into the folder shown, and go back to Files."""
        here = self.folder(phone)
        if here is None or not self.can_drop(phone):
            return
        fs = phone.fs
        done = 0
        for src in self.sources:
            if not fs.exists(src):
                continue
            if self.mode == self.COPY:
                m.copy_into(fs, src, here, phone.now)
            else:
                m.move_into(fs, src, here, phone.now)
            done += 1
        phone.finish_activity(self)
        if done:
            verb = "Copying" if self.mode == self.COPY else "Moving"
            phone.toast(f"{verb} {_files(done)}.")
