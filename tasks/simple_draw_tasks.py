"""Reference template over Simple Draw Pro (AndroidWorld's single/simple_draw_pro.py):
draw something and save it under a given name in Pictures."""

from __future__ import annotations

from antrap_gym.tasks.apps import gallery as gl
from antrap_gym.tasks.apps import simple_draw as sd
from antrap_gym.tasks.binding import DONE
from antrap_gym.tasks.checks import FileExists, Holds
from antrap_gym.tasks.steps import SetChecked, Tap, Target, TypeText
from antrap_gym.tasks.template import template


def _drawing(rng) -> dict:
    return {"file_name": sd.random_drawing_name(rng)}


def _parts(p) -> dict:
    base, _, ext = p["file_name"].rpartition(".")
    return {"base": base, "ext": ext}


_FILE = sd.PICTURES + "/{file_name}"
_SAVE_DIALOG = sd.MAIN + "|Save as"

SimpleDrawProCreateDrawing = template(
    id="SimpleDrawProCreateDrawing", source="AndroidWorld", apps=(sd.PKG,), kind="action",
    split="test", complexity=1.8,
    doc="AndroidWorld's draw: a word, an underscore and a random file name, with .png, .svg "
        "or .jpg. The check is the reference's: a file of that name is in Pictures (its "
        "content is not compared). Set-up removes such a file, and tear-down puts back what "
        "was there. The app adds the extension chosen in its Save dialog to the name typed, "
        "as the real one does; the oracle draws a dot, types the name without its "
        "extension and picks the format.",
    goal="In Simple Draw Pro, make a new drawing and save it as {file_name} in the Pictures "
         "folder of the internal storage.",
    params=_drawing, derived=_parts,
    setup=[gl.Absent(_FILE)],
    check=FileExists(_FILE),
    solution=[sd.open_app(),
              Tap(screen=sd.MAIN, target=Target(rid="my_canvas"), done=Holds(FileExists(_FILE))),
              Tap(screen=sd.MAIN, target=Target(desc="Save"), done=DONE),
              TypeText(screen=_SAVE_DIALOG, target=Target(rid="save_image_filename"), text="{base}"),
              SetChecked(screen=_SAVE_DIALOG, target=Target(rid="save_image_radio_{ext}")),
              Tap(screen=_SAVE_DIALOG, target=Target(text="OK"), done=DONE)])
