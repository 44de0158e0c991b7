"""Chrome's tabs as snapshot state: each a history of entries, an entry a page the web
engine runs, or one of Chrome's own pages (the new tab page, an error page).

What a URL loads: a `file://` URL (or the shared-storage document URI Files hands
over) reads the file from the phone's storage, an HTML file runs as a page and any
other file is shown as text; `http(s)` and everything else fails as Chrome does with
no network. Nothing outside the phone's own file system is ever read.
"""

from __future__ import annotations

import html
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote_plus, urlsplit

from antrap_gym.device.sim.intents import local_path
from antrap_gym.device.sim.storage.files import FsError
from antrap_gym.device.sim.web.page import Page

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

NTP = "chrome-native://newtab/"
#: pages bigger than this are not loaded (Chrome would; the phone's engine is small)
MAX_PAGE_BYTES = 2 * 1024 * 1024
HTML_EXTS = (".html", ".htm", ".xhtml", ".shtml")

UNREACHABLE = "This site can\u2019t be reached"
NO_FILE = "Your file couldn\u2019t be accessed"


@dataclass(slots=True)
class Entry:
    """One step of a tab's history."""

    url: str
    serial: int  # the phone-wide number of this load (keys its fields and scroll)
    page: Page | None = None
    error: str = ""  # "", "unreachable" or "file"

    @property
    def title(self) -> str:
        if self.url == NTP:
            return "New tab"
        if self.error == "unreachable":
            return urlsplit(self.url).hostname or self.url
        if self.page is not None and self.page.loaded:
            t = self.page.layout(1080 / 2.625).title
            if t:
                return t
        return self.url.rsplit("/", 1)[-1] or self.url


@dataclass(slots=True)
class Tab:
    entries: list[Entry] = field(default_factory=list)
    index: int = -1

    @property
    def entry(self) -> Entry | None:
        return self.entries[self.index] if 0 <= self.index < len(self.entries) else None

    def push(self, entry: Entry) -> None:
        del self.entries[self.index + 1:]
        self.entries.append(entry)
        self.index = len(self.entries) - 1


def normalize_url(typed: str) -> str:
    """What the omnibox makes of typed text: a URL as it is, a path a file URL, a host
    an https URL, anything else a search."""
    s = typed.strip()
    if not s:
        return ""
    low = s.lower()
    if low.startswith(("file:", "http:", "https:", "content:", "chrome:", "about:", "data:")):
        return s
    if s.startswith("/"):
        return "file://" + s
    if " " not in s and "." in s.strip("."):
        return "https://" + s
    return "https://www.google.com/search?q=" + quote_plus(s)


def load(phone: PhoneContext, url: str, serial: int) -> Entry:
    """An entry for `url`, its page loaded lazily by the engine."""
    if url == NTP:
        return Entry(url, serial)
    path = local_path(url)
    if path is None:
        return Entry(url, serial, error="unreachable")
    try:
        data = phone.fs.read(path)
    except FsError:
        return Entry(url, serial, error="file")
    except Exception:  # a folder or anything unreadable
        return Entry(url, serial, error="file")
    if len(data) > MAX_PAGE_BYTES:
        return Entry(url, serial, error="file")
    text = data.decode("utf-8", errors="replace")
    if not path.lower().endswith(HTML_EXTS):
        text = f"<pre style=\"white-space:pre-wrap;word-wrap:break-word\">{html.escape(text)}</pre>"
    seed = zlib.crc32(f"{url}#{serial}".encode())
    return Entry(url, serial, Page(url, text, phone.clock_ms, seed))
