"""Dialogs and context menus as plain data, so they live in snapshottable app state.

Buttons and items name an *action*: a method of the owning activity, called
as `activity.<action>(phone, *args)` when the user picks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Choice:
    label: str
    action: str
    args: tuple = ()
    destructive: bool = False


@dataclass(slots=True)
class Dialog:
    """An AlertDialog: title, message, optional single-choice list or text field, buttons."""

    title: str
    message: str = ""
    buttons: list[Choice] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    checked: int = -1  # index into choices shown as selected (radio list)
    field_name: str | None = None  # an EditText inside the dialog, stored in activity.fields
    field_hint: str = ""
    cancelable: bool = True  # BACK and a tap outside close it


@dataclass(slots=True)
class Menu:
    """A popup/context menu anchored near a point (overflow menu, long-press menu)."""

    items: list[Choice]
    anchor: tuple[int, int] = (0, 0)
    title: str = ""
