"""Templates in Simple SMS Messenger (`com.simplemobiletools.smsmessenger`), as data:
AndroidWorld's (task_evals/single/sms.py), AnTrap's (sms_extras.py) and AndroidWorld's
Markor + SMS composite (task_evals/composite/markor_sms.py), under their class names,
goal wording and complexity.

Set-up empties the SMS store and files the variant's texts through `content insert`
(tasks/apps/sms.py). The checks are AndroidWorld's: a message in `content://sms/sent`
to the number (spaces and dashes aside), its body a fuzzy match (ratio >= 0.9), dated
within five minutes of the device clock, with the app in front (`SmsSent`); the resend
task wants exactly one more sent message, a copy of the one sent before (`SmsResent`).
"""

from __future__ import annotations

from functools import partial

from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.apps import markor as mk
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.apps import sms
from antrap_gym.tasks.apps.sms import MAIN, THREAD, THREAD_MENU
from antrap_gym.tasks.binding import DONE, F, P
from antrap_gym.tasks.checks import (
    ElementShows,
    Eq,
    FileContent,
    FileExists,
    Holds,
    MeanOf,
    SmsResent,
    SmsSent,
)
from antrap_gym.tasks.steps import LongPress, Tap, Target
from antrap_gym.tasks.template import template

aw = partial(template, apps=(sms.PKG,), source="AndroidWorld", kind="action", complexity=1.2)
antrap = partial(template, apps=(sms.PKG,), source="AnTrap", kind="action", complexity=1.2)
SENT = SmsSent("{number}", "{message}")
EMPTY = sms.SeedMessages([])
WEAK = (" The reference's fuzzy match (0.9) lets a near copy pass (a dropped character or two);"
        " an untouched phone has nothing sent, so it fails.")


def _to_number(message: str = "{message}") -> list:
    """Open the app, start a conversation with the typed number, type the text, Send."""
    return [sms.open_app(), *sms.start_conversation("{number}", done=DONE),
            *sms.type_and_send(message, "{number}", DONE)]


# === AndroidWorld ============================================================================

SimpleSmsSend = aw(
    id="SimpleSmsSend", split="train", family="SimpleSmsSend",
    goal="Send a text message using Simple SMS Messenger to {number} with message: {message}",
    params=sms.send(), setup=[EMPTY], check=SENT, solution=_to_number(),
    doc="A random +1 number and one sentence; the store starts empty, as the reference clears "
        "the sms and threads tables." + WEAK)


def _reply(rng) -> dict:
    """1..5 texts from random numbers, the one from `number` at a random place among them
    (the reference: a coin flip before each, else last)."""
    p = sms.send()(rng)
    texts: list = []
    ours = False
    for _ in range(int(rng.integers(1, 6))):
        if not ours and rng.random() < 0.5:
            texts.append([p["number"], sms.one_of(rng, sms.MESSAGES), 1])
            ours = True
        texts.append([sms.random_number(rng), sms.one_of(rng, sms.MESSAGES), 1])
    if not ours:
        texts.append([p["number"], sms.one_of(rng, sms.MESSAGES), 1])
    n = len(texts)
    return {**p, "texts": [[a, b, k, 2 * (n - i)] for i, (a, b, k) in enumerate(texts)]}


REPLY = [sms.open_app(), sms.open_thread("{number}"), *sms.type_and_send("{message}", "{number}", DONE)]

SimpleSmsReply = aw(
    id="SimpleSmsReply", split="test", family="SimpleSmsReply",
    goal="Reply to {number} with message: {message} in Simple SMS Messenger",
    params=_reply, setup=[sms.SeedMessages(P("texts"))], check=SENT, solution=REPLY,
    doc="1-5 texts from random numbers, one thread from {number} among them." + WEAK)


def _most_recent(rng) -> dict:
    """0..5 earlier texts from random numbers, then the newest from `number`; none of them
    is the message to send (as the reference's non-goal messages)."""
    p = sms.send()(rng)
    k = int(rng.integers(0, 6))
    texts = [[sms.random_number(rng), sms.other_message(rng, p["message"]), 1, 3 * (k - i) + 3]
             for i in range(k)]
    texts.append([p["number"], sms.other_message(rng, p["message"]), 1, 1])
    return {**p, "texts": texts}


SimpleSmsReplyMostRecent = aw(
    id="SimpleSmsReplyMostRecent", split="test", family="SimpleSmsReply",
    goal="Reply to the most recent text message using Simple SMS Messenger with message: "
         "{message}",
    params=_most_recent, setup=[sms.SeedMessages(P("texts"))], check=SENT, solution=REPLY,
    doc="The newest incoming text is from {number}, a minute old; up to five older ones from "
        "other numbers. The conversation list shows it first." + WEAK)

#: the message field holds the clipboard's text (pasted already: do not paste twice)
_PASTED = Holds(ElementShows(({"class_name": "android.widget.EditText", "text": Eq("{message}")},)))
_HERE = sms.titled("{number}")

SimpleSmsSendClipboardContent = aw(
    id="SimpleSmsSendClipboardContent", split="train",
    goal="Send a message to {number} with the clipboard content in Simple SMS Messenger",
    params=sms.send(), setup=[EMPTY, st.SetClipboard("{message}")], check=SENT,
    solution=[sms.open_app(), *sms.start_conversation("{number}", done=DONE),
              # the keyboard up first, so the text toolbar opens over the field where it is then
              Tap(screen=THREAD, target=sms.field("thread_type_message"), requires=_HERE,
                  done=_PASTED),
              LongPress(screen=THREAD, target=sms.field("thread_type_message"), requires=_HERE,
                        done=_PASTED),
              Tap(screen=THREAD_MENU, target=Target(text="Paste"), done=_PASTED),
              Tap(screen=THREAD, target=Target(desc="Send"), requires=_HERE, done=DONE)],
    doc="Clipper's clipboard holds the message (`am broadcast -a clipper.set`); the oracle "
        "long-presses the message field and pastes it." + WEAK)


def _received_address(rng) -> dict:
    name1 = sms.random_name(rng)
    return {"name1": name1, "number": sms.random_number(rng),
            "name2": sms.random_name(rng, avoid=name1), "number2": sms.random_number(rng),
            "message": sms.one_of(rng, sms.ADDRESSES)}


SimpleSmsSendReceivedAddress = aw(
    id="SimpleSmsSendReceivedAddress", split="train", complexity=1.8,
    goal="Text the address of the event to {name1} that {name2} just sent me in Simple SMS "
         "Messenger",
    params=_received_address,
    setup=[ct.SeedContacts(F(lambda p: [[p["name1"], p["number"], "", False],
                                        [p["name2"], p["number2"], "", False]])),
           sms.SeedMessages(F(lambda p: [[p["number2"], p["message"], 1, 1]]))],
    check=SENT,
    solution=[sms.open_app(), *sms.start_conversation("{name1}", pick="{name1}", done=DONE),
              *sms.type_and_send("{message}", "{name1}", DONE)],
    doc="Two contacts; {name2} texted a street address a minute ago; it must go to {name1}'s "
        "number. The catalog gives complexity 1.8 (AndroidWorld's class says 2)." + WEAK)


def _resend(rng) -> dict:
    return {"name": sms.random_name(rng), "number": sms.random_number(rng),
            "message": sms.one_of(rng, sms.MESSAGES)}


SimpleSmsResend = aw(
    id="SimpleSmsResend", split="test",
    goal="Resend the message I just sent to {name} in Simple SMS Messenger",
    params=_resend,
    setup=[ct.SeedContacts(F(lambda p: [[p["name"], p["number"], "", False]])),
           sms.SeedMessages(F(lambda p: [[p["number"], p["message"], 2, 2],
                                         [p["number"], sms.GLITCH, 1, 1]]))],
    check=SmsResent(),
    solution=[sms.open_app(), sms.open_thread("{name}"),
              LongPress(screen=THREAD, target=Target(rid="thread_message_body", text="{message}"),
                        requires=sms.titled("{name}"), done=DONE),
              Tap(screen=THREAD_MENU, target=Target(text="Resend"), done=DONE)],
    doc="{name} is a contact; the message went out two minutes ago and {name} asked for it "
        "again. As the reference: exactly one message more in the sent box, with the address and "
        "(fuzzy) body of the earlier one; the app need not be in front.")


# === AnTrap (sms_extras.py) ====================================================================

SimpleSmsSendGreeting = antrap(
    id="SimpleSmsSendGreeting", split="train", family="SimpleSmsSend",
    goal="Send a friendly greeting using Simple SMS Messenger to {number} with message: {message}",
    params=sms.send(sms.GREETINGS), setup=[EMPTY], check=SENT, solution=_to_number(),
    doc="One of six greetings." + WEAK)

SimpleSmsSendQuestion = antrap(
    id="SimpleSmsSendQuestion", split="train", family="SimpleSmsSend",
    goal="Send a text message using Simple SMS Messenger to {number} asking the following "
         "question: {message}",
    params=sms.send(sms.QUESTIONS), setup=[EMPTY], check=SENT, solution=_to_number(),
    doc="One of eight questions (each ends with '?')." + WEAK)

SimpleSmsSendUrgent = antrap(
    id="SimpleSmsSendUrgent", split="train", family="SimpleSmsSend",
    goal="Send an urgent text message using Simple SMS Messenger to {number}. The message must "
         "begin with the word URGENT followed by: {message}",
    params=sms.send(sms.URGENT), setup=[EMPTY], check=SENT, solution=_to_number(),
    doc="One of six bodies that already begin 'URGENT:', as AnTrap's; the goal's wording may "
        "read as asking for the prefix twice, and the fuzzy match (0.9) passes a doubled "
        "'URGENT: ' on the longer bodies, so both readings can pass.")

SimpleSmsSendThanks = antrap(
    id="SimpleSmsSendThanks", split="train", family="SimpleSmsSend",
    goal="Send a thank-you text message using Simple SMS Messenger to {number} with message: "
         "{message}",
    params=sms.send(sms.THANKS), setup=[EMPTY], check=SENT, solution=_to_number(),
    doc="One of six thank-you lines." + WEAK)


# === AndroidWorld: Markor + SMS ================================================================

NOTE = mk.note_path("{file_name}")
_NOTE_OK = FileContent(NOTE, "{text}", fuzzy=0.9)
_TEXT_SENT = SmsSent("{number}", "{text}")


def _note_and_sms(rng) -> dict:
    return {"file_name": mk.random_note_name(rng), "text": mk.sentence(rng),
            "number": sms.random_number(rng), "noise": mk.noise_notes(rng)}


MarkorCreateNoteAndSms = template(
    id="MarkorCreateNoteAndSms", apps=(mk.PKG, sms.PKG), source="AndroidWorld",
    kind="composite", split="train", complexity=1.8,
    goal="Create a new note in Markor named {file_name} with the following text: {text}. Share "
         "the entire content of the note with the phone number {number} via SMS using Simple SMS "
         "Messenger",
    params=_note_and_sms, setup=[mk.SeedFiles(F(lambda p: p["noise"])), EMPTY],
    check=MeanOf(_NOTE_OK, _TEXT_SENT),
    solution=[mk.open_app(),
              *mk.create_note_steps("{file_name}", "{text}", Holds(FileExists(NOTE)),
                                    Holds(_NOTE_OK)),
              sms.open_app(),
              *sms.start_conversation("{number}", done=Holds(_TEXT_SENT)),
              *sms.type_and_send("{text}", "{number}", DONE)],
    doc="Half a point each: the note holds the text (MarkorCreateNote's fuzzy 0.9 check) and "
        "the text went to the number by SMS (SimpleSMSSendSms's check, the app in front). "
        "Markor's folder holds a few noise notes; the SMS store starts empty.")

__all__ = [
    "MAIN", "MarkorCreateNoteAndSms", "SimpleSmsReply", "SimpleSmsReplyMostRecent",
    "SimpleSmsResend", "SimpleSmsSend", "SimpleSmsSendClipboardContent", "SimpleSmsSendGreeting",
    "SimpleSmsSendQuestion", "SimpleSmsSendReceivedAddress", "SimpleSmsSendThanks",
    "SimpleSmsSendUrgent",
]
