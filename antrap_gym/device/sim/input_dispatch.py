"""Input dispatch: touches to the view under them, keys and typed text to the focused
field (or to Back, Home and recents), as Android's input dispatcher routes them.

Each input ticks the phone's clock (`MS_PER_INPUT`) and goes to the topmost window that
takes it (an overlay, a pop-up, recents, else the app); a touch finds its view by
`hit_test`, typed text goes through the IME into the focused field of the activity in
front. The phone's methods of the same names (`tap`, `key`, `input_text`, ...) hand
over to these.
"""

from __future__ import annotations

from typing import Protocol

from antrap_gym.device.sim import ime
from antrap_gym.device.sim.context import PhoneContext, Screen, Window
from antrap_gym.device.sim.keycodes import KEYNAMES
from antrap_gym.device.sim.storage.settings import STREAM_MUSIC, STREAMS
from antrap_gym.device.sim.toolkit import textmenu
from antrap_gym.device.sim.toolkit.builder import SP_BODY
from antrap_gym.device.sim.toolkit.popups import Dialog
from antrap_gym.device.sim.toolkit.views import View, hit_test

#: device time one input takes (a tap, a key, a typed text)
MS_PER_INPUT = 1000
#: a touch held this long is a long press
LONG_PRESS_MS = 500
#: KEYCODE_CUT/COPY/PASTE do what the text toolbar's items do
CLIPBOARD_KEYS = {"CUT": textmenu.CUT, "COPY": textmenu.COPY, "PASTE": textmenu.PASTE}


class InputHost(PhoneContext, Protocol):
    """The phone as input reaches it: its context, its clock's tick, and the windows it
    last built (which tell a field's layout without a rebuild)."""

    def advance(self, ms: int = ...) -> None: ...

    def windows_built_for(self, act: Screen) -> list[Window] | None: ...


def _window_at(phone: InputHost, x: float, y: float) -> Window | None:
    if not (0 <= x < phone.width and 0 <= y < phone.height):
        return None
    for w in reversed(phone.windows()):
        if w.name in ("overlay", "popup", "recents") or w.root.contains(x, y):
            return w
    return None


def _press(phone: InputHost, x: float, y: float, want: str) -> tuple[Window, View | None] | None:
    """A touch at (x, y) after the clock's tick: the window it lands in and its view that
    handles `want` (None: off the screen)."""
    phone.advance()
    win = _window_at(phone, x, y)
    return None if win is None else (win, hit_test(win.root, x, y, want))


def tap(phone: InputHost, x: float, y: float) -> bool:
    hit = _press(phone, x, y, "click")
    if hit is None:
        return False
    win, v = hit
    return _touch_outside(phone, win) if v is None else _click(phone, v, x, y)


def _touch_outside(phone: InputHost, win: Window) -> bool:
    """A touch on a popup's scrim cancels it; on an overlay it is swallowed."""
    if win.name == "popup" and win.root.children and win.root.children[0].on_click:
        win.root.children[0].on_click()
        phone.changed()
        return True
    return False


def _click(phone: InputHost, v: View, x: float, y: float) -> bool:
    if not v.enabled:
        return False
    if v.editable:
        _focus_edit(phone, v, x, y)
    elif v.on_drag is not None:
        v.on_drag(int(x), int(x))
    elif v.on_gesture is not None:
        v.on_gesture(int(x), int(y), int(x), int(y))
    elif v.on_click is not None:
        v.on_click()
    else:
        return False
    phone.changed()
    return True


def _focus_edit(phone: InputHost, v: View, x: float, y: float) -> None:
    act = phone.wm.top_activity()
    if act is None or v.field is None:
        return
    value = act.fields.get(v.field, "")
    d = phone.density
    pad = round((48 if v.style == "search" else 16) * d)
    cur = ime.cursor_at(value, v.rect, x, y, round(SP_BODY * d), pad, round(12 * d),
                        bool(v.value[0]))
    ime.focus(act, v.field, cur)
    phone.wm.ime_shown = True


def long_press(phone: InputHost, x: float, y: float) -> bool:
    hit = _press(phone, x, y, "long")
    if hit is None:
        return False
    win, v = hit
    if v is None:
        return _touch_outside(phone, win)
    if not v.enabled:
        return False
    if v.on_long_click is not None:
        v.on_long_click()
        phone.changed()
        return True
    # Android performs a click on release when nothing consumed the long press
    return _click(phone, v, x, y)


def swipe(phone: InputHost, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> bool:
    dx, dy = x2 - x1, y2 - y1
    if abs(dx) < 8 * phone.density and abs(dy) < 8 * phone.density:
        if duration_ms >= LONG_PRESS_MS:
            return long_press(phone, x1, y1)
        return tap(phone, x1, y1)
    phone.advance(MS_PER_INPUT + max(0, int(duration_ms)))
    win = _window_at(phone, x1, y1)
    if win is None:
        return False
    v = hit_test(win.root, x1, y1, "gesture")
    if v is not None and v.enabled and v.on_gesture(int(x1), int(y1), int(x2), int(y2)):
        phone.changed()
        return True
    horizontal = abs(dx) > abs(dy)
    if horizontal:
        v = hit_test(win.root, x1, y1, "drag")
        if v is not None and v.enabled:
            v.on_drag(int(x1), int(x2))
            phone.changed()
            return True
    v = hit_test(win.root, x1, y1, "scroll_h" if horizontal else "scroll_v")
    if v is not None and v.on_scroll(int(x1 - x2) if horizontal else int(y1 - y2)):
        phone.changed()
        return True
    v = hit_test(win.root, x1, y1, "swipe")
    if v is not None:
        direction = ("left" if dx < 0 else "right") if horizontal else ("up" if dy < 0 else "down")
        if v.on_swipe(direction):
            phone.changed()
            return True
    return False


def key(phone: InputHost, code: int) -> bool:
    """A key event; returns whether anything happened."""
    phone.advance()
    name = KEYNAMES.get(code)
    if name is None:
        return False
    if name == "BACK":
        return phone.press_back(tick=False)
    if name == "HOME":
        return phone.press_home(tick=False)
    if name == "APP_SWITCH":
        return phone.press_recents(tick=False)
    if name in ("VOLUME_UP", "VOLUME_DOWN"):
        _, key, lo, hi = STREAMS[STREAM_MUSIC]
        v = phone.settings.get_int("system", key, 5)
        v = min(hi, v + 1) if name == "VOLUME_UP" else max(lo, v - 1)
        phone.settings.put("system", key, str(v))
        phone.changed()
        return True
    act = _typing_target(phone)
    if act is None:
        return False
    handled = False
    if name in CLIPBOARD_KEYS:  # as the toolbar's item, on the focused field
        under = act.popup if isinstance(act.popup, Dialog) else None
        textmenu.apply(phone, act, CLIPBOARD_KEYS[name], act.focus or "", under)
        return True
    if name == "ENTER":
        handled = _enter(phone, act)
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
            act.on_text_changed(phone, act.focus)
        phone.changed()
    return handled


def key_combination(phone: InputHost, codes: list[int]) -> bool:
    phone.advance()
    names = {KEYNAMES.get(c) for c in codes}
    act = _typing_target(phone)
    if act is not None and names & {"CTRL_LEFT", "CTRL_RIGHT"} and "A" in names:
        ime.select_all(act)
        phone.changed()
        return True
    return False


def _typing_target(phone: InputHost) -> Screen | None:
    """The activity whose focused field receives keys, if input can reach it."""
    if phone.wm.overlays or phone.wm.recents_open:
        return None
    act = phone.wm.top_activity()
    if act is None or act.focus is None:
        return None
    return act


def _enter(phone: InputHost, act: Screen) -> bool:
    field = act.focus
    if field is None:
        return False
    if _field_is_multiline(phone, act, field):
        return ime.insert(act, "\n")
    act.on_submit(phone, field)
    return True


def _field_is_multiline(phone: InputHost, act: Screen, field: str) -> bool:
    # a field is multi-line or not by its screen's layout, not by its text: the
    # windows last built for this activity tell without a rebuild when they show it
    last = phone.windows_built_for(act)
    found = _multiline_in(last, field) if last is not None else None
    if found is None:
        found = _multiline_in(phone.windows(), field)
    return bool(found)


def input_text(phone: InputHost, text: str) -> bool:
    """`input text`: the characters as typed keys, a newline being the Enter key (as in
    Android's virtual key map and AndroidWorld's typing): a new line in a multi-line
    field, the IME action in a single-line one, which takes no newline."""
    phone.advance()
    ok = False
    multiline: tuple[Screen, str, bool] | None = None  # the last field looked up
    while True:
        act = _typing_target(phone)
        if act is None or act.focus is None:
            return ok
        field = act.focus
        head, newline, rest = text, "", ""
        if "\n" in text:
            if multiline is None or multiline[:2] != (act, field):
                multiline = (act, field, _field_is_multiline(phone, act, field))
            if not multiline[2]:
                head, newline, rest = text.partition("\n")
        if head and ime.insert(act, head):
            act.on_text_changed(phone, field)
            ok = True
            phone.changed()
        if not newline:
            return ok
        _enter(phone, act)
        ok = True
        phone.changed()
        text = rest


def ime_key(phone: InputHost, key: str) -> None:
    """A tap on the soft keyboard."""
    act = _typing_target(phone)
    if act is None:
        return
    if key == "⌫":
        ime.delete_back(act)
    elif key == "⏎":
        _enter(phone, act)
        return
    else:
        ime.insert(act, key)
    if act.focus is not None:
        act.on_text_changed(phone, act.focus)


def _multiline_in(windows: list[Window], field: str) -> bool | None:
    """Whether the app or pop-up windows show `field` multi-line (None: not shown)."""
    for w in windows:
        if w.name in ("app", "popup"):
            for v in w.root.walk():
                if v.editable and v.field == field:
                    return bool(v.value[0])
    return None
