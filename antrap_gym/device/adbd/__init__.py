"""A simulated phone served over the ADB device protocol (what `adb connect` speaks).

    from antrap_gym.device.adbd import serve_in_thread
    h = serve_in_thread(port=0)          # a fresh SimDevice on an OS-chosen port
    # adb connect 127.0.0.1:{h.port}; adb -s 127.0.0.1:{h.port} shell input tap 10 20
    h.stop(); h.restart(); h.close()

See docs/sim-adbd.md.
"""

from antrap_gym.device.adbd.runner import AdbdHandle, serve_in_thread
from antrap_gym.device.adbd.server import DEFAULT_SERIAL, AdbdServer

__all__ = ["DEFAULT_SERIAL", "AdbdHandle", "AdbdServer", "serve_in_thread"]
