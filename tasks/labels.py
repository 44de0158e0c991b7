"""Labels that name an irreversible change to task data ("Delete", "Clear", ...).

They live with the tasks because two layers read them: the solver never jumps
ahead to a destructive step it cannot tell is its own, and the traps never
deviate an action onto one (`antrap_gym.traps.words` re-exports them).
"""

from __future__ import annotations

import re

#: a label containing one of these words is never a deviation target
DESTRUCTIVE_WORDS = (
    "delete", "remove", "clear", "discard", "uninstall", "reset", "erase", "wipe", "format",
    "force stop", "sign out", "log out", "logout", "block", "unpair", "forget", "revoke",
    "close app", "trash", "drop", "destroy",
)
_DESTRUCTIVE = re.compile(r"\b(" + "|".join(re.escape(w) for w in DESTRUCTIVE_WORDS) + r")\b",
                          re.IGNORECASE)


def is_destructive(label: str | None) -> bool:
    return bool(label) and _DESTRUCTIVE.search(label) is not None
