"""Audio Recorder's screens: the welcome page of a first start, the recorder, the list
of records.

- Welcome (`app.welcome.WelcomeActivity`, what the launcher starts): "Get started" on
  a first start; afterwards it hands over to the recorder at once.
- Recorder (`app.main.MainActivity`): Record (asking for the microphone the first
  time), Pause / Resume, Stop (the record is saved, then "Record name" asks for its
  name: the app adds `.m4a`), Delete (drop the recording), the records list.
- Records (`app.records.RecordsActivity`): the records, newest first, each with a menu
  (Rename, Delete).

A record is an .m4a file (AAC, silent) in the app's records folder on shared storage,
as long as the recording ran on the phone's clock. Resource ids are the app's
(`btn_record`, `btn_record_stop`, `txt_progress`, `input_name`, ...).
"""

from __future__ import annotations

import posixpath
import time as _time
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.storage.mp4 import m4a_silence
from antrap_gym.device.sim.storage.permissions import RECORD_AUDIO
from antrap_gym.device.sim.storage.prefs import SharedPreferences
from antrap_gym.device.sim.toolkit.permission import PermissionPrompt
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.dimowner.audiorecorder"
RID = PKG + ":id/"
RECORDS = f"/sdcard/Android/data/{PKG}/files/Music/records"
EXT = ".m4a"
NAME_FIELD = "input_name"
IDLE, RECORDING, PAUSED = "idle", "recording", "paused"


class RecorderPrefs(SharedPreferences):
    """The app's preferences: first start done, the record counter, the recording."""

    path = f"/data/data/{PKG}/shared_prefs/{PKG}_preferences.xml"


def prefs(phone: PhoneContext) -> SharedPreferences:
    return phone.databases[RecorderPrefs.path]  # type: ignore[return-value]


def _int(p: SharedPreferences, key: str) -> int:
    v = p.values.get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def records(phone: PhoneContext) -> list[str]:
    """The records' file names, newest first."""
    fs = phone.fs
    if not fs.isdir(RECORDS):
        return []
    names = [n for n in fs.listdir(RECORDS) if fs.isfile(posixpath.join(RECORDS, n))]
    return sorted(names, key=lambda n: (-fs.mtime(posixpath.join(RECORDS, n)), n))


def duration(ms: int) -> str:
    s = ms // 1000
    return f"{s // 60:02d}:{s % 60:02d}"


def _m4a_ms(data: bytes) -> int:
    """A record's length from its `mvhd` (ms), 0 when it has none."""
    i = data.find(b"mvhd")
    if i < 0 or len(data) < i + 24:
        return 0
    scale = int.from_bytes(data[i + 16:i + 20], "big") or 1000
    return int.from_bytes(data[i + 20:i + 24], "big") * 1000 // scale


class RecorderActivity(Activity):
    package = PKG


class WelcomeActivity(RecorderActivity):
    name = "com.dimowner.audiorecorder.app.welcome.WelcomeActivity"

    def title(self, phone: PhoneContext) -> str:
        return "Audio Recorder"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if prefs(phone).get_bool("is_first_run_done", False):
            # a later start: straight to the recorder (this screen closes)
            stack = phone.wm.tasks.get(PKG, [])
            if self in stack:
                stack[stack.index(self)] = MainActivity()
                phone.request_relayout()
            return
        ui.spacer(120)
        ui.text("Audio Recorder", style="title", rid=RID + "txt_title")
        ui.text("Record, play and share your voice notes. Records are kept on this device.",
                style="body", rid=RID + "txt_description")
        ui.spacer(48)
        ui.button("Get started", lambda: self.get_started(phone), rid=RID + "btn_action")

    def get_started(self, phone: PhoneContext) -> None:
        prefs(phone).put("is_first_run_done", True)
        stack = phone.wm.tasks.get(PKG, [])
        if self in stack:
            stack[stack.index(self)] = MainActivity()


class MainActivity(RecorderActivity):
    name = "com.dimowner.audiorecorder.app.main.MainActivity"

    def __init__(self) -> None:
        super().__init__()
        self.live = False
        self.renaming: str | None = None  # the record the name dialog is for

    def title(self, phone: PhoneContext) -> str:
        return "Audio Recorder"

    def state(self, phone: PhoneContext) -> str:
        return prefs(phone).get_string("rec_state", IDLE)

    def elapsed(self, phone: PhoneContext) -> int:
        p = prefs(phone)
        total = _int(p, "rec_accum_ms")
        if self.state(phone) == RECORDING:
            total += phone.clock_ms - _int(p, "rec_start_ms")
        return total

    def build(self, ui: UI, phone: PhoneContext) -> None:
        state = self.state(phone)
        self.live = state == RECORDING
        ui.toolbar("Audio Recorder", rid=RID + "toolbar",
                   menu=[Choice("Settings", "noop"), Choice("Records", "open_records")])
        ui.spacer(120)
        last = prefs(phone).get_string("last_record", "")
        if state != IDLE:
            shown = duration(self.elapsed(phone))
        elif last and phone.fs.isfile(posixpath.join(RECORDS, last)):
            shown = duration(_m4a_ms(phone.fs.read(posixpath.join(RECORDS, last))))
        else:
            shown = "00:00"
            last = ""
        r = ui._take(ui.dp(96))
        ui.mk("text", r, text=shown, style="ad_title", rid=RID + "txt_progress")
        if state == IDLE and last:
            r = ui._take(ui.dp(48))
            ui.mk("text", (r[0] + ui.dp(24), r[1], r[2] - ui.dp(24), r[3]),
                  text=last.removesuffix(EXT), style="title", rid=RID + "txt_name",
                  on_click=lambda: self.ask_name(phone, last))
        ui.text("M4a, 44.1kHz, 128kbps, Mono", style="summary", rid=RID + "txt_record_info")
        x0, _, x1, y1 = ui.rect
        y = y1 - ui.dp(112)
        cx = (x0 + x1) // 2
        s = ui.dp(88)
        desc = {IDLE: "Record", RECORDING: "Pause recording", PAUSED: "Resume recording"}[state]
        ui.mk("fab", (cx - s // 2, y, cx + s // 2, y + s), icon="pause" if state == RECORDING
              else "record", desc=desc, rid=RID + "btn_record", on_click=lambda: self.record(phone))
        small = ui.dp(56)
        sy = y + (s - small) // 2
        if state != IDLE:
            ui.mk("icon_button", (cx - s // 2 - ui.dp(24) - small, sy, cx - s // 2 - ui.dp(24), sy + small),
                  icon="delete", desc="Delete recording", rid=RID + "btn_record_delete",
                  on_click=lambda: self.discard(phone))
            ui.mk("icon_button", (cx + s // 2 + ui.dp(24), sy, cx + s // 2 + ui.dp(24) + small, sy + small),
                  icon="stop", desc="Stop recording", rid=RID + "btn_record_stop",
                  on_click=lambda: self.stop(phone))
        else:
            ui.mk("icon_button", (x0 + ui.dp(16), sy, x0 + ui.dp(16) + small, sy + small),
                  icon="settings", desc="Settings", rid=RID + "btn_settings",
                  on_click=lambda: phone.toast("Settings"))
            ui.mk("icon_button", (x1 - ui.dp(16) - small, sy, x1 - ui.dp(16), sy + small),
                  icon="list", desc="Records", rid=RID + "btn_records_list",
                  on_click=lambda: self.open_records(phone))

    # --- recording ---------------------------------------------------------------------
    def record(self, phone: PhoneContext) -> None:
        if not phone.state.permissions.holds(PKG, RECORD_AUDIO):
            self.popup = PermissionPrompt("Audio Recorder", "record audio", RECORD_AUDIO,  # type: ignore[assignment]
                                          "on_permission")
            return
        p = prefs(phone)
        state = self.state(phone)
        if state == RECORDING:
            p.put("rec_accum_ms", self.elapsed(phone))
            p.put("rec_state", PAUSED)
        else:
            if state == IDLE:
                p.put("rec_accum_ms", 0)
            p.put("rec_start_ms", phone.clock_ms)
            p.put("rec_state", RECORDING)

    def on_permission(self, phone: PhoneContext, granted: bool) -> None:
        if granted:
            self.record(phone)
        else:
            phone.toast("Recording requires the microphone permission")

    def stop(self, phone: PhoneContext) -> None:
        """Save the recording as Record-N.m4a, then ask for its name."""
        if self.state(phone) == IDLE:
            return
        p = prefs(phone)
        ms = max(1000, self.elapsed(phone))
        n = _int(p, "record_counter") + 1
        fs = phone.fs
        fs.mkdir(RECORDS, phone.now, parents=True)
        taken = set(fs.listdir(RECORDS))
        while f"Record-{n}{EXT}" in taken:
            n += 1
        name = f"Record-{n}{EXT}"
        fs.write(posixpath.join(RECORDS, name), m4a_silence(ms, phone.now), phone.now)
        for key, value in (("record_counter", n), ("rec_state", IDLE), ("rec_accum_ms", 0),
                           ("last_record", name)):
            p.put(key, value)
        self.ask_name(phone, name)

    def discard(self, phone: PhoneContext) -> None:
        p = prefs(phone)
        p.put("rec_state", IDLE)
        p.put("rec_accum_ms", 0)
        phone.toast("Recording deleted")

    def on_pause(self, phone: PhoneContext) -> None:
        # the recording goes on in the app's foreground service, as on a phone
        return

    # --- naming ----------------------------------------------------------------------------
    def ask_name(self, phone: PhoneContext, record: str) -> None:
        self.renaming = record
        self.set_field(NAME_FIELD, record.removesuffix(EXT))
        phone.open_popup(self, Dialog("Record name", field_name=NAME_FIELD, buttons=[
            Choice("Cancel", "noop"), Choice("Save", "save_name")]))

    def save_name(self, phone: PhoneContext) -> None:
        record, self.renaming = self.renaming, None
        new = self.fields.get(NAME_FIELD, "").strip()
        self.focus = None
        if record is None:
            return
        renamed = rename(phone, record, new)
        if renamed is not None:
            prefs(phone).put("last_record", renamed)

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        if field == NAME_FIELD and self.popup is not None:
            phone.choose(self, Choice("Save", "save_name"))

    def open_records(self, phone: PhoneContext) -> None:
        phone.start_activity(RecordsActivity())


def rename(phone: PhoneContext, record: str, new: str) -> str | None:
    """Rename a record to `new` + .m4a (the app adds the extension to whatever is typed);
    None when the name is empty, has a slash, or is taken."""
    if not new or "/" in new or new in (".", ".."):
        phone.toast("Incorrect name")
        return None
    target = new + EXT
    if target == record:
        return record
    src, dst = posixpath.join(RECORDS, record), posixpath.join(RECORDS, target)
    if not phone.fs.isfile(src):
        return None
    if phone.fs.exists(dst):
        phone.toast("A record with this name already exists")
        return None
    phone.fs.move(src, dst, phone.now)
    return target


class RecordsActivity(RecorderActivity):
    name = "com.dimowner.audiorecorder.app.records.RecordsActivity"

    def __init__(self) -> None:
        super().__init__()
        self.renaming: str | None = None

    def title(self, phone: PhoneContext) -> str:
        return "Records"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar("Records", back=True, rid=RID + "toolbar")
        names = records(phone)
        if not names:
            ui.empty("No records")
            return
        fs = phone.fs
        with ui.scroll("records", rid=RID + "recycler_view"):
            for n in names:
                path = posixpath.join(RECORDS, n)
                when = _time.strftime("%b %d, %Y %H:%M", _time.gmtime(fs.mtime(path)))
                row = ui.row(n.removesuffix(EXT), f"{duration(_m4a_ms(fs.read(path)))}  ·  {when}",
                             rid=RID + "list_item_name", on_click=lambda n=n: self.menu(phone, n),
                             on_long_click=lambda n=n: self.menu(phone, n))
                r = row.rect
                ui.mk("icon_button", (r[2] - ui.dp(56), r[1] + ui.dp(8), r[2] - ui.dp(8), r[3] - ui.dp(8)),
                      row, icon="more_vert", desc="More options", rid=RID + "list_item_more",
                      on_click=lambda n=n: self.menu(phone, n))

    def menu(self, phone: PhoneContext, record: str) -> None:
        phone.open_popup(self, Menu([Choice("Rename", "ask_rename", (record,)),
                                     Choice("Delete", "ask_delete", (record,), destructive=True)],
                                    title=record.removesuffix(EXT)))

    def ask_rename(self, phone: PhoneContext, record: str) -> None:
        self.renaming = record
        self.set_field(NAME_FIELD, record.removesuffix(EXT))
        phone.open_popup(self, Dialog("Rename", field_name=NAME_FIELD, buttons=[
            Choice("Cancel", "noop"), Choice("Save", "save_name")]))

    def save_name(self, phone: PhoneContext) -> None:
        record, self.renaming = self.renaming, None
        self.focus = None
        if record is not None:
            rename(phone, record, self.fields.get(NAME_FIELD, "").strip())

    def ask_delete(self, phone: PhoneContext, record: str) -> None:
        phone.open_popup(self, Dialog("Delete record?", f"{record.removesuffix(EXT)} will be deleted.",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "delete", (record,), destructive=True)]))

    def delete(self, phone: PhoneContext, record: str) -> None:
        path = posixpath.join(RECORDS, record)
        if phone.fs.isfile(path):
            phone.fs.remove(path)
            phone.toast("Record deleted")
