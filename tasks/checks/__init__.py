"""The check library: success checks that speak only to the Device protocol, so one
check runs on the simulated phone and on a real emulator alike.

- settings: `SettingEquals`, `SettingIn`, `SettingNear` (`settings get`)
- content providers: `ProviderQuery` rows (`content query`, parsed as Android prints it)
- app databases: `DatabaseTable` / `DatabaseQuery` rows (pulled, read with sqlite3)
- row sets over any source, with integrity: `RowsExist`, `Added`, `Removed`,
  `Changed`, `Unchanged`; columns compared by matchers (`Eq`, `Text`, `Phone`,
  `Fuzzy`, `AnyItem`, `OnlyItem`); `Deduplicated` (one copy of duplicated rows left)
- files: `FileExists`, `DirExists`, `Absent`, `FileContent` (exact unless told),
  `TreeUnchanged`
- answers: `AnswerIs` by kind, with distractors; `ShellValue` for what the phone knows
- the screen: `ScreenShows`, `ElementShows` (fields of elements, e.g. an unsaved form);
  the window in front: `InForeground` (`dumpsys window`); `ShownTimes` (a label's count)
- a folder's files since set-up: `NewFiles` (by name, or name, size and time), `FileCount`
- composites: `AllOf`, `MeanOf`; `Holds` makes a check a solution step's `done`
"""

from antrap_gym.tasks.checks.answer import AnswerIs, ShellValue
from antrap_gym.tasks.checks.base import AllOf, Check, Either, Holds, MeanOf, NotPrepared
from antrap_gym.tasks.checks.database import DatabaseError, DatabaseQuery, DatabaseTable, read_rows
from antrap_gym.tasks.checks.dedupe import Deduplicated
from antrap_gym.tasks.checks.files import (
    Absent,
    DirExists,
    FileContent,
    FileExists,
    TreeUnchanged,
    read_file,
    read_tree,
)
from antrap_gym.tasks.checks.listing import FileCount, NewFiles, list_files
from antrap_gym.tasks.checks.match import AnyItem, Eq, Fuzzy, OnlyItem, Phone, Text
from antrap_gym.tasks.checks.provider import ProviderError, ProviderQuery, parse_rows, query
from antrap_gym.tasks.checks.rows import Added, Changed, Removed, RowsExist, Unchanged
from antrap_gym.tasks.checks.screen import ElementShows, ScreenShows
from antrap_gym.tasks.checks.settings import SettingEquals, SettingIn, SettingNear, get_setting
from antrap_gym.tasks.checks.sms import SmsResent, SmsSent
from antrap_gym.tasks.checks.window import InForeground, ShownTimes

__all__ = [
    "Absent", "Added", "AllOf", "AnswerIs", "AnyItem", "Changed", "Check", "DatabaseError",
    "DatabaseQuery", "DatabaseTable", "Deduplicated", "DirExists", "Either", "ElementShows", "Eq",
    "FileContent", "FileCount", "FileExists", "Fuzzy",
    "Holds", "InForeground", "MeanOf", "NewFiles", "NotPrepared", "OnlyItem", "Phone",
    "ProviderError", "ProviderQuery",
    "Removed", "RowsExist", "ScreenShows", "SettingEquals", "SettingIn", "SettingNear",
    "ShellValue", "ShownTimes", "SmsResent", "SmsSent", "Text", "TreeUnchanged", "Unchanged", "get_setting",
    "list_files", "parse_rows", "query",
    "read_file", "read_rows", "read_tree",
]
