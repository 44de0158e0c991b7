"""Intents with data: what an app says it can open, and how a VIEW finds the app.

An app declares the intents its activities take in `App.intent_filters` (Android's
manifest `<intent-filter>`: actions, MIME types, URI schemes). A VIEW of a file or a
URL (`am start -a android.intent.action.VIEW -d URI -t TYPE`, a tap on a file in
Files) goes to the one app that takes it; several are offered in Android's "Open
with" chooser; none leaves the caller to say so. The started activity is handed the
intent through `Activity.on_intent`. No app is named here.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlsplit

from antrap_gym.device.sim.storage.files import SDCARD, normalize
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen

ACTION_VIEW = "android.intent.action.VIEW"
#: the documents provider of shared storage, whose URIs Files hands to other apps
EXTERNAL_DOCS = "com.android.externalstorage.documents"
#: Android's chooser (ResolverActivity), shown when several apps take an intent
RESOLVER = "android/com.android.internal.app.ResolverActivity"
OPEN_WITH = "Open with"

#: Android's MIME map (libcore MimeMap) for the file types a phone usually holds
MIME_TYPES: dict[str, str] = {
    "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html",
    "htm": "text/html", "xml": "text/xml", "json": "application/json",
    "pdf": "application/pdf", "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "odt": "application/vnd.oasis.opendocument.text", "rtf": "application/rtf",
    "epub": "application/epub+zip", "zip": "application/zip", "apk":
    "application/vnd.android.package-archive", "gpx": "application/gpx+xml",
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
    "webp": "image/webp", "bmp": "image/bmp", "heic": "image/heic",
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/x-wav",
    "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac",
    "m4b": "audio/mp4", "amr": "audio/amr", "mid": "audio/midi",
    "mp4": "video/mp4", "m4v": "video/mp4", "mkv": "video/x-matroska", "webm": "video/webm",
    "3gp": "video/3gpp", "avi": "video/avi", "mov": "video/quicktime",
}
UNKNOWN_TYPE = "application/octet-stream"


def mime_type(name: str) -> str:
    """A file's MIME type by its extension, as Android's MIME map gives it."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return MIME_TYPES.get(ext, UNKNOWN_TYPE)


def _type_matches(pattern: str, mime: str) -> bool:
    if pattern == "*/*" or pattern == mime:
        return True
    return pattern.endswith("/*") and mime.split("/", 1)[0] == pattern[:-2]


@dataclass(frozen=True, slots=True)
class Intent:
    """An intent as `am start` builds it: an action, a data URI and a MIME type."""

    action: str = ACTION_VIEW
    data: str = ""
    mime: str = ""

    @property
    def scheme(self) -> str:
        return urlsplit(self.data).scheme.lower() if ":" in self.data else ""

    def describe(self) -> str:
        """As `am start` prints it: act=... dat=... typ=..."""
        parts = [f"act={self.action}"] if self.action else []
        if self.data:
            parts.append(f"dat={self.data}")
        if self.mime:
            parts.append(f"typ={self.mime}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class IntentFilter:
    """One `<intent-filter>` of an app: the actions, MIME types (`text/*`, `*/*`) and
    URI schemes one of its activities (None: the main one) takes."""

    actions: tuple[str, ...] = (ACTION_VIEW,)
    mime_types: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()
    activity: str | None = None

    def matches(self, intent: Intent) -> bool:
        """Android's rules: the action is listed; a filter with types takes an intent of
        one of them, with data of its schemes (content: or file: when it names none);
        a filter without types takes only untyped intents, of its schemes."""
        if intent.action not in self.actions:
            return False
        scheme = intent.scheme
        if self.mime_types:
            if not intent.mime or not any(_type_matches(p, intent.mime) for p in self.mime_types):
                return False
            return scheme in self.schemes if self.schemes else scheme in ("", "content", "file")
        if intent.mime:
            return False
        return scheme in self.schemes if self.schemes else not intent.data


@dataclass(slots=True)
class Chooser(Dialog):
    """Android's "Open with" list, a system window over the app that asked."""

    package: str = "android"
    component: str = field(default=RESOLVER)


# --- URIs -------------------------------------------------------------------------------


def document_uri(path: str) -> str:
    """The content URI Files hands out for a file on shared storage."""
    rel = normalize(path)[len(SDCARD) + 1:]
    return f"content://{EXTERNAL_DOCS}/document/{quote('primary:' + rel, safe='')}"


def local_path(uri: str) -> str | None:
    """The /sdcard path a `file://` URI or a shared-storage document URI names (None for
    anything else: an http page, another provider's document)."""
    parts = urlsplit(uri)
    if parts.scheme == "file":
        return normalize(unquote(parts.path) or "/")
    if parts.scheme == "content" and parts.netloc == EXTERNAL_DOCS:
        head, _, doc = parts.path.lstrip("/").partition("/")
        volume, _, rel = unquote(doc).partition(":")
        if head in ("document", "tree") and volume == "primary":
            return posixpath.join(SDCARD, rel) if rel else SDCARD
    return None


# --- resolving and starting ----------------------------------------------------------------


def handlers(phone: PhoneContext, intent: Intent, package: str | None = None
             ) -> list[tuple[type, IntentFilter]]:
    """The installed apps that take `intent` (only `package`, when given), in install
    order, each with its first matching filter."""
    out = []
    for pkg, app in phone.apps.items():
        if package is not None and pkg != package:
            continue
        f = next((f for f in getattr(app, "intent_filters", ()) if f.matches(intent)), None)
        if f is not None:
            out.append((app, f))
    return out


def deliver(phone: PhoneContext, package: str, intent: Intent, activity: str | None = None) -> str | None:
    """Start `package` (its `activity`, or the main one) and hand the activity in front
    the intent; returns an error message or None."""
    err = phone.launch(package, activity)
    if err is None:
        act = phone.wm.top_activity()
        if act is not None and act.package == package:
            act.on_intent(phone, intent)
            phone.changed()
    return err


def view(phone: PhoneContext, intent: Intent, caller: Screen | None = None, *,
         package: str | None = None, choose: bool = False) -> int:
    """Start the app that takes `intent`: the one there is, or ask with the chooser
    (always, when `choose`: an "Open with" item) over `caller` (else over the screen in
    front). Returns how many apps take it (0: nothing was started)."""
    found = handlers(phone, intent, package)
    if len(found) == 1 and not choose:
        app, f = found[0]
        deliver(phone, app.package, intent, f.activity)
    elif found:
        host = caller if caller is not None else phone.wm.top_activity()
        if host is None:
            app, f = found[0]
            deliver(phone, app.package, intent, f.activity)
            return len(found)
        phone.open_popup(host, Chooser(OPEN_WITH, choices=[
            Choice(app.label, "open_with", (app.package, f.activity or "", intent.action,
                                             intent.data, intent.mime)) for app, f in found]))
    return len(found)
