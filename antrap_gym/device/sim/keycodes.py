"""Android's key codes (`KeyEvent.KEYCODE_*`) by name, as `input keyevent` takes them."""

from __future__ import annotations

KEYCODES: dict[str, int] = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6,
    "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23,
    "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "CLEAR": 28,
    "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67,
    "MENU": 82, "SEARCH": 84, "MOVE_HOME": 122, "MOVE_END": 123, "FORWARD_DEL": 112,
    "ESCAPE": 111, "CTRL_LEFT": 113, "CTRL_RIGHT": 114, "APP_SWITCH": 187, "WAKEUP": 224,
    "SLEEP": 223, "NOTIFICATION": 83, "CUT": 277, "COPY": 278, "PASTE": 279,
}
for _i in range(10):
    KEYCODES[str(_i)] = 7 + _i
for _i, _c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
    KEYCODES[_c] = 29 + _i
KEYNAMES = {v: k for k, v in KEYCODES.items()}


def keycode_of(spec: str | int) -> int | None:
    """`KEYCODE_BACK`, `BACK`, `back` or `4` -> 4; None when unknown."""
    if isinstance(spec, int):
        return spec if spec in KEYNAMES else None
    s = spec.strip().upper()
    if s.lstrip("-").isdigit():
        n = int(s)
        return n if n in KEYNAMES else None
    if s.startswith("KEYCODE_"):
        s = s[len("KEYCODE_") :]
    return KEYCODES.get(s)
