"""Tasks in Contacts (`com.google.android.contacts`), set up and checked through `content`.

Set-up seeds a fresh address book with the portable recipe a real phone
accepts (raw contact rows, then typed data rows), in four shell calls
whatever the size of the roster; checks read `content://com.android.contacts`
back and compare names case-insensitively and phone numbers by digits.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import numpy as np

from antrap_gym.tasks.base import Task, TaskError, answer_matches
from antrap_gym.tasks.registry import register
from antrap_gym.tasks.steps import Answer, LongPress, OpenApp, Step, Tap, Target, TypeText

PKG = "com.google.android.contacts"
URI = "content://com.android.contacts"
PEOPLE = ".activities.PeopleActivity"
#: a long-press menu open over the list (the oracle re-opens it after a disruption)
MENU = PEOPLE + "|menu"
DETAILS = ".quickcontact.QuickContactActivity"
EDITOR = ".editor.ContactEditorActivity"
DELETE_DIALOG = PEOPLE + "|Delete this contact?"
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"

FIRST_NAMES = (
    "Aaliyah", "Ben", "Camila", "Dmitri", "Elena", "Farah", "Gabriel", "Hiro", "Ines", "Jamal",
    "Keiko", "Liam", "Maya", "Noah", "Olga", "Priya", "Quentin", "Rosa", "Samuel", "Tara",
    "Umar", "Valentina", "Wei", "Ximena", "Yusuf", "Zoe", "Arjun", "Beatriz", "Chloe", "Diego",
)
LAST_NAMES = (
    "Okafor", "Lindqvist", "Moreno", "Tanaka", "Novak", "Haddad", "Fischer", "Kowalski", "Mensah",
    "Rossi", "Dubois", "Nguyen", "Patel", "Schmidt", "Alvarez", "Johansson", "Costa", "Ibrahim",
    "Murphy", "Kim", "Silva", "Andersen", "Chen", "Walker",
)
AREA_CODES = ("212", "305", "312", "415", "503", "617", "646", "702", "713", "808")
DOMAINS = ("gmail.com", "outlook.com", "example.com", "proton.me", "yahoo.com")

#: one roster entry: [display name, phone, email, starred]
Person = list


# --- seeded parameters --------------------------------------------------------------------------


def make_roster(rng: np.random.Generator, n: int, email_rate: float = 0.7,
                star_rate: float = 0.0) -> list[Person]:
    """n people with distinct first names (so names never collide) and distinct numbers."""
    firsts = rng.choice(len(FIRST_NAMES), size=n, replace=False)
    lasts = rng.integers(0, len(LAST_NAMES), size=n)
    nums = rng.choice(100, size=n, replace=False)
    out: list[Person] = []
    for i in range(n):
        first, last = FIRST_NAMES[int(firsts[i])], LAST_NAMES[int(lasts[i])]
        area = AREA_CODES[int(rng.integers(len(AREA_CODES)))]
        phone = f"+1 {area}-555-01{int(nums[i]):02d}"
        email = (f"{first.lower()}.{last.lower()}@{DOMAINS[int(rng.integers(len(DOMAINS)))]}"
                 if rng.random() < email_rate else "")
        out.append([f"{first} {last}", phone, email, bool(rng.random() < star_rate)])
    return out


def new_person(rng: np.random.Generator, roster: list[Person]) -> Person:
    """Someone not in `roster` (first name and number unused), with an email."""
    used_first = {p[0].split()[0] for p in roster}
    used_num = {p[1][-4:] for p in roster}
    first = str(rng.choice([f for f in FIRST_NAMES if f not in used_first]))
    last = LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]
    num = str(rng.choice([f"01{i:02d}" for i in range(100) if f"01{i:02d}" not in used_num]))
    area = AREA_CODES[int(rng.integers(len(AREA_CODES)))]
    email = f"{first.lower()}.{last.lower()}@{DOMAINS[int(rng.integers(len(DOMAINS)))]}"
    return [f"{first} {last}", f"+1 {area}-555-{num}", email, False]


def sort_key(name: str) -> str:
    return name.casefold()


def last_in_list(rng: np.random.Generator, roster: list[Person], k: int = 3) -> int:
    """Index of one of the last k people in A-Z order: below the fold on a phone screen."""
    order = sorted(range(len(roster)), key=lambda i: sort_key(roster[i][0]))
    return order[-1 - int(rng.integers(k))]


# --- comparing ------------------------------------------------------------------------------------


def digits(s: str) -> str:
    return re.sub(r"\D", "", s or "")


def same_phone(a: str, b: str) -> bool:
    """Equal digits, or equal national numbers (with or without the +1)."""
    da, db = digits(a), digits(b)
    return bool(da) and (da == db or (len(da) >= 10 and len(db) >= 10 and da[-10:] == db[-10:]))


def same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


# --- the shell side ----------------------------------------------------------------------------------


def parse_rows(out: str, columns: list[str]) -> list[dict[str, str]]:
    """`content query` output (projection `columns`, in order) as dicts."""
    pat = re.compile(r"^Row: \d+ " + ", ".join(f"{re.escape(c)}=(.*?)" for c in columns) + r"$")
    rows = []
    for line in out.splitlines():
        m = pat.match(line.rstrip("\r"))
        if m:
            rows.append({c: ("" if v == "NULL" else v) for c, v in zip(columns, m.groups())})
    return rows


class ContactsTask(Task):
    """Base: seeds `params["contacts"]` into an empty address book."""

    apps = (PKG,)
    roster_size: ClassVar[int] = 6

    # --- set-up -----------------------------------------------------------------------------
    def setup(self, device) -> None:
        seed_contacts(device, self.params.get("contacts", []))

    def teardown(self, device) -> None:
        device.shell(f"content delete --uri {URI}/raw_contacts")

    # --- reading back ------------------------------------------------------------------------
    @staticmethod
    def read(device) -> list[dict[str, Any]]:
        """Every contact: {id, name, starred, phones: [...], emails: [...]}."""
        out = device.shell(f"content query --uri {URI}/contacts --projection _id:display_name:starred"
                           ).stdout
        people = {r["_id"]: {"id": r["_id"], "name": r["display_name"], "starred": r["starred"] == "1",
                             "phones": [], "emails": []}
                  for r in parse_rows(out, ["_id", "display_name", "starred"])}
        for path, key in (("data/phones", "phones"), ("data/emails", "emails")):
            out = device.shell(f"content query --uri {URI}/{path} --projection contact_id:data1").stdout
            for r in parse_rows(out, ["contact_id", "data1"]):
                if r["contact_id"] in people:
                    people[r["contact_id"]][key].append(r["data1"])
        return list(people.values())

    @classmethod
    def named(cls, device, name: str) -> list[dict[str, Any]]:
        return [p for p in cls.read(device) if same_name(p["name"], name)]


def seed_contacts(device, people: list[Person]) -> None:
    """Empty the address book, then add `people` (four shell calls in all)."""
    q = Task.q
    Task.sh(device, f"content delete --uri {URI}/raw_contacts")
    if not people:
        return
    Task.sh(device, " && ".join(
        f"content insert --uri {URI}/raw_contacts --bind account_type:n: --bind account_name:n:"
        f" --bind starred:i:{int(bool(p[3]))}" for p in people))
    out = Task.sh(device, f"content query --uri {URI}/raw_contacts --projection _id --sort {q('_id DESC')}")
    ids = [r["_id"] for r in parse_rows(out, ["_id"])][: len(people)][::-1]
    if len(ids) != len(people):
        raise TaskError(f"expected {len(people)} new raw contacts, found {len(ids)}")
    cmds = []
    for rid, (name, phone, email, _starred) in zip(ids, people):
        base = f"content insert --uri {URI}/data --bind raw_contact_id:i:{rid} --bind mimetype:s:"
        cmds.append(f"{base}{MIME_NAME} --bind {q('data1:s:' + name)}")
        if phone:
            cmds.append(f"{base}{MIME_PHONE} --bind {q('data1:s:' + phone)} --bind data2:i:2")
        if email:
            cmds.append(f"{base}{MIME_EMAIL} --bind {q('data1:s:' + email)} --bind data2:i:1")
    Task.sh(device, " && ".join(cmds))


# --- solution helpers -----------------------------------------------------------------------------------


def open_contacts() -> OpenApp:
    return OpenApp(app="Contacts", package=PKG)


def open_contact(name: str) -> Tap:
    return Tap(screen=PEOPLE, target=Target(text=name))


def field(rid: str) -> Target:
    """An editor or search field by resource id: the element list drops a field's hint
    once it holds text, so hints cannot find filled fields."""
    return Target(rid=rid, cls="EditText")


def editor_fields(first: str, last: str, phone: str, email: str = "") -> list[Step]:
    steps: list[Step] = [
        TypeText(screen=EDITOR, target=field("first_name"), text=first),
        TypeText(screen=EDITOR, target=field("last_name"), text=last),
        TypeText(screen=EDITOR, target=field("phone"), text=phone),
    ]
    if email:
        steps.append(TypeText(screen=EDITOR, target=field("email"), text=email))
    return steps


# --- templates -----------------------------------------------------------------------------------------


@register
class ContactsAddContact(ContactsTask):
    template = "Create a new contact named {name} with the phone number {phone}."
    complexity = 1.6

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 5)
        p = new_person(rng, roster)
        return {"contacts": roster, "name": p[0], "phone": p[1]}

    def is_successful(self, device, answer=None) -> float:
        return float(any(any(same_phone(ph, self.params["phone"]) for ph in c["phones"])
                         for c in self.named(device, self.params["name"])))

    def solution(self):
        first, _, last = self.params["name"].partition(" ")
        return [open_contacts(),
                Tap(screen=PEOPLE, target=Target(desc="Create contact")),
                *editor_fields(first, last, self.params["phone"]),
                Tap(screen=EDITOR, target=Target(text="Save"),
                    done=lambda dev: bool(self.is_successful(dev)))]


@register
class ContactsAddContactWithEmail(ContactsTask):
    template = ("Add {name} to my contacts with the phone number {phone} and the email address "
                "{email}.")
    complexity = 2.0

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 5)
        p = new_person(rng, roster)
        return {"contacts": roster, "name": p[0], "phone": p[1], "email": p[2]}

    def is_successful(self, device, answer=None) -> float:
        want = self.params["email"].casefold()
        return float(any(any(same_phone(ph, self.params["phone"]) for ph in c["phones"])
                         and any(e.strip().casefold() == want for e in c["emails"])
                         for c in self.named(device, self.params["name"])))

    def solution(self):
        first, _, last = self.params["name"].partition(" ")
        return [open_contacts(),
                Tap(screen=PEOPLE, target=Target(desc="Create contact")),
                *editor_fields(first, last, self.params["phone"], self.params["email"]),
                Tap(screen=EDITOR, target=Target(text="Save"),
                    done=lambda dev: bool(self.is_successful(dev)))]


@register
class ContactsDeleteContact(ContactsTask):
    template = "Delete the contact {name}."
    complexity = 1.2

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 7)
        return {"contacts": roster, "name": roster[int(rng.integers(len(roster)))][0]}

    def is_successful(self, device, answer=None) -> float:
        people = self.read(device)
        others = {p[0].casefold() for p in self.params["contacts"]} - {self.params["name"].casefold()}
        names = {" ".join(p["name"].split()).casefold() for p in people}
        return float(others <= names and not self.named(device, self.params["name"])
                     and len(people) == len(others))

    def solution(self):
        return [open_contacts(),
                LongPress(screen=PEOPLE, target=Target(text=self.params["name"])),
                Tap(screen=MENU, target=Target(text="Delete"),
                    requires=Target(rid="title", text=self.params["name"])),
                Tap(screen=DELETE_DIALOG, target=Target(text="Delete"),
                    done=lambda dev: bool(self.is_successful(dev)))]


@register
class ContactsEditPhone(ContactsTask):
    template = "Change {name}'s phone number to {phone}."
    complexity = 1.5

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 7)
        target = roster[int(rng.integers(len(roster)))]
        return {"contacts": roster, "name": target[0], "phone": new_person(rng, roster)[1],
                "old_phone": target[1]}

    def is_successful(self, device, answer=None) -> float:
        people = self.named(device, self.params["name"])
        return float(len(people) == 1 and len(people[0]["phones"]) == 1
                     and same_phone(people[0]["phones"][0], self.params["phone"])
                     and len(self.read(device)) == len(self.params["contacts"]))

    def solution(self):
        first = self.params["name"].partition(" ")[0]
        theirs = Target(rid="first_name", text=first)  # the editor holds this contact
        return [open_contacts(), open_contact(self.params["name"]),
                Tap(screen=DETAILS, target=Target(desc="Edit contact"),
                    requires=shows(self.params["name"])),
                TypeText(screen=EDITOR, target=field("phone"), text=self.params["phone"],
                         requires=theirs),
                Tap(screen=EDITOR, target=Target(text="Save"), requires=theirs,
                    done=lambda dev: bool(self.is_successful(dev)))]


class FavouriteTask(ContactsTask):
    """Star or unstar one contact; every other contact's star must stay as it was."""

    want_starred: ClassVar[bool] = True

    def is_successful(self, device, answer=None) -> float:
        want = {p[0].casefold(): bool(p[3]) for p in self.params["contacts"]}
        want[self.params["name"].casefold()] = self.want_starred
        got = {" ".join(p["name"].split()).casefold(): p["starred"] for p in self.read(device)}
        return float(got == want)


@register
class ContactsStarContact(FavouriteTask):
    template = "Add {name} to my favourite contacts."
    complexity = 1.0

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 7, star_rate=0.3)
        plain = [p for p in roster if not p[3]] or roster
        target = plain[int(rng.integers(len(plain)))]
        target[3] = False
        return {"contacts": roster, "name": target[0]}

    def solution(self):
        return [open_contacts(), open_contact(self.params["name"]),
                Tap(screen=DETAILS, target=Target(desc="Add to favourites"),
                    requires=shows(self.params["name"]),
                    done=lambda dev: bool(self.is_successful(dev)))]


@register
class ContactsUnstarContact(FavouriteTask):
    template = "Remove {name} from my favourites."
    complexity = 1.5
    needs_scroll = True
    want_starred = False

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 18, star_rate=0.3)
        target = roster[last_in_list(rng, roster)]
        target[3] = True
        return {"contacts": roster, "name": target[0]}

    def solution(self):
        return [open_contacts(),
                LongPress(screen=PEOPLE, target=Target(text=self.params["name"])),
                Tap(screen=MENU, target=Target(text="Remove from favourites"),
                    requires=Target(rid="title", text=self.params["name"]),
                    done=lambda dev: bool(self.is_successful(dev)))]


def shows(name: str) -> Target:
    """A contact's details screen headed with `name` (not a neighbour's)."""
    return Target(rid="large_title", text=name)


class ContactsQuestion(ContactsTask):
    """Information retrieval: read something off the Contacts app and answer it."""

    answer_task = True

    def expected(self) -> str:
        raise NotImplementedError

    def distractors(self) -> list[str]:
        """The other candidates an answer could name instead: everyone else's name."""
        return [p[0] for p in self.params.get("contacts", []) if p[0] != self.expected()]

    def is_successful(self, device, answer=None) -> float:
        return float(answer_matches(answer, self.expected(), self.answer_kind, self.distractors()))


@register
class ContactsPhoneQuestion(ContactsQuestion):
    template = "What is {name}'s phone number?"
    complexity = 1.0
    answer_kind = "phone"

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 8)
        i = int(rng.integers(len(roster)))
        return {"contacts": roster, "name": roster[i][0], "phone": roster[i][1]}

    def expected(self) -> str:
        return self.params["phone"]

    def solution(self):
        return [open_contacts(), open_contact(self.params["name"]), Answer(text=self.expected())]


@register
class ContactsEmailQuestion(ContactsQuestion):
    template = "What is {name}'s email address?"
    complexity = 1.4
    answer_kind = "email"
    needs_scroll = True

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 20)
        target = roster[last_in_list(rng, roster)]
        if not target[2]:
            first, last = target[0].lower().split(" ", 1)
            target[2] = f"{first}.{last}@{DOMAINS[int(rng.integers(len(DOMAINS)))]}"
        return {"contacts": roster, "name": target[0], "email": target[2]}

    def expected(self) -> str:
        return self.params["email"]

    def solution(self):
        return [open_contacts(), open_contact(self.params["name"]), Answer(text=self.expected())]


@register
class ContactsFavouriteCount(ContactsQuestion):
    template = "How many of my contacts are marked as favourites?"
    complexity = 1.0
    answer_kind = "number"

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, int(rng.integers(7, 12)))
        k = int(rng.integers(1, 6))
        for i in rng.choice(len(roster), size=k, replace=False):
            roster[int(i)][3] = True
        return {"contacts": roster, "count": k}

    def expected(self) -> str:
        return str(self.params["count"])

    def solution(self):
        return [open_contacts(), Tap(screen=PEOPLE, target=Target(text="Favourites")),
                Answer(text=self.expected())]


@register
class ContactsWhoseNumber(ContactsQuestion):
    template = "Which of my contacts has the phone number {phone}? Answer with their full name."
    complexity = 1.2

    @classmethod
    def generate_params(cls, rng):
        roster = make_roster(rng, 14)
        i = int(rng.integers(len(roster)))
        return {"contacts": roster, "name": roster[i][0], "phone": roster[i][1]}

    def expected(self) -> str:
        return self.params["name"]

    def solution(self):
        return [open_contacts(),
                TypeText(screen=PEOPLE, target=field("open_search_bar_text_view"),
                         text=self.params["phone"]),
                Answer(text=self.expected())]
