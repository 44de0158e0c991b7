"""A device-side ADB daemon (adbd) for one simulated phone, over TCP.

`adb connect host:port` (and anything that talks to the adb server, such as
adbutils) then drives the simulated phone like a real device. asyncio serves
the connections; commands run in worker threads under one lock around the
phone, so the event loop keeps answering flow control while a screenshot is
being encoded, and the phone never sees two commands at once.

Per connection: CNXN handshake (no AUTH), then streams. Each OPEN names a
service: `shell:`, `shell,v2,...:` (shell protocol v2), `exec:`, `sync:`,
`root:`/`unroot:` (refused politely like a user build). Anything else is
refused with CLSE and the connection lives on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from antrap_gym.device.adbd.protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    HEADER_SIZE,
    MAX_DATA,
    SHELL_CLOSE_STDIN,
    SHELL_EXIT,
    SHELL_STDERR,
    SHELL_STDIN,
    SHELL_STDOUT,
    VERSION,
    Message,
    ProtocolError,
    ShellPacketParser,
    decode_header,
    device_banner,
    encode,
    parse_banner,
    shell_packet,
    shell_packets,
)
from antrap_gym.device.adbd.sync import SyncSession

if TYPE_CHECKING:
    from antrap_gym.device.protocol import ShellResult
    from antrap_gym.device.sim.device import SimDevice

log = logging.getLogger(__name__)

DEFAULT_SERIAL = "SIMPHONE0001"
PROMPT = b"oriole:/ $ "
#: how long a finished stream waits for the host to acknowledge its last write
FINAL_ACK_TIMEOUT_S = 30.0


class _StreamClosed(Exception):
    """The host closed the stream (or the connection died) while we were writing."""


class PhoneHost:
    """One simulated phone plus the lock that serialises everything touching it."""

    def __init__(self, device: SimDevice, lock: threading.RLock | None = None) -> None:
        self.device = device
        self.lock = lock or threading.RLock()

    def shell(self, cmd: str) -> ShellResult:
        with self.lock:
            return self.device.shell(cmd)

    def sync_feed(self, session: SyncSession, data: bytes) -> bytes:
        with self.lock:
            return session.feed(data)


# --- streams -------------------------------------------------------------------------------


class _Stream:
    """One service stream: our id, the host's id, flow control both ways."""

    def __init__(self, conn: _Connection, local_id: int, remote_id: int, service: str) -> None:
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.service = service
        self.closed = False
        self.task: asyncio.Task | None = None
        self._acked = asyncio.Event()
        self._acked.set()  # after our OKAY to OPEN we may write once
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()

    # host -> device
    def deliver(self, data: bytes) -> None:
        self._inbox.put_nowait(data)

    def ack(self) -> None:
        self._acked.set()

    def host_closed(self) -> None:
        self.closed = True
        self._acked.set()
        self._inbox.put_nowait(None)

    async def read(self) -> bytes | None:
        """The next chunk the host wrote, or None once the stream is closed."""
        if self.closed and self._inbox.empty():
            return None
        return await self._inbox.get()

    # device -> host
    async def write(self, data: bytes) -> None:
        """Send `data` as WRTE messages no bigger than the host accepts, each after the
        host acknowledged the previous one."""
        step = self.conn.max_payload
        for i in range(0, len(data), step):
            await self._acked.wait()
            await self.conn.server.live.wait()
            if self.closed or self.conn.dead:
                raise _StreamClosed
            self._acked.clear()
            self.conn.send(A_WRTE, self.local_id, self.remote_id, data[i:i + step])
            await self.conn.drain()

    async def close(self) -> None:
        """Close from our side, once the host has taken our last write."""
        if self.closed:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._acked.wait(), FINAL_ACK_TIMEOUT_S)
        if self.closed:
            return
        self.closed = True
        self.conn.send(A_CLSE, self.local_id, self.remote_id)
        self.conn.streams.pop(self.local_id, None)


# --- connections ---------------------------------------------------------------------------


class _Connection:
    """One TCP connection from an adb server: the handshake and the stream table."""

    def __init__(self, server: AdbdServer, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.streams: dict[int, _Stream] = {}
        self.max_payload = MAX_DATA
        self.dead = False
        self._next_id = 1
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        if self.dead or self.writer.is_closing():
            return
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s <- %r", self.peer, Message(command, arg0, arg1, data))
        self.writer.write(encode(command, arg0, arg1, data))

    async def drain(self) -> None:
        try:
            await self.writer.drain()
        except ConnectionError as e:
            self.dead = True
            raise _StreamClosed from e

    async def run(self) -> None:
        try:
            while True:
                msg = await self._read()
                await self.server.live.wait()
                if log.isEnabledFor(logging.DEBUG):
                    log.debug("%s -> %r", self.peer, msg)
                self._dispatch(msg)
                await self.drain()
        except (asyncio.IncompleteReadError, ConnectionError, _StreamClosed):
            pass
        except ProtocolError as e:
            log.warning("%s: dropping connection: %s", self.peer, e)
        finally:
            self.teardown()

    async def _read(self) -> Message:
        h = decode_header(await self.reader.readexactly(HEADER_SIZE))
        data = await self.reader.readexactly(h.length) if h.length else b""
        return Message(h.command, h.arg0, h.arg1, data)

    def teardown(self) -> None:
        self.dead = True
        for stream in list(self.streams.values()):
            stream.host_closed()
            if stream.task is not None:
                stream.task.cancel()
        self.streams.clear()
        if not self.writer.is_closing():
            self.writer.close()

    # --- messages ---------------------------------------------------------------------
    def _dispatch(self, msg: Message) -> None:
        c = msg.command
        if c == A_CNXN:
            self._handshake(msg)
        elif c == A_OPEN:
            self._open(msg)
        elif c == A_OKAY:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0:
                stream.ack()
        elif c == A_WRTE:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0 and not stream.closed:
                self.send(A_OKAY, stream.local_id, stream.remote_id)
                stream.deliver(msg.data)
        elif c == A_CLSE:
            stream = self.streams.get(msg.arg1)
            if stream is not None and stream.remote_id == msg.arg0:
                self.streams.pop(msg.arg1, None)
                stream.host_closed()
                if stream.task is not None:
                    stream.task.cancel()
        elif c == A_AUTH:
            pass  # we never ask for AUTH; ignore stray signatures
        else:
            log.debug("%s: ignoring %r", self.peer, msg)

    def _handshake(self, msg: Message) -> None:
        kind, props = parse_banner(msg.data)
        if msg.arg1:
            self.max_payload = max(4096, min(MAX_DATA, msg.arg1))
        # a second CNXN restarts the session: forget the old streams
        for stream in list(self.streams.values()):
            stream.host_closed()
            if stream.task is not None:
                stream.task.cancel()
        self.streams.clear()
        log.info("%s: CNXN from %s (version 0x%08x, maxdata %d, features %s)", self.peer, kind,
                 msg.arg0, msg.arg1, props.get("features", ""))
        self.send(A_CNXN, VERSION, MAX_DATA, self.server.banner)

    def _open(self, msg: Message) -> None:
        remote_id = msg.arg0
        if remote_id == 0:
            return
        service = msg.data.split(b"\x00", 1)[0].decode("utf-8", "surrogateescape")
        handler = self.server.route(service)
        if handler is None:
            log.info("%s: refusing service %r", self.peer, service[:80])
            self.send(A_CLSE, 0, remote_id)
            return
        local_id = self._next_id
        self._next_id = self._next_id % 0x7FFFFFFF + 1
        stream = _Stream(self, local_id, remote_id, service)
        self.streams[local_id] = stream
        self.send(A_OKAY, local_id, remote_id)
        stream.task = asyncio.ensure_future(self._serve(stream, handler))

    async def _serve(self, stream: _Stream, handler: Callable[[_Stream], Awaitable[None]]) -> None:
        try:
            await handler(stream)
            await stream.close()
        except (_StreamClosed, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("%s: service %r failed", self.peer, stream.service[:80])
            with contextlib.suppress(Exception):
                await stream.close()
        finally:
            self.streams.pop(stream.local_id, None)


# --- services ------------------------------------------------------------------------------


def _pty_text(data: bytes) -> bytes:
    """What a terminal line discipline does to output: LF becomes CR LF."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


class _LineEditor:
    """Turns raw stdin into command lines. With `echo` (a PTY) it also echoes what
    is typed and understands backspace, Ctrl-C, Ctrl-U, Ctrl-D and skips escape sequences."""

    def __init__(self, echo: bool) -> None:
        self.echo = echo
        self.line = bytearray()
        self._esc = 0  # 0: normal, 1: after ESC, 2: inside ESC [ ...

    def feed(self, data: bytes) -> tuple[bytes, list[bytes | None]]:
        """(bytes to echo, events): an event is a complete line, or None for end of input."""
        echo = bytearray()
        events: list[bytes | None] = []
        for b in data:
            if not self.echo:
                if b == 0x0A:
                    events.append(bytes(self.line))
                    self.line.clear()
                else:
                    self.line.append(b)
                continue
            if self._esc == 1:
                self._esc = 2 if b in (0x5B, 0x4F) else 0
                continue
            if self._esc == 2:
                if 0x40 <= b <= 0x7E:
                    self._esc = 0
                continue
            if b == 0x1B:
                self._esc = 1
            elif b in (0x0D, 0x0A):
                echo += b"\r\n"
                events.append(bytes(self.line))
                self.line.clear()
            elif b in (0x7F, 0x08):
                if self.line:
                    # drop one whole UTF-8 character
                    del self.line[-1]
                    while self.line and (self.line[-1] & 0xC0) == 0x80:
                        del self.line[-1]
                    if self.line and self.line[-1] >= 0xC0:
                        del self.line[-1]
                    echo += b"\b \b"
            elif b == 0x03:
                echo += b"^C\r\n"
                self.line.clear()
                events.append(b"")
            elif b == 0x15:
                echo += b"\b \b" * len(self.line.decode("utf-8", "replace"))
                self.line.clear()
            elif b == 0x04:
                if not self.line:
                    events.append(None)
            elif b >= 0x20 or b == 0x09:
                self.line.append(b)
                echo.append(b)
        return bytes(echo), events


def _exit_request(line: str) -> int | None:
    """The status an `exit [N]` line asks for (None when the line is not an exit)."""
    words = line.strip().split()
    if not words or words[0] != "exit":
        return None
    if len(words) == 1:
        return -1  # the last status
    try:
        return int(words[1]) & 0xFF
    except ValueError:
        return 2


class AdbdServer:
    """Serves one simulated phone on one TCP port; `start()`/`abort()` may alternate."""

    def __init__(self, device: SimDevice, *, host: str = "127.0.0.1", port: int = 0,
                 serial: str = DEFAULT_SERIAL, lock: threading.RLock | None = None,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.phone = PhoneHost(device, lock)
        self.host = host
        self.port = port
        self.serial = serial
        # the phone answers `getprop ro.serialno` with it, like a real device its own serial
        # (adb itself names a TCP device by its address: `adb devices`, `adb get-serialno`)
        device.serial = serial
        self.banner = device_banner()
        self.executor = executor
        self.connections: set[_Connection] = set()
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self.live = asyncio.Event()  # cleared while frozen
        self.live.set()

    @property
    def listening(self) -> bool:
        return self._server is not None

    async def start(self) -> int:
        """Listen (again) on the port; returns it (the OS's choice the first time if 0)."""
        if self._server is not None:
            return self.port
        self._server = await asyncio.start_server(self._accept, self.host, self.port,
                                                  reuse_address=True, limit=2 * MAX_DATA)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("adbd for %s listening on %s:%d", self.serial, self.host, self.port)
        return self.port

    async def abort(self) -> None:
        """Stop abruptly: stop listening and cut every connection (a device that died)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for conn in list(self.connections):
            conn.dead = True
            conn.writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        self.connections.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Connection(self, reader, writer)
        task = asyncio.current_task()
        self.connections.add(conn)
        if task is not None:
            self._tasks.add(task)
        log.info("connection from %s", conn.peer)
        try:
            await conn.run()
        except asyncio.CancelledError:
            conn.teardown()
        finally:
            self.connections.discard(conn)
            if task is not None:
                self._tasks.discard(task)

    # --- services ---------------------------------------------------------------------
    def route(self, service: str) -> Callable[[_Stream], Awaitable[None]] | None:
        """The handler for an OPEN's service string, or None to refuse it."""
        head, colon, rest = service.partition(":")
        if not colon:
            return None
        name, *opts = head.split(",")
        if name == "shell":
            v2 = "v2" in opts
            if "pty" in opts:
                pty = True
            elif "raw" in opts:
                pty = False
            else:
                pty = rest == ""  # adbd's default: a PTY for an interactive shell only
            if rest.strip() == "":
                return lambda s: self._interactive(s, v2=v2, pty=pty)
            return lambda s: self._command(s, rest, v2=v2, pty=pty)
        if head == "exec":
            return lambda s: self._command(s, rest, v2=False, pty=False)
        if head == "sync" and rest == "":
            return self._sync
        if head in ("root", "unroot") and rest == "":
            text = (b"adbd cannot run as root in production builds\n" if head == "root"
                    else b"adbd not running as root\n")
            return lambda s: s.write(text)
        return None

    async def _run(self, cmd: str) -> ShellResult:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, self.phone.shell, cmd)

    async def _command(self, stream: _Stream, cmd: str, v2: bool, pty: bool) -> None:
        """A one-shot command: output, then (shell v2) the exit status."""
        res = await self._run(cmd)
        out, err = res.stdout_bytes, res.stderr.encode("utf-8", "surrogateescape")
        # Where stdout and stderr share one channel, their real interleaving is lost:
        # stderr goes first, so output of a final `echo $?` (adbutils' exit-code trick) stays last.
        if pty:
            merged = _pty_text(err + out)
            payload = shell_packets(SHELL_STDOUT, merged) if v2 else merged
        elif v2:
            payload = shell_packets(SHELL_STDOUT, out) + shell_packets(SHELL_STDERR, err)
        else:
            payload = err + out
        if v2:
            payload += shell_packet(SHELL_EXIT, bytes([res.exit_code & 0xFF]))
        await stream.write(payload)

    async def _interactive(self, stream: _Stream, v2: bool, pty: bool) -> None:
        """`adb shell` with no command: run stdin line by line (a prompt and echo on a PTY)."""
        editor = _LineEditor(echo=pty)
        parser = ShellPacketParser() if v2 else None
        status = 0

        def out(data: bytes, kind: int = SHELL_STDOUT) -> bytes:
            if pty:
                data = _pty_text(data)
            return shell_packets(kind, data) if v2 else data

        if pty:
            await stream.write(out(PROMPT))
        finished = False
        while not finished:
            chunk = await stream.read()
            if chunk is None:
                return  # the host hung up; nobody to tell the status to
            events: list[bytes | None] = []
            echo = b""
            if parser is None:
                echo, events = editor.feed(chunk)
            else:
                for kind, data in parser.feed(chunk):
                    if kind == SHELL_STDIN:
                        e, ev = editor.feed(data)
                        echo += e
                        events += ev
                    elif kind == SHELL_CLOSE_STDIN:
                        events.append(None)
            reply = bytearray(out(echo) if echo else b"")
            for event in events:
                eof = event is None
                if event is None:
                    if not editor.line or pty:
                        finished = True
                        break
                    event = bytes(editor.line)  # a last line without a newline
                    editor.line.clear()
                line = event.decode("utf-8", "surrogateescape")
                code = _exit_request(line)
                if code is not None:
                    status = status if code < 0 else code
                    finished = True
                    break
                if line.strip():
                    if reply:
                        await stream.write(bytes(reply))
                        reply.clear()
                    res = await self._run(line)
                    status = res.exit_code & 0xFF
                    reply += out(res.stdout_bytes)
                    reply += out(res.stderr.encode("utf-8", "surrogateescape"),
                                 SHELL_STDOUT if pty else SHELL_STDERR)
                if eof:
                    finished = True
                    break
                if pty:
                    reply += out(PROMPT)
            if reply:
                await stream.write(bytes(reply))
        if v2:
            await stream.write(shell_packet(SHELL_EXIT, bytes([status])))

    async def _sync(self, stream: _Stream) -> None:
        session = SyncSession(self.phone.device.phone)
        loop = asyncio.get_running_loop()
        while not session.finished:
            chunk = await stream.read()
            if chunk is None:
                return
            reply = await loop.run_in_executor(self.executor, self.phone.sync_feed, session, chunk)
            if reply:
                await stream.write(reply)
