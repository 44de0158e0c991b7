"""The check library on a phone seen only through the Device protocol.

`ProtocolOnly` wraps a simulated phone and offers nothing but the protocol (shell,
elements, screenshots, snapshots), so a check that reached into the simulator's
internals would fail here; the same checks then run on a real emulator. State is
changed through the shell, as an agent's actions or a real phone would change it.
"""

from __future__ import annotations

import numpy as np
import pytest

from antrap_gym.device import Device
from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import contacts as ct
from antrap_gym.tasks.base import TaskError
from antrap_gym.tasks.binding import DONE, BindError, F, P, bind
from antrap_gym.tasks.checks import (
    Absent,
    Added,
    AllOf,
    AnswerIs,
    AnyItem,
    Changed,
    DirExists,
    ElementShows,
    Eq,
    FileContent,
    FileExists,
    Fuzzy,
    Holds,
    MeanOf,
    NotPrepared,
    OnlyItem,
    Phone,
    ProviderQuery,
    Removed,
    RowsExist,
    ScreenShows,
    SettingEquals,
    SettingIn,
    SettingNear,
    ShellValue,
    Text,
    TreeUnchanged,
    Unchanged,
    parse_rows,
    read_tree,
)
from antrap_gym.tasks.steps import Tap, Target

URI = "content://com.android.contacts"
ROSTER = [["Ada Lovelace", "+1 415-555-0101", "ada@example.com", False],
          ["Bruno Mars", "+1 212-555-0102", "", True],
          ["Chen Wei", "+1 617-555-0103", "chen.wei@example.com", False]]


class ProtocolOnly(Device):
    """A simulated phone behind the Device protocol and nothing else."""

    backend = "protocol-only"

    def __init__(self) -> None:
        self._inner = SimDevice()

    def shell(self, cmd, timeout=None):
        return self._inner.shell(cmd)

    def screenshot(self) -> np.ndarray:
        return self._inner.screenshot()

    def ui_elements(self):
        return self._inner.ui_elements()

    def ui_xml(self) -> str:
        return self._inner.ui_xml()

    @property
    def screen_size(self):
        return self._inner.screen_size

    def snapshot(self):
        return self._inner.snapshot()

    def restore(self, snap) -> None:
        self._inner.restore(snap)


@pytest.fixture
def phone() -> ProtocolOnly:
    return ProtocolOnly()


def sh(dev, cmd: str) -> str:
    res = dev.shell(cmd)
    assert res.exit_code == 0, (cmd, res.stderr)
    return res.stdout


def add_contact(dev, name: str, phone: str, starred: bool = False) -> str:
    sh(dev, f"content insert --uri {URI}/raw_contacts --bind starred:i:{int(starred)}")
    rid = parse_rows(sh(dev, f"content query --uri {URI}/raw_contacts --projection _id"),
                     ["_id"])[-1]["_id"]
    for mime, value in (("name", name), ("phone_v2", phone)):
        sh(dev, f"content insert --uri {URI}/data --bind raw_contact_id:i:{rid} "
                f"--bind mimetype:s:vnd.android.cursor.item/{mime} --bind 'data1:s:{value}'")
    return rid


def rid_of(dev, name: str) -> str:
    return next(p["id"] for p in ct.read_people(dev) if p["name"] == name)


# --- settings --------------------------------------------------------------------------------


def test_setting_checks_read_settings_get(phone):
    sh(phone, "settings put system screen_off_timeout 60000")
    assert SettingEquals("system", "screen_off_timeout", "60000")(phone) == 1.0
    assert SettingEquals("system", "screen_off_timeout", 60000)(phone) == 1.0
    assert SettingEquals("system", "screen_off_timeout", "6000")(phone) == 0.0
    assert SettingEquals("global", "no_such_key", "")(phone) == 0.0  # unset reads "null"
    sh(phone, "svc wifi disable")
    assert SettingIn("global", "wifi_on", ("1", "2"))(phone) == 0.0
    assert SettingIn("global", "wifi_on", ("1", "2"), inside=False)(phone) == 1.0
    with pytest.raises(ValueError, match="namespace"):
        SettingEquals("sytem", "screen_off_timeout", "1")


def test_setting_near_is_a_tolerance_around_a_scaled_value(phone):
    sh(phone, "settings put system screen_brightness 204")  # 80 %
    near = [SettingNear("system", "screen_brightness", t, tolerance=3)(phone) for t in (80, 77, 76, 83, 84)]
    assert near == [1.0, 1.0, 0.0, 1.0, 0.0]
    sh(phone, "settings put system screen_brightness bright")
    assert SettingNear("system", "screen_brightness", 80, tolerance=100)(phone) == 0.0


# --- content providers ------------------------------------------------------------------------


def test_parse_rows_reads_what_android_prints():
    out = ("Row: 0 _id=1, display_name=Lovelace, Ada, starred=NULL\n"
           "Row: 1 _id=2, display_name=Two\nlines, starred=1\n")
    rows = parse_rows(out, ["_id", "display_name", "starred"])
    assert rows == [{"_id": "1", "display_name": "Lovelace, Ada", "starred": ""},
                    {"_id": "2", "display_name": "Two\nlines", "starred": "1"}]
    assert parse_rows(out)[0] == {"_id": "1", "display_name": "Lovelace, Ada", "starred": ""}
    assert parse_rows("No result found.\n", ["_id"]) == []
    two = "Row: 0 _id=1, starred=0\nNo result found.\n"  # two queries joined with &&
    assert parse_rows(two, ["_id", "starred"]) == [{"_id": "1", "starred": "0"}]


def test_provider_query_reads_the_contacts_provider(phone):
    ct.seed_contacts(phone, ROSTER)
    rows = ProviderQuery(f"{URI}/contacts", ("_id", "display_name", "starred")).rows(phone)
    assert sorted((r["display_name"], r["starred"]) for r in rows) == [
        ("Ada Lovelace", "0"), ("Bruno Mars", "1"), ("Chen Wei", "0")]


# --- rows with integrity ----------------------------------------------------------------------


NEW = {"name": Text("zoe quinn"), "phones": AnyItem(Phone("305-555-0104"))}


def prepared(check, dev):
    ct.seed_contacts(dev, ROSTER)
    check.prepare(dev)
    return check


def test_added_wants_exactly_the_new_rows_and_nothing_else_changed(phone):
    check = prepared(Added(ct.PEOPLE_ROWS, (NEW,)), phone)
    assert check(phone) == 0.0
    add_contact(phone, "Zoe  Quinn", "+1 305-555-0104")
    assert check(phone) == 1.0
    add_contact(phone, "Extra Person", "+1 212-555-0999")  # one row too many
    assert check(phone) == 0.0


def test_added_fails_when_an_earlier_row_changed(phone):
    check = prepared(Added(ct.PEOPLE_ROWS, (NEW,)), phone)
    add_contact(phone, "Zoe Quinn", "+1 305-555-0104")
    sh(phone, f"content update --uri {URI}/contacts --bind starred:i:1 --where "
              f"'_id={rid_of(phone, 'Ada Lovelace')}'")
    assert check(phone) == 0.0


def test_added_fails_on_a_wrong_value_and_unprepared(phone):
    check = prepared(Added(ct.PEOPLE_ROWS, (NEW,)), phone)
    add_contact(phone, "Zoe Quinn", "+1 305-555-0105")
    assert check(phone) == 0.0
    with pytest.raises(NotPrepared):
        Added(ct.PEOPLE_ROWS, (NEW,))(phone)


def test_removed_wants_the_target_gone_and_the_rest_untouched(phone):
    check = prepared(Removed(ct.PEOPLE_ROWS, {"name": Text("Bruno Mars")}), phone)
    assert check(phone) == 0.0
    sh(phone, f"content delete --uri {URI}/raw_contacts --where '_id={rid_of(phone, 'Ada Lovelace')}'")
    assert check(phone) == 0.0  # the wrong one
    sh(phone, f"content delete --uri {URI}/raw_contacts --where '_id={rid_of(phone, 'Bruno Mars')}'")
    assert check(phone) == 0.0  # and one too many


def test_removed_passes_once_and_fails_on_anything_added(phone):
    check = prepared(Removed(ct.PEOPLE_ROWS, {"name": Text("Bruno Mars")}), phone)
    sh(phone, f"content delete --uri {URI}/raw_contacts --where '_id={rid_of(phone, 'Bruno Mars')}'")
    assert check(phone) == 1.0
    add_contact(phone, "Bruno Mars", "+1 212-555-0102", starred=True)  # deleted, made again
    assert check(phone) == 0.0
    assert prepared(Removed(ct.PEOPLE_ROWS, {"name": Text("Nobody")}), SimDevice())(phone) == 0.0


def test_changed_wants_the_target_changed_as_told_and_nothing_else(phone):
    check = prepared(Changed(ct.PEOPLE_ROWS, {"name": Text("Chen Wei")}, {"starred": Eq(True)}), phone)
    assert check(phone) == 0.0
    chen = rid_of(phone, "Chen Wei")
    sh(phone, f"content update --uri {URI}/contacts --bind starred:i:1 --where '_id={chen}'")
    assert check(phone) == 1.0
    sh(phone, f"content update --uri {URI}/data --bind 'data1:s:+1 617-555-0199' --where "
              f"\"raw_contact_id={chen} AND mimetype='vnd.android.cursor.item/phone_v2'\"")
    assert check(phone) == 0.0  # the target's other columns must stay


def test_changed_fails_when_another_row_changed_too(phone):
    check = prepared(Changed(ct.PEOPLE_ROWS, {"name": Text("Chen Wei")}, {"starred": Eq(True)}), phone)
    for name in ("Chen Wei", "Ada Lovelace"):
        sh(phone, f"content update --uri {URI}/contacts --bind starred:i:1 --where "
                  f"'_id={rid_of(phone, name)}'")
    assert check(phone) == 0.0


def test_unchanged_and_rows_exist(phone):
    check = prepared(Unchanged(ct.PEOPLE_ROWS), phone)
    assert check(phone) == 1.0
    assert RowsExist(ct.PEOPLE_ROWS, ({"name": Text("ada lovelace")}, {"starred": Eq(True)}))(phone) == 1.0
    assert RowsExist(ct.PEOPLE_ROWS, ({"starred": Eq(True)}, {"starred": Eq(True)}))(phone) == 0.0
    add_contact(phone, "Zoe Quinn", "+1 305-555-0104")
    assert check(phone) == 0.0


def test_matchers():
    assert Text(" Ada  LOVELACE ")("ada lovelace") and not Text("Ada")("Ada Lovelace")
    assert Phone("(415) 555-0101")("+1 415-555-0101") and not Phone("555-0101")("+1 415-555-0101")
    assert AnyItem(Phone("415-555-0101"))(["+1 212-555-0102", "+1 415-555-0101"])
    assert not OnlyItem(Phone("415-555-0101"))(["+1 212-555-0102", "+1 415-555-0101"])
    assert Eq("1")(1) and Eq(1)("1") and not Eq(True)(False)
    assert Fuzzy("Buy milk and eggs", 0.9)("buy milk and egg") and not Fuzzy("Buy milk", 0.9)("Buy silk!!")
    with pytest.raises(ValueError):
        Fuzzy("x", 1.5)


# --- files ------------------------------------------------------------------------------------


NOTE = "/sdcard/Documents/Markor/note.md"


def test_file_content_is_exact_unless_told(phone):
    sh(phone, f"printf '%s\\r\\n' 'Buy milk.' > {NOTE}")
    assert FileContent(NOTE, "Buy milk.")(phone) == 1.0  # \r and the trailing newline forgiven
    assert FileContent(NOTE, "buy milk.")(phone) == 0.0
    assert FileContent(NOTE, "Buy milk")(phone) == 0.0
    assert FileContent(NOTE, "buy milk", fuzzy=0.9)(phone) == 1.0
    assert FileContent("/sdcard/Documents/Markor", "")(phone) == 0.0  # a folder
    assert FileContent("/sdcard/nothing.md", "")(phone) == 0.0
    with pytest.raises(ValueError):
        FileContent(NOTE, "x", fuzzy=0.0)


def test_fuzzy_at_0_9_passes_an_untouched_note_for_a_wrap_task(phone):
    """The reference default: "[text]" against the note as it was (AnTrap's
    MarkorWrapInBrackets) passes fuzzily, fails exactly."""
    text = "Call the dentist on Monday at 10am."
    sh(phone, f"printf '%s' '{text}' > {NOTE}")
    assert FileContent(NOTE, f"[{text}]", fuzzy=0.9)(phone) == 1.0
    assert FileContent(NOTE, f"[{text}]")(phone) == 0.0


def test_file_content_by_lines(phone):
    sh(phone, f"printf '%s' '  first\n\nsecond  \n' > {NOTE}")
    assert FileContent(NOTE, "first\nsecond", lines=True)(phone) == 1.0
    assert FileContent(NOTE, "second\nfirst", lines=True)(phone) == 0.0


def test_exists_checks(phone):
    sh(phone, f"mkdir -p /sdcard/Documents/Markor/Work && printf '%s' x > {NOTE}")
    assert [FileExists(NOTE)(phone), DirExists(NOTE)(phone), Absent(NOTE)(phone)] == [1.0, 0.0, 0.0]
    work = "/sdcard/Documents/Markor/Work"
    assert [FileExists(work)(phone), DirExists(work)(phone), Absent(work)(phone)] == [0.0, 1.0, 0.0]
    assert Absent("/sdcard/Documents/Markor/gone.md")(phone) == 1.0


def test_tree_unchanged_sees_every_file_byte_and_folder(phone):
    root = "/sdcard/Documents/Markor"
    sh(phone, f"mkdir -p {root}/Work && printf '%s' a > {root}/a.md && printf '%s' '' > {root}/Work/e.md"
              f" && echo AAEC/w== | base64 -d > {root}/bin.dat")
    assert read_tree(phone, root)[f"{root}/bin.dat"] == b"\x00\x01\x02\xff"
    check = TreeUnchanged(root, ignore=(f"{root}/a.md",))
    with pytest.raises(NotPrepared):
        check(phone)
    check.prepare(phone)
    assert check(phone) == 1.0
    sh(phone, f"printf '%s' changed > {root}/a.md")  # ignored
    assert check(phone) == 1.0
    for change in (f"echo AAEC/g== | base64 -d > {root}/bin.dat", f"mkdir {root}/New",
                   f"rm {root}/Work/e.md"):
        fresh = ProtocolOnly()
        sh(fresh, f"mkdir -p {root}/Work && printf '%s' '' > {root}/Work/e.md"
                  f" && echo AAEC/w== | base64 -d > {root}/bin.dat")
        check.prepare(fresh)
        sh(fresh, change)
        assert check(fresh) == 0.0, change


# --- answers, the screen, composites --------------------------------------------------------------


def test_answer_is_graded_by_kind_and_names_no_distractor(phone):
    check = AnswerIs("Ada Lovelace", distractors=("Ada Lovelace", "Bruno Mars"))
    assert check.others() == ["Bruno Mars"]
    assert check(phone, "It is Ada Lovelace.") == 1.0
    assert check(phone, "Ada Lovelace or Bruno Mars") == 0.0
    assert check(phone, None) == check(phone, "") == check(phone, "I don't know") == 0.0
    assert AnswerIs("60000", kind="number")(phone, "60,000") == 1.0
    assert AnswerIs("1 minute", kind="duration")(phone, "60 seconds") == 1.0
    with pytest.raises(ValueError):
        AnswerIs("x", kind="colour")


def test_an_answer_the_phone_knows_is_read_at_setup_and_at_grading():
    dev = SimDevice()
    check = AnswerIs(ShellValue("getprop ro.build.display.id"))
    with pytest.raises(TaskError, match="set up"):
        check.value()
    check.prepare(ProtocolOnly())
    seen = check.value()
    assert seen and check(dev, seen) == 1.0
    dev.phone.prop_overrides = {"ro.build.display.id": "UQ1A.240105.004"}  # another phone
    assert check(dev, seen) == 0.0 and check(dev, "UQ1A.240105.004") == 1.0
    with pytest.raises(TaskError, match="printed nothing"):
        AnswerIs(ShellValue("getprop no.such.prop")).prepare(dev)


def test_screen_shows_reads_the_elements(phone):
    settings = ScreenShows("Network & internet")
    assert settings(phone) == 0.0
    phone.launch("com.android.settings")
    assert settings(phone) == 1.0
    assert ScreenShows("network", contains=True)(phone) == 1.0
    assert ScreenShows("Network & internet", package="com.google.android.contacts")(phone) == 0.0


def test_element_shows_matches_each_pattern_to_its_own_element(phone):
    """Fields of elements, as AndroidWorld reads an unsaved form: hint and text together,
    each pattern a different element; unknown fields are refused at declaration."""
    phone.shell("am start -n com.google.android.contacts/"
                "com.google.android.apps.contacts.editor.ContactEditorActivity")
    empty_form = ElementShows(({"hint_text": "First name", "class_name": "android.widget.EditText"},
                               {"text": "Mobile", "content_description": "Mobile Phone"}))
    assert empty_form(phone) == 1.0
    assert ElementShows(({"hint_text": "First name", "text": Fuzzy("Ada", 0.9)},))(phone) == 0.0
    assert ElementShows(({"text": "Mobile"}, {"text": "Mobile"}))(phone) == 0.0  # one element
    assert ElementShows(({"hint_text": "Phone", "text": Phone("+1 415 555 0101")},))(phone) == 0.0
    with pytest.raises(ValueError, match="fields"):
        ElementShows(({"colour": "red"},))
    rid = "com.android.settings:id/search_action_bar"  # the id as uiautomator dumps it
    phone.launch("com.android.settings")
    assert ElementShows(({"resource_id": rid},))(phone) == 1.0
    assert ElementShows(({"resource_id": Eq(rid), "text": "Network & internet"},))(phone) == 0.0


def test_composites(phone):
    yes = SettingEquals("system", "screen_off_timeout", "30000")
    no = SettingEquals("system", "screen_off_timeout", "1")
    assert MeanOf(yes, no)(phone) == 0.5 and MeanOf(yes, yes)(phone) == 1.0
    assert AllOf(yes, no)(phone) == 0.0 and AllOf(yes, yes)(phone) == 1.0
    nested = AllOf(yes, MeanOf(TreeUnchanged("/sdcard/Download")))
    nested.prepare(phone)  # reaches the integrity check inside
    assert nested(phone) == 1.0
    assert Holds(yes)(phone) is True and Holds(MeanOf(yes, no))(phone) is False


# --- binding a declaration to a variant -------------------------------------------------------------


def test_bind_formats_strings_and_resolves_references_not_values():
    ns = {"name": "Ada {braces}", "n": 3, "notes": ["a", "b"]}
    step = Tap(screen="X|Delete {name}?", target=Target(text="{name}"), done=DONE)
    done = Holds(SettingEquals("system", "k", "1"))
    got = bind(step, ns, done=done)
    assert got.screen == "X|Delete Ada {braces}?" and got.target.text == "Ada {braces}"
    assert got.done is done
    assert bind([P("notes"), F(lambda p: p["n"] + 1), "{n}", {"{name}": P("n")}], ns) == [
        ["a", "b"], 4, "3", {"Ada {braces}": 3}]
    assert bind(AllOf(SettingEquals("system", "{name}", "{n}")), ns).checks[0].value == "3"
    with pytest.raises(BindError):
        bind("{missing}", ns)
    with pytest.raises(ValueError):
        bind(DONE, ns)


def test_answer_items_grade_androidworld_list_answers():
    """AndroidWorld's list answers: comma-separated, as many items as values, any order."""
    phone = SimDevice()
    titles = AnswerIs(["Quarterly planning", "Dentist"], items=True)
    assert titles(phone, "dentist, Quarterly Planning") == 1.0
    assert titles(phone, "Quarterly planing, Dentist") == 1.0  # fuzzy (ratio >= 0.9), as there
    assert titles(phone, "Quarterly planning") == 0.0  # one missing
    assert titles(phone, "Quarterly planning, Dentist, Gym") == 0.0  # one too many
    assert titles(phone, "Dentist, Dentist") == 0.0  # one to one
    assert titles.value() == "Quarterly planning, Dentist"
    far = AnswerIs(["42.5"], kind="number", items=True, tolerance=10)
    assert far(phone, "50 km") == 1.0 and far(phone, "53") == 0.0
    assert AnswerIs(["3"], kind="number", items=True)(phone, "3.0") == 1.0
    when = AnswerIs(["October 22 2023 14:30"], kind="datetime", items=True)
    assert when(phone, "October 22, 2023 14:30") == 1.0
    assert when(phone, "October 22 2023 2:30 PM") == 1.0
    assert when(phone, "October 22 2023 15:30") == 0.0
    assert AnswerIs(["October 22 2023"], kind="date", items=True)(phone, "October 22, 2023") == 1.0
