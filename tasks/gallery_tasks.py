"""Reference templates over Simple Gallery Pro: AndroidWorld's image tasks (a picture in
the gallery holds what the agent must read), under their class names, goal wording and
complexity. The pictures are drawn from the parameters (tasks/apps/gallery.py), so a
text-only agent sees only their file names; the oracle is privileged and types the
parameters after opening the picture.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import broccoli as br
from antrap_gym.tasks.apps import expense as ex
from antrap_gym.tasks.apps import gallery as gl
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import FileContent, FileExists, Holds
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target
from antrap_gym.tasks.template import template

aw = partial(template, source="AndroidWorld")
RECEIPT = gl.DCIM + "/receipt.png"


# === MarkorTranscribeReceipt (single/markor.py) ==============================================


def _receipt(rng) -> dict:
    n = int(rng.integers(1, 6))
    r = gl.receipt(rng, n)
    return {"file_name": "receipt.md", **r, "text": gl.receipt_csv(r["rows"])}


_NOTE = mk.note_path("{file_name}")
_NOTE_MADE = Holds(FileExists(_NOTE))

MarkorTranscribeReceipt = aw(
    id="MarkorTranscribeReceipt", apps=(gl.PKG, mk.PKG), kind="action", split="train",
    complexity=1.8,
    doc="A receipt of 1..5 transactions drawn into DCIM/receipt.png; the check is the "
        "reference's CreateFile: receipt.md in the Markor folder holds the header and the "
        "transactions as CSV (difflib ratio >= 0.9, casefolded). The Markor folder starts "
        "empty, as there.",
    goal="Create a file in Markor, called receipt.md with the transactions from the "
         "receipt.png. Use Simple Gallery to view the receipt. Please enter transactions in "
         'csv format including the header "Date, Item, Amount".',
    params=_receipt,
    setup=[mk.SeedFiles({}),
           gl.SeedImages(F(lambda p: {RECEIPT: gl.receipt_lines(p["company"], p["slogan"],
                                                                 p["rows"])}))],
    check=FileContent(_NOTE, "{text}", fuzzy=0.9),
    solution=[OpenApp(app=gl.APP_NAME, package=gl.PKG, done=_NOTE_MADE),
              *gl.view_image_steps("DCIM", "receipt.png", done=_NOTE_MADE),
              mk.open_app(),
              *mk.create_note_steps("{file_name}", "{text}", _NOTE_MADE, DONE)])


# === SaveCopyOfReceiptTaskEval (single/simple_gallery_pro.py) ================================


def _copy_receipt(rng) -> dict:
    r = gl.receipt(rng, int(rng.integers(1, 6)))
    return {"file_name": f"receipt_{mk.random_file_name(rng)}.jpg", **r}


_COPY = gl.DOWNLOAD + "/{file_name}"

SaveCopyOfReceiptTaskEval = aw(
    id="SaveCopyOfReceiptTaskEval", apps=(gl.PKG,), kind="action", split="test",
    complexity=1.6,
    doc="A receipt picture receipt_<random>.jpg in DCIM; the check is the reference's: a "
        "file of that name is in Download (its content is not compared).",
    goal="In Simple Gallery Pro, copy {file_name} in DCIM and save a copy with the same "
         "name in Download",
    params=_copy_receipt,
    setup=[gl.SeedImages(F(lambda p: {gl.DCIM + "/" + p["file_name"]: gl.receipt_lines(
        p["company"], p["slogan"], p["rows"])})),
           gl.Absent(_COPY)],
    check=FileExists(_COPY),
    solution=[gl.open_app(),
              *gl.view_image_steps("DCIM", "{file_name}", done=DONE),
              Tap(screen=gl.VIEWER, target=Target(desc="More options"),
                  requires=gl.titled("{file_name}"), done=DONE),
              Tap(screen=gl.VIEWER + "|menu", target=Target(text="Copy to"), done=DONE),
              Tap(screen=gl.VIEWER + "|Select a folder", target=Target(text="Download"),
                  done=DONE)])


# === RecipeAddMultipleRecipesFromImage (single/recipe.py) ====================================

RECIPES_JPG = gl.DCIM + "/recipes.jpg"


def _recipes_from_image(rng) -> dict:
    targets = br.draw_recipes(rng, 3)
    titles = {t["title"] for t in targets}
    noise = br.draw_recipes(rng, 10, keep=lambda r: r["title"] not in titles)
    return {"rows": br.with_ids(noise), "targets": targets,
            "text": br.recipes_text(targets, "text_block", wrap_width=60)}


def _recipes_solution(p) -> list[Step]:
    """Open recipes.jpg in the gallery (done once the first recipe is in Broccoli), then
    add the three recipes."""
    seen = Holds(br.RecipeSaved(p["targets"][0]))
    steps: list[Step] = [OpenApp(app=gl.APP_NAME, package=gl.PKG, done=seen),
                         *gl.view_image_steps("DCIM", "recipes.jpg", done=seen), br.open_app()]
    for i, r in enumerate(p["targets"]):
        steps += br.add_steps(r, DONE if i == len(p["targets"]) - 1 else None)
    return steps


RecipeAddMultipleRecipesFromImage = aw(
    id="RecipeAddMultipleRecipesFromImage", apps=(br.PKG, gl.PKG), kind="action",
    split="train", complexity=6.0,
    doc="AndroidWorld's: three recipes drawn as text blocks (values wrapped at 60) into "
        "DCIM/recipes.jpg, 10 other recipes in the database before; the check is addition "
        "integrity (each recipe a new row, text columns fuzzy 0.9, favorite exact, the "
        "count grown by 3, no earlier row changed).",
    goal="Add the recipes from recipes.jpg in Simple Gallery Pro to the Broccoli recipe app.",
    params=_recipes_from_image,
    setup=[br.SeedRecipes(P("rows")),
           gl.SeedImages(F(lambda p: {RECIPES_JPG: p["text"].split("\n")}))],
    check=br.added_check(), solution=_recipes_solution)


# === ExpenseAddMultipleFromGallery (single/expense.py) =======================================

EXPENSES_JPG = gl.DCIM + "/expenses.jpg"
N_DECOYS = 10


def _expenses_from_gallery(rng) -> dict:
    targets = ex.draw_expenses(rng, 3)
    noise = ex.draw_expenses(rng, 10, avoid=[t["name"] for t in targets])
    return {"targets": targets, "noise": noise,
            "text": ex.as_text(targets, "text_block", wrap_width=60),
            "noise_text": ex.as_text(noise, "text_block", wrap_width=60)}


def _expense_pictures(p) -> dict:
    """expenses.jpg with the targets, and old_expenses_0..9.jpg each with the noise rows
    (the reference draws the same noise text into all ten)."""
    out = {EXPENSES_JPG: p["text"].split("\n")}
    for i in range(N_DECOYS):
        out[f"{gl.DCIM}/old_expenses_{i}.jpg"] = p["noise_text"].split("\n")
    return out


def _expenses_solution(p) -> list[Step]:
    seen = ex.saved(p["targets"][0])
    return [OpenApp(app=gl.APP_NAME, package=gl.PKG, done=seen),
            *gl.view_image_steps("DCIM", "expenses.jpg", done=seen),
            *ex.add_steps(p["targets"])]


ExpenseAddMultipleFromGallery = aw(
    id="ExpenseAddMultipleFromGallery", apps=(ex.PKG, gl.PKG), kind="action", split="test",
    complexity=6.0,
    doc="AndroidWorld's: three expenses drawn as text blocks into DCIM/expenses.jpg, ten "
        "decoy pictures old_expenses_0..9.jpg showing the 10 noise expenses that are also in "
        "the app before; the check is addition integrity (name and note fuzzy 0.9, amount "
        "and category exact, count grown by 3, the noise unchanged).",
    goal="Add the expenses from expenses.jpg in Simple Gallery Pro to pro expense.",
    params=_expenses_from_gallery,
    setup=[ex.SeedExpenses(F(lambda p: p["noise"])), gl.SeedImages(F(_expense_pictures))],
    check=ex.added_check("targets"), solution=_expenses_solution)
