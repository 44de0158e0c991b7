"""Templates in Broccoli (`com.flauschcode.broccoli`), as data: AndroidWorld's recipe tasks
(task_evals/single/recipe.py there) under their class names, wording and draws.

Set-up seeds `recipes` in one `sqlite3` call (tasks/apps/broccoli.py); checks pull the
database and read the table as AndroidWorld does: removal integrity for deletes (either
copy for duplicates), addition integrity with fuzzy (0.9) text columns for adds.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from antrap_gym.tasks.apps import broccoli as br
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.binding import DONE, P
from antrap_gym.tasks.checks import Holds, Removed
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target
from antrap_gym.tasks.template import template

recipes = partial(template, apps=(br.PKG,), source="AndroidWorld", kind="action",
                  setup=[br.SeedRecipes(P("rows"))])
TARGETS_GONE = Removed(br.ROWS, {br.KEY: br.OneOf(P("target_ids"))})
DELETE_GOAL = "Delete the following recipes from Broccoli app: {titles}."
DUPLICATE_GOAL = ("Delete all but one of any recipes in the Broccoli app that are exact duplicates, "
                  "ensuring at least one instance of each unique recipe remains")


def _deletion(noise: list[dict], targets: list[dict], **extra: Any) -> dict[str, Any]:
    """Noise seeded first, the targets after it (AndroidWorld's order)."""
    rows = br.with_ids(noise + targets)
    return {"rows": rows, "target_ids": [r[br.KEY] for r in rows[len(noise):]],
            "titles": ", ".join(t["title"] for t in targets), **extra}


def _delete(n: int, n_noise: int):
    def draw(rng: np.random.Generator) -> dict[str, Any]:
        drawn = br.draw_recipes(rng, n + n_noise, distinct="title")
        return _deletion(drawn[:n_noise], drawn[n_noise:])
    return draw


def _delete_solution(p) -> list[Step]:
    by_id = {r[br.KEY]: r for r in p["rows"]}
    ids = list(p["target_ids"])
    steps: list[Step] = [br.open_app()]
    for i, rid in enumerate(ids):
        gone = Holds(br.RecipesGone((rid,)))
        how = br.search_delete_steps if len(p["rows"]) > 10 else br.delete_steps
        steps += how(by_id[rid]["title"], gone, DONE if i == len(ids) - 1 else gone)
    return steps


_DELETES = (  # id, targets, noise, complexity
    ("RecipeDeleteSingleRecipe", 1, 0, 1.0),
    ("RecipeDeleteSingleWithRecipeWithNoise", 1, 29, 2.0),
    ("RecipeDeleteMultipleRecipes", 3, 0, 2.4),
    ("RecipeDeleteMultipleRecipesWithNoise", 3, 29, 3.4),
)
for _id, _n, _noise, _cx in _DELETES:
    globals()[_id] = recipes(
        id=_id, split="train", family="RecipeDelete", complexity=_cx, needs_scroll=_noise > 0,
        goal=DELETE_GOAL,
        params=_delete(_n, _noise), check=TARGETS_GONE, solution=_delete_solution,
        doc=f"AndroidWorld's: {_n} named recipe(s) among {_noise} others; removal integrity "
            "(the targets gone, every other row unchanged, none added).")


def _usable(ingredient: str) -> bool:
    """Whether some recipe the generator makes names `ingredient` in its directions."""
    return any(ingredient in f"{d} {a}".lower() for _, d in br.DISHES for a in br.DIRECTION_ADDITIONS)


def _constraint_draw(rng: np.random.Generator) -> dict[str, Any]:
    """An ingredient; 29 recipes whose directions do not name it, 3 that do. The reference
    draws any ingredient, and one no recipe uses leaves nothing to delete (an untouched list
    passes): such draws are drawn again."""
    ingredient = br._pick(rng, br.COMMON_INGREDIENTS)
    while not _usable(ingredient):
        ingredient = br._pick(rng, br.COMMON_INGREDIENTS)
    noise = br.draw_recipes(rng, 29, keep=lambda r: ingredient not in r["directions"].lower())
    targets = br.draw_recipes(rng, 3, keep=lambda r: ingredient in r["directions"].lower())
    return _deletion(noise, targets, ingredient=ingredient)


RecipeDeleteMultipleRecipesWithConstraint = recipes(
    id="RecipeDeleteMultipleRecipesWithConstraint", split="train", family="RecipeDelete", complexity=4.0,
    needs_scroll=True,
    goal="Delete the recipes from Broccoli app that use {ingredient} in the directions.",
    params=_constraint_draw, check=TARGETS_GONE, solution=_delete_solution,
    doc="AndroidWorld's: the recipes whose directions name an ingredient (lower-cased "
        "substring, as there: 'rice' also matches 'price'), among 29 that do not. The "
        "reference may draw an ingredient no recipe uses (nothing to delete, and an untouched "
        "list passes); here such draws are redrawn.",
    differs={"draw": "A draw whose ingredient no recipe's directions name is redrawn; the "
                     "reference keeps it (nothing to delete: an untouched list passes)."})


# --- duplicates ------------------------------------------------------------------------------


def _duplicates(noise: list[dict], target: dict) -> dict[str, Any]:
    """The two copies are seeded first (AndroidWorld seeds them after the noise): the list
    orders by title, then by id, so the first card with the title is a copy, the one right
    below the card before them (`before`, None when they head the list)."""
    rows = br.with_ids([target, dict(target), *noise])
    order = sorted(rows, key=lambda r: (r["title"], r[br.KEY]))
    at = next(i for i, r in enumerate(order) if r[br.KEY] == 1)
    before = order[at - 1]["title"] if at else None
    return {"rows": rows, "target_ids": [1, 2], "title": target["title"], "before": before,
            "servings": target["servings"], "preparation_time": target["preparationTime"]}


def _variants(rng: np.random.Generator, noise: list[dict], target: dict, total: int,
              same: tuple[str, ...]) -> list[dict]:
    while len(noise) < total:
        v = br.draw_recipes(rng, 1, keep=lambda r: all(r[c] == target[c] for c in same))[0]
        if v != target:
            noise.append(v)
    return noise


def _dup1(rng):
    rows = br.draw_recipes(rng, 6)
    return _duplicates(rows[:-1], rows[-1])


def _dup2(rng):
    noise = br.draw_recipes(rng, 7)
    target = noise.pop()
    return _duplicates(_variants(rng, noise, target, 10, ("title",)), target)


def _dup3(rng):
    noise = br.draw_recipes(rng, 22, keep=lambda r: r["title"] != "Avocado Toast with Egg")
    target = noise.pop()
    noise += br.draw_recipes(rng, 3, keep=lambda r: r["title"] == "Avocado Toast with Egg")
    return _duplicates(_variants(rng, noise, target, 30, ("title", "description")), target)


def _dup_solution(p) -> list[Step]:
    # the first card with the title, found below the card before it: a list scrolled past
    # the copies shows a variant (same title and description) first; and a variant's page,
    # opened by a stray tap, is told from a copy's by the rows at its top
    shown = tuple(Target(text=p[k]) for k in ("servings", "preparation_time") if p.get(k))
    return [br.open_app(), *br.delete_steps(p["title"], DONE, DONE, after=p.get("before"),
                                            details=shown)]


_DUPLICATES = (  # id, draw, complexity, noise
    ("RecipeDeleteDuplicateRecipes", _dup1, 1.0, "5 other recipes"),
    ("RecipeDeleteDuplicateRecipes2", _dup2, 2.4,
     "10 others, 4 of them variants with the same title"),
    ("RecipeDeleteDuplicateRecipes3", _dup3, 3.4,
     "30 others: 3 'Avocado Toast with Egg' at the top, variants with the same title and "
     "description"),
)
for _id, _draw, _cx, _what in _DUPLICATES:
    globals()[_id] = recipes(
        id=_id, split="train", family="RecipeDeleteDuplicates", complexity=_cx,
        needs_scroll=_id.endswith("3"),
        goal=DUPLICATE_GOAL, params=_draw,
        check=br.RemovedOneOf(br.ROWS, P("target_ids")), solution=_dup_solution,
        doc=f"AndroidWorld's: one recipe seeded twice among {_what}; exactly one of the two "
            "copies removed (either), every other row unchanged. Weak spot: the copies are "
            "seeded before the noise, so the first card with their title is always a copy "
            "(the oracle relies on it, finding that card below the one before it).")


# --- adding ----------------------------------------------------------------------------------

ADD_GOAL = "Add the following recipes into the Broccoli app:\n{text}"
MARKOR_GOAL = "Add the recipes from recipes.txt in Markor to the Broccoli recipe app."


def _add(n: int, n_noise: int = 10):
    def draw(rng: np.random.Generator) -> dict[str, Any]:
        targets = br.draw_recipes(rng, n)
        titles = {t["title"] for t in targets}
        noise = br.draw_recipes(rng, n_noise, keep=lambda r: r["title"] not in titles)
        form = "csv" if rng.random() < 0.5 else "text_block"
        return {"rows": br.with_ids(noise), "targets": targets, "form": form,
                "text": br.recipes_text(targets, form)}
    return draw


def _prep_time_draw(rng: np.random.Generator) -> dict[str, Any]:
    prep = br._pick(rng, br.PREP_TIMES)
    targets = br.draw_recipes(rng, 3, keep=lambda r: r["preparationTime"] == prep)
    noise = br.draw_recipes(rng, 40, keep=lambda r: r["preparationTime"] != prep)
    form = "csv" if rng.random() < 0.5 else "text_block"
    listed = targets + noise
    order = rng.permutation(len(listed))
    return {"rows": br.with_ids(noise), "targets": targets, "form": form, "prep_time": prep,
            "text": br.recipes_text([listed[int(i)] for i in order], form)}


def _add_solution(p) -> list[Step]:
    targets = p["targets"]
    steps: list[Step] = [br.open_app()]
    for i, r in enumerate(targets):
        steps += br.add_steps(r, DONE if i == len(targets) - 1 else None)
    return steps


def _markor_solution(p) -> list[Step]:
    """Open recipes.txt in Markor (done once the first recipe is in Broccoli), then add."""
    seen = Holds(br.RecipeSaved(p["targets"][0]))
    return [OpenApp(app="Markor", package=mk.PKG, done=seen),
            Tap(screen=mk.MAIN, target=Target(text="recipes.txt"), done=seen),
            *_add_solution(p)]


_ADD_DOC = ("AndroidWorld's: addition integrity, each recipe a new row whose title, "
            "description, servings, preparation time, source, ingredients and directions match "
            "fuzzily (0.9) and favorite exactly, the count grown by as many, no earlier row "
            "changed. 10 other recipes are there before (none with a target's title: the "
            "reference's filter meant that but lets one through).")
#: the noise recipes' titles (`differs`)
NOISE_TITLES = {"setup": "No noise recipe shares a target's title; the reference's filter "
                         "means to keep them apart but lets one through."}

RecipeAddSingleRecipe = recipes(
    id="RecipeAddSingleRecipe", split="test", family="RecipeAdd",
    complexity=2.4, goal=ADD_GOAL, params=_add(1),
    check=br.added_check(), solution=_add_solution, doc=_ADD_DOC + " The recipe is in the goal.",
    differs=NOISE_TITLES)

RecipeAddMultipleRecipes = recipes(
    id="RecipeAddMultipleRecipes", split="test", family="RecipeAdd",
    complexity=6.0, goal=ADD_GOAL, params=_add(3),
    check=br.added_check(), solution=_add_solution,
    doc=_ADD_DOC + " The three recipes are in the goal, as csv or text blocks.", differs=NOISE_TITLES)

RecipeAddMultipleRecipesFromMarkor = template(
    id="RecipeAddMultipleRecipesFromMarkor", apps=(br.PKG, mk.PKG), source="AndroidWorld",
    kind="action", split="test", family="RecipeAddFromMarkor",
    complexity=6.0, goal=MARKOR_GOAL, params=_add(3),
    setup=[br.SeedRecipes(P("rows")), mk.SeedFiles({"recipes.txt": "{text}"})],
    check=br.added_check(), solution=_markor_solution,
    doc=_ADD_DOC + " The three recipes are in Markor's recipes.txt (the Markor folder holds "
        "only it, as the reference clears it), as csv or text blocks.", differs=NOISE_TITLES)

RecipeAddMultipleRecipesFromMarkor2 = template(
    id="RecipeAddMultipleRecipesFromMarkor2", apps=(br.PKG, mk.PKG), source="AndroidWorld",
    kind="action", split="test", family="RecipeAddFromMarkor", complexity=6.0,
    goal="Add the recipes from recipes.txt in Markor that take {prep_time} to prepare into the "
         "Broccoli recipe app.",
    params=_prep_time_draw,
    setup=[br.SeedRecipes(P("rows")), mk.SeedFiles({"recipes.txt": "{text}"})],
    check=br.added_check(), solution=_markor_solution,
    doc="AndroidWorld's: recipes.txt lists 43 recipes in random order, 3 of them taking the "
        "named preparation time; those 3 must be added (addition integrity, fuzzy 0.9 text "
        "columns). The other 40 are in the database before, as there.")
