"""Simple Draw Pro's one screen: the canvas, its tools and the Save dialog.

- A swipe on the canvas draws a stroke from where it starts to where it ends, a tap a
  dot, in the chosen colour and brush size (the eraser draws in the background colour).
- The app bar: Undo, Redo, Save; its overflow menu: Clear.
- Below the canvas: the colour (a tap opens the palette), the eraser, the brush size.
- Save opens "Save as": the file name (the app adds the extension), PNG / SVG / JPG,
  and the folder (Pictures on the internal storage to start with; a tap on it picks
  another one). OK writes the file.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.simple_draw import export
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.toolkit import card
from antrap_gym.device.sim.toolkit.builder import BarAction
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.simplemobiletools.draw.pro"
RID = PKG + ":id/"
MAIN = "com.simplemobiletools.draw.pro.activities.MainActivity"
SDCARD = "/sdcard"
STORAGE_LABEL = "Internal storage"
SAVE_TITLE = "Save as"
FOLDER_TITLE = "Select a folder"
BACKGROUND = (255, 255, 255)
#: the palette: (name, colour)
COLORS = (("Black", (0, 0, 0)), ("Red", (229, 57, 53)), ("Orange", (251, 140, 0)),
          ("Yellow", (253, 216, 53)), ("Green", (67, 160, 71)), ("Blue", (30, 136, 229)),
          ("Purple", (142, 36, 170)), ("White", (255, 255, 255)))
MAX_BRUSH = 100
_BAD_NAME = re.compile(r'[/\\:*?"<>|\x00]')


def shown_folder(folder: str) -> str:
    """A folder as the dialog shows it: `Internal storage/Pictures`."""
    rest = folder[len(SDCARD):].strip("/")
    return STORAGE_LABEL + ("/" + rest if rest else "")


class MainActivity(Activity):
    package = PKG
    name = MAIN

    def __init__(self) -> None:
        super().__init__()
        self.strokes: list[export.Stroke] = []
        self.undone: list[export.Stroke] = []
        self.color = 0  # index into COLORS
        self.brush = 20  # the brush size bar, 1..MAX_BRUSH
        self.eraser = False
        self.folder = SDCARD + "/Pictures"
        self.ext = "png"
        self.size = (0, 0)  # the canvas, px (what a saved image measures)
        self.saving = False

    def title(self, phone: PhoneContext) -> str:
        return "Simple Draw"

    def _width(self, phone: PhoneContext) -> int:
        return max(1, round(self.brush / 4 * phone.density))

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Simple Draw", rid=RID + "main_toolbar", actions=[
            BarAction("undo", "Undo", lambda: self.undo(phone), rid=RID + "menu_undo"),
            BarAction("redo", "Redo", lambda: self.redo(phone), rid=RID + "menu_redo"),
            BarAction("save", "Save", lambda: self.open_save(phone), rid=RID + "menu_save")],
            menu=[Choice("Clear", "clear")])
        r = ui.rect
        tools_h = ui.dp(72 + 40 + 56)
        # laid out for the whole screen: the keyboard covers the tools, it does not shrink
        # the canvas (a saved drawing keeps its size)
        canvas = (r[0], ui.y, r[2], phone.content_rect()[3] - tools_h)
        self.size = (canvas[2] - canvas[0], canvas[3] - canvas[1])
        ui.vector(export.shapes(self.strokes), background=BACKGROUND, rect=canvas,
                  rid=RID + "my_canvas", cls=PKG + ".views.MyCanvas",
                  on_gesture=lambda x0, y0, x1, y1: self.draw(phone, canvas, x0, y0, x1, y1))
        ui.set_y(canvas[3])
        y = ui.y + ui.dp(12)
        s = ui.dp(48)
        name, color = COLORS[self.color]
        edge = max(1, ui.dp(1))
        swatch = ui.vector((("rect", edge, edge, s - edge, s - edge, color),),
                           background=(120, 120, 120), rect=(r[0] + ui.dp(16), y, r[0] + ui.dp(16) + s,
                                                             y + s),
                           desc=f"Color: {name}", rid=RID + "color_picker")
        swatch.on_click = lambda: self.open_colors(phone)
        swatch.clickable = swatch.focusable = True
        ex = ui.mk("icon_button", (r[0] + ui.dp(80), y, r[0] + ui.dp(80) + s, y + s), desc="Eraser",
                   icon="edit", rid=RID + "eraser", on_click=lambda: self.toggle_eraser(phone))
        ex.checkable, ex.checked = True, self.eraser
        ui.set_y(canvas[3] + ui.dp(72))
        ui.slider("Brush size", self.brush, 1, MAX_BRUSH, lambda v: self.set_brush(phone, v),
                  rid=RID + "stroke_width_bar")
        if self.saving:
            self._build_save(ui, phone)

    # --- drawing -----------------------------------------------------------------------------
    def draw(self, phone: PhoneContext, canvas, x0: int, y0: int, x1: int, y1: int) -> bool:
        """A stroke from (x0, y0) to (x1, y1), a dot when they are the same point."""
        def local(x: int, y: int) -> tuple[int, int]:
            return (min(max(x, canvas[0]), canvas[2] - 1) - canvas[0],
                    min(max(y, canvas[1]), canvas[3] - 1) - canvas[1])

        a, b = local(x0, y0), local(x1, y1)
        color = BACKGROUND if self.eraser else COLORS[self.color][1]
        self.strokes.append((color, self._width(phone), (a,) if a == b else (a, b)))
        self.undone.clear()
        return True

    def undo(self, phone: PhoneContext) -> None:
        if self.strokes:
            self.undone.append(self.strokes.pop())

    def redo(self, phone: PhoneContext) -> None:
        if self.undone:
            self.strokes.append(self.undone.pop())

    def clear(self, phone: PhoneContext) -> None:
        self.strokes.clear()
        self.undone.clear()

    def toggle_eraser(self, phone: PhoneContext) -> None:
        self.eraser = not self.eraser

    def set_brush(self, phone: PhoneContext, value: float) -> None:
        self.brush = max(1, min(MAX_BRUSH, round(value)))

    def open_colors(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog("Select color", choices=[
            Choice(name, "pick_color", (i,)) for i, (name, _) in enumerate(COLORS)],
            checked=self.color, buttons=[Choice("Cancel", "noop")]))

    def pick_color(self, phone: PhoneContext, i: int) -> None:
        self.color = i
        self.eraser = False

    # --- saving ------------------------------------------------------------------------------
    def _build_save(self, ui: UI, phone: PhoneContext) -> None:
        """The Save as dialog, drawn over the canvas (its card rides above the keyboard)."""
        with card.dialog(ui, SAVE_TITLE, lambda: self.close_save(phone)) as d:
            d.edit("file_name", "File name", rid=RID + "save_image_filename")
            r = d.rect
            line = (r[0] + d.dp(8), d.y, r[2] - d.dp(8), d.y + d.dp(48))
            for cell, ext in zip(card.split(line, 3, d.dp(8)), export.EXTENSIONS):
                def pick(e: str = ext) -> None:
                    self.pick_ext(phone, e)

                box = d.mk("linear", cell, on_click=pick)
                d.mk("radio", (cell[0], cell[1], cell[0] + d.dp(40), cell[3]), box, checkable=True,
                     checked=self.ext == ext, rid=RID + "save_image_radio_" + ext, on_click=pick)
                d.mk("text", (cell[0] + d.dp(44), cell[1], cell[2], cell[3]), box, text=ext.upper(),
                     style="body")
            d.spacer(56)
            d.mk("text", (r[0] + d.dp(16), d.y, r[2] - d.dp(16), d.y + d.dp(48)),
                 text=shown_folder(self.folder), style="row_title", rid=RID + "save_image_path",
                 on_click=lambda: self.pick_folder(phone))
            d.spacer(48)
            d.button_bar([("Cancel", lambda: self.close_save(phone), "text"),
                          ("OK", lambda: self.save(phone), "text")])

    def open_save(self, phone: PhoneContext) -> None:
        """Save: a file name to start with (the app's own, by the time), the last format
        and folder chosen."""
        self.set_field("file_name", "image_" + str(phone.now))
        self.saving = True
        self.focus = None

    def close_save(self, phone: PhoneContext) -> None:
        self.saving = False
        self.focus = None
        phone.wm.ime_shown = False

    def on_back(self, phone: PhoneContext) -> bool:
        if self.saving:
            self.close_save(phone)
            return True
        return False

    def pick_ext(self, phone: PhoneContext, ext: str) -> None:
        self.ext = ext

    def pick_folder(self, phone: PhoneContext) -> None:
        """The folders of the internal storage (and itself), the current one checked."""
        fs = phone.fs
        folders = [SDCARD] + [posixpath.join(SDCARD, n) for n in fs.listdir(SDCARD)
                              if not n.startswith(".") and fs.isdir(posixpath.join(SDCARD, n))]
        self.focus = None
        phone.open_popup(self, Dialog(FOLDER_TITLE, choices=[
            Choice(shown_folder(f), "set_folder", (f,)) for f in folders],
            checked=folders.index(self.folder) if self.folder in folders else -1,
            buttons=[Choice("Cancel", "noop")]))

    def set_folder(self, phone: PhoneContext, folder: str) -> None:
        self.folder = folder

    def save(self, phone: PhoneContext) -> None:
        name = self.fields.get("file_name", "").strip()
        if not name:
            phone.toast("Filename cannot be empty")
            return
        if _BAD_NAME.search(name):
            phone.toast("Filename contains invalid characters")
            return
        w, h = self.size
        path = posixpath.join(self.folder, f"{name}.{self.ext}")
        try:
            phone.fs.mkdir(self.folder, phone.now, parents=True)
            phone.fs.write(path, export.encode(self.strokes, max(1, w), max(1, h), self.ext),
                           phone.now)
        except FsError:
            phone.toast("Could not save the file")
            return
        self.close_save(phone)
        phone.toast("File saved successfully")
