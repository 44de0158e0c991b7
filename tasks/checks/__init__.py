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
- the screen: `ScreenShows`, `ElementShows` (fields of elements, e.g. an unsaved form)
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
from antrap_gym.tasks.checks.match import AnyItem, Eq, Fuzzy, OnlyItem, Phone, Text
from antrap_gym.tasks.checks.provider import ProviderError, ProviderQuery, parse_rows, query
from antrap_gym.tasks.checks.rows import Added, Changed, Removed, RowsExist, Unchanged
from antrap_gym.tasks.checks.screen import ElementShows, ScreenShows
from antrap_gym.tasks.checks.settings import SettingEquals, SettingIn, SettingNear, get_setting
from antrap_gym.tasks.checks.sms import SmsResent, SmsSent

__all__ = [
    "Absent", "Added", "AllOf", "AnswerIs", "AnyItem", "Changed", "Check", "DatabaseError",
    "DatabaseQuery", "DatabaseTable", "Deduplicated", "DirExists", "Either", "ElementShows", "Eq",
    "FileContent", "FileExists", "Fuzzy",
    "Holds", "MeanOf", "NotPrepared", "OnlyItem", "Phone", "ProviderError", "ProviderQuery",
    "Removed", "RowsExist", "ScreenShows", "SettingEquals", "SettingIn", "SettingNear",
    "ShellValue", "SmsResent", "SmsSent", "Text", "TreeUnchanged", "Unchanged", "get_setting",
    "parse_rows", "query",
    "read_file", "read_rows", "read_tree",
]
