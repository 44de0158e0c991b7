"""Contacts (`com.google.android.contacts`) for tasks: the seeded roster, seeding and
reading the address book through `content` (the portable recipe a real phone
accepts: raw contact rows, then typed data rows, in a few shell calls whatever the
roster's size), the address book as rows for the check library, and the app's
screens and fields for solutions.
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.base import TaskError
from antrap_gym.tasks.binding import F
from antrap_gym.tasks.checks.provider import parse_rows
from antrap_gym.tasks.recipes import UNSET, Recipe, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

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


# --- seeded parameters --------------------------------------------------------------------


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


def newcomer(rng: np.random.Generator, n: int, email: bool = False) -> dict[str, Any]:
    """A roster of n and someone to add to it: {contacts, name, phone[, email]}."""
    roster = make_roster(rng, n)
    p = new_person(rng, roster)
    return {"contacts": roster, "name": p[0], "phone": p[1], **({"email": p[2]} if email else {})}


def one_of(rng: np.random.Generator, roster: list[Person]) -> Person:
    return roster[int(rng.integers(len(roster)))]


def name_parts(params: dict[str, Any]) -> dict[str, str]:
    """Derived values: {first, last} of params["name"]."""
    first, _, last = params["name"].partition(" ")
    return {"first": first, "last": last}


#: every roster name (an answer naming one of them beside the right one scores 0)
NAMES = F(lambda p: [c[0] for c in p["contacts"]])


# --- comparing -------------------------------------------------------------------------------


def same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


# --- the shell side ------------------------------------------------------------------------------

_PEOPLE_CMD = (f"content query --uri {URI}/contacts --projection _id:display_name:starred"
               f" && content query --uri {URI}/data --projection contact_id:mimetype:data1")


def _people(out: str) -> list[dict[str, Any]]:
    people = {r["_id"]: {"id": r["_id"], "name": r["display_name"], "starred": r["starred"] == "1",
                         "phones": [], "emails": []}
              for r in parse_rows(out, ["_id", "display_name", "starred"])}
    for r in parse_rows(out, ["contact_id", "mimetype", "data1"]):
        key = {MIME_PHONE: "phones", MIME_EMAIL: "emails"}.get(r["mimetype"])
        if key and r["contact_id"] in people:
            people[r["contact_id"]][key].append(r["data1"])
    return list(people.values())


def read_people(device: Device) -> list[dict[str, Any]]:
    """Every contact: {id, name, starred, phones: [...], emails: [...]} (one shell call)."""
    res = device.shell(_PEOPLE_CMD)
    if res.exit_code != 0:
        raise TaskError(f"cannot read the address book: {res.stderr.strip()}")
    return _people(res.stdout)


def named(device: Device, name: str) -> list[dict[str, Any]]:
    return [p for p in read_people(device) if same_name(p["name"], name)]


def replace_contacts(device: Device, people: list[Any], read_first: bool = False
                     ) -> list[dict[str, Any]] | None:
    """Empty the address book, then add `people` (roster entries, or contacts as
    `read_people` gives them) in four shell calls; with `read_first`, return what the
    book held (read in the same first call)."""
    q = shlex.quote
    wipe = f"content delete --uri {URI}/raw_contacts"
    before = _people(sh(device, f"{_PEOPLE_CMD} && {wipe}")) if read_first else None
    if not read_first:
        sh(device, wipe)
    if not people:
        return before
    sh(device, " && ".join(
        f"content insert --uri {URI}/raw_contacts --bind account_type:n: --bind account_name:n:"
        f" --bind starred:i:{int(_entry(p)[3])}" for p in people))
    out = sh(device, f"content query --uri {URI}/raw_contacts --projection _id --sort {q('_id DESC')}")
    ids = [r["_id"] for r in parse_rows(out, ["_id"])][: len(people)][::-1]
    if len(ids) != len(people):
        raise TaskError(f"expected {len(people)} new raw contacts, found {len(ids)}")
    cmds = []
    for rid, (name, phones, emails, _starred) in zip(ids, map(_entry, people)):
        base = f"content insert --uri {URI}/data --bind raw_contact_id:i:{rid} --bind mimetype:s:"
        cmds.append(f"{base}{MIME_NAME} --bind {q('data1:s:' + name)}")
        cmds += [f"{base}{MIME_PHONE} --bind {q('data1:s:' + ph)} --bind data2:i:2" for ph in phones]
        cmds += [f"{base}{MIME_EMAIL} --bind {q('data1:s:' + e)} --bind data2:i:1" for e in emails]
    sh(device, " && ".join(cmds))
    return before


def seed_contacts(device: Device, people: list[Person]) -> None:
    """Empty the address book, then add `people` (four shell calls in all)."""
    replace_contacts(device, people)


def _entry(p: Any) -> tuple[str, list[str], list[str], bool]:
    """A roster entry or a contact as read back, as (name, phones, emails, starred)."""
    if isinstance(p, dict):
        return p["name"], list(p["phones"]), list(p["emails"]), bool(p["starred"])
    name, phone, email, starred = p
    return name, [phone] if phone else [], [email] if email else [], bool(starred)


@dataclasses.dataclass
class SeedContacts(Recipe):
    """The address book holds exactly `people` (a roster); tear-down puts back the
    contacts that were there before (read in set-up's first shell call)."""

    people: Any

    def apply(self, device: Device) -> None:
        first = self.saved is UNSET
        before = replace_contacts(device, list(self.people or []), read_first=first)
        if first:
            self.saved = before

    def restore(self, device: Device, saved: Any) -> None:
        replace_contacts(device, list(saved or []))


@dataclasses.dataclass(frozen=True)
class People:
    """A row source: the address book as {id, name, starred, phones, emails} rows."""

    key: str = "id"

    def rows(self, device: Device) -> list[dict[str, Any]]:
        return read_people(device)


PEOPLE_ROWS = People()


def state(device: Device) -> list[tuple]:
    """What the contract compares before set-up and after tear-down: every contact's
    name, star, phones and emails (ids aside)."""
    return sorted((p["name"], p["starred"], tuple(p["phones"]), tuple(p["emails"]))
                  for p in read_people(device))


# --- solution steps ----------------------------------------------------------------------------------


def open_app() -> OpenApp:
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


def shows(name: str) -> Target:
    """A contact's details screen headed with `name` (not a neighbour's)."""
    return Target(rid="large_title", text=name)


def menu_of(name: str) -> Target:
    """A long-press menu headed with `name` (not a neighbour's menu)."""
    return Target(rid="title", text=name)
