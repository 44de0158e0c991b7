"""`antrap sim-adbd` / `python -m antrap_gym.device.adbd`: serve a simulated phone to adb."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading

from antrap_gym.device.adbd.server import DEFAULT_SERIAL


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options, for this module's own parser and for a subcommand of `antrap`."""
    parser.add_argument("--port", type=int, default=5555, help="TCP port (0: let the OS choose)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default loopback)")
    parser.add_argument("--serial", default=DEFAULT_SERIAL,
                        help="the phone's serial number (getprop ro.serialno) and its name in logs")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="log connections (-v) or every message (-vv) to stderr")
    return parser


def main(args: argparse.Namespace | list[str] | None = None) -> int:
    """Serve until SIGINT/SIGTERM; prints `adbd <serial> listening on host:port` when ready."""
    if not isinstance(args, argparse.Namespace):
        parser = add_arguments(argparse.ArgumentParser(
            prog="python -m antrap_gym.device.adbd",
            description="Serve a simulated Android phone over the ADB device protocol "
                        "(then: adb connect HOST:PORT)."))
        args = parser.parse_args(args)
    verbose = getattr(args, "verbose", 0) or 0
    logging.basicConfig(level=logging.DEBUG if verbose > 1 else logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s", stream=sys.stderr)
    from antrap_gym.device.adbd.runner import serve_in_thread

    try:
        handle = serve_in_thread(port=args.port, serial=args.serial, host=args.host)
    except OSError as e:
        print(f"sim-adbd: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    print(f"adbd {handle.serial} listening on {handle.address} (adb connect {handle.address})", flush=True)
    try:
        while not done.wait(0.5):
            pass
    finally:
        handle.close()
    return 0
