"""Broccoli's screens, laid out like Broccoli 1.x: the recipe list (cards with title,
description and source; a toolbar search filtering by title; the "Add recipe" FAB), a
recipe's details (favourite star, Edit, Delete with a confirmation) and the editor
(Title, Description, Source, Servings, Preparation time, Ingredients, Directions; Save
in the toolbar). Resource ids are the app's (`card_text_view_title`, `new_title`, ...).

Every screen reads the database once per build and writes it on Save / Delete / star;
activity state holds only plain values (a recipe id, the form's text, the query).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.broccoli.store import PKG, TEXT_COLUMNS, BroccoliDb, Recipe
from antrap_gym.device.sim.toolkit.builder import BarAction
from antrap_gym.device.sim.toolkit.forms import NextFieldOnEnter, UnsavedChangesGuard
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog
from antrap_gym.device.sim.toolkit.record import RecordDetail

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

RID = PKG + ":id/"
DELETE_TITLE = "Delete recipe?"
DELETE_MESSAGE = "Do you really want to delete this recipe?"
#: the editor's fields: (column, hint, resource id, multi-line)
FORM: tuple[tuple[str, str, str, bool], ...] = (
    ("title", "Title", "new_title", False),
    ("description", "Description", "new_description", False),
    ("source", "Source", "new_source", False),
    ("servings", "Servings", "new_servings", False),
    ("preparationTime", "Preparation time", "new_preparation_time", False),
    ("ingredients", "Ingredients", "new_ingredients", True),
    ("directions", "Directions", "new_directions", True),
)
assert tuple(f[0] for f in FORM) == TEXT_COLUMNS


def db(phone: PhoneContext) -> BroccoliDb:
    return BroccoliDb.of(phone)


class MainActivity(Activity):
    """The recipe list: one card per recipe, by title; search by title; Add recipe."""

    package = PKG
    name = "com.flauschcode.broccoli.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.searching = False

    def title(self, phone: PhoneContext) -> str:
        return "Recipes"

    def visible(self, phone: PhoneContext) -> list[Recipe]:
        query = self.fields.get("search", "").strip().casefold()
        return [r for r in db(phone).all() if query in r.title.casefold()]

    def build(self, ui: UI, phone: PhoneContext) -> None:
        # the search icon expands into the field (a SearchView): no icon while it is open
        ui.toolbar("Recipes", rid=RID + "toolbar", actions=[] if self.searching else
                   [("search", "Search", lambda: self.toggle_search(phone))])
        if self.searching:
            ui.search("search", "Search recipes", rid=RID + "search_src_text")
        recipes = self.visible(phone)
        if not recipes:
            query = self.fields.get("search", "").strip()
            ui.empty(f'No recipes found for "{query}"' if query else
                     "No recipes yet\n\nTap + to add your first recipe")
        else:
            with ui.scroll("list", rid=RID + "recycler_view"):
                for r in recipes:
                    self.card(ui, phone, r)
                ui.spacer(88)  # room under the FAB
        ui.fab("add", "Add recipe", lambda: phone.start_activity(EditorActivity()),
               rid=RID + "fab")

    def card(self, ui: UI, phone: PhoneContext, r: Recipe) -> None:
        """A recipe card: the image placeholder, title, description and source."""
        top = ui.y + ui.dp(8)
        rect = (ui.rect[0] + ui.dp(8), top, ui.rect[2] - ui.dp(8), top + ui.dp(120))
        ui.set_y(rect[3])
        if ui.culled(rect):  # scrolled out of view: keep the layout, skip the views
            return
        card = ui.mk("row", rect, rid=RID + "card",
                     on_click=lambda i=r.recipeId: phone.start_activity(DetailsActivity(i)))
        side = rect[3] - rect[1]
        ui.mk("image", (rect[0], rect[1], rect[0] + side, rect[3]), card, icon="file",
              rid=RID + "card_image")
        x0, x1 = rect[0] + side + ui.dp(8), rect[2] - ui.dp(8)
        y = rect[1] + ui.dp(10)
        ui.mk("text", (x0, y, x1, y + ui.dp(34)), card, text=r.title, style="row_title",
              rid=RID + "card_text_view_title")
        y += ui.dp(34)
        if r.description:
            ui.mk("text", (x0, y, x1, y + ui.dp(44)), card, text=r.description, style="summary",
                  rid=RID + "card_text_view_description")
        y += ui.dp(44)
        if r.source:
            ui.mk("text", (x0, y, x1, y + ui.dp(22)), card, text=r.source, style="caption",
                  rid=RID + "card_text_view_source")

    def toggle_search(self, phone: PhoneContext) -> None:
        self.searching = not self.searching
        if not self.searching:
            self.set_field("search", "")
            self.focus = None
        self.scroll["list"] = 0

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        if field == "search":
            self.scroll["list"] = 0

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        self.focus = None  # the search action hides the keyboard

    def on_back(self, phone: PhoneContext) -> bool:
        if self.searching:
            self.searching = False
            self.set_field("search", "")
            self.focus = None
            self.scroll["list"] = 0
            return True
        return False


class DetailsActivity(RecordDetail, Activity):
    """One recipe: title in the toolbar, favourite star, Edit, Delete; then its fields."""

    package = PKG
    name = "com.flauschcode.broccoli.recipe.details.RecipeDetailsActivity"
    record_noun, untitled, toolbar_rid = "recipe", "Recipe", RID + "toolbar"

    def record(self, phone: PhoneContext) -> Recipe | None:
        return db(phone).get(self.record_id)

    def record_title(self, record: Recipe) -> str:
        return record.title

    def build_record(self, ui: UI, phone: PhoneContext, r: Recipe) -> None:
        fav = "Remove from favorites" if r.favorite else "Add to favorites"
        ui.toolbar(r.title, back=True, rid=RID + "toolbar", actions=[
            BarAction("star" if r.favorite else "star_border", fav,
                      lambda: self.star(phone, not r.favorite), checked=r.favorite,
                      rid=RID + "action_favorite"),
            BarAction("edit", "Edit", lambda: phone.start_activity(EditorActivity.editing(phone, r)),
                      rid=RID + "action_edit"),
            BarAction("delete", "Delete", lambda: self.ask_delete(phone), rid=RID + "action_delete"),
        ])
        with ui.scroll("details", rid=RID + "details_scroll"):
            if r.description:
                ui.text(r.description, rid=RID + "details_description")
            for label, value, key in (("Servings", r.servings, "servings"),
                                      ("Preparation time", r.preparationTime, "preparation_time"),
                                      ("Source", r.source, "source")):
                if value:
                    ui.row(value, label, rid=RID + "details_" + key)
            ui.header("Ingredients")
            ui.text(r.ingredients or "-", rid=RID + "details_ingredients")
            ui.header("Directions")
            ui.text(r.directions or "-", rid=RID + "details_directions")

    def star(self, phone: PhoneContext, on: bool) -> None:
        db(phone).set_favorite(self.record_id, on)

    def ask_delete(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog(DELETE_TITLE, DELETE_MESSAGE, buttons=[
            Choice("Cancel", "noop"), Choice("Delete", "do_delete", destructive=True)]))

    def do_delete(self, phone: PhoneContext) -> None:
        db(phone).remove(self.record_id)
        phone.finish_activity(self)
        phone.toast("Recipe deleted")


class EditorActivity(NextFieldOnEnter, UnsavedChangesGuard, Activity):
    """New or edit a recipe: the form's fields, Save in the toolbar."""

    unsaved_message = "Your changes will be lost."
    field_order = TEXT_COLUMNS

    package = PKG
    name = "com.flauschcode.broccoli.recipe.crud.CreateAndEditRecipeActivity"

    def __init__(self, recipe_id: int | None = None) -> None:
        super().__init__()
        self.recipe_id = recipe_id

    @classmethod
    def editing(cls, phone: PhoneContext, r: Recipe) -> EditorActivity:
        act = cls(r.recipeId)
        for col in TEXT_COLUMNS:
            act.set_field(col, getattr(r, col))
        return act

    def stored(self, phone: PhoneContext) -> dict[str, str]:
        r = db(phone).get(self.recipe_id) if self.recipe_id is not None else None
        return {c: (getattr(r, c) if r else "") for c in TEXT_COLUMNS}

    def values(self) -> dict[str, str]:
        return {c: self.fields.get(c, "").strip() for c in TEXT_COLUMNS}

    def title(self, phone: PhoneContext) -> str:
        return "New recipe" if self.recipe_id is None else "Edit recipe"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.title(phone), back=lambda: self.close(phone), rid=RID + "toolbar",
                   button=("Save", lambda: self.save(phone)))
        with ui.scroll("form", rid=RID + "form_scroll"):
            for col, hint, rid, multi in FORM:
                ui.edit(col, hint, multiline=multi, height=ui.dp(120) if multi else None,
                        rid=RID + rid)

    def save(self, phone: PhoneContext) -> None:
        v = self.values()
        if not v["title"]:
            phone.toast("Please enter a title")
            return
        self.focus = None
        if self.recipe_id is None:
            db(phone).add(v)
        elif db(phone).get(self.recipe_id) is not None:
            db(phone).update(self.recipe_id, v)
        phone.finish_activity(self)
        phone.toast("Recipe saved")

    def dirty(self, phone: PhoneContext) -> bool:
        return self.values() != {k: s.strip() for k, s in self.stored(phone).items()}

