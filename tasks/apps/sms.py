"""Simple SMS Messenger (`com.simplemobiletools.smsmessenger`) for tasks: the seeded
draws (numbers, message pools), seeding the telephony provider through the shell and
reading it back, and the app's screens for solutions.

Set-up empties the SMS store (`content delete --uri content://sms`: threads go with
their last message) and writes the variant's messages with one `content insert` per
message, all in one shell call. AndroidWorld receives incoming texts through the
emulator console's `sms send`; the Device protocol has no console, and `content insert
--uri content://sms/inbox` files a text the same way on a rooted emulator.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from antrap_gym.tasks.apps.markor import SENTENCES
from antrap_gym.tasks.checks.provider import parse_rows
from antrap_gym.tasks.recipes import UNSET, Recipe, q, sh
from antrap_gym.tasks.steps import OpenApp, Step, Tap, Target, TypeText

if TYPE_CHECKING:
    from antrap_gym.device import Device

PKG = "com.simplemobiletools.smsmessenger"
URI = "content://sms"
MAIN = ".activities.MainActivity"
NEW = ".activities.NewConversationActivity"
THREAD = ".activities.ThreadActivity"
#: a message's long-press menu (or the message field's text toolbar) open over a thread
THREAD_MENU = THREAD + "|menu"
START = "Start a conversation"
COLUMNS = ("_id", "address", "date", "type", "read", "body")

#: AndroidWorld's messages are its 40 RANDOM_SENTENCES; ours are the same shape (one
#: sentence, 13..59 characters), shared with Markor's notes
MESSAGES = SENTENCES
#: AndroidWorld's SimpleSmsSendReceivedAddress draws one of eight US street addresses
ADDRESSES = (
    "41 Harbor Rd, Juneau, AK, 99801", "2210 Vine St, Tucson, AZ 85705",
    "88 Magnolia Ave, Mobile, AL, 36602", "517 Pine Ridge Dr, Fort Smith, AR, 72901",
    "1300 Aspen Way Boulder, CO, 80302", "74 Linden St, New Haven, CT, 06511",
    "905 Walnut Ct, Newark, DE, 19711", "3120 Peachtree Ln, Savannah, GA, 31401",
)
#: AndroidWorld's random names: a common given name and family name
GIVEN = ("Amelia", "Carlos", "Fatima", "Hugo", "Isla", "Jose", "Laura", "Leon", "Maryam", "Mateo",
         "Nora", "Oscar", "Sofia", "Theo", "Victoria", "William")
FAMILY = ("Ahmed", "Alves", "Chen", "Fernandez", "Garcia", "Ibrahim", "Li", "Lopez", "Martin",
          "Muller", "Pereira", "Wang")
#: what the reference's resend task has the other side text after the message
GLITCH = "Sorry, there was a glitch, what was the last message you sent me?"

# AnTrap's sms_extras pools: a greeting (6), a question (8), an urgent text (6, each
# already beginning "URGENT:"), a thank-you (6)
GREETINGS = (
    "Hi! Hope your week is going great.", "Hello there, it has been a while!",
    "Hey, how are things with you?", "Good morning! Wishing you a lovely day.",
    "Good evening! Hope today treated you well.", "Hi, just wanted to say hello.",
)
QUESTIONS = (
    "Are you coming to the game tonight?", "Did you get a chance to read my email?",
    "What time does the movie start?", "Could you send me the address again?",
    "Should I bring anything for dinner?", "Have you booked the train tickets yet?",
    "When will you be back home?", "Is the meeting still on for Monday?",
)
URGENT = (
    "URGENT: Call me back right away.", "URGENT: The client call moved to 4pm today.",
    "URGENT: Your car lights are still on in the garage.",
    "URGENT: Please sign the contract before noon.", "URGENT: The water pipe in the kitchen burst.",
    "URGENT: Pick up the kids, I am stuck in traffic.",
)
THANKS = (
    "Thanks so much for the ride this morning!", "Thank you for the lovely flowers.",
    "Thanks for helping me move on Saturday.", "Thank you for watching the dog this weekend.",
    "Many thanks for the book recommendation, it was great!",
    "Thanks for fixing my bike so quickly.",
)

#: one seeded message: [address, body, type (1 inbox, 2 sent), minutes before now]
Sms = list


# --- seeded parameters --------------------------------------------------------------------


def one_of(rng: np.random.Generator, pool: tuple[str, ...]) -> str:
    return str(pool[int(rng.integers(len(pool)))])


def random_number(rng: np.random.Generator) -> str:
    """+1 and ten random digits (AndroidWorld's generate_random_number)."""
    return "+1" + "".join(str(int(d)) for d in rng.integers(0, 10, size=10))


def random_name(rng: np.random.Generator, avoid: str = "") -> str:
    """A given and a family name, sharing no word with `avoid`."""
    taken = set(avoid.split())
    given = one_of(rng, tuple(g for g in GIVEN if g not in taken))
    family = one_of(rng, tuple(f for f in FAMILY if f not in taken))
    return f"{given} {family}"


def other_message(rng: np.random.Generator, *avoid: str) -> str:
    return one_of(rng, tuple(m for m in MESSAGES if m not in avoid))


def send(pool: tuple[str, ...] = MESSAGES):
    """A draw: {number, message} (AndroidWorld's SimpleSMSSendSms.generate_random_params)."""
    def draw(rng: np.random.Generator) -> dict[str, Any]:
        return {"number": random_number(rng), "message": one_of(rng, pool)}
    return draw


# --- the shell side ------------------------------------------------------------------------


def device_ms(device: Device) -> int:
    """The device clock in ms, as the reference reads it (`date +%s`)."""
    return int(sh(device, "date +%s").strip()) * 1000


def read_messages(device: Device, box: str = "") -> list[dict[str, str]]:
    """Every message of `content://sms[/box]`, newest first."""
    uri = f"{URI}/{box}" if box else URI
    return parse_rows(sh(device, f"content query --uri {uri} --projection {':'.join(COLUMNS)}"),
                      list(COLUMNS))


def _insert(address: str, body: str, kind: int, date_ms: int) -> str:
    box = "sent" if kind == 2 else "inbox"
    read = " --bind read:i:1" if kind == 2 else ""
    return (f"content insert --uri {URI}/{box} --bind {q('address:s:' + address)}"
            f" --bind {q('body:s:' + body)} --bind date:l:{int(date_ms)}{read}")


def replace_messages(device: Device, messages: list[Any], now_ms: int | None = None) -> None:
    """Empty the SMS store, then write `messages` ([address, body, type, minutes ago], or
    rows as `read_messages` gives them) in one shell call."""
    cmds = [f"am force-stop {PKG}", f"content delete --uri {URI}"]
    for m in messages:
        if isinstance(m, dict):
            cmds.append(_insert(m["address"], m["body"], int(m["type"]), int(m["date"])))
        else:
            address, body, kind, ago = m
            cmds.append(_insert(address, body, int(kind), int(now_ms or 0) - int(ago) * 60_000))
    sh(device, " && ".join(cmds))


@dataclasses.dataclass
class SeedMessages(Recipe):
    """The SMS store holds exactly `messages` ([address, body, type, minutes before the
    device time]), oldest first; tear-down puts back what it held before."""

    messages: Any

    def apply(self, device: Device) -> None:
        if self.saved is UNSET:
            self.saved = read_messages(device)[::-1]
        replace_messages(device, list(self.messages or []), device_ms(device))

    def restore(self, device: Device, saved: Any) -> None:
        replace_messages(device, list(saved or []))


def state(device: Device) -> list[tuple]:
    """What the contract compares before set-up and after tear-down: every message's
    address, body, type and date (ids aside)."""
    return sorted((m["address"], m["body"], m["type"], m["date"]) for m in read_messages(device))


# --- solution steps ----------------------------------------------------------------------------


def open_app() -> OpenApp:
    return OpenApp(app="Simple SMS Messenger", package=PKG)


def titled(text: str) -> Target:
    """A thread headed with `text` (a contact's name, or the number)."""
    return Target(rid="toolbar_title", text=text)


def field(rid: str) -> Target:
    return Target(rid=rid, cls="EditText")


def open_thread(who: str) -> Tap:
    """From the conversation list: the thread shown as `who`."""
    return Tap(screen=MAIN, target=Target(text=who))


def start_conversation(to: str, pick: str | None = None, done: Any = None) -> list[Step]:
    """FAB > type `to` in the recipient field > the suggestion `pick` (a contact) or OK."""
    last = (Tap(screen=NEW, target=Target(text=pick, cls="TextView"), done=done) if pick is not None
            else Tap(screen=NEW, target=Target(desc="Confirm"), done=done))
    return [Tap(screen=MAIN, target=Target(desc=START), done=done),
            TypeText(screen=NEW, target=field("new_conversation_address"), text=to),
            last]


def type_and_send(text: str, who: str, done: Any) -> list[Step]:
    """In the thread with `who`: type `text` (done when the field holds it), tap Send (`done`)."""
    here = titled(who)
    return [TypeText(screen=THREAD, target=field("thread_type_message"), text=text, requires=here),
            Tap(screen=THREAD, target=Target(desc="Send"), requires=here, done=done)]
