"""Files (DocumentsUI, `com.google.android.documentsui`): the roots of shared storage,
folders and documents, and copying, moving, renaming and deleting them.

- `model`: roots, listings, sorting, descriptions and file operations over /sdcard;
- `browser`: the browsing both screens share (drawer, breadcrumb, list or grid);
- `screens`: the main screen with selection; `picker`: the copy/move destination;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.files.app import Files

APP = Files

__all__ = ["APP", "Files"]
