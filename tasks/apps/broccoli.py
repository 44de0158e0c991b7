"""Broccoli (`com.flauschcode.broccoli`) for tasks: AndroidWorld's recipe generator as a
seeded draw, seeding the `recipes` table in one `sqlite3` shell call, the table as rows for
the check library (pulled and read with sqlite3, as AndroidWorld reads it), a check for
"exactly one of the duplicates removed", the text forms of recipes (csv / text block) that
goals and Markor files carry, and the app's screens and steps for solutions.

Public for other templates (e.g. one reading recipes from a gallery image): `draw_recipes`,
`SeedRecipes` / `noise_setup`, `recipes_text`, `added_check` and `add_steps`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.checks.base import Check, Either, Holds, NotPrepared
from antrap_gym.tasks.checks.database import DatabaseTable, read_rows
from antrap_gym.tasks.checks.match import Eq, Fuzzy
from antrap_gym.tasks.checks.rows import Added
from antrap_gym.tasks.recipes import Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.flauschcode.broccoli"
DB = f"/data/data/{PKG}/databases/broccoli"
TABLE = "recipes"
KEY = "recipeId"
MAIN = ".MainActivity"
DETAILS = ".recipe.details.RecipeDetailsActivity"
EDITOR = ".recipe.crud.CreateAndEditRecipeActivity"
DELETE_DIALOG = DETAILS + "|Delete recipe?"
#: AndroidWorld's Recipe row: every column but the key, in its order
FIELDS = ("title", "description", "servings", "preparationTime", "source", "ingredients",
          "directions", "favorite", "imageName")
#: what the reference's text forms list of a recipe
TEXT_FIELDS = ("title", "description", "servings", "preparationTime", "ingredients", "directions")
#: the columns an add check compares, all free text but `favorite`
COMPARED = ("title", "description", "servings", "preparationTime", "source", "ingredients",
            "directions")
#: the editor's fields: column -> resource id
EDITOR_IDS = {"title": "new_title", "description": "new_description", "source": "new_source",
              "servings": "new_servings", "preparationTime": "new_preparation_time",
              "ingredients": "new_ingredients", "directions": "new_directions"}
ROWS = DatabaseTable(DB, TABLE, columns=(KEY, *FIELDS), key=KEY)

# --- AndroidWorld's recipe pools (task_evals/single/recipe.py there) --------------------------
DESCRIPTIONS = (
    "A quick and easy meal, perfect for busy weekdays.",
    "A delicious and healthy choice for any time of the day.",
    "An ideal recipe for experimenting with different flavors and ingredients.",
)
DIRECTION_ADDITIONS = (
    "Try adding a pinch of your favorite spices for extra flavor.",
    "Feel free to substitute with ingredients you have on hand.",
    "Garnish with fresh herbs for a more vibrant taste.",
)
INGREDIENT_NOTES = (
    "see directions", "as per recipe", "varies", "to preference", "quantities to taste",
    "as needed", "optional ingredients", "n/a", "various amounts", "adjustable", "to your liking",
    "flexible ingredients", "per individual taste", "as desired", "subject to change",
)
SERVINGS = ("1 serving", "2 servings", "3-4 servings", "6 servings", "8 servings")
PREP_TIMES = ("10 mins", "20 mins", "30 mins", "45 mins", "1 hrs", "2 hrs", "3 hrs", "4 hrs")
#: (title, directions)
DISHES: tuple[tuple[str, str], ...] = (
    ("Spicy Tuna Wraps", "Mix canned tuna with mayo and sriracha. Spread on tortillas, add "
     "lettuce and cucumber slices, roll up."),
    ("Avocado Toast with Egg", "Toast bread, top with mashed avocado, a fried egg, salt, pepper, "
     "and chili flakes."),
    ("Greek Salad Pita Pockets", "Fill pita pockets with lettuce, cucumber, tomato, feta, olives, "
     "and Greek dressing."),
    ("Quick Fried Rice", "Sauté cooked rice with vegetables, add soy sauce and scrambled eggs. "
     "Toss until hot."),
    ("Pesto Pasta with Peas", "Cook pasta, stir in pesto sauce and cooked peas. Add Parmesan "
     "cheese before serving."),
    ("BBQ Chicken Quesadillas", "Mix shredded cooked chicken with BBQ sauce. Place on tortillas "
     "with cheese, fold and cook until crispy."),
    ("Tomato Basil Bruschetta", "Top sliced baguette with a mix of chopped tomatoes, basil, "
     "garlic, olive oil, salt, and pepper."),
    ("Lemon Garlic Tilapia", "Sauté tilapia in butter, add lemon juice and garlic. Serve with "
     "steamed vegetables."),
    ("Turkey and Cheese Panini", "Layer turkey and cheese on bread, grill in a panini press "
     "until golden."),
    ("Veggie and Hummus Sandwich", "Spread hummus on bread, add cucumber, bell pepper, carrot, "
     "and lettuce."),
    ("Mango Chicken Curry", "Cook chicken pieces in a pan, add onions, garlic, and ginger. Stir "
     "in curry powder, coconut milk, and mango pieces. Simmer until chicken is cooked."),
    ("Beef Stir Fry", "Stir-fry beef slices with broccoli, bell peppers, and onions in soy sauce "
     "and garlic. Serve over rice or noodles."),
    ("Shrimp Avocado Salad", "Mix cooked shrimp with avocado, tomatoes, cucumber, and onion. "
     "Dress with lime juice, olive oil, salt, and pepper."),
    ("Spinach and Feta Stuffed Chicken", "Stuff chicken breasts with a mixture of spinach, feta, "
     "garlic, and herbs. Bake until chicken is cooked through."),
    ("Zucchini Noodles with Pesto", "Spiralize zucchini into noodles, sauté with garlic, then mix "
     "with pesto sauce. Top with grated Parmesan cheese."),
    ('Cauliflower Fried "Rice"', "Pulse cauliflower in a food processor until it resembles rice. "
     "Sauté with vegetables, soy sauce, and add scrambled eggs."),
    ("Sweet Potato and Black Bean Tacos", "Roast sweet potato cubes, mix with black beans, and "
     "use as filling for tacos. Top with avocado and cilantro lime sauce."),
    ("Salmon with Dill Sauce", "Bake salmon fillets and serve with a sauce made from Greek "
     "yogurt, dill, lemon juice, and garlic."),
    ("Quinoa Salad with Vegetables", "Mix cooked quinoa with diced vegetables, feta cheese, and a "
     "lemon olive oil dressing."),
    ("Chickpea Vegetable Soup", "Sauté onions, carrots, and celery, add broth, canned tomatoes, "
     "and chickpeas. Simmer with spinach and seasonings."),
    ("Chicken Caesar Salad Wrap", "Toss chopped romaine lettuce with Caesar dressing, grilled "
     "chicken strips, and Parmesan cheese. Wrap in a large tortilla."),
    ("Vegetarian Chili", "Cook onions, garlic, bell peppers, and carrots. Add canned tomatoes, "
     "kidney beans, black beans, corn, and chili seasoning. Simmer until vegetables are tender."),
    ("Pan-Seared Salmon with Quinoa", "Pan-sear salmon fillets until crispy. Serve over cooked "
     "quinoa with a side of steamed asparagus."),
    ("Caprese Salad Skewers", "Thread cherry tomatoes, basil leaves, and mozzarella balls onto "
     "skewers. Drizzle with balsamic glaze."),
    ("Chicken Alfredo Pasta", "Cook fettuccine pasta, toss with Alfredo sauce and grilled chicken "
     "strips. Serve with a sprinkle of Parmesan cheese."),
    ("Stuffed Bell Peppers", "Mix cooked quinoa, black beans, corn, tomato sauce, and spices. "
     "Stuff into bell peppers and bake until tender."),
    ("Eggplant Parmesan", "Slice eggplant, bread, and fry. Layer in a baking dish with marinara "
     "sauce and mozzarella cheese. Bake until bubbly."),
    ("Thai Peanut Noodle Salad", "Toss cooked noodles with a Thai peanut sauce, sliced red bell "
     "peppers, cabbage, carrots, and cilantro."),
    ("Butternut Squash Soup", "Sauté onions and garlic, add cubed butternut squash and broth. "
     "Puree until smooth and season with nutmeg, salt, and pepper."),
    ("Baked Cod with Lemon and Dill", "Place cod fillets in a baking dish, season with lemon "
     "juice, dill, salt, and pepper. Bake until fish flakes easily."),
    ("Vegetable Stir Fry with Tofu", "Stir-fry tofu cubes until golden, add assorted vegetables "
     "and a stir-fry sauce. Serve over rice or noodles."),
    ("Classic Margherita Pizza", "Spread pizza dough with tomato sauce, top with slices of "
     "mozzarella cheese and fresh basil leaves. Bake until crust is golden."),
    ("Raspberry Almond Smoothie", "Blend together raspberries, almond milk, banana, and a scoop "
     "of almond butter until smooth."),
    ("Moroccan Chickpea Stew", "Sauté onions, garlic, carrots, and spices. Add canned chickpeas, "
     "diced tomatoes, and vegetable broth. Simmer until flavors meld."),
    ("Kale and Quinoa Salad", "Toss chopped kale, cooked quinoa, dried cranberries, sliced "
     "almonds, and feta cheese with a lemon vinaigrette."),
    ("Grilled Cheese with Tomato and Basil", "Butter bread slices, layer with cheese, tomato "
     "slices, and basil. Grill until bread is toasted and cheese is melted."),
    ("Sausage and Peppers Skillet", "Sauté sliced sausage, bell peppers, and onions until "
     "browned. Serve with mustard or on a hoagie roll."),
    ("Lentil Soup", "Cook onions, carrots, celery, garlic, and lentils in vegetable broth until "
     "lentils are tender. Season with thyme and bay leaves."),
    ("Garlic Butter Shrimp", "Sauté shrimp in butter and minced garlic until pink. Sprinkle with "
     "parsley and serve with lemon wedges."),
)
#: the reference's ingredient list for the "uses X in the directions" task (its order, its
#: repeats), common ones first, then exotic ones no dish uses
COMMON_INGREDIENTS = (
    "tuna", "mayonnaise", "sriracha", "tortillas", "lettuce", "cucumber", "bread", "avocado",
    "eggs", "salt", "pepper", "chili flakes", "pita bread", "tomatoes", "feta cheese", "olives",
    "Greek dressing", "rice", "vegetables", "soy sauce", "pesto sauce", "peas", "Parmesan cheese",
    "chicken", "BBQ sauce", "cheese", "baguette", "basil", "garlic", "olive oil", "tilapia",
    "butter", "lemon juice", "turkey", "hummus", "bell peppers", "carrots", "mango",
    "curry powder", "coconut milk", "beef", "broccoli", "onions", "shrimp", "spinach", "herbs",
    "zucchini", "cauliflower", "sweet potato", "black beans", "cilantro", "Greek yogurt", "dill",
    "quinoa", "chickpeas", "romaine lettuce", "Caesar dressing", "Parmesan", "kidney beans",
    "corn", "chili seasoning", "asparagus", "mozzarella balls", "balsamic glaze", "fettuccine",
    "Alfredo sauce", "quinoa", "tomato sauce", "eggplant", "marinara sauce", "mozzarella cheese",
    "noodles", "Thai peanut sauce", "red bell peppers", "cabbage", "butternut squash", "nutmeg",
    "tofu", "pizza dough", "mozzarella cheese", "raspberries", "almond milk", "banana",
    "almond butter", "lentils", "thyme", "bay leaves", "parsley", "lemon wedges",
    "ghee", "cardamom", "fenugreek", "amchur (dry mango powder)", "rose water",
    "pomegranate molasses", "kaffir lime leaves", "galangal", "lemongrass", "furikake",
    "black garlic", "hemp seeds", "chia seeds", "açai berry", "maca powder", "spirulina",
    "cassava flour", "arrowroot powder", "seaweed", "escargot", "venison", "quail eggs",
    "duck fat", "morel mushrooms", "chanterelle mushrooms", "black truffle", "edible flowers",
    "salsify", "rutabaga", "celeriac", "finger limes",
)

#: one recipe: the AndroidWorld Recipe row's columns but the key
RecipeRow = dict


def _pick(rng: np.random.Generator, pool: Sequence[Any]) -> Any:
    return pool[int(rng.integers(len(pool)))]


def draw_recipe(rng: np.random.Generator) -> RecipeRow:
    """One random recipe as AndroidWorld draws it: a dish, one of three descriptions, a
    servings and a preparation time, an ingredients note and one of three closing tips."""
    title, directions = _pick(rng, DISHES)
    return {"title": title, "description": _pick(rng, DESCRIPTIONS),
            "servings": _pick(rng, SERVINGS), "preparationTime": _pick(rng, PREP_TIMES),
            "source": "", "ingredients": _pick(rng, INGREDIENT_NOTES),
            "directions": f"{directions} {_pick(rng, DIRECTION_ADDITIONS)}",
            "favorite": 0, "imageName": ""}


def draw_recipes(rng: np.random.Generator, n: int,
                 keep: Callable[[RecipeRow], bool] | None = None,
                 distinct: str = "row") -> list[RecipeRow]:
    """n random recipes passing `keep`, none equal to another (`distinct="row"`, the
    reference's `get_random_items`) or no two with one title (`distinct="title"`)."""
    out: list[RecipeRow] = []
    for _ in range(20_000):
        if len(out) >= n:
            return out
        r = draw_recipe(rng)
        if keep is not None and not keep(r):
            continue
        if distinct == "title" and any(o["title"] == r["title"] for o in out):
            continue
        if r not in out:
            out.append(r)
    if len(out) < n:
        raise ValueError(f"cannot draw {n} recipes (got {len(out)})")
    return out


def with_ids(rows: Sequence[RecipeRow]) -> list[RecipeRow]:
    """The rows as seeded: recipeId 1, 2, ... in order."""
    return [{KEY: i + 1, **r} for i, r in enumerate(rows)]


# --- text forms (AndroidWorld's get_text_representation_of_rows) -----------------------------


def recipes_text(rows: Sequence[RecipeRow], form: str, wrap_width: int | None = None) -> str:
    """The recipes as `csv` (a `|` header line, one line each) or `text_block` ("Recipe:
    <title>" then " field: value" lines, blocks apart by a blank line)."""
    if form == "csv":
        return "\n".join(["|".join(TEXT_FIELDS),
                          *("|".join(str(r.get(f, "")) for f in TEXT_FIELDS) for r in rows)])
    if form != "text_block":
        raise ValueError(f"unknown text form {form!r}")
    import textwrap

    blocks = []
    for r in rows:
        lines = [f"Recipe: {r['title']}"]
        for f in TEXT_FIELDS[1:]:
            value = str(r.get(f, ""))
            if wrap_width is not None:
                value = "\n".join(textwrap.wrap(value, wrap_width))
            lines.append(f" {f}: {value}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


# --- the shell side -----------------------------------------------------------------------------


def _sql_value(v: Any) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (int, float)):
        return str(v)
    if v is None:
        return "NULL"
    return "'" + str(v).replace("'", "''") + "'"


def read_recipes(device: Device) -> list[dict[str, Any]]:
    """Every row of `recipes` (pulled database), by recipeId."""
    return read_rows(device, DB, ROWS.sql())


def replace_recipes(device: Device, rows: Sequence[dict[str, Any]]) -> None:
    """Force-stop Broccoli and make `recipes` hold exactly `rows` (with their recipeId,
    else numbered from 1): one `sqlite3` call whatever the number of rows."""
    stmts = ["DELETE FROM recipes_categories", "DELETE FROM recipes",
             "DELETE FROM sqlite_sequence WHERE name = 'recipes'"]
    for i, r in enumerate(rows):
        cols = (KEY, *FIELDS)
        vals = [r.get(KEY, i + 1), *(r.get(c, 0 if c == "favorite" else "") for c in FIELDS)]
        stmts.append(f"INSERT INTO recipes ({', '.join(cols)}) VALUES"
                     f" ({', '.join(_sql_value(v) for v in vals)})")
    sh(device, f"am force-stop {PKG} && sqlite3 {DB} {q('; '.join(stmts) + ';')}")


@dataclasses.dataclass
class SeedRecipes(Recipe):
    """`recipes` holds exactly `rows` (recipeId 1, 2, ... in order); tear-down puts back
    the rows that were there before."""

    rows: Any

    def save(self, device: Device) -> Any:
        return read_recipes(device)

    def run(self, device: Device) -> None:
        replace_recipes(device, list(self.rows or []))

    def restore(self, device: Device, saved: Any) -> None:
        replace_recipes(device, list(saved or []))


def noise_setup(key: str = "rows") -> SeedRecipes:
    """The set-up recipe seeding the parameter `key` (a list of recipe rows)."""
    from antrap_gym.tasks.binding import P

    return SeedRecipes(P(key))


def state(device: Device) -> list[tuple]:
    """What the contract compares before set-up and after tear-down: every recipe row."""
    return [tuple(r.get(c) for c in (KEY, *FIELDS)) for r in read_recipes(device)]


# --- checks ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class OneOf:
    """A matcher: the value is one of `values`."""

    values: Any

    def __call__(self, v: Any) -> bool:
        return v in tuple(self.values)


def added_pattern(r: RecipeRow, threshold: float = 0.9) -> dict[str, Any]:
    """AndroidWorld's addition match of one recipe: the free-text columns fuzzy (0.9),
    `favorite` exact."""
    return {**{c: Fuzzy(str(r.get(c, "")), threshold) for c in COMPARED},
            "favorite": Eq(int(r.get("favorite", 0)))}


def added_check(key: str = "targets") -> Added:
    """"These recipes were added": each recipe of the parameter `key` is a new row (fuzzy
    columns), the count grew by as many, no earlier row changed."""
    from antrap_gym.tasks.binding import F

    return Added(ROWS, F(lambda p: tuple(added_pattern(r) for r in p[key])))


@dataclasses.dataclass
class RemovedOneOf(Check):
    """Exactly one of the rows keyed `ids` is gone (either), every other row is there
    unchanged, none added: AndroidWorld's duplicate removal."""

    source: Any
    ids: Any
    before: list[dict[str, Any]] | None = dataclasses.field(default=None, init=False, repr=False)

    def prepare(self, device: Device) -> None:
        self.before = self.source.rows(device)

    def score(self, device: Device, answer: str | None) -> float:
        if self.before is None:
            raise NotPrepared("RemovedOneOf: set up the task first (prepare)")
        key, ids = self.source.key, tuple(self.ids)
        now = {r.get(key): r for r in self.source.rows(device)}
        if len(now) != len(self.before) - 1:
            return 0.0
        gone = [r for r in self.before if r.get(key) not in now]
        if len(gone) != 1 or gone[0].get(key) not in ids:
            return 0.0
        return float(all(now[r.get(key)] == r for r in self.before if r.get(key) in now))


@dataclasses.dataclass(frozen=True)
class RecipesGone(Check):
    """No row keyed by one of `ids` is left (a step's `done`; stateless)."""

    ids: Any

    def score(self, device: Device, answer: str | None) -> float:
        ids = set(self.ids)
        return float(not any(r.get(KEY) in ids for r in read_recipes(device)))


@dataclasses.dataclass(frozen=True)
class RecipeSaved(Check):
    """Some row holds this recipe: its compared columns, spacing aside (a step's `done`;
    stateless)."""

    recipe: Any

    def score(self, device: Device, answer: str | None) -> float:
        def norm(r: dict) -> tuple:
            return tuple(" ".join(str(r.get(c) or "").split()) for c in COMPARED)

        want = norm(dict(self.recipe))
        return float(any(norm(r) == want for r in read_recipes(device)))


# --- solution steps -------------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Broccoli", package=PKG)


def card(title: str, after: str | None = None) -> Target:
    """A recipe's card in the list (`after`: the first one below the card titled so)."""
    return Target(rid="card_text_view_title", text=title, after=after)


def showing(title: str) -> Target:
    """A recipe's details headed with `title` (not another recipe's)."""
    return Target(rid="toolbar_title", text=title)


def field(col: str) -> Target:
    return Target(rid=EDITOR_IDS[col], cls="EditText")


def delete_steps(title: str, gone: Any, last: Any, after: str | None = None,
                 details: tuple[Target, ...] = ()) -> list[Step]:
    """Open the recipe's card (`after`: the first below the card titled so), Delete,
    confirm; each done once `gone` holds (`last`: the confirmation's done, DONE for the
    task's last deletion). `details`: what else its page must show (a recipe among others
    with its title and description)."""
    return [Tap(screen=MAIN, target=card(title, after), done=gone),
            Tap(screen=DETAILS, target=Target(desc="Delete"), requires=(showing(title), *details),
                done=gone),
            Tap(screen=DELETE_DIALOG, target=Target(text="Delete"), done=last)]


def search_delete_steps(title: str, gone: Any, last: Any) -> list[Step]:
    """As `delete_steps`, finding the card through the toolbar search (a long list)."""
    from antrap_gym.tasks.checks.screen import ElementShows

    searching = Holds(ElementShows(({"resource_id": f"{PKG}:id/search_src_text"},)))
    return [Tap(screen=MAIN, target=Target(desc="Search"), done=searching),
            TypeText(screen=MAIN, target=Target(rid="search_src_text", cls="EditText"), text=title,
                     requires=Target(rid="search_src_text"),
                     done=Either(gone, Holds(ElementShows(({"resource_id": Eq(f"{PKG}:id/search_src_text"),
                                                             "text": Eq(title)},))))),
            *delete_steps(title, gone, last)]


def add_steps(r: RecipeRow, last: Any) -> list[Step]:
    """The editor filled with one recipe and saved: Add recipe, every field (an empty one
    already empty costs nothing; one holding stray text is cleared before Save), Save
    (`last`: the Save's done, DONE for the task's last recipe)."""
    made = Holds(RecipeSaved(dict(r)))
    steps: list[Step] = [Tap(screen=MAIN, target=Target(desc="Add recipe"), done=made)]
    steps += [TypeText(screen=EDITOR, target=field(c), text=str(r.get(c) or ""))
              for c in EDITOR_IDS]
    steps.append(Tap(screen=EDITOR, target=Target(text="Save"), done=last if last is not None else made))
    return steps

