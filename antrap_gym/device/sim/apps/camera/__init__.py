"""Camera (`com.android.camera2`): a viewfinder on a synthetic scene, photos and videos.

- `media`: the scene, JPEG photos (Pillow) and Motion-JPEG MPEG-4 videos, file names;
- `screens`: the camera activity (permission prompts, modes, shutter, filmstrip);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.camera.app import Camera

APP = Camera

__all__ = ["APP", "Camera"]
