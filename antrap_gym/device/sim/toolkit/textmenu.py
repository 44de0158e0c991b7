"""An edit field's floating text toolbar (a long-press on the field), as Android's
TextView offers it: Cut and Copy of the selected text, Paste from the clipboard,
Select all.

The editing model selects the whole text or nothing (`Activity.selection_all`, also
set by CTRL+A), so a long-press does not pick the word under the finger: it focuses
the field and shows the insertion-point toolbar (Paste, Select all); after Select all
the toolbar offers Cut, Copy and Paste. A field inside a dialog keeps its dialog: the
toolbar remembers it and puts it back once an item is chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim import ime
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen

CUT, COPY, PASTE, SELECT_ALL = "Cut", "Copy", "Paste", "Select all"
#: the activity method a toolbar item calls (`Activity.text_toolbar`)
ACTION = "text_toolbar"


def items(phone: PhoneContext, act: Screen, field: str) -> list[str]:
    """The toolbar's items for `field` now, in Android's order."""
    value = act.fields.get(field, "")
    selected = bool(value) and act.selection_all and act.focus == field
    out = [CUT, COPY] if selected else []
    if phone.clipboard.has_text():
        out.append(PASTE)
    if value and not selected:
        out.append(SELECT_ALL)
    return out


def long_press(phone: PhoneContext, act: Screen, field: str, x: int, y: int) -> None:
    """A long-press on `field`: focus it (cursor at the end) and show the toolbar."""
    if act.focus != field:
        ime.focus(act, field)
    if not phone.wm.ime_shown:
        # the keyboard comes up and the window shrinks: the field moves (up, or scrolled
        # into view), and the toolbar goes where the field is now, as Android's does
        phone.wm.ime_shown = True
        phone.changed()
        x, y = _field_top(phone, field, (x, y))
    open_toolbar(phone, act, field, (x, y))


def _field_top(phone: PhoneContext, field: str, where: tuple[int, int]) -> tuple[int, int]:
    """The top centre of the app window's edit view bound to `field` (else `where`)."""
    for win in phone.windows():
        if win.name != "app":
            continue
        for v in win.root.walk():
            if v.field == field:
                return (v.rect[0] + v.rect[2]) // 2, v.rect[1]
    return where


def open_toolbar(phone: PhoneContext, act: Screen, field: str, anchor: tuple[int, int]) -> None:
    """Show the toolbar over `field` (already focused); nothing when it has no item."""
    labels = items(phone, act, field)
    if not labels:
        return
    under = act.popup if isinstance(act.popup, Dialog) else None
    phone.open_popup(act, Menu([Choice(label, ACTION, (label, field, under, anchor))
                                for label in labels], anchor))
    phone.wm.ime_shown = True


def apply(phone: PhoneContext, act: Screen, what: str, field: str, under: Dialog | None,
          anchor: tuple[int, int] = (0, 0)) -> None:
    """Carry out a toolbar item on `field` (the menu is already closed)."""
    act.popup = under
    if act.focus != field:
        ime.focus(act, field)
    value = act.fields.get(field, "")
    if what in (CUT, COPY) and act.selection_all:
        phone.clipboard.set(value)
        if what == CUT:
            ime.delete_back(act)
            act.on_text_changed(phone, field)
        else:
            act.selection_all = False
            act.cursors[field] = len(value)
        if what == COPY:
            phone.toast("Copied")
    elif what == PASTE and phone.clipboard.text:
        ime.insert(act, phone.clipboard.text)
        act.on_text_changed(phone, field)
    elif what == SELECT_ALL and value:
        ime.select_all(act)
        open_toolbar(phone, act, field, anchor)
    phone.wm.ime_shown = True
    phone.changed()
