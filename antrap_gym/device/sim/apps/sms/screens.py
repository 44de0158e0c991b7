"""Simple SMS Messenger's screens (5.x): the conversation list, a new conversation (a
contact or number), and a thread (bubbles and the compose bar).

Messages live in the telephony provider (`provider.SmsProvider`, `content://sms`);
numbers are shown by the contact's name where the contacts provider knows them.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.contacts.provider import ContactsProvider
from antrap_gym.device.sim.apps.sms.provider import Message, SmsProvider
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import View

PKG = "com.simplemobiletools.smsmessenger"
RID = PKG + ":id/"
APP_TITLE = "Simple SMS Messenger"
START = "Start a conversation"
NEW_TITLE = "New conversation"
ADDRESS_HINT = "Add Contact or Number…"
MESSAGE_HINT = "Type a message…"
DELETE_TITLE = "Delete"
EMPTY = "No stored conversations have been found"
NUMBER = re.compile(r"\+?[\d\s\-().]+")


def sms(phone: PhoneContext) -> SmsProvider:
    return SmsProvider.of(phone)


def digits(s: str) -> str:
    """A number's digits, without a leading 1 (country code) on an 11-digit number."""
    d = re.sub(r"\D", "", s)
    return d[1:] if len(d) == 11 and d.startswith("1") else d


def is_number(s: str) -> bool:
    """A phone number as typed: digits with + - ( ) . or spaces, three digits at least."""
    return bool(NUMBER.fullmatch(s)) and len(re.sub(r"\D", "", s)) >= 3


def names(phone: PhoneContext) -> dict[str, str]:
    """Contact names by number (digits), for showing threads as people."""
    if "com.android.contacts" not in phone.providers:
        return {}
    return {digits(c.phone): c.name for c in ContactsProvider.of(phone).all() if c.phone}


def shown_as(phone: PhoneContext, address: str, book: dict[str, str] | None = None) -> str:
    book = names(phone) if book is None else book
    return book.get(digits(address), address) if digits(address) else address


def when(ms: int, now_ms: int) -> str:
    """The list's date: the time for today's messages, else the day (device time is UTC)."""
    t, now = time.gmtime(ms // 1000), time.gmtime(now_ms // 1000)
    if t[:3] == now[:3]:
        return time.strftime("%I:%M %p", t).lstrip("0")
    if t.tm_year == now.tm_year:
        return time.strftime("%b %d", t).replace(" 0", " ")
    return time.strftime("%b %d, %Y", t).replace(" 0", " ")


def _beside(ui: UI, field: View, label: str, desc: str, on_click, rid: str) -> View:
    """A button at the right end of an edit field's line, the field narrowed to leave it room."""
    x0, y0, x1, y1 = field.rect
    w = ui.dp(72)
    field.rect = (x0, y0, x1 - w - ui.dp(8), y1)
    field.clip = (field.clip[0], field.clip[1], min(field.clip[2], field.rect[2]), field.clip[3])
    return ui.mk("button", (x1 - w, y0 + ui.dp(4), x1, y1 - ui.dp(4)), text=label, desc=desc,
                 style="text", on_click=on_click, rid=rid)


class SmsActivity(Activity):
    package = PKG


class MainActivity(SmsActivity):
    """The conversations: one row per thread (who, the latest message, its date), newest
    first; the FAB starts a new conversation."""

    name = ".activities.MainActivity"

    def title(self, phone: PhoneContext) -> str:
        return APP_TITLE

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(APP_TITLE, rid=RID + "main_toolbar",
                   menu=[Choice("Settings", "noop"), Choice("About", "noop")])
        threads = sms(phone).threads()
        if not threads:
            ui.empty(EMPTY)
        else:
            book, now = names(phone), phone.clock_ms
            with ui.scroll("conversations", rid=RID + "conversations_list"):
                for t in threads:
                    who = shown_as(phone, t.address, book)
                    ui.row(who, t.snippet, avatar=who, trailing=("text", when(t.date, now)),
                           on_click=lambda a=t.address: self.open(phone, a),
                           rid=RID + "conversation_frame")
                ui.spacer(88)  # room under the FAB
        ui.fab("add", START, lambda: phone.start_activity(NewConversationActivity()),
               rid=RID + "conversations_fab")

    def open(self, phone: PhoneContext, address: str) -> None:
        tid = sms(phone).thread_of(address)
        if tid is not None:
            sms(phone).mark_read(tid)
        phone.start_activity(ThreadActivity(address))


class NewConversationActivity(SmsActivity):
    """Pick a contact (suggestions filtered by what is typed) or type a number and confirm."""

    name = ".activities.NewConversationActivity"
    FIELD = "address"

    def __init__(self) -> None:
        super().__init__()
        self.focus = self.FIELD

    def title(self, phone: PhoneContext) -> str:
        return NEW_TITLE

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(NEW_TITLE, back=True, rid=RID + "new_conversation_toolbar")
        box = ui.edit(self.FIELD, ADDRESS_HINT, rid=RID + "new_conversation_address")
        _beside(ui, box, "OK", "Confirm", lambda: self.confirm(phone),
                RID + "new_conversation_confirm")
        query = self.fields.get(self.FIELD, "").strip().casefold()
        people = [c for c in ContactsProvider.of(phone).all() if c.phone] \
            if "com.android.contacts" in phone.providers else []
        if query:
            qd = digits(query)
            people = [c for c in people
                      if query in c.name.casefold() or (len(qd) >= 3 and qd in digits(c.phone))]
        if people:
            with ui.scroll("contacts", rid=RID + "contacts_list"):
                for c in people:
                    ui.row(c.name, c.phone, avatar=c.name,
                           on_click=lambda n=c.phone: self.go(phone, n), rid=RID + "item_contact_frame")

    def confirm(self, phone: PhoneContext) -> None:
        number = self.fields.get(self.FIELD, "").strip()
        if not is_number(number):
            phone.toast("Invalid phone number")
            return
        self.go(phone, number)

    def go(self, phone: PhoneContext, address: str) -> None:
        """The thread with `address`, its message field focused and the keyboard up."""
        phone.finish_activity(self)
        thread = ThreadActivity(address)
        thread.focus = ThreadActivity.FIELD
        phone.wm.ime_shown = True
        phone.start_activity(thread)

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        """The IME's Done: a number opens its thread; a name only hides the keyboard (pick
        the contact from the suggestions)."""
        if is_number(self.fields.get(self.FIELD, "").strip()):
            self.confirm(phone)
        else:
            self.focus = None


class ThreadActivity(SmsActivity):
    """One conversation: its messages as bubbles (incoming left, sent right), oldest at the
    top and scrolled to the newest; a message field and Send at the bottom. A long-press
    on a message offers Copy, Resend (sent messages) and Delete."""

    name = ".activities.ThreadActivity"
    FIELD = "message"

    def __init__(self, address: str = "") -> None:
        super().__init__()
        self.address = address
        self.scroll["messages"] = 10**9  # the newest message in view (clamped on layout)

    def title(self, phone: PhoneContext) -> str:
        return shown_as(phone, self.address)

    def messages(self, phone: PhoneContext) -> list[Message]:
        tid = sms(phone).thread_of(self.address)
        return [] if tid is None else sms(phone).messages(tid)

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.title(phone), back=True, rid=RID + "thread_toolbar",
                   menu=[Choice("Delete", "ask_delete_thread")])
        compose = ui.dp(72)
        with ui.scroll("messages", height=max(0, ui.remaining - compose),
                       rid=RID + "thread_messages_list"):
            ui.spacer(8)
            for m in self.messages(phone):
                bubble = ui.bubble(m.body, m.outgoing, rid=RID + "thread_message_body",
                                   on_long_click=lambda: None)
                bubble.on_long_click = (lambda mm=m, b=bubble.rect: self.menu(phone, mm, b))
        box = ui.edit(self.FIELD, MESSAGE_HINT, rid=RID + "thread_type_message")
        _beside(ui, box, "SMS", "Send", lambda: self.send(phone), RID + "thread_send_message")

    def menu(self, phone: PhoneContext, m: Message, rect: tuple[int, int, int, int]) -> None:
        items = [Choice("Copy", "copy", (m.id,))]
        if m.outgoing:
            items.append(Choice("Resend", "resend", (m.id,)))
        items.append(Choice("Delete", "ask_delete", (m.id,)))
        phone.open_popup(self, Menu(items, ((rect[0] + rect[2]) // 2, rect[3])))

    # --- actions --------------------------------------------------------------------------
    def send(self, phone: PhoneContext) -> None:
        body = self.fields.get(self.FIELD, "").strip()
        if not body or not self.address:
            return
        sms(phone).send(self.address, body)
        self.set_field(self.FIELD, "")
        self.scroll["messages"] = 10**9

    def copy(self, phone: PhoneContext, message_id: int) -> None:
        m = sms(phone).get(message_id)
        if m is not None:
            phone.clipboard.set(m.body)
            phone.toast("Copied to clipboard")

    def resend(self, phone: PhoneContext, message_id: int) -> None:
        m = sms(phone).get(message_id)
        if m is not None:
            sms(phone).send(m.address, m.body)
            self.scroll["messages"] = 10**9

    def ask_delete(self, phone: PhoneContext, message_id: int) -> None:
        phone.open_popup(self, Dialog(DELETE_TITLE, "Are you sure you want to delete 1 message?",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "delete", (message_id,),
                                                      destructive=True)]))

    def delete(self, phone: PhoneContext, message_id: int) -> None:
        sms(phone).remove(message_id)

    def ask_delete_thread(self, phone: PhoneContext) -> None:
        phone.open_popup(self, Dialog(DELETE_TITLE, "Are you sure you want to delete the"
                                      " selected conversation?",
                                      buttons=[Choice("Cancel", "noop"),
                                               Choice("Delete", "delete_thread", destructive=True)]))

    def delete_thread(self, phone: PhoneContext) -> None:
        tid = sms(phone).thread_of(self.address)
        if tid is not None:
            sms(phone).remove_thread(tid)
        phone.finish_activity(self)

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        self.focus = None
