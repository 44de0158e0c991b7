"""The browser pages' seeded parameters, computed exactly as the pages' JavaScript does.

Each page derives what it shows from its seed (0..2^32-1) in JS; these functions mirror
that arithmetic in Python so a task's goal and its oracle know the page without running
it. The pages draw random numbers from mulberry32 (32-bit integer arithmetic, the same in
V8, QuickJS and here) and never from Math.random.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator

SEED_MAX = 2**32 - 1
_M32 = 0xFFFFFFFF

#: the 24 colours of the drawing page's palette (name, hex), in the order shown
DRAW_PALETTE: list[tuple[str, str]] = [
    ("Red", "#e53935"), ("Crimson", "#b71c1c"), ("Pink", "#ec407a"), ("Magenta", "#d500f9"),
    ("Purple", "#8e24aa"), ("Violet", "#7e57c2"), ("Indigo", "#3949ab"), ("Navy", "#1a237e"),
    ("Blue", "#1e88e5"), ("Sky", "#4fc3f7"), ("Cyan", "#00bcd4"), ("Teal", "#00897b"),
    ("Green", "#43a047"), ("Lime", "#c0ca33"), ("Olive", "#827717"), ("Yellow", "#fdd835"),
    ("Gold", "#ffb300"), ("Orange", "#fb8c00"), ("Coral", "#ff7043"), ("Brown", "#6d4c41"),
    ("Tan", "#d2b48c"), ("Gray", "#9e9e9e"), ("Slate", "#546e7a"), ("Black", "#000000"),
]

#: the colours the pair-matching page chooses from (name, hex)
MATCH_PALETTE: list[tuple[str, str]] = [
    ("red", "#e53935"), ("blue", "#1e88e5"), ("green", "#43a047"),
    ("yellow", "#fdd835"), ("purple", "#8e24aa"), ("orange", "#fb8c00"),
]

MAZE_SIZE = 4
#: maze moves: button text -> (row step, column step), in the order the generator tries them
MOVES: dict[str, tuple[int, int]] = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
_OPPOSITE = {"Up": "Down", "Down": "Up", "Left": "Right", "Right": "Left"}


def check_seed(seed: object) -> int:
    """The seed as an int in 0..2^32-1, else a ValueError saying what is wrong."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a browser page seed is an int in 0..{SEED_MAX}, not {seed!r}")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"a browser page seed is in 0..{SEED_MAX}, not {seed}")
    return seed


def _imul(a: int, b: int) -> int:
    return (a * b) & _M32


def mulberry32(seed: int) -> Iterator[float]:
    """The pages' PRNG: floats in [0, 1), as `mulberry32(SEED)` yields them in JS."""
    a = seed & _M32
    while True:
        a = (a + 0x6D2B79F5) & _M32
        t = _imul(a ^ (a >> 15), a | 1)
        t = ((t + _imul(t ^ (t >> 7), t | 61)) & _M32) ^ t
        yield ((t ^ (t >> 14)) & _M32) / 4294967296


def _below(rand: Iterator[float], k: int) -> int:
    """JS `Math.floor(rand() * k)` (an IEEE product, the same in both)."""
    return math.floor(next(rand) * k)


def maze(seed: int) -> dict:
    """A 4x4 perfect maze (depth-first carving from the top-left cell) and its one path.

    `open[r][c]` lists the sides of cell (r, c) with no wall ("U", "D", "L", "R");
    `path` is the shortest list of button presses from the top-left to the bottom-right.
    """
    n = MAZE_SIZE
    rand = mulberry32(seed)
    open_ = [[set() for _ in range(n)] for _ in range(n)]
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        r, c = stack[-1]
        nexts = [(d, r + dr, c + dc) for d, (dr, dc) in MOVES.items()
                 if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in seen]
        if not nexts:
            stack.pop()
            continue
        d, nr, nc = nexts[_below(rand, len(nexts))]
        open_[r][c].add(d)
        open_[nr][nc].add(_OPPOSITE[d])
        seen.add((nr, nc))
        stack.append((nr, nc))
    return {"size": n, "open": [["".join(d[0] for d in MOVES if d in cell) for cell in row] for row in open_],
            "path": maze_path(open_, (0, 0), (n - 1, n - 1))}


def maze_path(open_: list[list[set[str]]] | list[list[str]], start: tuple[int, int],
              goal: tuple[int, int]) -> list[str]:
    """The shortest list of moves from `start` to `goal` through open sides (breadth first)."""
    def is_open(r: int, c: int, d: str) -> bool:
        return d in open_[r][c] or d[0] in open_[r][c]

    back: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if cell == goal:
            break
        for d, (dr, dc) in MOVES.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if is_open(*cell, d) and nxt not in back:
                back[nxt] = (cell, d)
                todo.append(nxt)
    moves: list[str] = []
    cell = goal
    while back[cell] is not None:
        cell, d = back[cell]  # type: ignore[misc]
        moves.append(d)
    return moves[::-1]


def multiply(seed: int) -> dict:
    """The five numbers (1..10) the button reveals, in order, and their product."""
    rand = mulberry32(seed)
    numbers = [1 + _below(rand, 10) for _ in range(5)]
    return {"numbers": numbers, "product": math.prod(numbers)}


def draw(seed: int) -> dict:
    """The three target colours of the drawing page (a partial shuffle of the palette)."""
    rand = mulberry32(seed)
    order = list(range(len(DRAW_PALETTE)))
    for i in range(3):
        j = i + _below(rand, len(order) - i)
        order[i], order[j] = order[j], order[i]
    return {"colours": [{"name": DRAW_PALETTE[k][0], "hex": DRAW_PALETTE[k][1]} for k in order[:3]]}


def match_colour(seed: int) -> dict:
    """Four boxes: three colours drawn from the palette, the first twice, shuffled.

    `colours` are the boxes' colours in page order; `pair` the indices of the two that match.
    """
    rand = mulberry32(seed)
    order = list(range(len(MATCH_PALETTE)))
    for i in range(3):
        j = i + _below(rand, len(order) - i)
        order[i], order[j] = order[j], order[i]
    boxes = [order[0], order[0], order[1], order[2]]
    for i in range(len(boxes) - 1, 0, -1):
        j = _below(rand, i + 1)
        boxes[i], boxes[j] = boxes[j], boxes[i]
    name, hex_ = MATCH_PALETTE[order[0]]
    return {"colours": [MATCH_PALETTE[k][1] for k in boxes],
            "pair": [i for i, k in enumerate(boxes) if k == order[0]], "name": name, "hex": hex_}
