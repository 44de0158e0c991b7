"""Contacts' screens, laid out like Google Contacts on Android 13.

Every screen reads the contacts provider (`book(phone)`) when it is built
and writes it on Save/Delete/star, so `content query --uri
content://com.android.contacts/...` sees exactly what the app shows. Activity
state holds only plain values: a contact id, the editor's field text, the
selected filter chip.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity
from antrap_gym.device.sim.apps.contacts.firstrun import first_run
from antrap_gym.device.sim.apps.contacts.provider import PHONE_TYPES, Contact, ContactsProvider
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.builder import SP_TITLE, BarAction
from antrap_gym.device.sim.toolkit.firstrun import FirstRun
from antrap_gym.device.sim.toolkit.forms import NextFieldOnEnter, UnsavedChangesGuard
from antrap_gym.device.sim.toolkit.popups import Choice, Dialog, Menu
from antrap_gym.device.sim.toolkit.record import RecordDetail

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext
    from antrap_gym.device.sim.toolkit.builder import UI

PKG = "com.google.android.contacts"
RID = PKG + ":id/"
NO_APP = "No app can perform this action"
DELETE_TITLE = "Delete this contact?"
DELETE_MESSAGE = "This contact will be permanently deleted from your device."

#: the filter chips under the search bar: (label, kind, argument)
FILTERS: tuple[tuple[str, str, str], ...] = (
    ("All", "all", ""),
    ("Favourites", "starred", ""),
    ("Has phone", "phone", ""),
    ("Has email", "email", ""),
    ("A-E", "letters", "ABCDE"),
    ("F-J", "letters", "FGHIJ"),
    ("K-O", "letters", "KLMNO"),
    ("P-T", "letters", "PQRST"),
    ("U-Z", "letters", "UVWXYZ"),
)
#: the editor's fields in focus order (IME Enter moves to the next one)
EDITOR_FIELDS: tuple[tuple[str, str], ...] = (
    ("first_name", "First name"),
    ("last_name", "Last name"),
    ("phone", "Phone"),
    ("email", "Email"),
)
#: the phone number's label choices, in the order Google Contacts lists them
PHONE_LABELS: tuple[str, ...] = ("Mobile", "Work", "Home", "Main", "Other")
LABEL_TYPES = {label: t for t, label in PHONE_TYPES.items()}


PHONE_QUERY = re.compile(r"[\d\s+\-().]+")


def digits(s: str) -> str:
    return re.sub(r"\D", "", s)


def split_name(name: str) -> tuple[str, str]:
    """'Ada King Lovelace' -> ('Ada', 'King Lovelace'): the editor's first/last fields."""
    first, _, last = name.strip().partition(" ")
    return first, last.strip()


def matches_filter(c: Contact, kind: str, arg: str) -> bool:
    if kind == "starred":
        return c.starred
    if kind == "phone":
        return bool(c.phone)
    if kind == "email":
        return bool(c.email)
    if kind == "letters":
        return c.name[:1].upper() in arg
    return True


def matches_query(c: Contact, query: str) -> bool:
    """Search by name (any word prefix or substring), email, or phone digits."""
    q = query.strip().casefold()
    if not q:
        return True
    if q in c.name.casefold() or (c.email and q in c.email.casefold()):
        return True
    qd = digits(q)
    return bool(PHONE_QUERY.fullmatch(q)) and len(qd) >= 3 and qd in digits(c.phone)


def book(phone: PhoneContext) -> ContactsProvider:
    """The address book the screens show and edit."""
    return ContactsProvider.of(phone)


def section_letter(name: str) -> str:
    ch = name[:1].upper()
    return ch if ch.isalpha() else "#"


class ContactsActivity(Activity):
    """Shared actions: the long-press menu, favourites and the delete confirmation."""

    package = PKG

    def star(self, phone: PhoneContext, contact_id: int, on: bool) -> None:
        book(phone).set_starred(contact_id, on)
        c = book(phone).get(contact_id)
        if c is not None:
            phone.toast(f"{c.name} {'added to' if on else 'removed from'} favourites")

    def ask_delete(self, phone: PhoneContext, contact_id: int) -> None:
        phone.open_popup(self, Dialog(DELETE_TITLE, DELETE_MESSAGE, buttons=[
            Choice("Cancel", "noop"), Choice("Delete", "do_delete", (contact_id,), destructive=True)]))

    def do_delete(self, phone: PhoneContext, contact_id: int) -> None:
        c = book(phone).get(contact_id)
        book(phone).remove(contact_id)
        if c is not None:
            phone.toast(f"{c.name or 'Contact'} deleted")

    def edit(self, phone: PhoneContext, contact_id: int) -> None:
        phone.start_activity(ContactEditorActivity.editing(phone, contact_id))

    def no_app(self, phone: PhoneContext) -> None:
        phone.toast(NO_APP)


# --- the list -----------------------------------------------------------------------------


class PeopleActivity(FirstRun, ContactsActivity):
    """The contact list: search bar, filter chips, A-Z list, Create contact FAB (after the
    first run's page and prompt: `firstrun`)."""

    name = "com.google.android.apps.contacts.activities.PeopleActivity"

    def __init__(self) -> None:
        super().__init__()
        self.chip = 0

    def title(self, phone: PhoneContext) -> str:
        return "Contacts"

    def visible(self, phone: PhoneContext) -> list[Contact]:
        _, kind, arg = FILTERS[self.chip]
        query = self.fields.get("search", "")
        return [c for c in book(phone).all()
                if matches_filter(c, kind, arg) and matches_query(c, query)]

    def build(self, ui: UI, phone: PhoneContext) -> None:
        if first_run(ui, phone, self):
            return
        ui.spacer(8)
        ui.search("search", "Search contacts", rid=RID + "open_search_bar_text_view")
        ui.chips("chips", [f[0] for f in FILTERS], self.chip, lambda i: self.select_chip(i),
                 rid=RID + "filter_chips")
        contacts = self.visible(phone)
        if not contacts:
            query = self.fields.get("search", "").strip()
            if query:
                msg = f'No results for "{query}"'
            elif not book(phone).all():
                msg = "No contacts yet\n\nContacts you add will appear here"
            elif FILTERS[self.chip][1] == "starred":
                msg = "No favourites yet\n\nTap the star on a contact to add it here"
            else:
                msg = "No contacts match this filter"
            ui.empty(msg)
        else:
            mid_x = (ui.rect[0] + ui.rect[2]) // 2
            with ui.scroll("list", rid=RID + "contact_list"):
                letter = None
                for c in contacts:
                    head = section_letter(c.name)
                    if head != letter:
                        letter = head
                        ui.text(head, style="header")
                    row = ui.row(c.name or c.phone or c.email or "(No name)", avatar=c.name or "?",
                                 on_click=lambda i=c.id: phone.start_activity(QuickContactActivity(i)),
                                 on_long_click=lambda: None, rid=RID + "contact_row")
                    # the menu opens under the pressed row, so its anchor is known only now
                    row.on_long_click = (lambda cc=c, y=row.rect[3]:
                                         self.context_menu(phone, cc, (mid_x, y)))
                ui.spacer(88)  # room under the FAB
        ui.fab("add", "Create contact", lambda: phone.start_activity(ContactEditorActivity()),
               rid=RID + "floating_action_button")

    def select_chip(self, i: int) -> None:
        self.chip = i
        self.scroll["list"] = 0

    def context_menu(self, phone: PhoneContext, c: Contact, anchor: tuple[int, int]) -> None:
        fav = (Choice("Remove from favourites", "star", (c.id, False)) if c.starred
               else Choice("Add to favourites", "star", (c.id, True)))
        phone.open_popup(self, Menu([fav, Choice("Edit", "edit", (c.id,)),
                                     Choice("Delete", "ask_delete", (c.id,))],
                                    anchor, title=c.name))

    def on_text_changed(self, phone: PhoneContext, field: str) -> None:
        if field == "search":
            self.scroll["list"] = 0

    def on_submit(self, phone: PhoneContext, field: str) -> None:
        self.focus = None  # the search action hides the keyboard

    def on_back(self, phone: PhoneContext) -> bool:
        if self.fields.get("search"):
            self.set_field("search", "")
            self.focus = None
            self.scroll["list"] = 0
            return True
        return False


# --- one contact --------------------------------------------------------------------------


class QuickContactActivity(RecordDetail, ContactsActivity):
    """A contact's details: avatar and name, contact info, star, edit and overflow menu."""

    name = "com.google.android.apps.contacts.quickcontact.QuickContactActivity"
    record_noun, untitled, toolbar_rid = "contact", "Contact", RID + "toolbar"

    def record(self, phone: PhoneContext) -> Contact | None:
        return book(phone).get(self.record_id)

    def record_title(self, record: Contact) -> str:
        return record.name

    def build_record(self, ui: UI, phone: PhoneContext, c: Contact) -> None:
        desc = "Remove from favourites" if c.starred else "Add to favourites"
        ui.toolbar("", back=True, rid=RID + "toolbar", actions=[
            BarAction("star" if c.starred else "star_border", desc,
                      lambda: self.star(phone, c.id, not c.starred), checked=c.starred,
                      rid=RID + "menu_star"),
            ("edit", "Edit contact", lambda: self.edit(phone, c.id)),
        ], menu=[Choice("Delete", "ask_delete", (c.id,)), Choice("Share", "no_app"),
                 Choice("Help & feedback", "no_app")])
        with ui.scroll("details", rid=RID + "quick_contact_scroll"):
            size = ui.dp(112)
            top = ui.y + ui.dp(8)
            cx = (ui.rect[0] + ui.rect[2]) // 2
            ui.mk("image", (cx - size // 2, top, cx + size // 2, top + size), icon="avatar",
                  style=c.name or "?")
            ui.set_y(top + size + ui.dp(12))
            shown = c.name or "(No name)"
            size, width = ui.sp(SP_TITLE), ui.rect[2] - ui.rect[0] - ui.dp(32)
            h = len(txt.wrap(shown, size, width)) * txt.line_height(size) + ui.dp(8)
            r = (ui.rect[0] + ui.dp(16), ui.y, ui.rect[2] - ui.dp(16), ui.y + h)
            ui.mk("text", r, text=shown, style="dialog_title_center", rid=RID + "large_title")
            ui.set_y(r[3] + ui.dp(8))
            ui.button_bar([("Call", lambda: self.no_app(phone), "tonal"),
                           ("Text", lambda: self.no_app(phone), "tonal"),
                           ("Video", lambda: self.no_app(phone), "tonal")])
            ui.divider()
            ui.header("Contact info")
            if not c.phone and not c.email:
                ui.text("No phone number or email", style="summary")
            if c.phone:
                ui.row(c.phone, PHONE_TYPES.get(c.phone_type, "Mobile"), icon="phone",
                       on_click=lambda: self.no_app(phone), rid=RID + "phone_number")
            if c.email:
                ui.row(c.email, "Home", icon="email", on_click=lambda: self.no_app(phone),
                       rid=RID + "email")
            if c.starred:
                ui.text("In favourites", style="caption")

    def do_delete(self, phone: PhoneContext, contact_id: int) -> None:
        super().do_delete(phone, contact_id)
        phone.finish_activity(self)


# --- create / edit ---------------------------------------------------------------------------


class ContactEditorActivity(NextFieldOnEnter, UnsavedChangesGuard, ContactsActivity):
    """Create or edit a contact: first/last name, phone, email; Save in the top bar."""

    name = "com.google.android.apps.contacts.editor.ContactEditorActivity"
    field_order = tuple(k for k, _ in EDITOR_FIELDS)

    def __init__(self, contact_id: int | None = None) -> None:
        super().__init__()
        self.contact_id = contact_id

    @classmethod
    def editing(cls, phone: PhoneContext, contact_id: int) -> ContactEditorActivity:
        """An editor filled with the contact's current values."""
        act = cls(contact_id)
        for key, value in cls.stored_values(phone, contact_id).items():
            act.set_field(key, value)
        return act

    @staticmethod
    def stored_values(phone: PhoneContext, contact_id: int | None) -> dict[str, str]:
        c = book(phone).get(contact_id) if contact_id is not None else None
        if c is None:
            return {**{k: "" for k, _ in EDITOR_FIELDS}, "phone_label": "Mobile"}
        first, last = split_name(c.name)
        return {"first_name": first, "last_name": last, "phone": c.phone, "email": c.email,
                "phone_label": PHONE_TYPES.get(c.phone_type, "Mobile")}

    def title(self, phone: PhoneContext) -> str:
        return "Create contact" if self.contact_id is None else "Edit contact"

    def build(self, ui: UI, phone: PhoneContext) -> None:
        ui.toolbar(self.title(phone), back=lambda: self.close(phone), rid=RID + "toolbar",
                   button=("Save", lambda: self.save(phone)))
        with ui.scroll("form", rid=RID + "editors"):
            if self.contact_id is None:
                ui.text("Saving to Device", style="caption", pad=20)
            for key, hint in EDITOR_FIELDS:
                ui.edit(key, hint, rid=RID + key)
                if key == "phone":  # the number's label, a drop-down under it
                    label = self.label()
                    ui.spinner(label, lambda: self.ask_label(phone), desc=f"{label} Phone",
                               rid=RID + "phone_label", width=160)

    # --- state --------------------------------------------------------------------------
    def label(self) -> str:
        return self.fields.get("phone_label") or "Mobile"

    def values(self) -> dict[str, str]:
        return {**{k: self.fields.get(k, "").strip() for k, _ in EDITOR_FIELDS},
                "phone_label": self.label()}

    def dirty(self, phone: PhoneContext) -> bool:
        return self.values() != self.stored_values(phone, self.contact_id)

    # --- actions --------------------------------------------------------------------------
    def save(self, phone: PhoneContext) -> None:
        v = self.values()
        name = " ".join(p for p in (v["first_name"], v["last_name"]) if p)
        if not (name or v["phone"] or v["email"]):
            phone.toast("Can't save an empty contact")
            return
        display = name or v["phone"] or v["email"]
        self.focus = None
        kind = LABEL_TYPES.get(v["phone_label"], 2)
        if self.contact_id is None:
            new_id = book(phone).add(display, v["phone"], v["email"], phone_type=kind)
            phone.finish_activity(self)
            phone.start_activity(QuickContactActivity(new_id))
        else:
            if book(phone).get(self.contact_id) is not None:
                book(phone).save(self.contact_id, display, v["phone"], v["email"], phone_type=kind)
            phone.finish_activity(self)
        phone.toast("Contact saved")

    def ask_label(self, phone: PhoneContext) -> None:
        """The label drop-down: the choices, the current one checked."""
        self.focus = None
        current = self.label()
        phone.open_popup(self, Dialog("Label", buttons=[Choice("Cancel", "noop")],
                                      choices=[Choice(lb, "set_label", (lb,)) for lb in PHONE_LABELS],
                                      checked=PHONE_LABELS.index(current)
                                      if current in PHONE_LABELS else -1))

    def set_label(self, phone: PhoneContext, label: str) -> None:
        self.fields["phone_label"] = label


