"""The soft keyboard's editing model: focus, cursor, insert, delete, select-all.

Text always goes to the focused field of the focused activity, at its cursor,
as on Android. Fields are plain strings in `activity.fields`.
"""

from __future__ import annotations

from antrap_gym.device.sim.context import Screen
from antrap_gym.device.sim.toolkit import text as txt

#: characters a field accepts at most (a guard against runaway input)
MAX_FIELD_CHARS = 20000


def focus(act: Screen, field: str, cursor: int | None = None) -> None:
    value = act.fields.get(field, "")
    act.focus = field
    act.selection_all = False
    act.cursors[field] = len(value) if cursor is None else max(0, min(cursor, len(value)))


def cursor_at(value: str, rect: tuple[int, int, int, int], x: float, y: float, size: int,
              pad: int, pad_top: int, multiline: bool) -> int:
    """The cursor index closest to a tap at (x, y) inside an edit box."""
    inner_w = max(1, rect[2] - rect[0] - pad - pad_top)
    if not multiline:
        return txt.index_at(value, size, x - rect[0] - pad)
    lines = txt.wrap(value, size, inner_w)
    lh = txt.line_height(size)
    row = int((y - rect[1] - pad_top) // lh)
    if row >= len(lines):
        return len(value)
    row = max(0, row)
    start, end = lines[row]
    return start + txt.index_at(value[start:end], size, x - rect[0] - pad)


def insert(act: Screen, text: str) -> bool:
    field = act.focus
    if field is None:
        return False
    value = act.fields.get(field, "")
    if act.selection_all:
        value, cur = "", 0
        act.selection_all = False
    else:
        cur = min(act.cursors.get(field, len(value)), len(value))
    room = MAX_FIELD_CHARS - len(value)
    text = text[: max(0, room)]
    act.fields[field] = value[:cur] + text + value[cur:]
    act.cursors[field] = cur + len(text)
    return True


def delete_back(act: Screen) -> bool:
    field = act.focus
    if field is None:
        return False
    value = act.fields.get(field, "")
    if act.selection_all:
        act.fields[field], act.cursors[field] = "", 0
        act.selection_all = False
        return True
    cur = min(act.cursors.get(field, len(value)), len(value))
    if cur == 0:
        return False
    act.fields[field] = value[: cur - 1] + value[cur:]
    act.cursors[field] = cur - 1
    return True


def delete_forward(act: Screen) -> bool:
    field = act.focus
    if field is None:
        return False
    value = act.fields.get(field, "")
    if act.selection_all:
        return delete_back(act)
    cur = min(act.cursors.get(field, len(value)), len(value))
    if cur >= len(value):
        return False
    act.fields[field] = value[:cur] + value[cur + 1 :]
    return True


def move(act: Screen, where: str) -> bool:
    """Move the cursor: left, right, home, end, up, down (by logical line)."""
    field = act.focus
    if field is None:
        return False
    value = act.fields.get(field, "")
    cur = min(act.cursors.get(field, len(value)), len(value))
    act.selection_all = False
    if where == "left":
        new = max(0, cur - 1)
    elif where == "right":
        new = min(len(value), cur + 1)
    elif where == "home":
        new = value.rfind("\n", 0, cur) + 1
    elif where == "end":
        nl = value.find("\n", cur)
        new = len(value) if nl < 0 else nl
    elif where in ("up", "down"):
        line_start = value.rfind("\n", 0, cur) + 1
        col = cur - line_start
        if where == "up":
            if line_start == 0:
                new = 0
            else:
                prev_start = value.rfind("\n", 0, line_start - 1) + 1
                new = min(prev_start + col, line_start - 1)
        else:
            nl = value.find("\n", cur)
            if nl < 0:
                new = len(value)
            else:
                nxt_end = value.find("\n", nl + 1)
                nxt_end = len(value) if nxt_end < 0 else nxt_end
                new = min(nl + 1 + col, nxt_end)
    else:
        return False
    act.cursors[field] = new
    return new != cur


def select_all(act: Screen) -> bool:
    if act.focus is None:
        return False
    act.selection_all = True
    return True
