"""Run an `AdbdServer` on its own event-loop thread, controlled from ordinary code.

`serve_in_thread()` is what tests and the rest of the package use: it returns a
handle whose `stop()` makes the phone vanish from the network abruptly (every
connection cut, nothing listening) and whose `restart()` brings it back on the
same port with the same phone, so device loss and reconnection can be tested.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from antrap_gym.device.adbd.server import DEFAULT_SERIAL, AdbdServer

if TYPE_CHECKING:
    from antrap_gym.device.sim.device import SimDevice

T = TypeVar("T")
CALL_TIMEOUT_S = 30.0


class AdbdHandle:
    """A running (or stopped) simulated adbd: its address, its phone, and controls."""

    def __init__(self, server: AdbdServer, loop: asyncio.AbstractEventLoop, thread: threading.Thread,
                 executor: concurrent.futures.ThreadPoolExecutor) -> None:
        self.server = server
        self._loop = loop
        self._thread = thread
        self._executor = executor
        self._closed = False

    # --- what it serves ---------------------------------------------------------------
    @property
    def host(self) -> str:
        return self.server.host

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def address(self) -> str:
        """What to give `adb connect` (and then `adb -s`): `host:port`."""
        return f"{self.host}:{self.port}"

    @property
    def serial(self) -> str:
        return self.server.serial

    @property
    def device(self) -> SimDevice:
        return self.server.phone.device

    @property
    def lock(self) -> threading.RLock:
        """Hold this to touch `device` from Python while adb clients may be using it."""
        return self.server.phone.lock

    @property
    def running(self) -> bool:
        return self.server.listening

    @property
    def connection_count(self) -> int:
        return len(self.server.connections)

    # --- controls -----------------------------------------------------------------------
    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coro.close()
            raise RuntimeError("this adbd handle is closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(CALL_TIMEOUT_S)

    def stop(self) -> None:
        """Die abruptly: stop listening and cut every connection (adb sees the device go offline)."""
        self._call(self.server.abort())

    def restart(self) -> None:
        """Listen again on the same port with the same phone (after `stop()`; no-op if running)."""
        self._call(self.server.start())

    def freeze(self) -> None:
        """Hang like a frozen device: connections stay open (new ones are accepted) but
        nothing is answered until `thaw()`."""
        self._call(_run(self.server.live.clear))

    def thaw(self) -> None:
        """Undo `freeze()`: answer everything that queued up meanwhile."""
        self._call(_run(self.server.live.set))

    def close(self) -> None:
        """Stop for good and end the thread."""
        if self._closed:
            return
        try:
            self._loop.call_soon_threadsafe(self.server.live.set)
            self._call(self.server.abort())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(CALL_TIMEOUT_S)
            self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> AdbdHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "running" if self.running else "stopped"
        return f"<AdbdHandle {self.serial} {self.address} {state}>"


def serve_in_thread(port: int = 0, phone_device: SimDevice | None = None, serial: str = DEFAULT_SERIAL,
                    host: str = "127.0.0.1", lock: threading.RLock | None = None) -> AdbdHandle:
    """Serve `phone_device` (a fresh `SimDevice` if None) on host:port (0: the OS picks)
    from a daemon thread; returns once it is listening. Every adb command takes `lock`
    (a new RLock if None; also `handle.lock`) around the phone: share it with any other
    code that drives the same phone meanwhile."""
    if phone_device is None:
        from antrap_gym.device.sim.device import SimDevice

        phone_device = SimDevice()
    loop = asyncio.new_event_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix=f"adbd-{serial}")
    loop.set_default_executor(executor)
    ready = threading.Event()

    def main() -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
        finally:
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    thread = threading.Thread(target=main, name=f"adbd-{serial}", daemon=True)
    thread.start()
    ready.wait()
    server = asyncio.run_coroutine_threadsafe(_make(phone_device, host, port, serial, lock, executor),
                                              loop).result(CALL_TIMEOUT_S)
    handle = AdbdHandle(server, loop, thread, executor)
    try:
        handle.restart()  # the first start
    except BaseException:
        handle.close()
        raise
    return handle


async def _make(device: SimDevice, host: str, port: int, serial: str, lock: threading.RLock | None,
                executor: concurrent.futures.Executor) -> AdbdServer:
    # built on the loop so its asyncio objects belong to it
    return AdbdServer(device, host=host, port=port, serial=serial, lock=lock, executor=executor)


async def _run(fn: Callable[[], object]) -> None:
    fn()
