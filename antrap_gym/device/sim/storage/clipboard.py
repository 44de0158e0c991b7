"""The system clipboard (ClipboardManager's primary clip), text only.

`text` is None while nothing was ever copied (ClipboardManager.getText() is null);
copying "" is a clip holding empty text, as on Android. The edit fields' floating
toolbar (Cut / Copy / Paste) and the Clipper helper's broadcasts (`clipper.get`,
`clipper.set`, answered by the shell) read and write it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Clipper (ca.zgrs.clipper), the helper AndroidWorld installs to reach the clipboard over adb
CLIPPER_GET, CLIPPER_SET = "clipper.get", "clipper.set"
RESULT_OK, RESULT_CANCELED = -1, 0


@dataclass(slots=True)
class Clipboard:
    text: str | None = None

    def set(self, text: str) -> None:
        self.text = text

    def has_text(self) -> bool:
        return bool(self.text)


def clipper(clip: Clipboard, action: str, extras: dict[str, str]) -> tuple[int, str]:
    """Clipper's receiver: (result code, result data) for a `clipper.get|set` broadcast."""
    if action == CLIPPER_SET:
        text = extras.get("text")
        if text is None:
            return RESULT_CANCELED, 'No text is provided. Use -e text "text to be pasted"'
        clip.set(text)
        return RESULT_OK, "Text is copied into clipboard."
    if clip.text is None:
        return RESULT_CANCELED, ""
    return RESULT_OK, clip.text
