"""Templates in Contacts (`com.google.android.contacts`), as data.

Set-up seeds a fresh address book from the variant's roster (tasks/apps/contacts.py);
checks read `content://com.android.contacts` back as rows, with addition, removal and
change integrity, names compared ignoring case and phone numbers by digits.
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.binding import DONE, P
from antrap_gym.tasks.checks import (
    Added,
    AnswerIs,
    AnyItem,
    Changed,
    ElementShows,
    Eq,
    Fuzzy,
    OnlyItem,
    Phone,
    ProviderQuery,
    Removed,
    RowsExist,
    Text,
    parse_rows,
)
from antrap_gym.tasks.steps import Answer, LongPress, Tap, Target, TypeText
from antrap_gym.tasks.template import DataTask, template

# the adapter's helpers that tests/device/sim/apps/test_contacts_app.py imports from here
make_roster, seed_contacts, parse_rows = ct.make_roster, ct.seed_contacts, parse_rows


class ContactsTask(DataTask):
    """A Contacts template's task, with the app's readers at hand (tests, notebooks)."""

    read = staticmethod(ct.read_people)
    named = staticmethod(ct.named)


contacts = partial(template, apps=(ct.PKG,), setup=[ct.SeedContacts(P("contacts"))],
                   base=ContactsTask)
CREATE = Tap(screen=ct.PEOPLE, target=Target(desc="Create contact"))
SAVE = Tap(screen=ct.EDITOR, target=Target(text="Save"), done=DONE)
NEW_ROW = {"name": Text("{name}"), "phones": AnyItem(Phone("{phone}"))}

# --- AndroidWorld's (tasks/contacts.py there): the names, wording and draws of the reference --
AW_FIRST = ("Alice", "Bob", "Charlie", "David", "Eva", "Frank", "Grace", "Hannah", "Ivan", "Jack")
AW_LAST = ("Johnson", "Smith", "Brown", "Taylor", "Adams", "Wilson", "Lee", "White", "Harris",
           "Clark")
#: the draft's labels: not "Mobile", which the form shows twice (AndroidWorld leaves it out)
DRAFT_LABELS = ("Home", "Work")
LEGACY_PHONES = ProviderQuery("content://contacts/phones", ("display_name", "number"))
NO_CONTACTS = ct.SeedContacts([])


def _aw_contact(rng) -> dict:
    """A random full name and a random +1 number (AndroidWorld: a name and 10 digits, +1)."""
    first, last = (pool[int(rng.integers(len(pool)))] for pool in (ct.FIRST_NAMES, ct.LAST_NAMES))
    return {"name": f"{first} {last}",
            "number": "+1" + ct.AREA_CODES[int(rng.integers(len(ct.AREA_CODES)))]
                      + f"{int(rng.integers(2, 10))}{int(rng.integers(0, 10**6)):06d}"}


ContactsAddContact = template(
    id="ContactsAddContact", apps=(ct.PKG,), source="AndroidWorld", kind="action",
    split="train", complexity=1.2, base=ContactsTask,
    goal="Create a new contact for {name}. Their number is {number}.",
    params=_aw_contact, setup=[NO_CONTACTS], derived=ct.name_parts,
    check=RowsExist(LEGACY_PHONES, ({"display_name": Eq("{name}"), "number": Phone("{number}")},)),
    solution=[ct.open_app(), CREATE, *ct.editor_fields("{first}", "{last}", "{number}"), SAVE],
    doc="AndroidWorld's check: `content://contacts/phones` lists the name with the number "
        "(compared by digits). The address book starts empty, as there.")


def _draft(rng) -> dict:
    return {"first": AW_FIRST[int(rng.integers(len(AW_FIRST)))],
            "last": AW_LAST[int(rng.integers(len(AW_LAST)))],
            "phone": f"{int(rng.integers(100, 1000))}-{int(rng.integers(100, 1000))}-"
                     f"{int(rng.integers(1000, 10000))}",
            "phone_label": DRAFT_LABELS[int(rng.integers(len(DRAFT_LABELS)))]}


LABEL = ct.EDITOR + "|Label"
ContactsNewContactDraft = template(
    id="ContactsNewContactDraft", apps=(ct.PKG,), source="AndroidWorld", kind="action",
    split="test", complexity=1.2, base=ContactsTask,
    goal="Go to the new contact screen and enter the following details: First Name: {first}, "
         "Last Name: {last}, Phone: {phone}, Phone Label: {phone_label}. Do NOT hit save.",
    params=_draft, setup=[NO_CONTACTS],
    check=ElementShows(({"hint_text": "First name", "text": Fuzzy("{first}", 0.9)},
                        {"hint_text": "Last name", "text": Fuzzy("{last}", 0.9)},
                        {"hint_text": "Phone", "text": Phone("{phone}")},
                        {"text": "{phone_label}", "content_description": "{phone_label} Phone"})),
    solution=[ct.open_app(), CREATE, *ct.editor_fields("{first}", "{last}", "{phone}"),
              Tap(screen=ct.EDITOR, target=Target(rid="phone_label")),
              Tap(screen=LABEL, target=Target(text="{phone_label}"), done=DONE)],
    doc="AndroidWorld's check reads the unsaved form on screen: the fields by their hints "
        "(names fuzzy at 0.9, the number by digits) and the label drop-down by its text and "
        "description. The catalog gives complexity 1.2; a later AndroidWorld revision says 2.")

ContactsAddContactWithEmail = contacts(
    id="ContactsAddContactWithEmail", kind="action", split="test", complexity=2.0,
    goal="Add {name} to my contacts with the phone number {phone} and the email address {email}.",
    params=lambda rng: ct.newcomer(rng, 5, email=True), derived=ct.name_parts,
    check=Added(ct.PEOPLE_ROWS, ({**NEW_ROW, "emails": AnyItem(Text("{email}"))},)),
    solution=[ct.open_app(), CREATE,
              *ct.editor_fields("{first}", "{last}", "{phone}", "{email}"), SAVE])


def _pick(rng, n: int) -> dict:
    roster = ct.make_roster(rng, n)
    return {"contacts": roster, "name": ct.one_of(rng, roster)[0]}


ContactsDeleteContact = contacts(
    id="ContactsDeleteContact", kind="action", split="train", complexity=1.2,
    goal="Delete the contact {name}.",
    params=lambda rng: _pick(rng, 7),
    check=Removed(ct.PEOPLE_ROWS, {"name": Text("{name}")}),
    solution=[ct.open_app(), LongPress(screen=ct.PEOPLE, target=Target(text="{name}")),
              Tap(screen=ct.MENU, target=Target(text="Delete"), requires=ct.menu_of("{name}")),
              Tap(screen=ct.DELETE_DIALOG, target=Target(text="Delete"), done=DONE)])


def _new_number(rng) -> dict:
    roster = ct.make_roster(rng, 7)
    target = ct.one_of(rng, roster)
    return {"contacts": roster, "name": target[0], "phone": ct.new_person(rng, roster)[1],
            "old_phone": target[1]}


THEIRS = Target(rid="first_name", text="{first}")  # the editor holds this contact
ContactsEditPhone = contacts(
    id="ContactsEditPhone", kind="action", split="train", complexity=1.5,
    goal="Change {name}'s phone number to {phone}.",
    params=_new_number, derived=ct.name_parts,
    check=Changed(ct.PEOPLE_ROWS, {"name": Text("{name}")}, {"phones": OnlyItem(Phone("{phone}"))}),
    solution=[ct.open_app(), ct.open_contact("{name}"),
              Tap(screen=ct.DETAILS, target=Target(desc="Edit contact"), requires=ct.shows("{name}")),
              TypeText(screen=ct.EDITOR, target=ct.field("phone"), text="{phone}", requires=THEIRS),
              Tap(screen=ct.EDITOR, target=Target(text="Save"), requires=THEIRS, done=DONE)])


def _starred(rng, n: int, star: bool, below_fold: bool) -> dict:
    """A roster where some are favourites and the target starts as not `star`."""
    roster = ct.make_roster(rng, n, star_rate=0.3)
    if below_fold:
        target = roster[ct.last_in_list(rng, roster)]
    else:
        plain = [p for p in roster if not p[3]] or roster
        target = plain[int(rng.integers(len(plain)))]
    target[3] = not star
    return {"contacts": roster, "name": target[0]}


ContactsStarContact = contacts(
    id="ContactsStarContact", kind="action", split="train", family="ContactsStar", complexity=1.0,
    goal="Add {name} to my favourite contacts.",
    params=lambda rng: _starred(rng, 7, star=True, below_fold=False),
    check=Changed(ct.PEOPLE_ROWS, {"name": Text("{name}")}, {"starred": Eq(True)}),
    solution=[ct.open_app(), ct.open_contact("{name}"),
              Tap(screen=ct.DETAILS, target=Target(desc="Add to favourites"),
                  requires=ct.shows("{name}"), done=DONE)])

ContactsUnstarContact = contacts(
    id="ContactsUnstarContact", kind="action", split="train", family="ContactsStar",
    complexity=1.5, needs_scroll=True,
    goal="Remove {name} from my favourites.",
    params=lambda rng: _starred(rng, 18, star=False, below_fold=True),
    check=Changed(ct.PEOPLE_ROWS, {"name": Text("{name}")}, {"starred": Eq(False)}),
    solution=[ct.open_app(), LongPress(screen=ct.PEOPLE, target=Target(text="{name}")),
              Tap(screen=ct.MENU, target=Target(text="Remove from favourites"),
                  requires=ct.menu_of("{name}"), done=DONE)])


# --- information retrieval: the answer must name no other contact ---------------------------


def _someone(rng, n: int) -> dict:
    roster = ct.make_roster(rng, n)
    i = int(rng.integers(len(roster)))
    return {"contacts": roster, "name": roster[i][0], "phone": roster[i][1]}


def _email_below_fold(rng) -> dict:
    roster = ct.make_roster(rng, 20)
    target = roster[ct.last_in_list(rng, roster)]
    if not target[2]:
        first, last = target[0].lower().split(" ", 1)
        target[2] = f"{first}.{last}@{ct.DOMAINS[int(rng.integers(len(ct.DOMAINS)))]}"
    return {"contacts": roster, "name": target[0], "email": target[2]}


def _favourites(rng) -> dict:
    roster = ct.make_roster(rng, int(rng.integers(7, 12)))
    k = int(rng.integers(1, 6))
    for i in rng.choice(len(roster), size=k, replace=False):
        roster[int(i)][3] = True
    return {"contacts": roster, "count": k}


ANSWER = Answer(text="{answer}")

ContactsPhoneQuestion = contacts(
    id="ContactsPhoneQuestion", kind="answer", split="train", family="ContactsFieldQuestion", complexity=1.0,
    goal="What is {name}'s phone number?",
    params=lambda rng: _someone(rng, 8),
    check=AnswerIs("{phone}", kind="phone", distractors=ct.NAMES),
    solution=[ct.open_app(), ct.open_contact("{name}"), ANSWER])

ContactsEmailQuestion = contacts(
    id="ContactsEmailQuestion", kind="answer", split="train", family="ContactsFieldQuestion",
    complexity=1.4, needs_scroll=True,
    goal="What is {name}'s email address?",
    params=_email_below_fold,
    check=AnswerIs("{email}", kind="email", distractors=ct.NAMES),
    solution=[ct.open_app(), ct.open_contact("{name}"), ANSWER])

ContactsFavouriteCount = contacts(
    id="ContactsFavouriteCount", kind="answer", split="train", family="ContactsFavouriteCount",
    complexity=1.0,
    goal="How many of my contacts are marked as favourites?",
    params=_favourites,
    check=AnswerIs("{count}", kind="number", distractors=ct.NAMES),
    solution=[ct.open_app(), Tap(screen=ct.PEOPLE, target=Target(text="Favourites")), ANSWER])

ContactsWhoseNumber = contacts(
    id="ContactsWhoseNumber", kind="answer", split="test", complexity=1.2,
    goal="Which of my contacts has the phone number {phone}? Answer with their full name.",
    params=lambda rng: _someone(rng, 14),
    check=AnswerIs("{name}", distractors=ct.NAMES),
    solution=[ct.open_app(), TypeText(screen=ct.PEOPLE, target=ct.field("open_search_bar_text_view"),
                                      text="{phone}"), ANSWER])
