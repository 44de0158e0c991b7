"""Broccoli on the simulated phone: the recipe list, details and editor driven through the
device's public interface (taps, typing, the element list), read back with `sqlite3` in
the shell and from a pulled copy of the database, as a task would on a real phone; and
the adapter's draws and text forms the recipe templates use."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import broccoli as br
from tests.screen import find, tap, type_into

PKG = "com.flauschcode.broccoli"
DB = f"/data/data/{PKG}/databases/broccoli"
ROWS = [
    {"title": "Lentil Soup", "description": "Warm and filling.", "servings": "2 servings",
     "preparationTime": "45 mins", "source": "grandma", "ingredients": "lentils",
     "directions": "Simmer.", "favorite": 0, "imageName": ""},
    {"title": "Beef Stir Fry", "description": "Fast.", "servings": "1 serving",
     "preparationTime": "10 mins", "source": "", "ingredients": "beef", "directions": "Fry.",
     "favorite": 0, "imageName": ""},
]


def shell_rows(dev: SimDevice, sql: str) -> list[str]:
    res = dev.shell(f"sqlite3 {DB} \"{sql}\"")
    assert res.exit_code == 0, res.stderr
    return [line for line in res.stdout.splitlines() if line]


def titles_shown(dev: SimDevice) -> list[str]:
    return [e.text for e in dev.ui_elements()
            if (e.resource_name or "").endswith("card_text_view_title")]


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    br.replace_recipes(d, br.with_ids(ROWS))
    d.launch(PKG)
    return d


def test_list_shows_cards_by_title_with_fab(dev):
    assert titles_shown(dev) == ["Beef Stir Fry", "Lentil Soup"]
    assert find(dev, rid="card_text_view_description", text="Warm and filling.") is not None
    assert find(dev, rid="card_text_view_source", text="grandma") is not None
    assert find(dev, desc="Add recipe") is not None


def test_empty_list_says_so():
    d = SimDevice()
    d.launch(PKG)
    assert any("No recipes yet" in (e.text or "") for e in d.ui_elements())


def test_search_filters_by_title(dev):
    tap(dev, desc="Search")
    type_into(dev, "search_src_text", "lent")
    assert titles_shown(dev) == ["Lentil Soup"]
    dev.key("back")  # the keyboard
    dev.key("back")  # the search
    assert titles_shown(dev) == ["Beef Stir Fry", "Lentil Soup"]


def test_details_show_every_field_and_star_writes(dev):
    tap(dev, text="Lentil Soup")
    for text in ("Warm and filling.", "2 servings", "45 mins", "grandma", "lentils", "Simmer."):
        assert find(dev, text=text) is not None, text
    tap(dev, desc="Add to favorites")
    assert shell_rows(dev, "SELECT favorite FROM recipes WHERE title = 'Lentil Soup'") == ["1"]
    assert find(dev, desc="Remove from favorites").is_checked


def test_delete_asks_then_removes_the_row(dev):
    tap(dev, text="Beef Stir Fry")
    tap(dev, desc="Delete")
    assert find(dev, text="Delete recipe?") is not None
    tap(dev, text="Cancel")
    assert len(shell_rows(dev, "SELECT recipeId FROM recipes")) == 2
    tap(dev, desc="Delete")
    tap(dev, text="Delete")
    assert shell_rows(dev, "SELECT title FROM recipes") == ["Lentil Soup"]
    assert titles_shown(dev) == ["Lentil Soup"]


def test_editor_saves_a_new_recipe_read_from_a_pulled_file(dev, tmp_path):
    tap(dev, desc="Add recipe")
    values = {"new_title": "Quick Fried Rice", "new_description": "Leftovers.",
              "new_servings": "3-4 servings", "new_preparation_time": "20 mins",
              "new_ingredients": "rice, eggs", "new_directions": "Sauté rice. Add eggs."}
    for rid, text in values.items():
        type_into(dev, rid, text)
    tap(dev, text="Save")
    path = tmp_path / "broccoli"
    path.write_bytes(dev.pull(DB))
    con = sqlite3.connect(path)
    row = con.execute("SELECT title, description, servings, preparationTime, source, ingredients,"
                      " directions, favorite FROM recipes WHERE title = 'Quick Fried Rice'").fetchone()
    con.close()
    assert row == ("Quick Fried Rice", "Leftovers.", "3-4 servings", "20 mins", "", "rice, eggs",
                   "Sauté rice. Add eggs.", 0)
    assert "Quick Fried Rice" in titles_shown(dev)


def test_editor_refuses_no_title_and_asks_before_discarding(dev):
    tap(dev, desc="Add recipe")
    tap(dev, text="Save")
    assert dev.foreground()[1].endswith("CreateAndEditRecipeActivity")
    type_into(dev, "new_description", "no title yet")
    dev.key("back")  # the keyboard
    dev.key("back")
    assert find(dev, text="Discard changes?") is not None
    tap(dev, text="Discard")
    assert len(shell_rows(dev, "SELECT recipeId FROM recipes")) == 2


def test_edit_opens_the_form_filled_and_saves_in_place(dev):
    tap(dev, text="Beef Stir Fry")
    tap(dev, desc="Edit")
    assert find(dev, rid="new_title").text == "Beef Stir Fry"
    assert find(dev, rid="new_preparation_time").text == "10 mins"
    tap(dev, text="Save")
    assert shell_rows(dev, "SELECT recipeId, servings FROM recipes ORDER BY recipeId") == [
        "1|2 servings", "2|1 serving"]


def test_long_list_scrolls_and_culls():
    d = SimDevice()
    rows = br.draw_recipes(np.random.default_rng(3), 30, distinct="title")
    br.replace_recipes(d, br.with_ids(rows))
    d.launch(PKG)
    first = titles_shown(d)
    assert 0 < len(first) < 30
    lst = next(e for e in d.ui_elements() if e.is_scrollable)
    b = lst.bbox_pixels
    x = (b.x_min + b.x_max) // 2
    d.swipe(x, b.y_max - 100, x, b.y_min + 100)
    assert titles_shown(d) != first
    assert sorted(r["title"] for r in rows)[-1] not in first


def test_seed_is_one_shell_call_and_restores():
    d = SimDevice()
    calls = []
    shell = d.shell

    def counting(cmd):
        calls.append(cmd)
        return shell(cmd)

    d.shell = counting  # type: ignore[method-assign]
    br.replace_recipes(d, br.with_ids(br.draw_recipes(np.random.default_rng(0), 30)))
    assert len(calls) == 1
    d.shell = shell  # type: ignore[method-assign]
    assert len(br.read_recipes(d)) == 30
    assert br.read_recipes(d)[0]["recipeId"] == 1


def test_draws_follow_the_reference_pools():
    rng = np.random.default_rng(7)
    rows = br.draw_recipes(rng, 10, distinct="title")
    assert len({r["title"] for r in rows}) == 10
    for r in rows:
        assert r["servings"] in br.SERVINGS and r["preparationTime"] in br.PREP_TIMES
        assert r["description"] in br.DESCRIPTIONS and r["ingredients"] in br.INGREDIENT_NOTES
        assert any(r["directions"].endswith(a) for a in br.DIRECTION_ADDITIONS)
    assert br.draw_recipes(np.random.default_rng(7), 10, distinct="title") == rows


def test_text_forms():
    r = dict(ROWS[1])
    csv = br.recipes_text([r], "csv")
    assert csv.splitlines() == ["title|description|servings|preparationTime|ingredients|directions",
                                "Beef Stir Fry|Fast.|1 serving|10 mins|beef|Fry."]
    block = br.recipes_text([r, r], "text_block")
    assert block.startswith("Recipe: Beef Stir Fry\n description: Fast.\n servings: 1 serving\n")
    assert block.count("Recipe: ") == 2 and "\n\nRecipe: " in block
