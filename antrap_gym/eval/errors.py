"""What kind of error an episode record carries.

- `infrastructure`: the episode could not be judged because something around
  the agent failed — its worker process died or was killed for overrunning the
  timeout, a Ray actor was lost, the model's API stayed unreachable or refused
  (`ModelAPIError`), the phone was lost (`DeviceError`, `DeviceLostError`), or
  came back as another phone that never had the task set up (`DeviceReplacedError`).
  `--resume` runs such episodes again (unless `--no-retry-errors`).
- `episode`: the episode ran and failed with an error of its own (an exception
  raised by the agent, a broken agent class): a finished failure, kept on resume.

New records carry the kind in `error_kind`; for older records without it the
kind is read off the message.
"""

from __future__ import annotations

from typing import Any

INFRASTRUCTURE = "infrastructure"
EPISODE = "episode"

#: substrings of an error message that mark an infrastructure failure
INFRA_MARKERS = (
    "worker died",  # LocalPool: the process exited (segfault, os._exit, OOM kill)
    "episode timed out",  # LocalPool / RayPool: killed after --timeout seconds
    "worker lost",  # RayPool: the actor died
    "ModelAPIError",  # the model endpoint: unreachable, retries exhausted, refused
    "DeviceLostError",  # the phone's transport is gone
    "DeviceReplacedError",  # another phone (rebooted, factory-fresh) answers in its place
    "DeviceError",  # any other device-level failure
)


def error_kind(message: str | None) -> str | None:
    """`infrastructure`, `episode`, or None for no error."""
    if not message:
        return None
    return INFRASTRUCTURE if any(m in message for m in INFRA_MARKERS) else EPISODE


def is_device_replaced(record: dict[str, Any]) -> bool:
    """Whether this record's episode ended because its phone came back as another."""
    return str(record.get("error") or "").startswith("DeviceReplacedError")


def is_infrastructure_error(record: dict[str, Any]) -> bool:
    """Whether this record's episode failed for reasons outside the agent's behaviour
    (and should be run again on resume rather than counted as a finished failure)."""
    if not record.get("error"):
        return False
    kind = record.get("error_kind")
    if kind is None:
        kind = error_kind(str(record["error"]))
    return kind == INFRASTRUCTURE


__all__ = ["EPISODE", "INFRASTRUCTURE", "error_kind", "is_device_replaced", "is_infrastructure_error"]
