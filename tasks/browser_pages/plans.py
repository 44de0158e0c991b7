"""How a user wins (and fails) each browser page, as data: a short list of steps on
elements named as a person sees them.

The steps are the oracle's vocabulary (tasks/steps.py: Tap, TypeText, SetChecked,
SetSlider on a Target by text, description (aria-label) or hint (placeholder)) plus
three a page needs that the native apps do not: ChooseOption (a drop-down's option),
TapColour (an unlabelled box known by its colour) and DrawStroke (a finger stroke on a
canvas). Whatever drives the page -- headless Chromium in the tests, the simulated
phone's oracle -- grounds the same plan.

Where a step may already have happened, or a stray tap may have changed what is left to
do, the step's `done` says so from what the page shows now (shown.py): the tap counter,
the progress line, a toggle's state, the maze's X, the brush, the colours on the canvas.
Whoever grounds a plan skips a step whose `done` holds, so the plan re-grounds on the
page as it is: the maze's plan has one step per cell (the move towards the goal from
there, done while the X is elsewhere), in order of distance from the goal.
"""

from __future__ import annotations

from antrap_gym.tasks.browser_pages import ICONS, PAGES, SQUARE_COLOURS, page_params
from antrap_gym.tasks.browser_pages.seeded import DRAW_PALETTE, MOVES, maze_path
from antrap_gym.tasks.browser_pages.shown import (
    AnyOf,
    CountAtLeast,
    Drawn,
    Gone,
    Holding,
    MazeLeft,
    Showing,
)
from antrap_gym.tasks.steps import (
    ChooseOption,
    DrawStroke,
    SetChecked,
    SetSlider,
    Step,
    Tap,
    TapColour,
    Target,
    TypeText,
)


def _text(s: str) -> Target:
    return Target(text=s)


SUBMIT = Tap(target=_text("Submit"))
CANVAS = Target(desc="Drawing area", cls="View")
#: the dismiss-cards page's heading (its cards' absence counts only on the page)
DISMISS_PAGE = "Notifications"


def _draw(colours: list[str]) -> list[Step]:
    """Each colour: pick it, then one straight stroke across the canvas; then Submit."""
    steps: list[Step] = []
    hexes = dict(DRAW_PALETTE)
    for i, name in enumerate(colours):
        y = 0.2 + 0.3 * i
        drawn = Drawn(CANVAS, hexes[name])
        steps += [Tap(target=Target(desc=name), done=AnyOf((Showing(_text(f"Brush: {name}")), drawn))),
                  DrawStroke(target=CANVAS, points=((0.1, y), (0.9, y)), done=drawn)]
    return [*steps, SUBMIT]


def _maze(p: dict) -> tuple[list[Step], list[list[Step]]]:
    """One step per cell but the goal, farthest from the goal first: the move towards the
    goal from there, done while the X is elsewhere. From wherever the X is (the start, or
    a cell a stray tap took it to), the steps left lead it home."""
    n, goal = p["size"], (p["size"] - 1, p["size"] - 1)
    ways = {(r, c): maze_path(p["open"], (r, c), goal) for r in range(n) for c in range(n) if (r, c) != goal}
    order = sorted(ways, key=lambda cell: (-len(ways[cell]), cell))
    winning: list[Step] = [Tap(target=_text(ways[cell][0]), done=MazeLeft(cell, n)) for cell in order]
    moves = [Tap(target=_text(d)) for d in p["path"]]
    losing = [moves[:-1]]
    for d in MOVES:  # a neighbour of the goal walled off from it: walk there, push into the wall
        r, c = goal[0] - MOVES[d][0], goal[1] - MOVES[d][1]
        if 0 <= r < n and 0 <= c < n and d[0] not in p["open"][r][c]:
            losing.append([Tap(target=_text(m)) for m in maze_path(p["open"], (0, 0), (r, c))]
                          + [Tap(target=_text(d))])
    return winning, losing


def _counted(target: Target, pattern: str, n: int) -> list[Step]:
    """n taps on `target`, the i-th done once the page counts i (`pattern`'s number)."""
    return [Tap(target=target, done=CountAtLeast(pattern, i)) for i in range(1, n + 1)]


def _fill(name: str, other: str) -> tuple[list[Step], list[list[Step]]]:
    box = Target(hint="Your name")
    return ([TypeText(target=box, text=name), SUBMIT],
            [[TypeText(target=box, text=other), SUBMIT], [TypeText(target=box, text=name.lower()), SUBMIT]])


def plans(name: str, seed: int) -> tuple[list[Step], list[list[Step]]]:
    """The winning plan for page `name` at `seed`, and plans that must not win."""
    p = page_params(name, seed)
    kind = PAGES[name].file.removesuffix(".html")
    if kind == "maze":
        return _maze(p)
    if kind == "multiply":
        presses = [Tap(target=_text("Next number"))] * 5
        answer = Target(hint="Your answer")
        counted = _counted(_text("Next number"), r"(\d+) / 5", 5)
        return ([*counted, TypeText(target=answer, text=str(p["product"])), SUBMIT],
                [[*presses, TypeText(target=answer, text=str(p["product"] + 1)), SUBMIT]])
    if kind == "draw":
        names = [c["name"] for c in p["colours"]]
        other = next(n for n, _ in DRAW_PALETTE if n not in names)
        return _draw(names), [_draw([*names[:2], other]), [SUBMIT]]
    if kind == "click":
        tap = Tap(target=_text("Tap me"))
        return _counted(tap.target, r"Taps: (\d+)", p["n"]), [[tap] * (p["n"] - 1)]
    if kind == "fill_name":
        return _fill(p["name"], "Grace" if p["name"] != "Grace" else "Alice")
    if kind == "checkboxes":
        ticks = [SetChecked(target=_text(f)) for f in p["fruits"]]
        return [*ticks, SUBMIT], [[*ticks[:2], SUBMIT], [*ticks, SetChecked(target=_text("Date")), SUBMIT]]
    if kind == "radio":
        return ([SetChecked(target=_text(p["choice"])), SUBMIT],
                [[SetChecked(target=_text("Maybe")), SUBMIT], [SUBMIT]])
    if kind == "toggles":
        flips = [Tap(target=Target(text="Off", row=s)) for s in p["settings"]]
        on = [Tap(target=Target(text="Off", row=s), done=Showing(Target(text="On", row=s)))
              for s in p["settings"]]
        return on, [flips[:2], [*flips, Tap(target=Target(text="On", row=p["settings"][0]))]]
    if kind == "pick_colour":
        others = [h for h in SQUARE_COLOURS.values() if h != p["hex"]][:2]
        return [TapColour(colour=p["hex"])], [[TapColour(colour=h) for h in others]]
    if kind == "order_click":
        taps = [Tap(target=_text(t)) for t in p["order"]]
        counted = [Tap(target=_text(t), done=CountAtLeast(r"(\d+) / 3", i + 1))
                   for i, t in enumerate(p["order"])]
        return counted, [[taps[0], taps[2], taps[1]], [taps[1], taps[0], taps[2]]]
    if kind == "dropdown":
        menu = Target(desc="Fruit", cls="Spinner")
        return ([ChooseOption(target=menu, option=p["fruit"]), SUBMIT],
                [[ChooseOption(target=menu, option="Cherry"), SUBMIT], [SUBMIT]])
    if kind == "slider":
        level = Target(desc="Volume", cls="SeekBar")
        return ([SetSlider(target=level, fraction=p["value"] / 100), SUBMIT],
                [[SetSlider(target=level, fraction=0.8), SUBMIT], [SUBMIT]])
    if kind == "click_largest":
        return [Tap(target=_text(p["label"]))], [[Tap(target=_text("Medium")), Tap(target=_text("Small"))]]
    if kind == "dismiss_cards":
        closes = [Tap(target=Target(text="\u2715", row=c)) for c in p["cards"]]
        gone = [Tap(target=Target(text="\u2715", row=c), done=Gone(DISMISS_PAGE, c)) for c in p["cards"]]
        return gone, [closes[:2]]
    if kind == "pick_even":
        return [Tap(target=_text("4"))], [[Tap(target=_text(str(n))) for n in (1, 3, 5)]]
    if kind == "copy_code":
        entry = Target(hint="Enter code")
        wrong = (p["code"] - 1000 + 1) % 9000 + 1000
        return ([TypeText(target=entry, text=str(p["code"])), SUBMIT],
                [[TypeText(target=entry, text=str(wrong)), SUBMIT]])
    if kind == "sum":
        answer = Target(hint="Answer")
        return ([TypeText(target=answer, text=str(p["sum"])), SUBMIT],
                [[TypeText(target=answer, text=str(p["sum"] + 1)), SUBMIT]])
    if kind == "match_colour":
        i, j = p["pair"]
        odd = next(k for k in range(4) if k not in (i, j))
        nth = [p["colours"][:k].count(p["colours"][k]) for k in range(4)]
        tap = [TapColour(colour=p["colours"][k], nth=nth[k]) for k in range(4)]
        return [tap[i], tap[j]], [[tap[i], tap[odd]], [tap[i], tap[i]]]
    if kind == "heart_icon":
        others = [Tap(target=_text(icon) if icon else Target(desc=name)) for icon, name, _ in ICONS
                  if name != p["name"]]
        return [Tap(target=_text(p["icon"]))], [others]
    if kind == "agree_terms":
        go = Tap(target=_text("Continue"))
        return [SetChecked(target=_text("I have read and agree to the terms")), go], [[go]]
    if kind == "unsubscribe":
        return [Tap(target=_text(p["link"]))], [[Tap(target=_text("Read more stories"))]]
    if kind == "search":
        box, go = Target(hint="Search the web"), Tap(target=_text("Search"))
        other = "news" if p["query"] != "news" else "maps"
        return ([TypeText(target=box, text=p["query"].capitalize() + " "), go],
                [[TypeText(target=box, text=other), go], [TypeText(target=box, text=p["query"] + "s"), go]])
    if kind == "reset_password":
        first, second = Target(hint="New password"), Target(hint="Confirm password")
        save = Tap(target=_text("Save password"))
        word = "Maple-Leaf-42"
        typed = [TypeText(target=box, text=word, done=Holding(box, word)) for box in (first, second)]
        return ([*typed, save],
                [[TypeText(target=first, text=word), TypeText(target=second, text=word[::-1]), save], [save]])
    raise AssertionError(f"no plan for {kind}")  # every page file has one (tested)


def winning_plan(name: str, seed: int) -> list[Step]:
    """The steps that make page `name` at `seed` show `Success!`."""
    return plans(name, seed)[0]


def losing_plans(name: str, seed: int) -> list[list[Step]]:
    """Wrong ways through the page (a wrong answer, colour, order...): none shows `Success!`."""
    return plans(name, seed)[1]
