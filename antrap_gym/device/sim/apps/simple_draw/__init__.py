"""Simple Draw Pro (`com.simplemobiletools.draw.pro`): a canvas drawn on with swipes,
a colour, a brush size, undo and redo, and Save as PNG, SVG or JPG.

- `export`: a drawing as the image file it saves;
- `screens`: its activity and dialogs;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.simple_draw.app import SimpleDraw

APP = SimpleDraw

__all__ = ["APP", "SimpleDraw"]
