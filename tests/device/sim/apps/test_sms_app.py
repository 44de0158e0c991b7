"""Simple SMS Messenger on the simulated phone: the telephony provider as the shell and a
pulled mmssms.db see it, the screens driven by taps and typing, and the SMS checks.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.apps import sms
from antrap_gym.tasks.checks import SmsResent, SmsSent, parse_rows
from tests.screen import find, long_press, need, tap

PKG = "com.simplemobiletools.smsmessenger"
DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"
NUMBER = "+15550001111"


def inbox(dev: SimDevice, address: str, body: str, date: int | None = 1_697_380_000_000) -> None:
    """A received text; without a date the provider dates it by the device clock."""
    when = f" --bind date:l:{date}" if date is not None else ""
    res = dev.shell(f"content insert --uri content://sms/inbox --bind address:s:{address}"
                    f" --bind 'body:s:{body}'{when}")
    assert res.exit_code == 0, res.stderr


def set_field(dev: SimDevice, rid: str, text: str) -> None:
    """Replace what the text field with this resource id holds by `text`."""
    dev.enter_text(text, at=need(dev, rid=rid, cls="EditText").center, clear=True, submit=False)


def sent(dev: SimDevice) -> list[dict[str, str]]:
    out = dev.shell("content query --uri content://sms/sent --projection address:body:date").stdout
    return parse_rows(out, ["address", "body", "date"])


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


# --- the provider ---------------------------------------------------------------------------


def test_inbox_insert_is_filed_in_a_thread_and_printed_as_android_does(dev):
    inbox(dev, NUMBER, "Hi, are you there?")
    inbox(dev, NUMBER, "Hello again", date=1_697_380_060_000)
    inbox(dev, "+15559998888", "Other", date=None)
    out = dev.shell("content query --uri content://sms/inbox --projection address:body:date").stdout
    assert out.splitlines()[0] == f"Row: 0 address=+15559998888, body=Other, date={dev.phone.clock_ms}"
    assert "Row: 2 address=+15550001111, body=Hi, are you there?, date=1697380000000" in out
    rows = dev.shell(f"sqlite3 {DB} 'SELECT thread_id, type, read FROM sms ORDER BY _id'").stdout
    assert rows.split() == ["1|1|0", "1|1|0", "2|1|0"]
    conv = dev.shell("content query --uri content://sms/conversations"
                     " --projection thread_id:msg_count:snippet").stdout
    assert "thread_id=1, msg_count=2, snippet=Hello again" in conv
    assert dev.shell("content query --uri content://sms/sent").stdout == "No result found.\n"


def test_pulled_database_has_aosps_sms_columns(dev, tmp_path):
    inbox(dev, NUMBER, "Ping")
    path = tmp_path / "mmssms.db"
    path.write_bytes(dev.pull(DB))
    db = sqlite3.connect(path)
    cols = [r[1] for r in db.execute("PRAGMA table_info(sms)")]
    assert cols == ["_id", "thread_id", "address", "person", "date", "date_sent", "protocol", "read",
                    "status", "type", "reply_path_present", "subject", "body", "service_center",
                    "locked", "sub_id", "error_code", "creator", "seen"]
    assert db.execute("SELECT address, body, type FROM sms").fetchall() == [(NUMBER, "Ping", 1)]
    assert db.execute("SELECT c.address FROM threads t JOIN canonical_addresses c"
                      " ON c._id = t.recipient_ids").fetchall() == [(NUMBER,)]


def test_deleting_a_threads_last_message_drops_the_thread(dev):
    inbox(dev, NUMBER, "Ping")
    assert dev.shell("content delete --uri content://sms").exit_code == 0
    assert dev.shell(f"sqlite3 {DB} 'SELECT COUNT(*) FROM threads'").stdout.strip() == "0"


def test_bad_binding_is_an_error_not_a_crash(dev):
    res = dev.shell("content insert --uri content://sms/inbox --bind nosuchcolumn:s:x")
    assert res.exit_code != 0 and "Error" in res.stderr


# --- the screens ----------------------------------------------------------------------------


def test_conversation_list_shows_numbers_and_contact_names(dev):
    dev.launch(PKG)
    assert find(dev, text="No stored conversations have been found") is not None
    ct.seed_contacts(dev, [["Ada Lovelace", "+1 555-000-1111", "", False]])
    inbox(dev, NUMBER, "From Ada")
    inbox(dev, "+15552223333", "From a stranger")
    rows = [e.text for e in dev.ui_elements() if e.text in ("Ada Lovelace", "+15552223333")]
    assert rows == ["+15552223333", "Ada Lovelace"]  # newest first
    assert find(dev, text="From Ada") is not None


def test_reply_in_a_thread_writes_a_sent_message_at_the_device_time(dev, tmp_path):
    inbox(dev, NUMBER, "Are you coming?")
    dev.launch(PKG)
    tap(dev, text=NUMBER)
    assert find(dev, rid="toolbar_title", text=NUMBER) is not None
    bubble = find(dev, text="Are you coming?", rid="thread_message_body")
    assert bubble is not None and bubble.bbox_pixels.x_min < 100  # incoming: at the left
    set_field(dev, "thread_type_message", "On my way")
    tap(dev, desc="Send")
    mine = find(dev, text="On my way", rid="thread_message_body")
    assert mine is not None and mine.bbox_pixels.x_max > 980  # sent: at the right
    assert find(dev, rid="thread_type_message").text in (None, "")
    rows = sent(dev)
    assert [(r["address"], r["body"]) for r in rows] == [(NUMBER, "On my way")]
    assert abs(int(rows[0]["date"]) - dev.phone.clock_ms) < 60_000
    assert dev.shell(f"sqlite3 {DB} 'SELECT read FROM sms WHERE type = 1'").stdout.strip() == "1"
    path = tmp_path / "m.db"
    path.write_bytes(dev.pull(DB))
    assert sqlite3.connect(path).execute("SELECT body FROM sms WHERE type = 2").fetchall() == [
        ("On my way",)]


def test_empty_message_is_not_sent(dev):
    dev.shell(f"am start -n {PKG}/.activities.ThreadActivity")
    tap(dev, desc="Send")
    assert sent(dev) == []


def test_new_conversation_with_a_contact_suggestion(dev):
    ct.seed_contacts(dev, [["Ada Lovelace", "+15550001111", "", False],
                           ["Bruno Mars", "+15550002222", "", False]])
    dev.launch(PKG)
    tap(dev, desc="Start a conversation")
    set_field(dev, "new_conversation_address", "brun")
    assert find(dev, text="Ada Lovelace") is None
    tap(dev, text="Bruno Mars", cls="TextView")
    assert find(dev, rid="toolbar_title", text="Bruno Mars") is not None
    set_field(dev, "thread_type_message", "Hi Bruno")
    tap(dev, desc="Send")
    assert [(r["address"], r["body"]) for r in sent(dev)] == [("+15550002222", "Hi Bruno")]


def test_new_conversation_refuses_what_is_not_a_number(dev):
    dev.launch(PKG)
    tap(dev, desc="Start a conversation")
    set_field(dev, "new_conversation_address", "nobody")
    tap(dev, desc="Confirm")
    assert dev.foreground()[1].endswith("NewConversationActivity")
    set_field(dev, "new_conversation_address", "+1 555 000 4444")
    tap(dev, desc="Confirm")
    assert find(dev, rid="toolbar_title", text="+1 555 000 4444") is not None


def test_long_press_copy_resend_and_delete(dev):
    dev.shell(f"content insert --uri content://sms/sent --bind address:s:{NUMBER}"
              " --bind 'body:s:See you at 6' --bind date:l:1697383000000")
    dev.launch(PKG)
    tap(dev, text=NUMBER)
    long_press(dev, text="See you at 6", rid="thread_message_body")
    tap(dev, text="Copy")
    assert dev.shell("am broadcast -a clipper.get").stdout.strip().endswith('data="See you at 6"')
    long_press(dev, text="See you at 6", rid="thread_message_body")
    tap(dev, text="Resend")
    assert [r["body"] for r in sent(dev)] == ["See you at 6", "See you at 6"]
    long_press(dev, text="See you at 6", rid="thread_message_body")
    tap(dev, text="Delete")
    tap(dev, text="Delete", cls="Button")  # the confirmation
    assert len(sent(dev)) == 1


# --- checks and draws -----------------------------------------------------------------------


def _send_from_app(dev: SimDevice, number: str, body: str) -> None:
    dev.shell(f"am force-stop {PKG}")
    dev.launch(PKG)
    tap(dev, desc="Start a conversation")
    set_field(dev, "new_conversation_address", number)
    tap(dev, desc="Confirm")
    set_field(dev, "thread_type_message", body)
    tap(dev, desc="Send")


def test_sms_sent_wants_number_body_recent_date_and_the_app_in_front(dev):
    check = SmsSent(NUMBER, "Don't forget the milk.")
    assert check(dev) == 0.0
    _send_from_app(dev, "+1 555-000-1111", "dont forget the milk.")
    assert check(dev) == 1.0  # spaces and dashes aside; the body fuzzy
    assert SmsSent("+15550001112", "Don't forget the milk.")(dev) == 0.0
    assert SmsSent(NUMBER, "Something else entirely")(dev) == 0.0
    dev.key("KEYCODE_HOME")
    assert check(dev) == 0.0


def test_sms_sent_ignores_a_message_older_than_five_minutes(dev):
    old = dev.phone.clock_ms - 6 * 60_000
    dev.shell(f"content insert --uri content://sms/sent --bind address:s:{NUMBER}"
              f" --bind body:s:Hello --bind date:l:{old}")
    dev.launch(PKG)
    assert SmsSent(NUMBER, "Hello")(dev) == 0.0
    assert SmsSent(NUMBER, "Hello", minutes=10)(dev) == 1.0


def test_sms_resent_wants_exactly_one_copy_of_the_earlier_message(dev):
    seeded = [[NUMBER, "The report is ready.", 2, 3], [NUMBER, sms.GLITCH, 1, 1]]
    sms.replace_messages(dev, seeded, dev.phone.clock_ms)
    check = SmsResent()
    check.prepare(dev)
    assert check(dev) == 0.0
    _send_from_app(dev, NUMBER, "Something new")
    assert check(dev) == 0.0  # one more, but not the same message
    sms.replace_messages(dev, seeded, dev.phone.clock_ms)
    check.prepare(dev)
    _send_from_app(dev, "+1 555 000 1111", "The report is ready")
    assert check(dev) == 1.0
    _send_from_app(dev, NUMBER, "The report is ready.")
    assert check(dev) == 0.0  # two more


def test_seed_messages_restores_what_was_there(dev):
    inbox(dev, "+15557770000", "Keep me")
    before = sms.state(dev)
    recipe = sms.SeedMessages([[NUMBER, "Seeded", 1, 2]])
    recipe.apply(dev)
    recipe.apply(dev)
    assert [(m["address"], m["body"]) for m in sms.read_messages(dev)] == [(NUMBER, "Seeded")]
    recipe.undo(dev)
    assert sms.state(dev) == before


def test_random_number_is_plus_one_and_ten_digits_from_the_seed():
    a = sms.random_number(np.random.default_rng(3))
    assert a == sms.random_number(np.random.default_rng(3))
    assert a.startswith("+1") and len(a) == 12 and a[1:].isdigit()


def test_the_paste_toolbar_of_a_field_low_on_screen_sits_above_the_keyboard(dev):
    """A long-press on the message field with the keyboard down brings the keyboard up and
    the field with it; the Paste toolbar is drawn where the field is then (not under the
    keyboard, where the field was), and tapping it pastes."""
    inbox(dev, NUMBER, "Send me the code")
    dev.shell("am broadcast -a clipper.set -e text 'K-2231'")
    dev.launch(PKG)
    tap(dev, text=NUMBER)
    if dev.phone.wm.ime_shown:
        dev.key("KEYCODE_BACK")  # the keyboard down
    assert not dev.phone.wm.ime_shown
    low = find(dev, rid="thread_type_message").bbox_pixels.y_min
    long_press(dev, rid="thread_type_message")
    paste = find(dev, text="Paste")
    assert paste is not None and paste.bbox_pixels.y_max < low  # above the field, which rose
    tap(dev, text="Paste")  # lands on the toolbar, not on the keyboard drawn over the old spot
    assert find(dev, rid="thread_type_message").text == "K-2231"
